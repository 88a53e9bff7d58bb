import type { GrammarSpec } from "../language_spec.ts";
import { RUST_SEMANTICS } from "../semantics/scripting.ts";
import { RUST_COMPLEXITY } from "../complexity/systems.ts";

const _ITEMS: [string, string][] = [
  ["function_item", "function"],
  ["function_signature_item", "function"],
  ["struct_item", "type"],
  ["enum_item", "type"],
  ["union_item", "type"],
  ["trait_item", "type"],
  ["type_item", "type"],
  ["const_item", "constant"],
  ["static_item", "constant"],
];

/**
 * Rust: `fn` → function (method inside an `impl` or `trait`, qualified by the impl's type:
 * `Point.new`, parent the type when declared in the same file); struct, enum, union, trait and
 * `type` aliases → type; a struct's or union's named fields → field and an enum's variants →
 * constant, qualified by their type (`Point.x`, `State.Idle`); `const` and `static` → constant;
 * `macro_rules!` → function. `impl` blocks are containers, not symbols; `mod` blocks are not
 * qualified. Attributes (`#[derive(...)]`) are
 * decorators; doc comments are `///` and `/**` block comments above the item, across
 * attributes. Items inside the `{ }` body of an item-level macro invocation (`cfg_rt! { ... }`,
 * `pin_project! { ... }`) are read too (`macroBodies`).
 */
export const rust: GrammarSpec = {
  id: "rust",
  extensions: [".rs"],
  grammar: "rust",
  definitions: [
    ..._ITEMS.map(([node, kind]) =>
      `(${node} name: (_) @name) @definition.${kind}\n` +
      `((attribute_item)+ @decorator . (${node}) @definition.${kind})`
    ),
    "(function_item body: (block) @body) @definition.function",
    "([(struct_item body: (_) @body) (enum_item body: (_) @body) (union_item body: (_) @body)",
    "  (trait_item body: (_) @body)] @definition.type)",
    "(macro_definition name: (identifier) @name) @definition.function",
    "(field_declaration_list (field_declaration name: (field_identifier) @name) @definition.field)",
    "(enum_variant_list (enum_variant name: (identifier) @name) @definition.constant)",
    "(impl_item type: (type_identifier) @name) @container",
    "(impl_item type: (generic_type type: (type_identifier) @name)) @container",
    "(impl_item type: (scoped_type_identifier name: (type_identifier) @name)) @container",
    "(impl_item body: (_) @body) @container",
  ].join("\n"),
  imports: `
(use_declaration argument: [(scoped_identifier) (identifier) (crate) (self) (super)] @import.source) @import
(use_declaration argument: (use_as_clause path: (_) @import.source)) @import
(use_declaration argument: (scoped_use_list path: (_) @import.source
  list: (use_list [(identifier) @import.name (self) @import.name
    (use_as_clause path: (_) @import.name) (scoped_identifier) @import.name]))) @import
(use_declaration argument: (use_wildcard (_) @import.source)) @import
(mod_item name: (identifier) @import.source !body) @import
`,
  calls: `
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression value: (_) @receiver
  field: (field_identifier) @name)) @reference.call
(call_expression function: (scoped_identifier path: (_) @receiver
  name: (identifier) @name)) @reference.call
(macro_invocation macro: (identifier) @name) @reference.call
`,
  // Items declared inside item-level macro invocations (`cfg_rt! { pub fn spawn() }`,
  // `pin_project! { pub struct X { } }`): their `{ }` bodies are parsed again as Rust.
  macroBodies: `
(source_file (macro_invocation (token_tree "{") @region.inner))
(declaration_list (macro_invocation (token_tree "{") @region.inner))
`,
  docComments: {
    nodeTypes: ["line_comment", "block_comment"],
    prefixes: ["///", "/**"],
    skipTypes: ["attribute_item"],
    detachedPrefixes: ["///", "/**"],
  },
  resolver: "rust",
  semantics: RUST_SEMANTICS,
  complexity: RUST_COMPLEXITY,
};
