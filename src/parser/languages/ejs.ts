import type { GrammarSpec } from "../language_spec.ts";
import { TEMPLATE_CODE_REGION } from "./erb.ts";
import { javascript } from "./javascript.ts";

/**
 * EJS templates (`.ejs`): the JavaScript of the `<% %>` and `<%= %>` tags, parsed as one program
 * (the markup left out, offsets those of the template) with the JavaScript entry's queries: the
 * functions a template calls (`include('header')`, `user.name.toUpperCase()`) are its calls, a
 * `function` in a template a function. The markup itself is found by `search_text`.
 *
 * Grammar: `tree-sitter-embedded_template` from `tree-sitter-wasms` (the host, shared with ERB),
 * then the JavaScript grammar for the regions.
 */
export const ejs: GrammarSpec = {
  id: "ejs",
  extensions: [".ejs"],
  grammar: javascript.grammar,
  definitions: javascript.definitions,
  ...(javascript.imports === undefined ? {} : { imports: javascript.imports }),
  ...(javascript.calls === undefined ? {} : { calls: javascript.calls }),
  ...(javascript.docComments === undefined ? {} : { docComments: javascript.docComments }),
  regions: { grammar: "embedded_template", query: TEMPLATE_CODE_REGION },
  ...(javascript.complexity === undefined ? {} : { complexity: javascript.complexity }),
};
