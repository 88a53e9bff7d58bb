import type { GrammarSpec } from "../language_spec.ts";
import { SOLIDITY_COMPLEXITY } from "../complexity/systems.ts";

/**
 * Solidity: `contract`, `abstract contract` and `library` are classes; `interface`, `struct`,
 * `enum`, `event`, custom `error` and user-defined value types (`type X is uint256`) are types.
 * Functions, modifiers, the `constructor` and `receive`/`fallback` are methods inside a contract,
 * functions at file level. `constant` variables (file level or state) are constants. Modifier
 * invocations on a function (`onlyOwner`, `onlyPositive(x)`) are its decorators and also calls
 * made by it (they run with its body: `decoratorsRunWithBody`), as are base-constructor invocations; `emit E()` and `revert E()` are calls of
 * the event or error. Imports: the path, with the imported names (`*` for `import * as X`).
 * Doc comments are NatSpec `///` and `/** *\/`.
 */
export const solidity: GrammarSpec = {
  id: "solidity",
  extensions: [".sol"],
  grammar: "solidity",
  definitions: `
(contract_declaration name: (identifier) @name body: (_) @body) @definition.class
(library_declaration name: (identifier) @name body: (_) @body) @definition.class
(interface_declaration name: (identifier) @name body: (_) @body) @definition.type
(struct_declaration name: (identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.type
(event_definition name: (identifier) @name) @definition.type
(error_declaration name: (identifier) @name) @definition.type
(user_defined_type_definition name: (identifier) @name) @definition.type
(function_definition name: (identifier) @name body: (_) @body) @definition.function
(function_definition name: (identifier) @name !body) @definition.function
(function_definition (modifier_invocation) @decorator) @definition.function
(modifier_definition name: (identifier) @name body: (_) @body) @definition.function
(constructor_definition "constructor" @name body: (_) @body) @definition.function
(fallback_receive_definition ["receive" "fallback"] @name body: (_) @body) @definition.function
(constant_variable_declaration name: (identifier) @name) @definition.constant
(state_variable_declaration "constant" name: (identifier) @name) @definition.constant
`,
  imports: `
(import_directive source: (string) @import.source) @import
(import_directive import_name: (identifier) @import.name source: (string) @import.source) @import
(import_directive "*" @import.name source: (string) @import.source) @import
`,
  decoratorsRunWithBody: true,
  calls: `
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (member_expression object: (_) @receiver property: (identifier) @name))
  @reference.call
(modifier_invocation . (identifier) @name) @reference.call
(emit_statement name: (identifier) @name) @reference.call
(emit_statement name: (member_expression object: (_) @receiver property: (identifier) @name))
  @reference.call
(revert_statement error: (identifier) @name) @reference.call
`,
  docComments: { nodeTypes: ["comment"], prefixes: ["///", "/**"] },
  resolver: "path",
  complexity: SOLIDITY_COMPLEXITY,
};
