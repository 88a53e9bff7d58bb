/**
 * Semantic symbol search (the reference's `semantic`, `semantic_weight`, `semantic_only`,
 * `fusion`): the lexical ranking (symbol_rank.ts) and the nearest symbols by embedding
 * (semantic.ts) fused by reciprocal rank (rank_fusion.ts), or the nearest alone. The weight `w`
 * (default 0.5) splits the fusion: lexical `2(1 − w)`, semantic `2w`, so 0.5 weighs both as one.
 */
import type { SymbolRecord } from "../parser/types.ts";
import { reciprocalRankFusion } from "./rank_fusion.ts";
import { nearestSymbols, SEMANTIC_INDEX } from "./semantic.ts";
import { rankSymbolHits, type SymbolQuery } from "./symbol_rank.ts";
import type { RepoView } from "./view.ts";

/** Hits each channel ranks before fusion (at least the answer's size). */
export const SEMANTIC_DEPTH = 50;

/** The default of `semantic_weight`. */
export const DEFAULT_SEMANTIC_WEIGHT = 0.5;

/** A semantic search. */
export interface SemanticQuery extends SymbolQuery {
  /** The query's embedding (unit length, the stored vectors' dimension). */
  vector: Float32Array;
  /** `semantic_weight`, 0..1. */
  weight: number;
  /** Rank by similarity alone. */
  only: boolean;
}

/** A fused hit. */
export interface SemanticHit {
  symbol: SymbolRecord;
  /** The fused score (or the cosine similarity with `only`). */
  score: number;
  /** Cosine similarity to the query (null: the symbol has no vector or was not near). */
  similarity: number | null;
  /** Rank in the lexical ranking, from 1 (null: not ranked there). */
  lexicalRank: number | null;
  /** Rank by similarity, from 1 (null: not among the nearest). */
  semanticRank: number | null;
}

/** The outcome of {@linkcode rankSemantic}. */
export interface SemanticRanking {
  hits: SemanticHit[];
  /** Symbols either channel ranked (a lower bound of what matched). */
  matched: number;
}

/** Rank symbols for a semantic query (the index must hold vectors of the query's model). */
export function rankSemantic(view: RepoView, q: SemanticQuery): SemanticRanking {
  const depth = Math.max(q.maxResults, SEMANTIC_DEPTH);
  const near = nearestSymbols(view.get(SEMANTIC_INDEX), q.vector, q, depth);
  if (q.only) {
    const hits = near.slice(0, q.maxResults).map((n, i) => ({
      symbol: n.symbol,
      score: n.similarity,
      similarity: n.similarity,
      lexicalRank: null,
      semanticRank: i + 1,
    }));
    return { hits, matched: near.length };
  }
  const lexical = rankSymbolHits(view, { ...q, maxResults: depth, fuzzy: false }).hits;
  const similarity = new Map(near.map((n) => [n.symbol.id, n.similarity]));
  const fused = reciprocalRankFusion<SymbolRecord>([
    { name: "lexical", items: lexical.map((h) => h.symbol), weight: 2 * (1 - q.weight) },
    { name: "semantic", items: near.map((n) => n.symbol), weight: 2 * q.weight },
  ], (s) => s.id);
  const hits = fused.slice(0, q.maxResults).map((f) => ({
    symbol: f.item,
    score: f.score,
    similarity: similarity.get(f.key) ?? null,
    lexicalRank: f.ranks.lexical ?? null,
    semanticRank: f.ranks.semantic ?? null,
  }));
  return { hits, matched: fused.length };
}
