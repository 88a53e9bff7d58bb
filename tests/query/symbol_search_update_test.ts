/**
 * Facets updated after a small change (`Facet.update`): after files are re-indexed with none
 * added or removed, the next view's symbol ranking index (`SymbolSearch.updated`), file priors,
 * project words and files by path are made from the previous view's and those files alone, and they are
 * exactly what a build gives — for the index the same documents with the same fields, postings
 * and weights (numbered apart: the update adds documents after the built ones), the same
 * dictionary, and the same BM25 rankings to the last bit of each score — through edits that add, remove and rename symbols,
 * bring new terms, add a vendoring header, empty a file of symbols, chain without a view in
 * between, and skip a view that never searched.
 */
import { deepEqual, equal, notEqual, ok } from "node:assert/strict";
import { indexLocalFolder } from "../../src/ingest/index_local.ts";
import { Bm25Ranker, SYMBOL_SEARCH } from "../../src/query/bm25.ts";
import { FILE_PRIORS } from "../../src/query/file_priors.ts";
import { FILES, PATHS } from "../../src/query/files.ts";
import { PROJECT_WORDS } from "../../src/query/query_words.ts";
import type { SymbolSearch } from "../../src/store/symbol_search.ts";
import { reindexFiles } from "../../src/tools/reindex.ts";
import {
  inThreadParser,
  tempWorkspace,
  testConfig,
  workspaceContext,
  writeTree,
} from "../ingest/_helpers.ts";

/**
 * What an index holds, as a ranking sees it: each document in the index (by rowid) with its
 * fields (labels as texts) and its (term, weight) postings, the count and mean length of the
 * documents, the dictionary's answers. Not the document numbers: an update numbers them apart.
 */
function contents(s: SymbolSearch, probes: readonly string[]) {
  const p = s.postings();
  const built = p.rowid.length;
  const docs = new Map<number, { fields: unknown[]; terms: [number, number][] }>();
  const rowidOf = (d: number) => d < built ? p.rowid[d]! : p.added!.rowid[d - built]!;
  for (let d = 0; d < built; d++) {
    if (p.dead?.[d] === 1) continue;
    const fields = [p.file[d], p.length[d], p.labels[p.kind[d]!], p.labels[p.language[d]!]];
    docs.set(p.rowid[d]!, { fields, terms: [] });
  }
  const a = p.added;
  for (let i = 0; a !== null && i < a.rowid.length; i++) {
    const fields = [a.file[i], a.length[i], p.labels[a.kind[i]!], p.labels[a.language[i]!]];
    docs.set(a.rowid[i]!, { fields, terms: [] });
  }
  for (let t = 0; t + 1 < p.start.length; t++) {
    for (let i = p.start[t]!; i < p.start[t + 1]!; i++) {
      if (p.dead?.[p.doc[i]!] === 1) continue;
      docs.get(rowidOf(p.doc[i]!))!.terms.push([t, p.weight[i]!]);
    }
  }
  for (const [t, x] of a?.postings ?? []) {
    for (let i = 0; i < x.doc.length; i++) {
      docs.get(rowidOf(x.doc[i]!))!.terms.push([t, x.weight[i]!]);
    }
  }
  for (const d of docs.values()) d.terms.sort((x, y) => x[0] - y[0]);
  return {
    docs: [...docs.entries()].sort((x, y) => x[0] - y[0]),
    live: p.live,
    size: s.size,
    avgdl: p.avgdl,
    dictionary: s.dictionarySize,
    lookups: probes.map((t) => [s.lookup(t, false), s.lookup(t, true)]),
  };
}

/** The BM25 ranking of queries, hits in score order (ties by rowid): what search_symbols reads. */
function rankings(s: SymbolSearch) {
  const ranker = new Bm25Ranker(s);
  return QUERIES.map((q) =>
    ranker.rank(q, { limit: 50 }).sort((x, y) => y.score - x.score || x.rowid - y.rowid)
  );
}

const QUERIES = ["alpha", "beta function", "parse thing", "omega two", "zeta zebra", "b", "quokka"];

const PROBES = ["alpha", "beta", "gamma", "zeta", "omega", "parse", "pars", "b", "z", "renamed"];

Deno.test("symbol search: an update after re-indexed files equals a build", async () => {
  const ws = tempWorkspace("codemunch-ssupdate-");
  try {
    writeTree(ws.root, {
      "a.py":
        "def alpha():\n    '''Parse the alpha.'''\n    return 1\n\nclass Beta:\n    def gamma(self):\n        pass\n",
      "b.py": "def beta_one():\n    pass\n\ndef beta_two(x, y):\n    return x\n",
      "c.ts":
        "export function parseThing(input: string): number { return 1; }\nexport const k = 2;\n",
      "d.go": "package d\n\nfunc Omega() int { return 0 }\n",
    });
    const o = await indexLocalFolder(ws.store, testConfig(), inThreadParser, { path: ws.root });
    const ctx = workspaceContext(ws);
    const first = ctx.views.open(o.repo);
    let previous = first.get(SYMBOL_SEARCH);
    let previousPriors = first.get(FILE_PRIORS);
    let previousFiles = first.get(FILES);
    const check = (why: string) => {
      const view = ctx.views.open(o.repo);
      const updated = view.get(SYMBOL_SEARCH);
      notEqual(updated, previous, `${why}: a new index`);
      const fresh = view.index.symbolSearch();
      deepEqual(contents(updated, PROBES), contents(fresh, PROBES), why);
      const ranked = rankings(updated);
      deepEqual(ranked, rankings(fresh), `${why}: rankings`);
      ok(ranked.filter((r) => r.length > 0).length >= 4, `${why}: queries that find symbols`);
      // The built postings are shared, not copied: only the documents since are new.
      equal(updated.postings().doc, first.get(SYMBOL_SEARCH).postings().doc, `${why}: shared`);
      previous = updated;
      // The file priors alike: updated for the re-indexed files, equal to a build.
      const priors = view.get(FILE_PRIORS);
      notEqual(priors, previousPriors);
      const built = FILE_PRIORS.build(view);
      for (const path of [...view.get(PATHS), "not/indexed.py"]) {
        deepEqual(priors.byPath(path), built.byPath(path), `${why}: ${path}`);
      }
      previousPriors = priors;
      // And the files by path: the re-indexed files' rows, in the same order.
      const files = view.get(FILES);
      notEqual(files, previousFiles);
      deepEqual([...files], [...FILES.build(view)], `${why}: files`);
      previousFiles = files;
    };

    // A symbol added with new terms, one removed, one renamed, in the middle file.
    writeTree(ws.root, {
      "b.py":
        "def beta_renamed():\n    pass\n\ndef zeta_fresh_word(q):\n    '''Zebra.'''\n    return q\n\ndef another():\n    pass\n",
    });
    await reindexFiles(ctx, ws.root, ["b.py"]);
    check("one file changed");

    // Two files changed, the first and the last (terms only removed from one).
    writeTree(ws.root, {
      "a.py": "def alpha():\n    return 1\n",
      "d.go":
        "package d\n\nfunc Omega() int { return 0 }\n\nfunc OmegaTwo(a, b int) int { return a }\n",
    });
    await reindexFiles(ctx, ws.root, ["a.py", "d.go"]);
    check("two files changed");

    // Two changes with no view in between, then a view that never searched, then another.
    writeTree(ws.root, { "c.ts": "export function parseOther(): void {}\n" });
    await reindexFiles(ctx, ws.root, ["c.ts"]);
    writeTree(ws.root, { "a.py": "def alpha_changed():\n    '''Quokka.'''\n    return 3\n" });
    await reindexFiles(ctx, ws.root, ["a.py"]);
    ctx.views.open(o.repo); // a view, nothing asked of it
    writeTree(ws.root, { "b.py": "def beta_last():\n    pass\n" });
    await reindexFiles(ctx, ws.root, ["b.py"]);
    check("changes chained, a view skipped");

    // A header that says the file is vendored: its prior changes (role vendor).
    writeTree(ws.root, {
      "c.ts": "// Vendored from github.com/x/y.\nexport function parseOther(): void {}\n",
    });
    await reindexFiles(ctx, ws.root, ["c.ts"]);
    check("a vendoring header");
    equal(ctx.views.open(o.repo).get(FILE_PRIORS).byPath("c.ts").role, "vendor");

    // A file emptied of symbols (its row is gone), then given symbols again.
    writeTree(ws.root, { "d.go": "package d\n" });
    await reindexFiles(ctx, ws.root, ["d.go"]);
    check("a file with no symbols now");
    writeTree(ws.root, { "d.go": "package d\n\nfunc Back() {}\n" });
    await reindexFiles(ctx, ws.root, ["d.go"]);
    check("symbols again");

    // A file added: built again (not an update), and still equal.
    writeTree(ws.root, { "e.py": "def epsilon():\n    pass\n" });
    await reindexFiles(ctx, ws.root, ["e.py"]);
    const view = ctx.views.open(o.repo);
    equal(view.get(SYMBOL_SEARCH).size, view.index.symbolSearch().size);
  } finally {
    ws.dispose();
  }
});

Deno.test("project words: an update after re-indexed files equals a build", async () => {
  const ws = tempWorkspace("codemunch-pwupdate-");
  try {
    const tree: Record<string, string> = { "other/x.py": "def x():\n    pass\n" };
    tree["other/y.py"] = "def y():\n    pass\n";
    for (let i = 0; i < 9; i++) tree[`pkg/m${i}.py`] = `def f${i}():\n    pass\n`;
    writeTree(ws.root, tree);
    const o = await indexLocalFolder(ws.store, testConfig(), inThreadParser, { path: ws.root });
    const ctx = workspaceContext(ws);
    const words = () => {
      const view = ctx.views.open(o.repo);
      const got = [...view.get(PROJECT_WORDS)].sort();
      deepEqual(got, [...PROJECT_WORDS.build(view)].sort());
      return got.includes("pkg");
    };
    equal(words(), true, "9 of 11 files with symbols are in pkg/");
    // Emptied of symbols one at a time: 8 of 10 (still 80%), then 7 of 9.
    writeTree(ws.root, { "pkg/m0.py": "# nothing\n" });
    await reindexFiles(ctx, ws.root, ["pkg/m0.py"]);
    equal(words(), true);
    writeTree(ws.root, { "pkg/m1.py": "# nothing\n" });
    await reindexFiles(ctx, ws.root, ["pkg/m1.py"]);
    equal(words(), false);
    writeTree(ws.root, { "pkg/m0.py": "def back():\n    pass\n" });
    await reindexFiles(ctx, ws.root, ["pkg/m0.py"]);
    equal(words(), true);
  } finally {
    ws.dispose();
  }
});
