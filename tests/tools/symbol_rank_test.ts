/**
 * The in-memory symbol ranking (store/symbol_terms.ts, store/symbol_search.ts) against FTS5:
 * the same tokens as SQLite's `porter unicode61 remove_diacritics 2` tokenizer, and
 * `search_symbols` giving the same hits, order and scores as the reference pipeline — FTS5
 * `bm25(symbols_fts, 10, 3, 1, 1, 2)` over every match, filters, the cut at the candidate limit
 * with all ties kept, exact names, name bonuses, the file focus and the learned re-ranking of a
 * description — before and after incremental re-indexes and after a migration from schema 1.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join, relative } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { decode } from "../../mod.ts";
import { splitIdentifier, symbolMatchExpression } from "../../src/store/fts_text.ts";
import { queryTerm, Tokenizer } from "../../src/store/symbol_terms.ts";
import { identityBonus, isProseQuery, meaningfulQuery } from "../../src/query/symbol_rank.ts";
import {
  nameCoverTerms,
  rerank,
  RERANK_DEPTH,
  SEARCH_MODEL,
} from "../../src/query/learned_rank.ts";
import { FOCUS_POOL, FOCUS_WEIGHT } from "../../src/query/file_focus.ts";
import { pathWords } from "../../src/query/path_terms.ts";
import { isPrivateName, PRIVATE_WEIGHT, roleWeight } from "../../src/query/priors.ts";
import { RepoViews } from "../../src/query/view.ts";
import { CENTRALITY } from "../../src/query/centrality.ts";
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
 * The reference ranking: FTS5 over every match, then the `search_symbols` pipeline — identity
 * bonus, file-role prior, centrality bonus (`bonus`), public names first on ties.
 */
function reference(
  dbPath: string,
  args: Record<string, unknown>,
  bonus: (id: string) => number,
): string[] {
  const query = String(args.query);
  const max = (args.max_results as number | undefined) ?? 10;
  const pattern = args.file_pattern as string | undefined;
  const glob = pattern === undefined ? null : new RegExp(
    "^" + pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".") +
      "$",
  );
  const limit = glob !== null ? 5000 : Math.max(200, max * 10);
  const kind = args.kind as string | undefined;
  const language = args.language as string | undefined;
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    type Row = { id: string; file: string; name: string; kind: string; language: string };
    // Coverage: the share of the query's distinct (stemmed) terms each row matches as a prefix.
    const stems = new Map<string, string>();
    for (const word of query.split(/\s+/)) {
      const whole = word.replace(/[^\p{L}\p{N}]+/gu, "").toLowerCase();
      for (const w of [whole, ...splitIdentifier(word)]) {
        const t = queryTerm(w);
        if (t !== "" && !stems.has(t)) stems.set(t, w);
      }
    }
    const hits = new Map<number, Set<string>>();
    for (const [t, w] of stems) {
      // A one-character word matches exactly, never as a prefix (see symbolMatchExpression).
      const match = `"${w.replaceAll('"', '""')}"${w.length === 1 ? "" : "*"}`;
      for (
        const r of db.prepare("SELECT rowid FROM symbols_fts WHERE symbols_fts MATCH ?").all(
          match,
        ) as { rowid: number }[]
      ) hits.set(r.rowid, (hits.get(r.rowid) ?? new Set()).add(t));
    }
    // A term is also covered by a word of the symbol's file path (path_terms.ts).
    const coverage = (rowid: number, file: string) => {
      const covered = new Set(hits.get(rowid));
      const words = pathWords(file);
      for (const t of stems.keys()) {
        if (words.some((w) => t.length === 1 ? w === t : w.startsWith(t))) covered.add(t);
      }
      return covered.size / Math.max(1, stems.size);
    };
    const rows = (db.prepare(
      `SELECT s.rowid, s.id, f.path AS file, s.name, s.kind, s.language,
         -bm25(symbols_fts, 10.0, 3.0, 1.0, 1.0, 2.0) AS score
       FROM symbols_fts JOIN symbols s ON s.rowid = symbols_fts.rowid
       JOIN files f ON f.id = s.file_id WHERE symbols_fts MATCH ?
       ORDER BY score DESC, s.id`,
    ).all(symbolMatchExpression(query)!) as (Row & { score: number; rowid: number })[])
      .filter((r) =>
        (kind === undefined || r.kind === kind) &&
        (language === undefined || r.language === language) &&
        (glob === null || glob.test(r.file))
      );
    const cut = rows.length > limit ? rows[limit - 1]!.score : -Infinity;
    const scored = new Map<string, number>();
    const final = (r: Row, lexical: number) =>
      lexical * roleWeight(r.file) *
        (isPrivateName(r.name, r.file.endsWith(".go") ? "go" : "") ? PRIVATE_WEIGHT : 1) +
      bonus(r.id);
    const lexical = new Map<string, number>();
    const files = new Map<string, Row>();
    const put = (r: Row, bm25: number) => {
      const l = bm25 + identityBonus(r, query);
      lexical.set(r.id, l);
      files.set(r.id, r);
      scored.set(r.id, final(r, l));
    };
    for (const r of rows) if (r.score >= cut) put(r, r.score * coverage(r.rowid, r.file));
    const all = db.prepare(
      `SELECT s.id, f.path AS file, s.name, s.kind, s.language FROM symbols s
       JOIN files f ON f.id = s.file_id`,
    ).all() as Row[];
    const words = query.split(/\s+/).filter((w) => w !== "");
    const spelledNames = words.length >= 2 && words.length <= 6
      ? new Set([words.join("_"), words.join("")].map((n) => n.toLowerCase()))
      : new Set<string>();
    const spelled = all.filter((s) => spelledNames.has(s.name.toLowerCase()));
    if (!/\s/.test(query)) {
      const named = db.prepare(
        `SELECT s.id, f.path AS file, s.name, s.kind, s.language FROM symbols s
         JOIN files f ON f.id = s.file_id WHERE s.name = ? COLLATE NOCASE`,
      ).all(query) as Row[];
      for (const s of named) {
        if (scored.has(s.id)) continue;
        if (kind !== undefined && s.kind !== kind) continue;
        if (language !== undefined && s.language !== language) continue;
        if (glob !== null && !glob.test(s.file)) continue;
        put(s, 0);
      }
    }
    for (const s of spelled) {
      if (scored.has(s.id)) continue;
      if (kind !== undefined && s.kind !== kind) continue;
      if (language !== undefined && s.language !== language) continue;
      if (glob !== null && !glob.test(s.file)) continue;
      put(s, 0);
    }
    const priv = (id: string) => {
      const r = files.get(id)!;
      return Number(isPrivateName(r.name, r.file.endsWith(".go") ? "go" : ""));
    };
    const order = (a: [string, number], b: [string, number]) =>
      b[1] - a[1] || priv(a[0]) - priv(b[0]) || (a[0] < b[0] ? -1 : 1);
    const ranked = [...scored].filter(([id]) => lexical.get(id)! > 0).sort(order);
    if (isProseQuery(query)) {
      // File focus (file_focus.ts): the 20 best before any bonus make each file's mass.
      const pool = ranked.slice(0, FOCUS_POOL);
      const mass = new Map<string, number>();
      for (const [id, sc] of pool) {
        mass.set(files.get(id)!.file, (mass.get(files.get(id)!.file) ?? 0) + sc);
      }
      const total = pool.reduce((n, [, sc]) => n + sc, 0);
      const top = pool[0]![1];
      for (const h of ranked) {
        h[1] += FOCUS_WEIGHT * ((mass.get(files.get(h[0])!.file) ?? 0) / total) * top;
      }
    }
    let out = ranked.sort(order);
    if (isProseQuery(query)) {
      // The learned re-ranking (learned_rank.ts) of the exact best RERANK_DEPTH (no call-graph
      // links among these fixtures' matches).
      const span = db.prepare("SELECT line, end_line FROM symbols WHERE id = ?");
      const items = out.slice(0, Math.max(RERANK_DEPTH, max)).map((h) => {
        const r = files.get(h[0])!;
        const at = span.get(h[0]) as { line: number; end_line: number };
        return { h, name: r.name, file: r.file, ...at, score: h[1], linked: false };
      });
      out = rerank(items, nameCoverTerms(meaningfulQuery(query)), SEARCH_MODEL, (x, sc) => {
        x.h[1] = sc;
      }).map((x) => x.h);
    }
    return out
      .slice(0, max)
      .map(([id, s]) => `${id} ${Math.round(s * 1000) / 1000}`);
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

Deno.test("search_symbols ranks like FTS5 BM25 over every match (also after re-indexes and a migration)", async (t) => {
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
    const check = async () => {
      let compared = 0;
      for (const query of QUERIES) {
        for (const options of OPTIONS) {
          const args = { query, ...options };
          const r = await runner.call("search_symbols", { repo, format: "json", ...args });
          equal(r.isError, false, r.text);
          const body = decode(r.text) as { results: Record<string, unknown>[] };
          const got = body.results.filter((e) => e.match_type !== "fuzzy")
            .map((e) => `${e.id} ${e.score}`);
          const bonus = views.open(repo).get(CENTRALITY).bonus;
          deepStrictEqual(got, reference(dbPath, args, bonus), JSON.stringify(args));
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
      await check();
    });
    await t.step("after a migration from schema 1", async () => {
      const db = new DatabaseSync(dbPath);
      db.exec("DROP TABLE symbol_terms; DROP TABLE symbol_term_ids; PRAGMA user_version=1;");
      db.close();
      const out = await index();
      ok(JSON.stringify(out).includes("migrated"), JSON.stringify(out));
      await check();
    });
  } finally {
    await runner.close();
    ws.dispose();
  }
});
