import type { GrammarSpec } from "../language_spec.ts";

/**
 * SystemRDL (register descriptions): a named component definition (`addrmap`, `regfile`, `reg`,
 * `field`, `mem`, `signal`) is a class, nested as written; each instance of a component
 * (`status_r status @ 0x0;`, a field's `busy[0:0]`) is a constant named by the instance, so the
 * register map reads `ctrl_blk.status_r.busy`; `enum` and `struct` definitions are types,
 * user-defined `property` definitions constants. Comments directly above a definition are its doc.
 * The `` `include `` directive is preprocessor syntax the grammar does not parse (an error node);
 * calls do not exist.
 *
 * Grammar: `tree-sitter-systemrdl` from `tree-sitter-wasms` (SystemRDL/tree-sitter-systemrdl).
 */
export const systemrdl: GrammarSpec = {
  id: "systemrdl",
  extensions: [".rdl"],
  grammar: "systemrdl",
  definitions: `
(component_named_def id: (id) @name body: (component_body) @body) @definition.class
(component_inst id: (id) @name) @definition.constant
(enum_def (id) @name) @definition.type
(struct_def (id) @name) @definition.type
(property_definition (id) @name) @definition.constant
`,
  docComments: {
    nodeTypes: ["comment"],
    wrapperTypes: ["description", "component_body_elem", "component_def"],
  },
};
