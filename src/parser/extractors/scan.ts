/**
 * Helpers for extractors that place what a parser found in the text: comments and strings blanked
 * out (offsets kept), brace matching, and the comment lines written directly above a line.
 */

/**
 * The text with comments (`//`, `/* *\/`, or `#` when `hash` is set) and quoted strings replaced
 * by spaces, newlines kept: every offset and line stays where it was.
 */
export function blankComments(text: string, options: { hash?: boolean; slashes?: boolean } = {}) {
  const slashes = options.slashes ?? true;
  const out = text.split("");
  const blank = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (out[i] !== "\n" && out[i] !== "\r") out[i] = " ";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (slashes && c === "/" && text[i + 1] === "/" || options.hash === true && c === "#") {
      let j = text.indexOf("\n", i);
      if (j === -1) j = text.length;
      blank(i, j);
      i = j;
    } else if (slashes && c === "/" && text[i + 1] === "*") {
      let j = text.indexOf("*/", i + 2);
      j = j === -1 ? text.length : j + 2;
      blank(i, j);
      i = j - 1;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      blank(i + 1, j);
      i = j;
    }
  }
  return out.join("");
}

/** The index just after the `}` closing the `{` at `open` (in blanked text), or the text's end. */
export function matchBrace(blanked: string, open: number): number {
  let depth = 0;
  for (let i = open; i < blanked.length; i++) {
    const c = blanked[i];
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i + 1;
  }
  return blanked.length;
}

/**
 * The comment lines directly above the line holding `at` (no blank line between), cleaned of
 * their markers: a doc comment. `markers` are the line-comment openers (`//`, `#`).
 */
export function commentAbove(text: string, at: number, markers: readonly string[]): string {
  let lineStart = text.lastIndexOf("\n", at - 1) + 1;
  const lines: string[] = [];
  let inBlock = false;
  while (lineStart > 0) {
    const prevStart = text.lastIndexOf("\n", lineStart - 2) + 1;
    const line = text.slice(prevStart, lineStart - 1).trim();
    if (inBlock || line.endsWith("*/")) {
      inBlock = !line.startsWith("/*");
      lines.unshift(line.replace(/^\/\*+|\*+\/$/g, "").replace(/^\*\s?/, "").trim());
    } else {
      const marker = markers.find((m) => line.startsWith(m));
      if (marker === undefined) break;
      lines.unshift(line.slice(marker.length).replace(/^[/!]?\s?/, "").trimEnd());
    }
    lineStart = prevStart;
  }
  while (lines.length > 0 && lines[0] === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines.join("\n");
}
