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
import { STYLE_REGION_WITH_LANG } from "./html.ts";
import { scss } from "./scss.ts";
import { tsx } from "./tsx.ts";
import { typescript } from "./typescript.ts";

/** The component options object: `export default {...}` or `export default defineComponent({...})`. */
function _component(inner: string): string {
  return `
(export_statement value: (object ${inner}))
(export_statement value: (call_expression function: (identifier) @_define
  arguments: (arguments (object ${inner}))) (#eq? @_define "defineComponent"))
`;
}

/**
 * Options-API functions: `data()`, `setup()`, lifecycle hooks, and the functions in `methods`,
 * `computed` and `watch`, as methods of the component (the file).
 */
const _OPTIONS_API = _component(
  "(method_definition name: (property_identifier) @name body: (_) @body) @definition.method",
) + _component(`(pair key: (property_identifier) @_group value: (object
  (method_definition name: (property_identifier) @name body: (_) @body) @definition.method))
  (#any-of? @_group "methods" "computed" "watch")`);

/**
 * Vue single-file components: only the `<script>` and `<script setup>` blocks are parsed (both as
 * one program; the template and styles are not), as JavaScript, or with the TypeScript (TSX)
 * entry's grammar and queries when the block says `lang="ts"` (`"tsx"`); the first `lang` found
 * applies to every block. Symbols, imports and calls are those of the JavaScript/TypeScript
 * entries, plus the options API: in `export default {...}` (or `defineComponent({...})`),
 * `data()`, `setup()`, lifecycle hooks and the functions of `methods`, `computed` and `watch`
 * are methods (of no class: the component is the file). Byte offsets and lines are those of the
 * `.vue` file. Imports resolve like JavaScript's. `<style>` blocks are parsed as CSS (SCSS with
 * `lang="scss"`), their rules joining the file's symbols.
 */
export const vue: GrammarSpec = {
  id: "vue",
  extensions: [".vue"],
  grammar: "javascript",
  definitions: ECMASCRIPT_DEFINITIONS + JAVASCRIPT_DEFINITIONS + _OPTIONS_API,
  imports: ECMASCRIPT_IMPORTS,
  calls: ECMASCRIPT_CALLS,
  docComments: ECMASCRIPT_DOC_COMMENTS,
  resolver: "javascript",
  regions: {
    grammar: "vue",
    query: `
(script_element (raw_text) @region)
(script_element (start_tag (attribute (attribute_name) @_attribute
  [(quoted_attribute_value (attribute_value) @region.language) (attribute_value) @region.language]))
  (#eq? @_attribute "lang"))
`,
    variants: {
      ts: { ...typescript, definitions: typescript.definitions + _OPTIONS_API },
      tsx: { ...tsx, definitions: tsx.definitions + _OPTIONS_API },
    },
  },
  embeds: [{ query: STYLE_REGION_WITH_LANG, language: css, variants: { scss } }],
  semantics: ECMASCRIPT_SEMANTICS,
  complexity: ECMASCRIPT_COMPLEXITY,
};
