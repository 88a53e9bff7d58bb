/**
 * Rename safety for `deno task bench health --rename CORPORA`: renames made in a copy of real
 * corpora, each checked against an independent truth — the language's own parser over the whole
 * copy (Python: `ast` + `tokenize`, scripts/rename_truth_python.py; JavaScript: espree,
 * scripts/rename_truth_js.ts), never codemunch's index or tree-sitter.
 *
 * The truth's candidates are definitions whose name is bound once in the corpus (so every token
 * of the name is a site the rename must change); `--renames N` (default 30) of them are drawn by a
 * fixed seed (`--seed`, default 30), half per language. For each: `plan_refactoring` rename to
 * `<name>Rn`; plan recall (truth tokens the plan edits) and precision (code edits that are truth
 * tokens; string edits counted apart); then the plan is applied to the copy, the copy re-indexed,
 * and the plan is clean when no import resolved before is unresolved now, `find_references` finds
 * as many references to the renamed symbol as to the old one, and the truth finds no token of the
 * old name; the copy is then restored.
 */
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Store } from "../src/store/store.ts";
import { applyEdits, editsFromRows } from "../src/query/refactor_edits.ts";
import { callTool } from "./bench_graph.ts";
import { jsCandidates, jsTokenCount, type JsTruth } from "./rename_truth_js.ts";

/** One truth candidate (both truth scripts' shape). */
type Truth = JsTruth;

/** One rename's figures. */
export interface RenameResult {
  corpus: string;
  language: string;
  symbol: string;
  truth: number;
  edits: number;
  stringEdits: number;
  hits: number;
  clean: boolean;
  why: string[];
  misses: string[];
  /** Code edits the truth does not list. */
  extras: string[];
}

const _PYTHON = new Set(["werkzeug", "pytest", "django"]);

function _mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function _python(args: string[]): unknown {
  const script = join(import.meta.dirname!, "rename_truth_python.py");
  const out = new Deno.Command("python3", { args: [script, ...args], stdout: "piped" })
    .outputSync();
  if (!out.success) throw new Error(`rename_truth_python.py ${args.join(" ")} failed`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

function _truth(corpus: string, root: string): Truth[] {
  return _PYTHON.has(corpus) ? _python(["candidates", root]) as Truth[] : jsCandidates(root);
}

function _tokensLeft(corpus: string, root: string, name: string): number {
  if (!_PYTHON.has(corpus)) return jsTokenCount(root, name);
  return (_python(["count", root, name]) as { tokens: number }).tokens;
}

/** Our symbol for a truth definition: its name, the span holding the truth's line. */
function _symbolId(store: Store, repo: string, t: Truth): string | null {
  const hits = store.repo(repo).symbolsOfFile(t.file).filter((s) =>
    s.name === t.name && s.kind !== "import" && s.line - 3 <= t.line && t.line <= s.end_line
  ).sort((a, b) => (a.end_line - a.line) - (b.end_line - b.line));
  return hits[0]?.id ?? null;
}

function _unresolved(indexDir: string, repo: string): Set<string> {
  const store = new Store(indexDir);
  try {
    return new Set(
      store.repo(repo).allImports().filter((i) => i.resolved === null).map((i) =>
        `${i.file}:${i.specifier}`
      ),
    );
  } finally {
    store.close();
  }
}

/** A fresh copy of a corpus under `dir`. */
export function copyCorpus(source: string, dir: string, corpus: string): string {
  const copy = join(dir, corpus);
  try {
    Deno.removeSync(copy, { recursive: true });
  } catch {
    // none yet
  }
  Deno.mkdirSync(copy, { recursive: true });
  const out = new Deno.Command("cp", { args: ["-r", `${source}/.`, copy] }).outputSync();
  if (!out.success) throw new Error(`cp ${source} failed`);
  return Deno.realPathSync(copy);
}

/** The renames of one corpus copy (already indexed as `repo`). */
export async function renameCorpus(
  client: Client,
  indexDir: string,
  repo: string,
  corpus: string,
  root: string,
  count: number,
  seed: number,
): Promise<RenameResult[]> {
  const language = _PYTHON.has(corpus) ? "python" : "javascript";
  const truth = _truth(corpus, root).sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line
  );
  const random = _mulberry32(seed);
  for (let i = truth.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [truth[i], truth[j]] = [truth[j]!, truth[i]!];
  }
  const store = new Store(indexDir);
  const picked: { t: Truth; id: string }[] = [];
  for (const t of truth) {
    if (picked.length === count) break;
    const id = _symbolId(store, repo, t);
    if (id !== null) picked.push({ t, id });
  }
  store.close();
  const out: RenameResult[] = [];
  for (const { t, id } of picked) {
    out.push(await _rename(client, indexDir, repo, corpus, language, root, t, id));
  }
  return out;
}

async function _rename(
  client: Client,
  indexDir: string,
  repo: string,
  corpus: string,
  language: string,
  root: string,
  t: Truth,
  id: string,
): Promise<RenameResult> {
  const newName = `${t.name}Rn`;
  const before = _unresolved(indexDir, repo);
  const refsBefore = (await callTool(client, "find_references", { repo, identifier: id }))
    .references as unknown[];
  const plan = await callTool(client, "plan_refactoring", {
    repo,
    symbol: id,
    refactor_type: "rename",
    new_name: newName,
    max_results: 5000,
  });
  const edits = editsFromRows(plan.edits as Record<string, unknown>[]);
  const code = edits.filter((e) => e.certainty !== "check");
  const truthKeys = new Set(t.sites.map(([f, l, c]) => `${f}:${l}:${c}`));
  const editKeys = new Set(code.map((e) => `${e.file}:${e.line}:${e.col}`));
  const hits = [...editKeys].filter((k) => truthKeys.has(k)).length;
  const misses = [...truthKeys].filter((k) => !editKeys.has(k)).slice(0, 5);
  const extras = [...editKeys].filter((k) => !truthKeys.has(k)).slice(0, 5);
  const why: string[] = [];
  const originals = new Map<string, string | undefined>();
  const read = (p: string) => {
    try {
      return Deno.readTextFileSync(join(root, p));
    } catch {
      return undefined;
    }
  };
  try {
    const changed = applyEdits(edits, read);
    for (const [path, text] of changed) {
      originals.set(path, read(path));
      Deno.writeTextFileSync(join(root, path), text);
    }
    await callTool(client, "index_folder", { path: root });
    const after = _unresolved(indexDir, repo);
    const lost = [...after].filter((k) => !before.has(k));
    if (lost.length > 0) why.push(`unresolved: ${lost.slice(0, 3).join(", ")}`);
    const renamed = id.replace(new RegExp(`\\b${t.name}(?=#|~|$)`), newName);
    const refsAfter = (await callTool(client, "find_references", { repo, identifier: renamed }))
      .references as unknown[];
    if (refsAfter.length < refsBefore.length) {
      why.push(`references ${refsBefore.length} -> ${refsAfter.length}`);
    }
    const left = _tokensLeft(corpus, root, t.name);
    if (left > 0) why.push(`${left} tokens of ${t.name} left`);
  } catch (e) {
    why.push(`apply failed: ${(e as Error).message}`);
  } finally {
    for (const [path, text] of originals) {
      if (text === undefined) Deno.removeSync(join(root, path));
      else Deno.writeTextFileSync(join(root, path), text);
    }
    await callTool(client, "index_folder", { path: root });
  }
  return {
    corpus,
    language,
    symbol: id,
    truth: truthKeys.size,
    edits: code.length,
    stringEdits: edits.length - code.length,
    hits,
    clean: why.length === 0,
    why,
    misses,
    extras,
  };
}
