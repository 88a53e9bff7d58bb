import type { GrammarSpec } from "../language_spec.ts";
import { ECMASCRIPT_SEMANTICS } from "../semantics/ecmascript.ts";
import { ECMASCRIPT_COMPLEXITY } from "../complexity/ecmascript.ts";
import {
  ECMASCRIPT_CALLS,
  ECMASCRIPT_DEFINITIONS,
  ECMASCRIPT_DOC_COMMENTS,
  ECMASCRIPT_IMPORTS,
  JAVASCRIPT_DEFINITIONS,
} from "./ecmascript_queries.ts";
import { css } from "./css.ts";
import { SCRIPT_REGION, STYLE_REGION_WITH_LANG } from "./html.ts";
import { scss } from "./scss.ts";
import { typescript } from "./typescript.ts";

/**
 * Svelte components: the `<script>` blocks (instance and `context="module"`, as one program) are
 * parsed as JavaScript, or with the TypeScript entry when a block says `lang="ts"`; the
 * `<style>` block as CSS (SCSS with `lang="scss"`). Symbols, imports and calls are those of the
 * JavaScript/TypeScript and CSS entries (`export let` props are not symbols). The markup is not
 * parsed for symbols. Imports resolve like JavaScript's.
 *
 * Grammar: `tree-sitter-svelte` (its own wasm, ABI 13) finds the blocks.
 */
export const svelte: GrammarSpec = {
  id: "svelte",
  extensions: [".svelte"],
  grammar: "javascript",
  definitions: ECMASCRIPT_DEFINITIONS + JAVASCRIPT_DEFINITIONS,
  imports: ECMASCRIPT_IMPORTS,
  calls: ECMASCRIPT_CALLS,
  docComments: ECMASCRIPT_DOC_COMMENTS,
  resolver: "javascript",
  regions: {
    grammar: "svelte",
    grammarModule: "tree-sitter-svelte/tree-sitter-svelte.wasm",
    query: `
${SCRIPT_REGION}
(script_element (start_tag (attribute (attribute_name) @_attribute
  [(quoted_attribute_value (attribute_value) @region.language) (attribute_value) @region.language]))
  (#eq? @_attribute "lang"))
`,
    variants: { ts: typescript },
  },
  embeds: [{ query: STYLE_REGION_WITH_LANG, language: css, variants: { scss } }],
  semantics: ECMASCRIPT_SEMANTICS,
  complexity: ECMASCRIPT_COMPLEXITY,
};
