/**
 * `deno task bench routes [--corpus NAME] [--files N] [--rounds N] [--depth N] [--json FILE]`:
 * what extraction costs on top of parsing, route by route (issue 18: "if the query engine is the
 * wall, measure other extraction routes"). One thread, one process, the same files for every
 * route, in turns (each round runs every route once), the fastest round of each reported; grammars
 * loaded and every route run once on the first files before the clock starts; reading not timed.
 *
 * Routes (each parses the file, then):
 * - `parse`: nothing else (the ceiling's work);
 * - `walk: empty query`: a query that matches nothing (`(ERROR) @e` on an error-free file) — the
 *   cost of the query cursor walking the tree, whatever the patterns;
 * - `combined query` (ours): the language's definitions, imports and calls as one query, every
 *   match returned (what `extractFile` runs); `… as captures`: the same through `captures()`;
 * - `definitions + imports` and `calls` alone: the parts of the combined query;
 * - `definitions + imports, depth ≤ D`: the same with `maxStartDepth` (a pattern starts only at
 *   nodes at most D deep), which lets the cursor skip deep subtrees; it misses nested definitions
 *   (the table counts its matches against the full query's);
 * - `call nodes: descendantsOfType`: the call nodes collected by tree-sitter's own walk (in wasm,
 *   no query), the call node types taken from the calls query's patterns;
 * - `… + calls query per node`: then the calls query run on each call node alone (a query run
 *   only on candidate nodes);
 * - `cursor walk (JS)`: a `TreeCursor` visiting every node from JavaScript, testing its type;
 * - `extract (ours)`: `extractFile`, everything our workers do per file (queries, symbols,
 *   signatures, docs, ids, hashes, summaries).
 * Default corpus `gostd` (Go), 600 files spread evenly over the corpus.
 */
import { posix } from "node:path";
import { Query, type Tree } from "web-tree-sitter";
import { loadLanguage } from "../src/parser/loader.ts";
import { SourceText } from "../src/parser/source_text.ts";
import { extractFile, precheck } from "../src/parser/extract.ts";
import { type GrammarSpec, languageById, languageForPath } from "../src/parser/mod.ts";
import { loadAverages, markdownTable, parseFlags, writeJson } from "./bench_util.ts";

const LANGUAGE_OF: Record<string, string> = {
  gostd: "go",
  gin: "go",
  django: "python",
  express: "javascript",
  typescript: "typescript",
};

const ROOT = new URL("../corpora/", import.meta.url);

function _walk(dir: string, rel = ""): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(posix.join(dir, rel))) {
    const p = rel === "" ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory) out.push(..._walk(dir, p));
    else if (e.isFile) out.push(p);
  }
  return out;
}

/** Node types the top-level patterns of a query start with (`(call_expression …)`). */
export function patternRootTypes(source: string): string[] {
  const types = new Set<string>();
  for (const m of source.matchAll(/^\(([A-Za-z_][\w]*)/gm)) types.add(m[1]!);
  return [...types];
}

export async function main(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  const corpus = flags.get("corpus") ?? "gostd";
  const language = LANGUAGE_OF[corpus];
  if (language === undefined) {
    throw new Error(`bench routes: unknown corpus ${corpus} (${Object.keys(LANGUAGE_OF)})`);
  }
  const want = Number(flags.get("files") ?? 600);
  const rounds = Number(flags.get("rounds") ?? 5);
  const depth = Number(flags.get("depth") ?? 4);
  const dir = new URL(`${corpus}/`, ROOT).pathname;
  const all = _walk(dir).filter((f) => languageForPath(f)?.id === language).sort();
  if (all.length === 0) throw new Error(`bench routes: no ${language} files in corpora/${corpus}`);
  const step = Math.max(1, Math.floor(all.length / want));
  const files: string[] = [];
  const sources: SourceText[] = [];
  for (let i = 0; i < all.length && files.length < want; i += step) {
    const text = new SourceText(Deno.readFileSync(posix.join(dir, all[i]!)));
    if (precheck(text) !== null) continue;
    files.push(all[i]!);
    sources.push(text);
  }
  const bytes = sources.reduce((n, s) => n + s.bytes.length, 0);
  const loaded = await loadLanguage(languageById(language) as GrammarSpec);
  const { parser, spec } = loaded;
  const grammar = parser.language!;
  const definitions = spec.definitions + "\n" + (spec.imports ?? "");
  const defsQuery = new Query(grammar, definitions);
  const callsQuery = new Query(grammar, spec.calls ?? "");
  const emptyQuery = new Query(grammar, "(ERROR) @e");
  const callTypes = patternRootTypes(spec.calls ?? "");
  const callTypeSet = new Set(callTypes);

  /** A route: parse every file, then `work` on its tree; the matches or nodes it found. */
  const eachTree = (work: (tree: Tree) => number) => (): number => {
    let n = 0;
    for (const s of sources) {
      const tree = parser.parse(s.text)!;
      n += work(tree);
      tree.delete();
    }
    return n;
  };
  const routes: [string, () => number][] = [
    ["parse", eachTree(() => 0)],
    ["walk: empty query", eachTree((t) => emptyQuery.matches(t.rootNode).length)],
    ["combined query (ours)", eachTree((t) => loaded.combined.matches(t.rootNode).length)],
    [
      "combined query as captures",
      eachTree((t) => loaded.combined.captures(t.rootNode).length),
    ],
    ["definitions + imports", eachTree((t) => defsQuery.matches(t.rootNode).length)],
    [
      `definitions + imports, depth ≤ ${depth}`,
      eachTree((t) => defsQuery.matches(t.rootNode, { maxStartDepth: depth }).length),
    ],
    ["calls", eachTree((t) => callsQuery.matches(t.rootNode).length)],
    [
      "call nodes: descendantsOfType",
      eachTree((t) => t.rootNode.descendantsOfType(callTypes).length),
    ],
    [
      "call nodes + calls query per node",
      eachTree((t) => {
        let n = 0;
        for (const node of t.rootNode.descendantsOfType(callTypes)) {
          n += callsQuery.matches(node!, { maxStartDepth: 0 }).length;
        }
        return n;
      }),
    ],
    [
      "cursor walk (JS)",
      eachTree((t) => {
        let n = 0;
        const cursor = t.walk();
        for (;;) {
          if (callTypeSet.has(cursor.nodeType)) n++;
          if (cursor.gotoFirstChild() || cursor.gotoNextSibling()) continue;
          let up = true;
          while (up && cursor.gotoParent()) if (cursor.gotoNextSibling()) up = false;
          if (up) break;
        }
        cursor.delete();
        return n;
      }),
    ],
    ["extract (ours)", () => {
      let n = 0;
      for (let i = 0; i < sources.length; i++) {
        const r = extractFile(loaded, files[i]!, sources[i]!);
        n += r.symbols.length + r.imports.length + r.calls.length;
      }
      return n;
    }],
  ];
  // Warm: every route once on the first files (V8 tiers the wasm and our code up).
  const saved = sources.splice(20);
  for (const [, run] of routes) run();
  sources.push(...saved);

  const load = loadAverages();
  const times = new Map<string, number[]>(routes.map(([name]) => [name, []]));
  const found = new Map<string, number>();
  for (let r = 0; r < rounds; r++) {
    for (const [name, run] of routes) {
      const t0 = performance.now();
      found.set(name, run());
      times.get(name)!.push(performance.now() - t0);
    }
  }
  const best = (name: string) => Math.min(...times.get(name)!);
  const parseMs = best("parse");
  const rows = routes.map(([name]) => [
    name,
    best(name),
    best(name) / parseMs,
    (best(name) - parseMs) / parseMs,
    found.get(name) ?? 0,
  ]);
  console.log(
    `\nExtraction routes on ${corpus} (${language}): ${files.length} files, ${
      (bytes / 1e6).toFixed(1)
    } MB, one thread, fastest of ${rounds} rounds in turns; ${load}; call node types: ${
      callTypes.join(", ")
    }\n`,
  );
  console.log(
    markdownTable(["route", "ms", "× parse", "added (× parse)", "matches / nodes"], rows),
  );
  await writeJson(flags, {
    corpus,
    language,
    files: files.length,
    bytes,
    rounds,
    load,
    call_types: callTypes,
    routes: Object.fromEntries(
      routes.map(([name]) => [name, {
        best_ms: best(name),
        ratio_to_parse: best(name) / parseMs,
        all_ms: times.get(name),
        matches: found.get(name) ?? 0,
      }]),
    ),
  });
}

if (import.meta.main) await main(Deno.args);
