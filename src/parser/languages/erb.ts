import type { GrammarSpec } from "../language_spec.ts";
import { ruby } from "./ruby.ts";
import { RUBY_COMPLEXITY } from "../complexity/scripting.ts";

/** The code of `<% %>` and `<%= %>` tags, in the host tree of `tree-sitter-embedded_template`. */
export const TEMPLATE_CODE_REGION = "(code) @region";

/**
 * ERB templates (`.erb`, `.html.erb`, `.rhtml`): the Ruby of the `<% %>` and `<%= %>` tags,
 * parsed as one Ruby program (the markup between them left out, offsets those of the template),
 * with the Ruby entry's queries: the helpers a template calls (`render`, `link_to`, `t`) are its
 * calls, a `def` in a template a function, `require` an import. The markup itself is found by
 * `search_text`.
 *
 * Grammar: `tree-sitter-embedded_template` from `tree-sitter-wasms` (the host,
 * tree-sitter/tree-sitter-embedded-template), then the Ruby grammar for the regions.
 */
export const erb: GrammarSpec = {
  id: "erb",
  extensions: [".erb", ".rhtml"],
  grammar: ruby.grammar,
  definitions: ruby.definitions,
  ...(ruby.imports === undefined ? {} : { imports: ruby.imports }),
  ...(ruby.calls === undefined ? {} : { calls: ruby.calls }),
  ...(ruby.docComments === undefined ? {} : { docComments: ruby.docComments }),
  ...(ruby.resolver === undefined ? {} : { resolver: ruby.resolver }),
  regions: { grammar: "embedded_template", query: TEMPLATE_CODE_REGION },
  complexity: RUBY_COMPLEXITY,
};
