import { deepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { RepoIndex } from "../../src/store/mod.ts";
import { B, Bm25Ranker, K1 } from "../../src/query/bm25.ts";
import { abbreviationsOf } from "../../src/query/abbreviations.ts";
import { queryTerm } from "../../src/store/symbol_terms.ts";
import { tempWorkspace, writeRepoIndex } from "../ingest/_helpers.ts";

Deno.test("Bm25Ranker: other k1 and b (the fit's grid) change only the length part", async () => {
  const ws = tempWorkspace();
  try {
    const dbPath = join(ws.indexDir, "r.db");
    // The same name twice, with a short and a long docstring that do not hold the word.
    const files: [string, string][] = [
      ["short.py", 'def handle(x):\n    """lorem ipsum"""\n    return x\n'],
      [
        "long.py",
        'def handle(x):\n    """lorem ipsum dolor sit amet consectetur adipiscing elit sed do"""\n' +
        "    return x\n",
      ],
      ["other.py", "def process(y):\n    return y\n"],
      ["more.py", "def parse(y):\n    return y\n\ndef emit(y):\n    return y\n"],
    ];
    await writeRepoIndex(dbPath, files, "python");
    const index = RepoIndex.open(dbPath);
    try {
      const ranker = new Bm25Ranker(index.symbolSearch());
      const scoreOf = (k1?: number, b?: number, by = ranker) => {
        const hits = by.rank("handle", {
          limit: 10,
          ...(k1 === undefined ? {} : { k1 }),
          ...(b === undefined ? {} : { b }),
        });
        const byFile = new Map(hits.map((h) => [h.fileId, h.score]));
        deepEqual(hits.length, 2, "both handle functions, not process");
        return [...byFile.entries()].sort((a, z) => a[0] - z[0]).map(([, s]) => s);
      };
      // The shipped constants, passed or not: the same doubles.
      deepEqual(scoreOf(K1, B), scoreOf());
      // Length normalisation on (b 0.75): the short symbol scores higher; off (b 0): equal.
      const [shortDefault, longDefault] = scoreOf();
      ok(shortDefault! > longDefault!);
      const [shortFlat, longFlat] = scoreOf(K1, 0);
      deepEqual(shortFlat, longFlat);
      // A lower k1 saturates sooner: with b 0 the score is idf·f·(k1+1)/(f+k1), which falls as
      // k1 falls for f > 1 (a name weighs 10).
      ok(scoreOf(0.6, 0)[0]! < shortFlat!);
      // The length part kept for other constants (asked a second time) gives the doubles a fresh
      // ranker computes for them.
      scoreOf(0.6, 0.5);
      const cached = scoreOf(0.6, 0.5);
      deepEqual(scoreOf(0.6, 0.5, new Bm25Ranker(index.symbolSearch())), cached);
      ok(scoreOf(0.6, 0.5)[0] !== scoreOf()[0]);
    } finally {
      index.close();
    }
  } finally {
    ws.dispose();
  }
});

Deno.test("abbreviationsOf: stemmed words to the stemmed abbreviations code writes", () => {
  deepEqual(abbreviationsOf(queryTerm("context")), ["ctx"]);
  deepEqual(abbreviationsOf(queryTerm("configuration")), ["cfg", "conf", "config"]);
  deepEqual(abbreviationsOf(queryTerm("requests")), ["req"], "reqs stems to req");
  deepEqual(abbreviationsOf(queryTerm("zebra")), []);
});

Deno.test("Bm25Ranker: abbreviations score at their weight and give their word's coverage", async () => {
  const ws = tempWorkspace();
  try {
    const dbPath = join(ws.indexDir, "r.db");
    const files: [string, string][] = [
      ["a.go", "package a\n\nfunc WithCtx(parent int) int { return parent }\n"],
      ["b.go", "package a\n\nfunc WithContext(parent int) int { return parent }\n"],
      ["c.go", "package a\n\nfunc Parse(s string) int { return 0 }\n"],
      ["d.go", "package a\n\nfunc Emit(s string) int { return 0 }\n"],
    ];
    await writeRepoIndex(dbPath, files, "go");
    const index = RepoIndex.open(dbPath);
    try {
      const ranker = new Bm25Ranker(index.symbolSearch());
      const names = (abbreviations: number) => {
        const hits = ranker.rank("with context", { limit: 10, abbreviations });
        return new Map(
          hits.map((h) => [index.symbolNamesByRowid([h.rowid]).get(h.rowid)!.name, h]),
        );
      };
      const off = names(0);
      deepEqual(off.get("WithCtx")!.coverage, 0.5, "off: only 'with'");
      const on = names(1);
      deepEqual(on.get("WithCtx")!.coverage, 1, "ctx covers 'context'");
      ok(on.get("WithCtx")!.score > off.get("WithCtx")!.score);
      // The full word's symbol is unchanged (it has no ctx), and a half weight scores between.
      deepEqual(on.get("WithContext")!.score, off.get("WithContext")!.score);
      const half = names(0.5).get("WithCtx")!.score;
      ok(half > off.get("WithCtx")!.score && half < on.get("WithCtx")!.score);
    } finally {
      index.close();
    }
  } finally {
    ws.dispose();
  }
});
