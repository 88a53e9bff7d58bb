/**
 * The store's postings and statistics (store/symbol_terms.ts, store/symbol_search.ts) and the
 * query layer's BM25 over them (query/bm25.ts) against a real system, SQLite's FTS5: the same tokens as its `porter unicode61 remove_diacritics 2`
 * tokenizer, and the same BM25 scores as `bm25(symbols_fts, 10, 3, 1, 1, 2)` over every match of a
 * query, with the kind, language and file filters and the cut at a limit keeping every tie —
 * before and after incremental re-indexes and after a migration from schema 1. The query layer's
 * stages on top (coverage, identity, priors) are tested by their behaviour elsewhere
 * (`search_ranking_test.ts`, `code_first_test.ts`), not by rebuilding them here.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join, relative } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { symbolMatchExpression } from "../../src/store/fts_text.ts";
import { Tokenizer } from "../../src/store/symbol_terms.ts";
import { BM25 } from "../../src/query/bm25.ts";
import { PATHS_BY_ID } from "../../src/query/files.ts";
import { globMatcher } from "../../src/query/glob.ts";
import { RepoViews } from "../../src/query/view.ts";
import type { SymbolKind } from "../../src/parser/types.ts";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";

const WORDS = [
  "caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated",
  "troubled sized hopping tanned falling hissing fizzed failing filing happy sky relational",
  "conditional rational valenci hesitanci digitizer conformabli radicalli differentli vileli",
  "analogousli vietnamization predication operator feudalism decisiveness hopefulness",
  "callousness formaliti sensitiviti sensibiliti triplicate formative formalize electriciti",
  "electrical hopeful goodness revival allowance inference airliner gyroscopic adjustable",
  "defensible irritant replacement adjustment dependent adoption homologou communism activate",
  "angulariti homologous effective bowdlerize probate rate cease controll roll generalizations",
  "oscillators sses ies eed ing aing yed says played agreement ability sensational biliti",
  "parseHTTPResponse2 get_user_name MAX_SIZE x86_64 utf8 sha256 NewReader ServeHTTP io.Writer",
  "naïve Café µs ſtrasse résumé 100μ Ωmega ÉCOLE façade coöperate ﬁle 東京 Ünïcödé hyperlinking",
  "a an is the of it's y yy yes ay aye eyes quickly relationships relating related relater",
];

Deno.test("the tokenizer gives SQLite's porter unicode61 tokens", () => {
  const db = new DatabaseSync(":memory:");
  try {
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE v USING fts5vocab(t, instance);`);
    const insert = db.prepare("INSERT INTO t(rowid, x) VALUES (?, ?)");
    WORDS.forEach((line, i) => insert.run(i + 1, line));
    const tokenizer = new Tokenizer();
    WORDS.forEach((line, i) => {
      const sqlite = (db.prepare("SELECT term FROM v WHERE doc = ? ORDER BY offset").all(
        i + 1,
      ) as { term: string }[]).map((r) => r.term);
      deepStrictEqual(tokenizer.tokenize(line), sqlite, line);
    });
  } finally {
    db.close();
  }
});

function fixtureFiles(): Record<string, string> {
  const root = new URL("../../fixtures/languages/", import.meta.url).pathname;
  const files: Record<string, string> = {};
  const visit = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      const path = join(dir, e.name);
      if (e.isDirectory) visit(path);
      else if (e.isFile && e.name !== "expected.json") {
        files[relative(root, path)] = Deno.readTextFileSync(path);
      }
    }
  };
  visit(root);
  // Many near-identical symbols (BM25 ties at the candidate cut) and exact names.
  for (let i = 0; i < 150; i++) {
    files[`gen/handlers_${String(i).padStart(3, "0")}.py`] = [
      `def handle_item_${i}(x):`,
      `    """Handle one item and parse it."""`,
      "    return x",
      "",
      "def handle(x):",
      "    return x",
      "",
    ].join("\n");
  }
  files["gen/parse.py"] = [
    "class Parser:",
    '    """Parses configuration files."""',
    "    def parse(self, text):",
    "        return text",
    "",
    "def parse_config(path):",
    '    """Read and parse the config at path."""',
    "    return path",
    "",
  ].join("\n");
  return files;
}

/**
 * FTS5's own BM25 over every match of the query's MATCH expression (the store's ranking input):
 * `-bm25(symbols_fts, 10, 3, 1, 1, 2)` by rowid, with the kind, language and file filters.
 */
function fts5Scores(dbPath: string, args: Record<string, unknown>): Map<number, number> {
  const query = String(args.query);
  const pattern = args.file_pattern as string | undefined;
  const glob = pattern === undefined ? null : new RegExp(
    "^" + pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".") +
      "$",
  );
  const kind = args.kind as string | undefined;
  const language = args.language as string | undefined;
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    const match = symbolMatchExpression(query);
    if (match === null) return new Map();
    const rows = db.prepare(
      `SELECT s.rowid AS rowid, f.path AS file, s.kind, s.language,
         -bm25(symbols_fts, 10.0, 3.0, 1.0, 1.0, 2.0) AS score
       FROM symbols_fts JOIN symbols s ON s.rowid = symbols_fts.rowid
       JOIN files f ON f.id = s.file_id WHERE symbols_fts MATCH ?`,
    ).all(match) as {
      rowid: number;
      file: string;
      kind: string;
      language: string;
      score: number;
    }[];
    return new Map(
      rows.filter((r) =>
        (kind === undefined || r.kind === kind) &&
        (language === undefined || r.language === language) &&
        (glob === null || glob.test(r.file))
      ).map((r) => [r.rowid, r.score]),
    );
  } finally {
    db.close();
  }
}

const QUERIES = [
  "parse",
  "parse_config",
  "handle item 7",
  "handle",
  "Handle",
  "handle item",
  "parse config",
  "Parser",
  "greet",
  "new",
  "get user",
  "main",
  "config",
  "x",
  "zzz_absent",
];
const OPTIONS: Record<string, unknown>[] = [
  {},
  { max_results: 3 },
  { max_results: 40 },
  { kind: "function" },
  { language: "python" },
  { file_pattern: "gen/*" },
  { file_pattern: "*.go", max_results: 5 },
];

Deno.test("the in-memory BM25 gives FTS5's scores over every match (also after re-indexes and a migration)", async (t) => {
  const ws = tempWorkspace("codemunch-rank-");
  const files = fixtureFiles();
  writeTree(ws.root, files);
  const runner = workspaceRunner(ws);
  const index = async () => {
    const r = await runner.call("index_folder", { path: ws.root, format: "json" });
    equal(r.isError, false, r.text);
    return JSON.parse(r.text) as { repo: string; warnings?: string[] };
  };
  try {
    const { repo } = await index();
    const dbPath = ws.store.repo(repo).dbPath;
    const views = new RepoViews(ws.store);
    const check = () => {
      let compared = 0;
      const view = views.open(repo);
      const paths = view.get(PATHS_BY_ID);
      for (const query of QUERIES) {
        for (const options of OPTIONS) {
          const args = { query, ...options };
          const want = fts5Scores(dbPath, args);
          const glob = options.file_pattern === undefined
            ? null
            : globMatcher(String(options.file_pattern));
          const got = view.get(BM25).rank(query, {
            limit: 1_000_000,
            ...(options.kind !== undefined ? { kinds: [options.kind as SymbolKind] } : {}),
            ...(options.language !== undefined ? { language: String(options.language) } : {}),
            ...(glob !== null ? { keepFile: (id: number) => glob(paths.get(id) ?? "") } : {}),
          });
          deepStrictEqual(
            new Map(got.map((r) => [r.rowid, r.score])),
            want,
            JSON.stringify(args),
          );
          // The cut at a limit keeps every hit tied with the limit-th best.
          const cut = view.get(BM25).rank(query, {
            limit: 3,
            ...(options.kind !== undefined ? { kinds: [options.kind as SymbolKind] } : {}),
            ...(options.language !== undefined ? { language: String(options.language) } : {}),
            ...(glob !== null ? { keepFile: (id: number) => glob(paths.get(id) ?? "") } : {}),
          });
          const third = [...want.values()].sort((a, b) => b - a)[2] ?? -Infinity;
          equal(cut.length, [...want.values()].filter((v) => v >= third).length);
          compared++;
        }
      }
      ok(compared > 50);
    };
    await t.step("fresh index", check);
    await t.step("after changing, adding and deleting files", async () => {
      writeTree(ws.root, {
        "gen/parse.py": "def parse(text):\n    '''Parse text.'''\n    return text\n",
        "gen/extra.py": "def handle_extra(x):\n    return x\n\nclass HandleThing:\n    pass\n",
      });
      await Deno.remove(join(ws.root, "gen/handlers_007.py"));
      await index();
      check();
    });
    await t.step("after a migration from schema 1", async () => {
      const db = new DatabaseSync(dbPath);
      db.exec("DROP TABLE symbol_terms; DROP TABLE symbol_term_ids; PRAGMA user_version=1;");
      db.close();
      const out = await index();
      ok(JSON.stringify(out).includes("migrated"), JSON.stringify(out));
      check();
    });
  } finally {
    await runner.close();
    ws.dispose();
  }
});
