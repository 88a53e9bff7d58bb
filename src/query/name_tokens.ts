/**
 * Where a name is written in a file, token by token, with what each occurrence is written in:
 * code, a string, a comment (read from the file's syntax tree with its real grammar, so an
 * f-string's `{name}` or a template's `${name}` is code and a docstring is a string), or the
 * text of a docs or config file. A code occurrence says whether it follows a member accessor
 * (`.`, `?.`, `->`, `::`) and the receiver written before it. The renaming tools read these: the
 * index stores lines, not columns, and never the tokens of a file.
 *
 * Trees are not stored: a file is parsed when a name is first looked up in it, and the answer is
 * kept for the view's index state.
 */
import { type Node, Parser } from "web-tree-sitter";
import { isGrammarSpec } from "../parser/language_spec.ts";
import { loadGrammar } from "../parser/loader.ts";
import { languageById } from "../parser/registry.ts";
import { FILES } from "./files.ts";
import { contentOf } from "./priors.ts";
import { facet, type RepoView } from "./view.ts";

/** What an occurrence is written in. */
export type TokenContext = "code" | "string" | "comment" | "docs" | "config";

/** One whole-word occurrence of a name. */
export interface NameToken {
  /** 1-based line. */
  line: number;
  /** 0-based offset in the line, in UTF-16 code units (JavaScript string indices). */
  start: number;
  context: TokenContext;
  /** Whether it follows a member accessor (`obj.name`, `pkg.Name`, `a->b`, `A::b`). */
  member: boolean;
  /** The receiver written before the accessor (`self`, `utils`, `a.b`), `""` when not a name. */
  receiver: string;
  /** Whether it is a string literal that holds the name alone (`"name"`, `__all__` entries). */
  exactString: boolean;
  /** The whole line, for the plan's texts. */
  text: string;
}

/** Files larger than this are read line by line instead of parsed (a bound on a call's cost). */
const _MAX_PARSED_BYTES = 1_000_000;

const _STRINGISH = /string|template|heredoc|char_literal|rune_literal|raw_str|regex/;
const _SUBSTITUTION = /interpolation|substitution|template_argument|embedded/;

interface _Cache {
  tokens: Map<string, Promise<NameToken[]>>;
  parsers: Map<string, Promise<Parser | null>>;
}

const _CACHE = facet("name-tokens", (): _Cache => ({ tokens: new Map(), parsers: new Map() }));

/**
 * The whole-word occurrences of `name` in an indexed file, in source order. `parse: false` reads
 * the file line by line instead of parsing it (quotes and comment markers of the line: cheaper,
 * for files whose sites are listed but not edited).
 */
export function nameTokens(
  view: RepoView,
  path: string,
  name: string,
  parse = true,
): Promise<NameToken[]> {
  const cache = view.get(_CACHE);
  const key = `${path}\0${name}\0${parse}`;
  let hit = cache.tokens.get(key);
  if (hit === undefined) {
    hit = _scan(view, cache, path, name, parse);
    cache.tokens.set(key, hit);
  }
  return hit;
}

/** A regex matching `name` as a whole word (global). */
export function wordPattern(name: string): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\p{L}\\p{N}_$])${escaped}(?![\\p{L}\\p{N}_$])`, "gu");
}

async function _scan(view: RepoView, cache: _Cache, path: string, name: string, parse: boolean) {
  const text = view.index.fileText(path) ?? "";
  if (!text.includes(name)) return [];
  const language = view.get(FILES).get(path)?.language ?? "";
  const content = contentOf(language);
  const offsets = [...text.matchAll(wordPattern(name))].map((m) => m.index!);
  if (offsets.length === 0) return [];
  const lines = _lineStarts(text);
  if (content === "document" || content === "data") {
    const context = content === "document" ? "docs" : "config";
    return offsets.map((at) => _token(text, lines, at, context, false));
  }
  const parser = parse && text.length <= _MAX_PARSED_BYTES ? await _parser(cache, language) : null;
  const tree = parser?.parse(text) ?? null;
  try {
    return offsets.map((at) => {
      if (tree === null) return _token(text, lines, at, _lineContext(text, lines, at), false);
      const node = tree.rootNode.descendantForIndex(at, at + name.length);
      if (node === null) return _token(text, lines, at, _lineContext(text, lines, at), false);
      const { context, exact } = _treeContext(node, name);
      return _token(text, lines, at, context, exact);
    });
  } finally {
    tree?.delete();
  }
}

/** The parser of a language with a grammar of its own (not a region language), or null. */
function _parser(cache: _Cache, language: string): Promise<Parser | null> {
  let hit = cache.parsers.get(language);
  if (hit === undefined) {
    hit = (async () => {
      const spec = languageById(language);
      if (spec === undefined || !isGrammarSpec(spec) || spec.regions !== undefined) return null;
      try {
        // Loading the grammar initialises web-tree-sitter: a Parser can be made only after it.
        const grammar = await loadGrammar(spec.grammar, spec.grammarModule);
        const parser = new Parser();
        parser.setLanguage(grammar);
        return parser;
      } catch {
        return null;
      }
    })();
    cache.parsers.set(language, hit);
  }
  return hit;
}

/** What a node covering an occurrence is written in, and whether it is a string of it alone. */
function _treeContext(node: Node, name: string): { context: TokenContext; exact: boolean } {
  let string: Node | null = null;
  for (let n: Node | null = node; n !== null; n = n.parent) {
    if (n.type.includes("comment")) return { context: "comment", exact: false };
    if (_SUBSTITUTION.test(n.type)) break;
    if (_STRINGISH.test(n.type)) string = n;
  }
  if (string !== null) {
    const inner = string.text.replace(/^[A-Za-z]*(["'`]+|%[qwQW]?.)/, "").replace(/["'`]+$/, "");
    return { context: "string", exact: inner === name };
  }
  // Code covered by a node longer than the name (a keyword-like token, an unparsed region).
  return { context: node.text === name ? "code" : "string", exact: false };
}

/** What an occurrence is written in, by its line alone (no grammar). */
function _lineContext(text: string, starts: number[], at: number): TokenContext {
  const line = _lineOf(starts, at);
  const head = text.slice(starts[line]!, at);
  if (/^\s*(?:\/\/|\/\*|\*|#|--|;)/.test(head) || /(?:\/\/|\s#)\s/.test(head)) return "comment";
  let quote = "";
  for (const c of head) {
    if (quote === "" && (c === '"' || c === "'" || c === "`")) quote = c;
    else if (c === quote) quote = "";
  }
  return quote === "" ? "code" : "string";
}

function _token(
  text: string,
  starts: number[],
  at: number,
  context: TokenContext,
  exact: boolean,
): NameToken {
  const line = _lineOf(starts, at);
  const lineStart = starts[line]!;
  const lineEnd = line + 1 < starts.length ? starts[line + 1]! - 1 : text.length;
  const lineText = text.slice(lineStart, lineEnd).replace(/\r$/, "");
  const head = lineText.slice(0, at - lineStart);
  const access = context === "code" ? /(\S*?)\s*(?:\?\.|\.|->|::)\s*$/u.exec(head) : null;
  const receiver = access === null ? "" : /[\p{L}\p{N}_$.]*$/u.exec(access[1]!)![0];
  return {
    line: line + 1,
    start: at - lineStart,
    context,
    member: access !== null,
    receiver,
    exactString: exact,
    text: lineText,
  };
}

function _lineStarts(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) out.push(i + 1);
  return out;
}

function _lineOf(starts: number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
