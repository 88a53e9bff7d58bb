import type { GrammarSpec } from "../language_spec.ts";
import { PASCAL_COMPLEXITY } from "../complexity/functional.ts";

/**
 * Pascal and Delphi (Isopod/tree-sitter-pascal, built by us): classes, objects and interfaces →
 * class; records, enums and other `type` declarations → type; procedures, functions,
 * constructors and destructors → function (methods inside a class declaration, and
 * `TShape.Create` implementations qualified by their class, → method); `const` → constant; class
 * fields and properties → field. `uses` units are imports; `{ }` and `//` comments directly above
 * are docstrings.
 */
export const pascal: GrammarSpec = {
  id: "pascal",
  extensions: [".pas", ".pp", ".dpr", ".lpr", ".dpk", ".inc"],
  grammar: "pascal",
  grammarModule: "codemunch-grammars/tree-sitter-pascal.wasm",
  definitions: `
(declType name: (_) @name type: (declClass [(kClass) (kObject) (kInterface)])) @definition.class
(declType name: (_) @name type: (declClass (kRecord))) @definition.type
(declType name: (_) @name type: (type)) @definition.type
(interface (declProc name: (identifier) @name) @definition.function)
(declSection (declProc name: (identifier) @name) @definition.function)
(declClass (declProc name: (identifier) @name) @definition.function)
(defProc header: (declProc name: (identifier) @name) body: (_) @body) @definition.function
(defProc header: (declProc name: (genericDot lhs: (_) @scope rhs: (identifier) @name)) body: (_) @body) @definition.function
(declConst name: (identifier) @name) @definition.constant
(declField name: (identifier) @name) @definition.field
(declProp name: (identifier) @name) @definition.field
`,
  imports: `
(declUses (moduleName) @import.source) @import
`,
  calls: `
(exprCall entity: (identifier) @name) @reference.call
(exprCall entity: (exprDot lhs: (_) @receiver rhs: (identifier) @name)) @reference.call
(statement (identifier) @name) @reference.call
`,
  docComments: { nodeTypes: ["comment"] },
  complexity: PASCAL_COMPLEXITY,
};
