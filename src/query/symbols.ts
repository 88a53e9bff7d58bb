/**
 * Symbols by id, by name and by file for the graph queries, read from the store on first use and
 * kept for the view's lifetime (a lookup per name instead of loading every symbol of a large repo
 * up front), and the lookup of the symbol an argument names.
 */
import type { SymbolRecord } from "../parser/types.ts";
import type { RepoIndex } from "../store/repo_index.ts";
import { DetailedToolError } from "../errors.ts";
import { facet } from "./view.ts";

/** Memoized symbol reads of one index state. */
export class SymbolTable {
  readonly #index: RepoIndex;
  readonly #byName = new Map<string, SymbolRecord[]>();
  readonly #byFile = new Map<string, SymbolRecord[]>();
  readonly #byId = new Map<string, SymbolRecord | null>();

  constructor(index: RepoIndex) {
    this.#index = index;
  }

  /** Symbols named exactly `name` (case-sensitive), in file and source order. */
  byName(name: string): SymbolRecord[] {
    let hit = this.#byName.get(name);
    if (hit === undefined) {
      hit = this.#index.symbolsByName(name).filter((s) => s.name === name);
      this.#byName.set(name, hit);
      for (const s of hit) this.#byId.set(s.id, s);
    }
    return hit;
  }

  /** Symbols named `name` in any letter case. */
  byNameIgnoringCase(name: string): SymbolRecord[] {
    return this.#index.symbolsByName(name);
  }

  /** The symbols of a file in source order. */
  ofFile(path: string): SymbolRecord[] {
    let hit = this.#byFile.get(path);
    if (hit === undefined) {
      hit = this.#index.symbolsOfFile(path);
      this.#byFile.set(path, hit);
      for (const s of hit) this.#byId.set(s.id, s);
    }
    return hit;
  }

  /** One symbol by id. */
  byId(id: string): SymbolRecord | undefined {
    let hit = this.#byId.get(id);
    if (hit === undefined) {
      hit = this.#index.symbol(id) ?? null;
      this.#byId.set(id, hit);
    }
    return hit ?? undefined;
  }
}

/** The memoized symbol reads of a view. */
export const SYMBOLS = facet("graph-symbols", (v) => new SymbolTable(v.index));

/** The position fields of a symbol that every graph result carries. */
export interface SymbolRef {
  id: string;
  name: string;
  kind: string;
  file: string;
  line: number;
}

/** A symbol as a result row. */
export function symbolRef(s: SymbolRecord): SymbolRef {
  return { id: s.id, name: s.name, kind: s.kind, file: s.file, line: s.line };
}

/** Most candidates listed in a `symbol_ambiguous` error. */
const _MAX_CANDIDATES = 20;

/**
 * The symbol an argument names: a full id, `file::Qualified.name` without `#kind`, a unique
 * `Qualified.name`, or a unique name (exact case first, then any case). Fails with
 * `symbol_not_found` or `symbol_ambiguous` (listing the candidate ids to pass instead).
 */
export function lookupSymbol(table: SymbolTable, repo: string, text: string): SymbolRecord {
  const exact = table.byId(text);
  if (exact !== undefined) return exact;
  let matches: SymbolRecord[] = [];
  const sep = text.indexOf("::");
  if (sep !== -1) {
    const file = text.slice(0, sep);
    const qualified = text.slice(sep + 2).replace(/#\w+$/, "");
    matches = table.ofFile(file).filter((s) => s.qualified_name === qualified);
  } else {
    const last = text.slice(text.lastIndexOf(".") + 1);
    const named = table.byName(last);
    matches = text.includes(".") ? named.filter((s) => s.qualified_name === text) : named;
    if (matches.length === 0 && !text.includes(".")) {
      matches = table.byNameIgnoringCase(text);
    }
  }
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new DetailedToolError(
      "symbol_ambiguous",
      `Ambiguous symbol "${text}": ${matches.length} definitions in ${repo}. Pass one of the candidate ids instead`,
      { candidates: matches.slice(0, _MAX_CANDIDATES).map(symbolRef) },
    );
  }
  throw new DetailedToolError(
    "symbol_not_found",
    `Symbol not found in ${repo}: ${text}. Pass a symbol id or name as search_symbols returns it`,
    { candidates: [] },
  );
}
