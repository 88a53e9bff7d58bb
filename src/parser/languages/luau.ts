import type { GrammarSpec } from "../language_spec.ts";
import { lua } from "./lua.ts";
import { LUAU_COMPLEXITY } from "../complexity/scripting.ts";

/**
 * Luau (Roblox's typed Lua; `tree-sitter-luau`'s own wasm): everything of Lua (its queries run
 * unchanged on this grammar, which extends tree-sitter-grammars' Lua), plus `type X = ...` and
 * `export type X = ...` → type. `require(script.Parent.X)` is an import of an instance path, kept
 * external.
 */
export const luau: GrammarSpec = {
  ...lua,
  id: "luau",
  extensions: [".luau"],
  grammar: "luau",
  grammarModule: "tree-sitter-luau/tree-sitter-luau.wasm",
  definitions: lua.definitions + `
(type_definition name: (identifier) @name) @definition.type
`,
  complexity: LUAU_COMPLEXITY,
};
