/**
 * The symbols the parser made of a file version, remembered by blob id and path: a blob is
 * immutable and its id is its content's hash, so what was extracted from it stays true as long as
 * the extractor is the same (the process's). The path is part of the key because symbol ids and
 * the language come from it. Most recently used kept, within a budget of estimated bytes.
 */
import type { SymbolRecord } from "../types.ts";

/** How {@linkcode BlobSymbols} is bounded. */
export interface BlobSymbolsOptions {
  /**
   * Estimated bytes of the symbols kept (their strings at two bytes a character, plus a fixed cost
   * per record); the least recently used go first.
   * @default 16 MiB
   */
  maxBytes?: number;
}

/** Fixed cost of one record beyond its strings (numbers, the object, its arrays). */
const _RECORD_BYTES = 200;

/** The symbols of file versions by blob id and path (see the module doc). */
export class BlobSymbols {
  readonly #entries = new Map<
    string,
    { symbols: readonly SymbolRecord[]; bytes: number; measured: boolean }
  >();
  readonly #max: number;
  #bytes = 0;

  constructor(options: BlobSymbolsOptions = {}) {
    this.#max = options.maxBytes ?? 16 * 1024 * 1024;
  }

  /**
   * The symbols remembered for this blob at this path, or undefined; with `complexity`, only
   * symbols whose complexity was measured.
   */
  get(
    blobId: string,
    path: string,
    complexity = true,
  ): readonly SymbolRecord[] | undefined {
    const key = `${blobId}\0${path}`;
    const hit = this.#entries.get(key);
    if (hit === undefined || (complexity && !hit.measured)) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, hit);
    return hit.symbols;
  }

  /**
   * Remember the symbols of a blob at a path (a set too large for the budget is not kept);
   * `measured: false` when their complexity was not measured (never replacing a measured set).
   */
  set(blobId: string, path: string, symbols: readonly SymbolRecord[], measured = true): void {
    const key = `${blobId}\0${path}`;
    const old = this.#entries.get(key);
    if (old !== undefined && old.measured && !measured) return;
    if (old !== undefined) {
      this.#entries.delete(key);
      this.#bytes -= old.bytes;
    }
    const bytes = _estimate(symbols);
    if (bytes > this.#max) return;
    this.#entries.set(key, { symbols, bytes, measured });
    this.#bytes += bytes;
    for (const [k, v] of this.#entries) {
      if (this.#bytes <= this.#max) break;
      this.#entries.delete(k);
      this.#bytes -= v.bytes;
    }
  }

  /** Estimated bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Forget everything. */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }
}

function _estimate(symbols: readonly SymbolRecord[]): number {
  let n = 0;
  for (const s of symbols) {
    n += _RECORD_BYTES + 2 * (s.id.length + s.file.length + s.name.length +
          s.qualified_name.length + s.signature.length + s.docstring.length + s.summary.length +
          s.content_hash.length + (s.parent?.length ?? 0));
    for (const d of s.decorators) n += 2 * d.length;
    for (const k of s.keywords) n += 2 * k.length;
  }
  return n;
}
