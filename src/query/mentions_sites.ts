/**
 * Where an identifier is used, every way codemunch can tell: the graph's references (calls,
 * imports, type uses, subclasses; `resolved` or `by_name`) and every other whole-word mention of
 * it in the repo's text, each labelled with what it is written in — `code` (a use the graph does
 * not resolve: an attribute read, a callback passed by name), `string`, `comment`, `config` (a
 * data file: JSON, YAML, TOML, …) or `docs`. The definitions of the name (their spans and doc
 * comments) are not mentions of it.
 */
import { enclosingSymbol } from "./enclosing.ts";
import { contentOf } from "./priors.ts";
import { FILES } from "./files.ts";
import { definitionSpan, NAME_MENTIONS } from "./mentions.ts";
import { definitionsNamed, identifierReferences, type Reference } from "./references.ts";
import { SYMBOLS } from "./symbols.ts";
import type { RepoView } from "./view.ts";

/** How a use was found. */
export type FoundBy = "resolved" | "by_name" | "text";

/** One use of an identifier (`text` is filled in for the first `maxUses` only). */
export interface Use {
  file: string;
  line: number;
  foundBy: FoundBy;
  /** call, import, type_use, inherits (graph); code, string, comment, config, docs (text). */
  kind: string;
  /** The symbol the use is written in, or null. */
  symbol: string | null;
  /** The line, trimmed and cut at 160 characters. */
  text: string;
}

/** The uses of one identifier. */
export interface Uses {
  uses: Use[];
  /** Graph references (each call, import, type use or subclass). */
  references: number;
  /** Of those, imports. */
  imports: number;
  /** Files with a text mention the graph does not cover. */
  contentFiles: number;
  /** Whether the text scan stopped at `maxContentFiles`. */
  contentCut: boolean;
}

/** Longest line text kept. */
const _MAX_TEXT = 160;

/**
 * Every use of `identifier` (a name, a qualified name or a symbol id): the graph's references,
 * then, with `searchContent`, the text mentions of its name outside the lines the graph covers,
 * from at most `maxContentFiles` files (by path).
 */
export function identifierUses(
  view: RepoView,
  identifier: string,
  options: { searchContent: boolean; maxContentFiles: number; maxUses: number },
): Uses {
  const refs = identifierReferences(view, identifier);
  const name = _nameOf(view, identifier);
  const covered = new Set(refs.map((r) => `${r.file}\0${r.line}`));
  const uses: Use[] = refs.map(_graphUse);
  let contentFiles = 0;
  let contentCut = false;
  if (options.searchContent && name !== "") {
    for (const path of _filesWriting(view, name)) {
      const found = _textUses(view, path, name, covered);
      if (found.length === 0) continue;
      if (contentFiles === options.maxContentFiles) {
        contentCut = true;
        break;
      }
      contentFiles++;
      uses.push(...found);
    }
  }
  uses.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  _fillTexts(view, uses.slice(0, options.maxUses));
  return {
    uses,
    references: refs.length,
    imports: refs.filter((r) => r.kind === "import").length,
    contentFiles,
    contentCut,
  };
}

/** The name written at the uses of an identifier. */
function _nameOf(view: RepoView, identifier: string): string {
  if (identifier.includes("::")) return definitionsNamed(view, identifier)[0]?.name ?? "";
  return identifier.slice(identifier.lastIndexOf(".") + 1);
}

/** A graph reference as a use (its line's text is filled in later, for the rows shown). */
function _graphUse(r: Reference): Use {
  return {
    file: r.file,
    line: r.line,
    foundBy: r.resolution === "resolved" ? "resolved" : "by_name",
    kind: r.kind,
    symbol: r.symbol,
    text: "",
  };
}

/** Fill in the line text of graph uses, reading each file once. */
function _fillTexts(view: RepoView, uses: readonly Use[]): void {
  const lines = new Map<string, string[]>();
  for (const u of uses) {
    if (u.foundBy === "text") continue;
    let of = lines.get(u.file);
    if (of === undefined) lines.set(u.file, of = (view.index.fileText(u.file) ?? "").split("\n"));
    u.text = (of[u.line - 1] ?? "").trim().slice(0, _MAX_TEXT);
  }
}

/** The files that may write `name`, by path: the mention index's, else every file. */
function _filesWriting(view: RepoView, name: string): string[] {
  const mentions = view.get(NAME_MENTIONS);
  const files = mentions.tracks(name) ? mentions.filesOf(name) : [...view.get(FILES).keys()];
  return files.sort();
}

/** The text mentions of `name` in one file, outside the name's definitions and `covered` lines. */
function _textUses(view: RepoView, path: string, name: string, covered: Set<string>): Use[] {
  const text = view.index.fileText(path) ?? "";
  if (!text.includes(name)) return [];
  const lines = text.split("\n");
  const own = view.get(SYMBOLS).ofFile(path).filter((s) => s.name === name)
    .map((s) => definitionSpan(lines, s));
  const content = contentOf(view.get(FILES).get(path)?.language ?? "");
  const spans = view.get(SYMBOLS).ofFile(path).filter((s) => s.kind !== "import");
  const out: Use[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    if (covered.has(`${path}\0${line}`) || own.some(([a, b]) => line >= a && line <= b)) continue;
    const at = _wordAt(lines[i]!, name);
    if (at === -1) continue;
    const kind = content === "document"
      ? "docs"
      : content === "data"
      ? "config"
      : _codeContext(lines[i]!, at);
    const symbol = enclosingSymbol(spans, line);
    out.push({
      file: path,
      line,
      foundBy: "text",
      kind,
      symbol,
      text: lines[i]!.trim().slice(0, _MAX_TEXT),
    });
  }
  return out;
}

/** Where `name` stands as a whole word in `line`, or -1. */
function _wordAt(line: string, name: string): number {
  for (let at = line.indexOf(name); at !== -1; at = line.indexOf(name, at + 1)) {
    const before = at === 0 ? "" : line[at - 1]!;
    const after = line[at + name.length] ?? "";
    if (!/[\p{L}\p{N}_$]/u.test(before) && !/[\p{L}\p{N}_$]/u.test(after)) return at;
  }
  return -1;
}

/** What a mention at `at` of a code line is written in: a comment, a string, or code. */
function _codeContext(line: string, at: number): "comment" | "string" | "code" {
  const head = line.slice(0, at);
  if (/^\s*(?:\/\/|\/\*|\*|#|--|;)/.test(line) || /(?:\/\/|\s#)\s/.test(head)) return "comment";
  let quotes = 0;
  let quote = "";
  for (const c of head) {
    if (quote === "" && (c === '"' || c === "'" || c === "`")) {
      quote = c;
      quotes++;
    } else if (c === quote) {
      quote = "";
    }
  }
  return quote !== "" && quotes > 0 ? "string" : "code";
}
