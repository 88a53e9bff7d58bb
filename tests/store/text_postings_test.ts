import { deepEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import {
  decodePostings,
  encodePostings,
  filesWithAll,
  TEXT_POSTINGS_DDL,
  TextPostingsWriter,
} from "../../src/store/text_postings.ts";
import { queryTrigrams, TrigramSet } from "../../src/store/trigrams.ts";

const enc = new TextEncoder();

/** A tiny deterministic generator (mulberry32). */
function _random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ["alpha", "Beta", "gamma", "DELTA", "eps", "zeta", "eta", "theta", "io", "Kappa"];

function _text(rand: () => number): Uint8Array {
  const n = 1 + Math.floor(rand() * 12);
  return enc.encode(
    Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)])
      .join(rand() < 0.5 ? " " : "_"),
  );
}

function _read(db: DatabaseSync) {
  const stmt = db.prepare("SELECT files FROM text_postings WHERE gram = ?");
  return (g: number) => (stmt.get(g) as { files: Uint8Array } | undefined)?.files;
}

Deno.test("posting lists: delta varints round-trip", () => {
  for (const ids of [[], [1], [1, 2, 3], [5, 127, 128, 129, 16_384, 2 ** 27 - 1]]) {
    deepEqual(decodePostings(encodePostings(ids)), ids);
  }
});

Deno.test("text postings: full builds and incremental changes select exactly the files with every trigram", () => {
  const rand = _random(7);
  const db = new DatabaseSync(":memory:");
  db.exec(TEXT_POSTINGS_DDL);
  const grams = new TrigramSet();
  // The model: file id -> content.
  const files = new Map<number, Uint8Array>();
  const check = () => {
    for (const word of [...WORDS, "ta_", "lpha_Be", "kap", "nothing"]) {
      const q = queryTrigrams([word]);
      if (q === null) continue;
      const want = [...files].filter(([, c]) => {
        const have = new Set(grams.collect(c));
        return q.every((g) => have.has(g));
      }).map(([id]) => id).sort((a, b) => a - b);
      deepEqual(filesWithAll(_read(db), q), want, word);
    }
  };
  let writer = new TextPostingsWriter(db);
  writer.clear();
  for (let id = 1; id <= 40; id++) {
    files.set(id, _text(rand));
    writer.put(id, files.get(id)!, undefined);
  }
  writer.finish();
  check();
  for (let run = 0; run < 20; run++) {
    writer = new TextPostingsWriter(db);
    for (let k = 0; k < 5; k++) {
      const id = 1 + Math.floor(rand() * 50);
      const old = files.get(id);
      if (old !== undefined && rand() < 0.3) {
        writer.remove(id, old);
        files.delete(id);
      } else {
        const next = _text(rand);
        writer.put(id, next, old);
        files.set(id, next);
      }
    }
    writer.finish();
    check();
  }
  // No row is left empty.
  const empty = db.prepare("SELECT count(*) AS n FROM text_postings WHERE length(files) = 0")
    .get() as { n: number };
  deepEqual(empty.n, 0);
  db.close();
});

Deno.test("text postings: a full build larger than one chunk of pairs lists every file of every trigram", () => {
  const rand = _random(11);
  const db = new DatabaseSync(":memory:");
  db.exec(TEXT_POSTINGS_DDL);
  const grams = new TrigramSet();
  const writer = new TextPostingsWriter(db);
  writer.clear();
  // ~300 files of ~2,000 distinct trigrams each: more than the 2^19 pairs of one chunk.
  const byGram = new Map<number, number[]>();
  for (let id = 1; id <= 300; id++) {
    const text = Uint8Array.from({ length: 4000 }, () => 97 + Math.floor(rand() * 16));
    for (const g of grams.collect(text)) {
      let l = byGram.get(g);
      if (l === undefined) byGram.set(g, l = []);
      l.push(id);
    }
    writer.put(id, text, undefined);
  }
  writer.finish();
  const rows = db.prepare("SELECT gram, files FROM text_postings ORDER BY gram").all() as {
    gram: number;
    files: Uint8Array;
  }[];
  deepEqual(rows.map((r) => r.gram), [...byGram.keys()].sort((a, b) => a - b));
  for (const r of rows) deepEqual(decodePostings(r.files), byGram.get(r.gram));
  db.close();
});
