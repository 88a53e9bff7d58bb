import type { LanguageSpec } from "../language_spec.ts";
import {
  ECMASCRIPT_CALLS,
  ECMASCRIPT_DEFINITIONS,
  ECMASCRIPT_DOC_COMMENTS,
  ECMASCRIPT_IMPORTS,
  JAVASCRIPT_DEFINITIONS,
} from "./ecmascript_queries.ts";
import { tsx } from "./tsx.ts";
import { typescript } from "./typescript.ts";

/**
 * Vue single-file components: only the `<script>` and `<script setup>` blocks are parsed (both as
 * one program; the template and styles are not), as JavaScript, or with the TypeScript (TSX)
 * entry's grammar and queries when the block says `lang="ts"` (`"tsx"`); the first `lang` found
 * applies to every block. Symbols, imports and calls are those of the JavaScript/TypeScript
 * entries (an options-API component's `methods: { f() {} }` are methods of no class), with byte
 * offsets and lines of the `.vue` file. Imports resolve like JavaScript's.
 */
export const vue: LanguageSpec = {
  id: "vue",
  extensions: [".vue"],
  grammar: "javascript",
  definitions: ECMASCRIPT_DEFINITIONS + JAVASCRIPT_DEFINITIONS,
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
    variants: { ts: typescript, tsx },
  },
};
