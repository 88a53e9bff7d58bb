/**
 * JSON with comments (`//`, `/* *\/`) and trailing commas, the format of the reference's config
 * files (`config.jsonc`, a project's `.jcodemunch.jsonc`). Imports nothing: the stdio server reads
 * its tool profile with it before anything else loads.
 *
 * @module
 */

/** JSON with comments (`//`, `/* *\/`) and trailing commas, as plain JSON text. */
export function stripJsonc(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      out += text.slice(start, i + 1);
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 1;
      out += " ";
    } else out += c;
  }
  return out.replace(/,(\s*[}\]])/g, "$1");
}
