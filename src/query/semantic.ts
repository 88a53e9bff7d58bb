/**
 * The semantic side of symbol search: the stored vectors of a repo's symbols as one matrix (a
 * facet of the view, built when a semantic search first needs it), and the symbols nearest a
 * query vector by cosine similarity (a dot product: every stored vector has unit length), with
 * the same filters as the lexical search. The matrix holds each vector as 8-bit integers with a
 * scale per row (a quarter of float32's memory: ~55 MB instead of ~218 MB for the Go standard
 * library's 142k symbols at 384 dimensions); a similarity is off by at most ~dim × 0.4% of the
 * row's largest value, far below the gaps that order neighbours.
 */
import type { SymbolRecord } from "../parser/types.ts";
import type { EmbeddingModel } from "../store/embeddings.ts";
import { embedKey, embedText } from "./embed_text.ts";
import { globMatcher } from "./glob.ts";
import { facet, type RepoView } from "./view.ts";

/** A repo's symbols with vectors, as one row-major matrix. */
export interface SemanticIndex {
  /** What made the vectors; null when none are stored. */
  model: EmbeddingModel | null;
  /** The symbols with a vector, in matrix row order. */
  symbols: SymbolRecord[];
  /** `symbols.length × model.dim` quantized values (see {@linkcode scales}). */
  matrix: Int8Array;
  /** Per row, the value of one quantization step (row's largest magnitude / 127). */
  scales: Float32Array;
  /** Symbols without a vector (indexed or changed since embed_repo ran). */
  missing: number;
}

/** A symbol to embed: its text and the key its vector is stored under. */
export interface EmbeddingTarget {
  symbol: SymbolRecord;
  text: string;
  key: string;
}

/** Every symbol of the view with its text and key for a provider identity. */
export function embeddingTargets(view: RepoView, identity: string): EmbeddingTarget[] {
  return view.index.allSymbols().map((symbol) => {
    const text = embedText(symbol);
    return { symbol, text, key: embedKey(identity, text) };
  });
}

/** The semantic index of a view (stored vectors of the current index state). */
export const SEMANTIC_INDEX = facet<SemanticIndex>("semantic-index", (view) => {
  const model = view.index.embeddingModel();
  if (model === null) {
    return {
      model,
      symbols: [],
      matrix: new Int8Array(0),
      scales: new Float32Array(0),
      missing: 0,
    };
  }
  const vectors = view.index.embeddingVectors(model.dim);
  const symbols: SymbolRecord[] = [];
  const rows: Float32Array[] = [];
  let missing = 0;
  for (const t of embeddingTargets(view, model.identity)) {
    const v = vectors.get(t.key);
    if (v === undefined) missing++;
    else symbols.push(t.symbol), rows.push(v);
  }
  const matrix = new Int8Array(rows.length * model.dim);
  const scales = new Float32Array(rows.length);
  rows.forEach((v, i) => scales[i] = quantizeInto(v, matrix, i * model.dim));
  return { model, symbols, matrix, scales, missing };
});

/** Write `v` as 8-bit steps into `out` at `at`; returns the step's value. */
export function quantizeInto(v: Float32Array, out: Int8Array, at: number): number {
  let max = 0;
  for (let d = 0; d < v.length; d++) max = Math.max(max, Math.abs(v[d]!));
  const step = max === 0 ? 1 : max / 127;
  for (let d = 0; d < v.length; d++) out[at + d] = Math.round(v[d]! / step);
  return step;
}

/** Which symbols a semantic search may return (the lexical search's filters). */
export interface SemanticFilter {
  kind?: string | undefined;
  language?: string | undefined;
  filePattern?: string | undefined;
  /** Case-insensitive substring of a decorator. */
  decorator?: string | undefined;
}

/** A symbol near the query, with its cosine similarity. */
export interface NearSymbol {
  symbol: SymbolRecord;
  similarity: number;
}

/** The `limit` symbols most similar to `query` (unit length, the index's dimension) that pass. */
export function nearestSymbols(
  index: SemanticIndex,
  query: Float32Array,
  filter: SemanticFilter,
  limit: number,
): NearSymbol[] {
  const dim = index.model?.dim ?? 0;
  if (dim === 0 || query.length !== dim || limit <= 0) return [];
  const pattern = filter.filePattern === undefined ? null : globMatcher(filter.filePattern);
  const decorator = filter.decorator?.toLowerCase();
  const keep = (s: SymbolRecord) =>
    (filter.kind === undefined || s.kind === filter.kind) &&
    (filter.language === undefined || s.language === filter.language) &&
    (pattern === null || pattern(s.file)) &&
    (decorator === undefined || s.decorators.some((d) => d.toLowerCase().includes(decorator)));
  // The best `limit` so far, best first (a short sorted list: most rows never enter it).
  const best: NearSymbol[] = [];
  const m = index.matrix;
  for (let row = 0; row < index.symbols.length; row++) {
    let sum = 0;
    const at = row * dim;
    for (let d = 0; d < dim; d++) sum += m[at + d]! * query[d]!;
    const dot = sum * index.scales[row]!;
    if (best.length === limit && dot <= best[limit - 1]!.similarity) continue;
    const s = index.symbols[row]!;
    if (!keep(s)) continue;
    let i = best.length;
    while (i > 0 && best[i - 1]!.similarity < dot) i--;
    best.splice(i, 0, { symbol: s, similarity: dot });
    if (best.length > limit) best.pop();
  }
  return best;
}
