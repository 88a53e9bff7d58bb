import type { GrammarSpec } from "../language_spec.ts";

/**
 * Talon voice commands (`.talon`): each voice command is a function named by its spoken rule
 * (`channel <user.text>`, `(next | previous) unread`), a key binding (`key(f5):`) likewise; the
 * header's context (`app: slack`) is not a symbol. `#` comments directly above a command are its
 * doc (not above the first one: the grammar puts that comment outside the commands' block). Imports are the tags a file activates (`tag(): user.messaging`); calls are the actions a
 * command runs (`user.slack_open_search(text)`, named as written).
 *
 * Grammar: `tree-sitter-talon` from `@cursorless/tree-sitter-wasms` (pokey/tree-sitter-talon).
 */
export const talon: GrammarSpec = {
  id: "talon",
  extensions: [".talon"],
  grammar: "talon",
  grammarModule: "@cursorless/tree-sitter-wasms/out/tree-sitter-talon.wasm",
  definitions: `
(command_declaration left: (rule) @name right: (block) @body) @definition.function
(key_binding_declaration left: (key_binding) @name right: (block) @body) @definition.function
`,
  imports: `
(tag_import_declaration right: (identifier) @import.source) @import
`,
  calls: `
(action action_name: (identifier) @name) @reference.call
`,
  docComments: { nodeTypes: ["comment"] },
};
