import type { GrammarSpec } from "../language_spec.ts";

/** A block label: `"aws_instance"` (its text without quotes). */
const LABEL = "(string_lit (template_literal) @LABEL)";

/**
 * HCL and Terraform: a block with two labels (`resource "aws_instance" "web"`, `data "x" "y"`) is
 * a class named by its last label and scoped by the first (`aws_instance.web`); a block with one
 * label is a constant when it is a `variable` or `output` and a class otherwise (`module "vpc"`,
 * `provider "aws"`, Nomad's `job "api"`); the attributes of `locals` blocks and the top-level
 * attributes of a file (`.tfvars`) are constants. Imports: a `module` block's `source`.
 *
 * Grammar: `tree-sitter-hcl` from `@cursorless/tree-sitter-wasms`.
 */
export const hcl: GrammarSpec = {
  id: "hcl",
  content: "data",
  extensions: [".tf", ".tfvars", ".hcl", ".nomad"],
  grammar: "hcl",
  grammarModule: "@cursorless/tree-sitter-wasms/out/tree-sitter-hcl.wasm",
  definitions: `
(block (identifier) . ${LABEL.replace("LABEL", "scope")} . ${LABEL.replace("LABEL", "name")}
  . (block_start)) @definition.class
(block (identifier) @_type . ${LABEL.replace("LABEL", "name")} . (block_start)
  (#any-of? @_type "variable" "output")) @definition.constant
(block (identifier) @_type . ${LABEL.replace("LABEL", "name")} . (block_start)
  (#not-any-of? @_type "variable" "output")) @definition.class
(block (identifier) @_type (body (attribute (identifier) @name) @definition.constant)
  (#eq? @_type "locals"))
(config_file (body (attribute (identifier) @name) @definition.constant))
`,
  imports: `
(block (identifier) @_module (body (attribute (identifier) @_source
  (expression (literal_value (string_lit (template_literal) @import.source)))))
  (#eq? @_module "module") (#eq? @_source "source")) @import
`,
  docComments: { nodeTypes: ["comment"] },
  resolver: "path",
};
