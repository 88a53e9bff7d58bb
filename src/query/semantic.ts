/**
 * The semantic side of symbol search: the stored vectors of a repo's symbols as one matrix (a
 * facet of the view, built when a semantic search first needs it), and the symbols nearest a
 * query vector by cosine similarity (a dot product: every stored vector has unit length), with
 * the same filters as the lexical search.
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
  /** `symbols.length × model.dim` floats. */
  matrix: Float32Array;
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
  if (model === null) return { model, symbols: [], matrix: new Float32Array(0), missing: 0 };
  const vectors = view.index.embeddingVectors(model.dim);
  const symbols: SymbolRecord[] = [];
  const rows: Float32Array[] = [];
  let missing = 0;
  for (const t of embeddingTargets(view, model.identity)) {
    const v = vectors.get(t.key);
    if (v === undefined) missing++;
    else symbols.push(t.symbol), rows.push(v);
  }
  const matrix = new Float32Array(rows.length * model.dim);
  rows.forEach((v, i) => matrix.set(v, i * model.dim));
  return { model, symbols, matrix, missing };
});

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
    let dot = 0;
    const at = row * dim;
    for (let d = 0; d < dim; d++) dot += m[at + d]! * query[d]!;
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
