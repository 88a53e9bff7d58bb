import type { GrammarSpec } from "../language_spec.ts";
import { css } from "./css.ts";
import { javascript } from "./javascript.ts";

/** An attribute named `name` whose (quoted or bare) value is captured as `capture`. */
function attribute(name: string, capture: string): string {
  return `(attribute (attribute_name) @_${name}
  [(quoted_attribute_value (attribute_value) ${capture}) (attribute_value) ${capture}]
  (#eq? @_${name} "${name}"))`;
}

/**
 * `<script>` and `<style>` blocks, parsed as JavaScript and CSS (by HTML, Vue and Svelte). A
 * script whose `type` says it holds data or a template (`application/json`, `application/ld+json`,
 * `importmap`, `text/x-template`, `text/html`...) is not JavaScript and is left out.
 */
export const SCRIPT_REGION = `((script_element (start_tag) @_start (raw_text) @region)
  (#not-match? @_start "type=.?(application/(ld[+])?json|importmap|text/(html|template|x-[a-z-]*))"))`;
export const STYLE_REGION = "(style_element (raw_text) @region)";

/** `<style>` blocks of Vue and Svelte, with the `lang` attribute that selects SCSS. */
export const STYLE_REGION_WITH_LANG = `
${STYLE_REGION}
(style_element (start_tag ${attribute("lang", "@region.language")}))
`;

/**
 * HTML: an element with an `id` (`<script id>` and `<style id>` too) is a constant named by the
 * id (its range the whole element); a
 * custom element (a tag name with a `-`, `<my-widget>`) is a class named by its tag, on its start
 * tag. `<script>` blocks are parsed as JavaScript and `<style>` blocks as CSS, their symbols,
 * imports and calls joining the file's. Imports: `<script src>`, `<link href>` and the scripts'
 * own, resolved as paths relative to the page.
 */
export const html: GrammarSpec = {
  id: "html",
  extensions: [".html", ".htm", ".xhtml"],
  grammar: "html",
  definitions: `
(element (start_tag ${attribute("id", "@name")})) @definition.constant
(script_element (start_tag ${attribute("id", "@name")})) @definition.constant
(style_element (start_tag ${attribute("id", "@name")})) @definition.constant
(start_tag (tag_name) @name (#match? @name "-")) @definition.class
`,
  imports: `
(script_element (start_tag ${attribute("src", "@import.source")})) @import
(element (start_tag (tag_name) @_link ${attribute("href", "@import.source")})
  (#eq? @_link "link")) @import
`,
  resolver: "path",
  embeds: [
    { query: SCRIPT_REGION, language: javascript },
    { query: STYLE_REGION, language: css },
  ],
};
