import { deepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { SymbolRecord } from "../../src/parser/types.ts";
import { RepoIndex } from "../../src/store/mod.ts";
import { symbolMatchExpression } from "../../src/store/fts_text.ts";
import { tempWorkspace, writeRepoIndex } from "../ingest/_helpers.ts";

/** The ranking by sorting the whole joined result: (score desc, id), as the contract states. */
function reference(dbPath: string, query: string, limit: number, kind?: string) {
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    return (db.prepare(
      `SELECT f.path || '::' || s.local_id AS id,
         -bm25(symbols_fts, 10.0, 3.0, 1.0, 1.0, 2.0) AS score
       FROM symbols_fts JOIN symbols s ON s.rowid = symbols_fts.rowid
       JOIN files f ON f.id = s.file_id
       WHERE symbols_fts MATCH ?${kind === undefined ? "" : " AND s.kind = ?"}
       ORDER BY score DESC, id LIMIT ?`,
    ).all(
      ...(kind === undefined
        ? [symbolMatchExpression(query)!, limit]
        : [symbolMatchExpression(query)!, kind, limit]),
    ) as { id: string; score: number }[]).map((r) => [r.id, r.score]);
  } finally {
    db.close();
  }
}

Deno.test("searchSymbols ranks like a full sort by (score desc, id), ties at the limit included", async () => {
  const ws = tempWorkspace();
  try {
    const dbPath = join(ws.indexDir, "r.db");
    // Many identical symbols (equal BM25: ties), in files written in reverse id order, plus
    // better and worse matches around them.
    const files: [string, string][] = [];
    for (let i = 24; i >= 0; i--) {
      files.push([`m${String(i).padStart(2, "0")}.py`, "def handle_item(x):\n    return x\n"]);
    }
    files.push(["best.py", "def handle(x):\n    return x\n\nclass Handle:\n    pass\n"]);
    files.push([
      "worse.py",
      'def process(x):\n    """handle the item, then handle it again"""\n    return x\n',
    ]);
    await writeRepoIndex(dbPath, files, "python");
    const index = RepoIndex.open(dbPath);
    try {
      // A one-character word is matched exactly, never as a prefix (`x` is a parameter name).
      for (const query of ["handle", "handle item", "handleItem", "item", "x handle", "h item"]) {
        for (const limit of [1, 2, 3, 5, 10, 26, 27, 100]) {
          const got = index.searchSymbols(query, { limit }).map((h) => [h.symbol.id, h.bm25]);
          deepEqual(got, reference(dbPath, query, limit), `${query} limit ${limit}`);
        }
      }
      deepEqual(index.searchSymbols("h", { limit: 10 }), [], "h is not a prefix of handle");
      // The brief search: the same hits in the same order, with the fields it ranks on.
      const brief = (s: SymbolRecord) => ({
        id: s.id,
        file: s.file,
        name: s.name,
        kind: s.kind,
        language: s.language,
        decorators: s.decorators,
      });
      for (const query of ["handle", "handle item", "process"]) {
        deepEqual(
          index.searchSymbolBriefs(query, { limit: 7 }),
          index.searchSymbols(query, { limit: 7 }).map((h) => ({
            symbol: brief(h.symbol),
            bm25: h.bm25,
          })),
        );
      }
      deepEqual(index.symbolBriefsByName("HANDLE"), index.symbolsByName("HANDLE").map(brief));
      deepEqual(index.symbolBriefsByName("handle").length, 2);
      const classes = index.searchSymbols("handle", { kinds: ["class"], limit: 5 });
      deepEqual(classes.map((h) => [h.symbol.id, h.bm25]), reference(dbPath, "handle", 5, "class"));
      ok(classes.length === 1);
      // The tied block really is cut in id order.
      const hits = index.searchSymbols("handle_item", { limit: 30 });
      const tied = hits.map((h) => h.symbol.id);
      const blockScores = hits.filter((h) => h.symbol.name === "handle_item").map((h) => h.bm25);
      deepEqual(blockScores.length, 25);
      ok(new Set(blockScores).size === 1, "the identical symbols tie");
      ok(
        tied.indexOf("m00.py::handle_item#function") < tied.indexOf("m24.py::handle_item#function"),
      );
    } finally {
      index.close();
    }
  } finally {
    ws.dispose();
  }
});
