/**
 * Whole-word mentions of definition names across the repo's text: code, comments, strings,
 * configuration and documents alike. A name nobody writes anywhere but where it is defined cannot
 * be called, imported, subclassed, looked up by reflection or configured — the evidence the
 * dead-code analysis trusts most. One pass over every stored file per index state.
 */
import type { SymbolRecord } from "../parser/types.ts";
import { facet, type RepoView } from "./view.ts";

/** Whether a UTF-16 code unit can be part of an identifier (`$` and non-ASCII included). */
function _isWordUnit(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 ||
    c === 36 || c > 127;
}

/**
 * Call `fn` with every identifier-like word of `text` (runs of letters, digits, `_`, `$` and
 * non-ASCII characters).
 *
 * @example Usage
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { forEachWord } from "./mentions.ts";
 * const words: string[] = [];
 * forEachWord("a.b_c(\"d\") // e$", (w) => words.push(w));
 * deepEqual(words, ["a", "b_c", "d", "e$"]);
 * ```
 */
export function forEachWord(text: string, fn: (word: string) => void): void {
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    if (_isWordUnit(text.charCodeAt(i))) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      fn(text.slice(start, i));
      start = -1;
    }
  }
  if (start >= 0) fn(text.slice(start));
}

/** Whole-word occurrences of `name` in `text`. */
export function countWord(text: string, name: string): number {
  let n = 0;
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + name.length)) {
    const before = at === 0 ? 32 : text.charCodeAt(at - 1);
    const after = at + name.length >= text.length ? 32 : text.charCodeAt(at + name.length);
    if (!_isWordUnit(before) && !_isWordUnit(after)) n++;
  }
  return n;
}

/**
 * The lines a definition owns (1-based, inclusive): its span and the comment block and
 * decorators right above it (a Go doc comment starts with the name).
 */
export function definitionSpan(lines: readonly string[], s: SymbolRecord): [number, number] {
  let start = s.line;
  while (start > 1 && _isPreamble(lines[start - 2]!)) start--;
  return [start, Math.max(s.line, s.end_line)];
}

function _isPreamble(line: string): boolean {
  const t = line.trimStart();
  return t !== "" && /^(?:\/\/|\/\*|\*|#|--|;|@|\[|'''|""")/.test(t);
}

/** A file's name without folder and extension (`a/b/c.test.ts` → `c`). */
export function fileStem(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.indexOf(".", 1);
  return dot === -1 ? base : base.slice(0, dot);
}

/** How often each definition name is written in the repo, and how many definitions bear it. */
export class NameMentions {
  readonly #occurrences: Map<string, number>;
  readonly #definitions: Map<string, number>;
  readonly #files: Map<string, number[]>;
  readonly #paths: readonly string[];

  constructor(
    occurrences: Map<string, number>,
    definitions: Map<string, number>,
    files: Map<string, number[]> = new Map(),
    paths: readonly string[] = [],
  ) {
    this.#occurrences = occurrences;
    this.#definitions = definitions;
    this.#files = files;
    this.#paths = paths;
  }

  /** Whether the name is tracked (a definition's or a file's): {@linkcode filesOf} is complete. */
  tracks(name: string): boolean {
    return this.#definitions.has(name) || this.#files.has(name);
  }

  /** The files that write a tracked name, in index order. */
  filesOf(name: string): string[] {
    return (this.#files.get(name) ?? []).map((i) => this.#paths[i]!);
  }

  /** Whole-word occurrences of a definition name in every stored file. */
  occurrences(name: string): number {
    return this.#occurrences.get(name) ?? 0;
  }

  /** Definitions (any kind but imports) bearing the name. */
  definitions(name: string): number {
    return this.#definitions.get(name) ?? 0;
  }

  /**
   * Occurrences of `name` outside one definition of it, given `own` occurrences inside that
   * definition (its span and doc comment): each other definition of the name is taken to write
   * it once, where it is declared. Never below 0.
   */
  outside(name: string, own: number): number {
    return Math.max(0, this.occurrences(name) - own - Math.max(0, this.definitions(name) - 1));
  }
}

/**
 * The name mentions of a view: one scan of every stored file for every definition name and every
 * file's name without its extension (a module loaded by a dotted path in a string).
 */
export const NAME_MENTIONS = facet("name-mentions", (view: RepoView): NameMentions => {
  const definitions = view.index.definitionNameCounts();
  const files = view.index.listFiles();
  const tracked = new Set(definitions.keys());
  for (const file of files) tracked.add(fileStem(file.path));
  const occurrences = new Map<string, number>();
  const inFiles = new Map<string, number[]>();
  const paths = files.map((f) => f.path);
  for (let i = 0; i < paths.length; i++) {
    const text = view.index.fileText(paths[i]!);
    if (text === undefined) continue;
    forEachWord(text, (w) => {
      if (!tracked.has(w)) return;
      occurrences.set(w, (occurrences.get(w) ?? 0) + 1);
      const list = inFiles.get(w);
      if (list === undefined) inFiles.set(w, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    });
  }
  for (const w of tracked) if (!inFiles.has(w)) inFiles.set(w, []);
  return new NameMentions(occurrences, definitions, inFiles, paths);
});
