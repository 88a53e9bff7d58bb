/**
 * The pieces of semantic ranking on their own: 8-bit rows keep cosine similarity within a small
 * error and the neighbours' order; the nearest symbols pass the lexical search's filters;
 * reciprocal rank fusion weighs its channels and keeps each item once.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { nearestSymbols, quantizeInto, type SemanticIndex } from "../../src/query/semantic.ts";
import { reciprocalRankFusion } from "../../src/query/rank_fusion.ts";
import { normalize } from "../../src/embed/provider.ts";
import type { SymbolRecord } from "../../src/parser/types.ts";

/** A deterministic unit vector. */
function vector(seed: number, dim: number): Float32Array {
  let x = seed * 2654435761 % 4294967296;
  const v = new Float32Array(dim);
  for (let d = 0; d < dim; d++) {
    x = (x * 1664525 + 1013904223) % 4294967296;
    v[d] = x / 4294967296 - 0.5;
  }
  return normalize(v);
}

function index(vectors: Float32Array[], symbols: Partial<SymbolRecord>[]): SemanticIndex {
  const dim = vectors[0]!.length;
  const matrix = new Int8Array(vectors.length * dim);
  const scales = new Float32Array(vectors.length);
  vectors.forEach((v, i) => scales[i] = quantizeInto(v, matrix, i * dim));
  return {
    model: { identity: "t", dim },
    symbols: symbols.map((s, i) =>
      ({
        id: `s${i}`,
        kind: "function",
        language: "python",
        file: "a.py",
        decorators: [],
        ...s,
      }) as SymbolRecord
    ),
    matrix,
    scales,
    missing: 0,
  };
}

Deno.test("semantic: 8-bit rows keep the cosine within 0.01 and the nearest first", () => {
  const dim = 384;
  const vectors = Array.from({ length: 200 }, (_, i) => vector(i + 1, dim));
  const idx = index(vectors, vectors.map(() => ({})));
  const query = vector(9999, dim);
  const exact = vectors.map((v) => v.reduce((s, x, d) => s + x * query[d]!, 0));
  const near = nearestSymbols(idx, query, {}, 200);
  for (const n of near) ok(Math.abs(n.similarity - exact[Number(n.symbol.id.slice(1))]!) < 0.01);
  const best = exact.indexOf(Math.max(...exact));
  equal(near[0]!.symbol.id, `s${best}`);
  for (let i = 1; i < near.length; i++) ok(near[i - 1]!.similarity >= near[i]!.similarity);
});

Deno.test("semantic: the nearest symbols pass kind, language, file and decorator filters", () => {
  const q = vector(1, 8);
  const idx = index([q, q, q, q], [
    { kind: "class" },
    { language: "go" },
    { file: "tests/t.py" },
    { decorators: ["@app.route('/x')"] },
  ]);
  deepEqual(nearestSymbols(idx, q, { kind: "class" }, 5).map((n) => n.symbol.id), ["s0"]);
  deepEqual(nearestSymbols(idx, q, { language: "go" }, 5).map((n) => n.symbol.id), ["s1"]);
  deepEqual(nearestSymbols(idx, q, { filePattern: "tests/*" }, 5).map((n) => n.symbol.id), ["s2"]);
  deepEqual(nearestSymbols(idx, q, { decorator: "ROUTE" }, 5).map((n) => n.symbol.id), ["s3"]);
  equal(nearestSymbols(idx, q, {}, 2).length, 2);
  deepEqual(nearestSymbols(idx, new Float32Array(3), {}, 5), [], "a query of another dimension");
});

Deno.test("rank fusion: weights, ranks per channel, one entry per item", () => {
  const fused = reciprocalRankFusion([
    { name: "lexical", items: ["a", "b", "c"], weight: 0 },
    { name: "semantic", items: ["c", "b", "b"], weight: 2 },
  ], (x) => x);
  deepEqual(fused.map((f) => f.key), ["c", "b", "a"]);
  deepEqual(fused[0]!.ranks, { lexical: 3, semantic: 1 });
  equal(fused[1]!.score, 2 / 62, "a repeated item counts once per channel");
  equal(fused[2]!.score, 0);
});
