import type { GrammarSpec } from "../language_spec.ts";

/**
 * Laravel Blade templates (`.blade.php`; EmranMR/tree-sitter-blade, built by us): what a template
 * defines for its layout, `@section('name')` (block or inline) and `@push('stack')`/`@prepend`,
 * → template, named without the quotes; `@extends('layouts.app')`, `@include('partials.nav')`
 * (and `@includeIf`, `@includeWhen`, `@each`, `@component`) are imports of the view they name,
 * kept external (a view name is not a path). The HTML around the directives and the PHP inside
 * `{{ }}` and `@php` are not read for symbols.
 */
export const blade: GrammarSpec = {
  id: "blade",
  extensions: [".blade.php"],
  grammar: "blade",
  grammarModule: "codemunch-grammars/tree-sitter-blade.wasm",
  nameTrim: /^\s*['"]|['"]\s*$/g,
  definitions: `
(section (directive_start) @_d . (bracket_start) . (parameter) @name
  (#match? @_d "^@section")) @definition.template
(inlineSection (directive) @_d . (bracket_start) . (parameter) @name) @definition.template
(stack (directive_start) @_d . (bracket_start) . (parameter) @name
  (#match? @_d "^@(push|prepend)")) @definition.template
`,
  imports: `
((directive) @import . (bracket_start) . (parameter) @import.source
  (#match? @import "^@(extends|include|includeIf|includeWhen|includeFirst|each|component)$"))
((directive_start) @import . (bracket_start) . (parameter) @import.source
  (#match? @import "^@(component|extends)$"))
`,
};
