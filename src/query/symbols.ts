/**
 * Symbols by id, by name and by file for the graph queries, read from the store on first use and
 * kept for the view's lifetime (a lookup per name instead of loading every symbol of a large repo
 * up front). The lookup of the symbol an argument names is `symbol_lookup.ts`'s `findSymbol`.
 */
import type { SymbolRecord } from "../parser/types.ts";
import type { RepoIndex } from "../store/repo_index.ts";
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
