/**
 * Markdown (`.md`, `.markdown`, `.mdx`, `.mkd`), our own scanner of CommonMark's block structure:
 * each ATX heading (`#`...`######`) is a `type` symbol whose range is its whole section (the
 * heading, its text and its subsections, up to the next heading of its level or above in the same
 * container, or the end of that container), so the outline of a document is its heading tree and
 * `Install.From source` names a subsection. A setext heading (a paragraph underlined with `===` or
 * `---`) is a symbol of its own lines, nested in the section around it. Headings in block quotes
 * and list items count (their sections end with the container); nothing inside fenced or indented
 * code, HTML blocks or front matter does. No imports or calls.
 *
 * It replaces the block grammar of `tree-sitter-markdown` (`@cursorless/tree-sitter-wasms`), which
 * read 2-3 KB/ms: the records are the same for the files of `tests/parser/markdown_test.ts` and
 * the agreement of `deno task bench markdown` (see src/parser/LANGUAGES.md).
 */
import { type Extracted, type Extractor, firstLine, type SymbolDraft } from "./records.ts";

/** One open container: the document, a block quote or a list item. */
interface _Container {
  kind: "document" | "quote" | "item";
  /** A list item's content indent (columns after its parents' prefixes). */
  indent: number;
}

/** An open section: its heading's level, its draft (-1: a heading with no text) and container. */
interface _Section {
  level: number;
  draft: number;
  container: _Container;
}

/** What the leaf block currently open is, beyond a paragraph. */
type _Leaf =
  | { kind: "none" }
  | { kind: "fence"; char: string; length: number }
  | { kind: "html"; end: RegExp | null }
  | { kind: "indented" };

/** A line after its containers' prefixes: the text left and its column offsets. */
interface _Rest {
  /** The line's text after the matched prefixes (tabs kept). */
  text: string;
  /** UTF-16 index in the whole text where `text` starts. */
  at: number;
  /** The visual column of `text[0]` (tabs to the next multiple of 4). */
  column: number;
}

const _ATX = /^ {0,3}(#{1,6})(?:[ \t]+|$)/;
const _FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const _THEMATIC = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:_[ \t]*){3,}|(?:\*[ \t]*){3,})$/;
const _SETEXT = /^ {0,3}(?:=+|-+)[ \t]*$/;
const _BULLET = /^( {0,3})([-+*])( {1,4}(?! )|[ \t]|$)/;
const _ORDERED = /^( {0,3})(\d{1,9})([.)])( {1,4}(?! )|[ \t]|$)/;

/** The seven HTML block starts of CommonMark and what ends each (null: a blank line). */
const _HTML_BLOCKS: [RegExp, RegExp | null, boolean][] = [
  [/^ {0,3}<(?:script|pre|style|textarea)(?:\s|>|$)/i, /<\/(?:script|pre|style|textarea)>/i, true],
  [/^ {0,3}<!--/, /-->/, true],
  [/^ {0,3}<\?/, /\?>/, true],
  [/^ {0,3}<![A-Za-z]/, />/, true],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/, true],
  [
    new RegExp(
      String
        .raw`^ {0,3}</?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:\s|/?>|$)`,
      "i",
    ),
    null,
    true,
  ],
  [
    /^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)\s*$/,
    null,
    false,
  ],
];

export const extractor: Extractor = {
  extract(text: string): Extracted {
    return new _Scanner(text).run();
  },
};

/** The scan of one document, line by line (CommonMark's two phases in one pass). */
class _Scanner {
  readonly #text: string;
  readonly #drafts: SymbolDraft[] = [];
  readonly #containers: _Container[] = [
    { kind: "document", indent: 0 },
  ];
  readonly #sections: _Section[] = [];
  #leaf: _Leaf = { kind: "none" };
  /** Where the open paragraph starts (UTF-16 index) and its lines' text, or null. */
  #paragraph: { start: number; lines: string[] } | null = null;

  constructor(text: string) {
    this.#text = text;
  }

  run(): Extracted {
    const text = this.#text;
    let at = 0;
    if (text.startsWith("---")) at = this.#frontMatter();
    while (at < text.length) {
      let nl = text.indexOf("\n", at);
      if (nl === -1) nl = text.length;
      const line = text.slice(at, nl > at && text[nl - 1] === "\r" ? nl - 1 : nl);
      this.#line(line, at, nl);
      at = nl + 1;
    }
    this.#closeContainers(1, text.length);
    this.#closeSections(this.#containers[0]!, 1, text.length);
    return { symbols: this.#drafts, imports: [], calls: [], errors: [] };
  }

  /** YAML front matter (`---` to `---` or `...` at the very start): no headings in it. */
  #frontMatter(): number {
    const text = this.#text;
    const first = text.indexOf("\n");
    if (first === -1 || text.slice(0, first).trimEnd() !== "---") return 0;
    let at = first + 1;
    while (at < text.length) {
      let nl = text.indexOf("\n", at);
      if (nl === -1) nl = text.length;
      const line = text.slice(at, nl).trimEnd();
      if (line === "---" || line === "...") return nl + 1;
      at = nl + 1;
    }
    return 0;
  }

  /** One line: match the open containers, open new ones, then the leaf block. */
  #line(line: string, at: number, end: number): void {
    let rest: _Rest = { text: line, at, column: 0 };
    let matched = 1;
    for (; matched < this.#containers.length; matched++) {
      const next = this.#continues(this.#containers[matched]!, rest);
      if (next === null) break;
      rest = next;
    }
    if (matched < this.#containers.length) {
      if (this.#lazy(rest)) {
        this.#paragraph!.lines.push(rest.text);
        return;
      }
      // A list item that the line does not continue still took the spaces it looked for (as
      // tree-sitter-markdown's scanner does): what it closes ends after them, the line's blocks
      // start there.
      const c = this.#containers[matched]!;
      if (c.kind === "item") rest = _advanceColumns(rest, Math.min(_indentOf(rest), c.indent));
      this.#closeContainers(matched, rest.at);
    }
    rest = this.#openContainers(rest);
    this.#leafLine(rest, end);
  }

  /** The rest of a line if it continues `c`, else null. */
  #continues(c: _Container, rest: _Rest): _Rest | null {
    if (c.kind === "quote") return _quoteMarker(rest);
    if (_blank(rest.text)) return { ...rest, text: "" };
    if (_indentOf(rest) >= c.indent) return _advanceColumns(rest, c.indent);
    return null;
  }

  /**
   * Whether a line that left containers open continues the open paragraph lazily: a paragraph is
   * open and the line starts no other block.
   */
  #lazy(rest: _Rest): boolean {
    if (this.#paragraph === null || this.#leaf.kind !== "none" || _blank(rest.text)) return false;
    const s = _expand(rest);
    if (_ATX.test(s) || _FENCE.test(s) || _THEMATIC.test(s) || /^ {0,3}>/.test(s)) return false;
    if (_listStart(s, true) !== null) return false;
    return !_HTML_BLOCKS.some(([start, , interrupts]) => interrupts && start.test(s));
  }

  /** Block quote markers and list item markers at the start of the rest of a line. */
  #openContainers(rest: _Rest): _Rest {
    for (;;) {
      if (this.#leaf.kind === "fence" || this.#leaf.kind === "html") return rest;
      const s = _expand(rest);
      if (_indentOf(rest) >= 4) return rest;
      const quoted = _quoteMarker(rest);
      if (quoted !== null) {
        this.#endParagraph();
        this.#endLeaf();
        this.#containers.push({ kind: "quote", indent: 0 });
        rest = quoted;
        continue;
      }
      if (_THEMATIC.test(s)) return rest;
      const item = _listStart(s, this.#paragraph !== null);
      if (item === null) return rest;
      this.#endParagraph();
      this.#endLeaf();
      this.#containers.push({ kind: "item", indent: item.width });
      if (item.empty) return { ...rest, text: "" };
      const lead = _advanceColumns(rest, item.leading);
      const marked = { ...lead, text: lead.text.slice(item.marker), at: lead.at + item.marker };
      marked.column += item.marker;
      rest = _advanceColumns(marked, item.width - item.leading - item.marker);
    }
  }

  /** The leaf part of a line: fences, HTML, headings, breaks, code, paragraphs. */
  #leafLine(rest: _Rest, end: number): void {
    const s = _expand(rest);
    const leaf = this.#leaf;
    if (leaf.kind === "fence") {
      const close = new RegExp(`^ {0,3}${leaf.char}{${leaf.length},}[ \\t]*$`);
      if (close.test(s)) this.#leaf = { kind: "none" };
      return;
    }
    if (leaf.kind === "html") {
      if (leaf.end === null ? _blank(s) : leaf.end.test(rest.text)) this.#leaf = { kind: "none" };
      return;
    }
    if (_blank(s)) {
      this.#endParagraph();
      if (leaf.kind !== "indented") this.#leaf = { kind: "none" };
      return;
    }
    if (_indentOf(rest) >= 4 && this.#paragraph === null) {
      this.#leaf = { kind: "indented" };
      return;
    }
    this.#leaf = { kind: "none" };
    if (this.#paragraph !== null && _SETEXT.test(s)) {
      this.#setext(end);
      return;
    }
    if (this.#block(rest, s, end)) return;
    if (this.#paragraph === null) {
      this.#paragraph = { start: rest.at, lines: [] };
    }
    this.#paragraph.lines.push(rest.text);
  }

  /** A block that starts on this line (heading, fence, break, HTML); false when none does. */
  #block(rest: _Rest, s: string, end: number): boolean {
    const atx = _ATX.exec(s);
    if (atx !== null) {
      this.#endParagraph();
      this.#heading(rest, atx[1]!.length, end);
      return true;
    }
    const fence = _FENCE.exec(s);
    if (fence !== null && !(fence[1]![0] === "`" && fence[2]!.includes("`"))) {
      this.#endParagraph();
      this.#leaf = {
        kind: "fence",
        char: fence[1]![0] === "`" ? "`" : "~",
        length: fence[1]!.length,
      };
      return true;
    }
    if (_THEMATIC.test(s)) {
      this.#endParagraph();
      return true;
    }
    for (const [start, endRule, interrupts] of _HTML_BLOCKS) {
      if (!start.test(s) || (!interrupts && this.#paragraph !== null)) continue;
      this.#endParagraph();
      this.#leaf = endRule !== null && endRule.test(rest.text)
        ? { kind: "none" }
        : { kind: "html", end: endRule };
      return true;
    }
    return false;
  }

  /** An ATX heading of `level`: close the sections it ends, open its own. */
  #heading(rest: _Rest, level: number, end: number): void {
    const container = this.#top();
    const start = rest.at;
    this.#closeSections(container, level, start);
    const content = rest.text.replace(/^[ \t]*#{1,6}/, "").replace(/[ \t]+$/, "");
    const name = _normalize(content);
    let draft = -1;
    if (name !== "") {
      draft = this.#drafts.length;
      this.#drafts.push({
        name,
        kind: "type",
        start,
        end,
        signature: firstLine(rest.text).trimStart(),
        trimEnd: "newlines",
        ...this.#parentOf(),
      });
    }
    this.#sections.push({ level, draft, container });
  }

  /** A setext heading: the open paragraph and this underline. */
  #setext(end: number): void {
    const p = this.#paragraph!;
    this.#paragraph = null;
    const name = _normalize(p.lines.join("\n"));
    if (name === "") return;
    this.#drafts.push({
      name,
      kind: "type",
      start: p.start,
      end,
      signature: firstLine(p.lines[0]!).trimStart(),
      trimEnd: "newlines",
      ...this.#parentOf(),
    });
  }

  /** The innermost open section with a draft, as a draft's `parent`. */
  #parentOf(): { parent?: number } {
    for (let i = this.#sections.length - 1; i >= 0; i--) {
      const d = this.#sections[i]!.draft;
      if (d !== -1) return { parent: d };
    }
    return {};
  }

  /** Close the sections of `container` at `level` or deeper, ending them at `at`. */
  #closeSections(container: _Container, level: number, at: number): void {
    for (let i = this.#sections.length - 1; i >= 0; i--) {
      const s = this.#sections[i]!;
      if (s.container !== container || s.level < level) break;
      this.#sections.pop();
      if (s.draft !== -1) this.#drafts[s.draft]!.end = at;
    }
  }

  /** Close the containers from index `from` on (and their sections), at `at`. */
  #closeContainers(from: number, at: number): void {
    this.#endParagraph();
    this.#endLeaf();
    while (this.#containers.length > from) {
      const c = this.#containers.pop()!;
      this.#closeSections(c, 1, at);
    }
  }

  #endParagraph(): void {
    this.#paragraph = null;
  }

  #endLeaf(): void {
    this.#leaf = { kind: "none" };
  }

  #top(): _Container {
    return this.#containers[this.#containers.length - 1]!;
  }
}

/**
 * A list item's start: its leading spaces, marker length and content indent (columns), and
 * whether it has no content on its line.
 */
function _listStart(
  s: string,
  interrupting: boolean,
): { leading: number; marker: number; width: number; empty: boolean } | null {
  const m = _BULLET.exec(s) ?? _ORDERED.exec(s);
  if (m === null) return null;
  const ordered = m.length === 5;
  const leading = m[1]!.length;
  const marker = m[2]!.length + (ordered ? m[3]!.length : 0);
  const gap = m[ordered ? 4 : 3]!;
  const empty = s.slice(leading + marker).trim() === "";
  if (interrupting && (empty || (ordered && m[2] !== "1"))) return null;
  if (empty) return { leading, marker, width: leading + marker + 1, empty };
  const spaces = gap === "\t" ? 4 - ((leading + marker) % 4) : Math.max(1, gap.length);
  return { leading, marker, width: leading + marker + spaces, empty };
}

/** A heading's text as a name: trimmed, its line breaks (and the space around them) one space. */
function _normalize(text: string): string {
  return text.trim().replace(/\s*[\r\n\u2028\u2029]\s*/g, " ");
}

function _blank(s: string): boolean {
  return /^[ \t]*$/.test(s);
}

/** The rest's text with leading tabs expanded to spaces at its column. */
function _expand(rest: _Rest): string {
  if (!rest.text.startsWith("\t") && !/^ *\t/.test(rest.text)) return rest.text;
  let col = rest.column;
  let i = 0;
  let out = "";
  for (; i < rest.text.length; i++) {
    const ch = rest.text[i]!;
    if (ch === " ") (out += " ", col++);
    else if (ch === "\t") {
      const w = 4 - (col % 4);
      out += " ".repeat(w);
      col += w;
    } else break;
  }
  return out + rest.text.slice(i);
}

/** The visual indentation of the rest of a line. */
function _indentOf(rest: _Rest): number {
  let col = rest.column;
  for (const ch of rest.text) {
    if (ch === " ") col++;
    else if (ch === "\t") col += 4 - (col % 4);
    else break;
  }
  return col - rest.column;
}

/** The rest after a block quote marker (up to 3 spaces, `>`, one optional space), or null. */
function _quoteMarker(rest: _Rest): _Rest | null {
  const indent = _indentOf(rest);
  if (indent > 3) return null;
  const after = _advanceColumns(rest, indent);
  if (!after.text.startsWith(">")) return null;
  const next = { text: after.text.slice(1), at: after.at + 1, column: after.column + 1 };
  return next.text.startsWith(" ") || next.text.startsWith("\t") ? _advanceColumns(next, 1) : next;
}

/** Skip `columns` columns of leading whitespace (a tab partly consumed leaves spaces). */
function _advanceColumns(rest: _Rest, columns: number): _Rest {
  let col = rest.column;
  const target = rest.column + columns;
  let i = 0;
  while (col < target && i < rest.text.length) {
    const ch = rest.text[i]!;
    if (ch === " ") col++;
    else if (ch === "\t") {
      const w = 4 - (col % 4);
      if (col + w > target) {
        const left = col + w - target;
        return {
          text: " ".repeat(left) + rest.text.slice(i + 1),
          at: rest.at + i + 1,
          column: target,
        };
      }
      col += w;
    } else break;
    i++;
  }
  return { text: rest.text.slice(i), at: rest.at + i, column: col };
}
