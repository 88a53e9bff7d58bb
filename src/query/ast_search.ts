/**
 * `search_ast`'s engine: picks the files to scan, runs the checks in a worker, and stops it at
 * the time budget.
 *
 * Cost bound. A call re-parses files (trees are not stored), so it is bounded three ways:
 * 1. Only files that can match are parsed: indexed files with at least one symbol, filtered by
 *    `language` and `file_pattern`, and for checks with a textual trigger (eval_exec, empty_catch,
 *    bare_except, todo_fixme, hardcoded_secret, call:, string:/comment: literals) only the files
 *    whose stored text contains the trigger (a substring test on the stored bytes, no parse);
 *    `lines:N+` and `god_function` only parse files with a function at least that long (from the
 *    stored symbol spans).
 * 2. The parse and checks run in workers of the shared search pool (`search_pool.ts`: at most
 *    one per core for every search at once; a large scan takes the free ones), terminated at the
 *    budget (default 10 s, counted from when the scan got its workers, not while it waited, and
 *    not while a worker compiled a grammar it meets for the first time: at most 30 s more): the
 *    server keeps answering meanwhile, and a custom regex cannot stall it. A scan over several
 *    workers deals each its own languages (`dealByLanguage`), so a grammar is compiled by one
 *    worker, not by each. A cut scan says so
 *    (`truncated`, `timed_out`, `files_scanned` of `files_total`) with a hint to narrow it; a
 *    scan that finds no free worker in time is `server_busy`.
 * 3. Results are cached per index state and arguments, and identical scans running at once share
 *    one run, so asking again — or twenty times at once — costs one scan.
 */
import type { AstMatch } from "./ast_checks.ts";
import type { AstPattern } from "./ast_patterns.ts";
import { facet, type RepoView } from "./view.ts";
import { FILES } from "./files.ts";
import { globMatcher } from "./glob.ts";
import { languageById } from "../parser/registry.ts";
import { searchBytes } from "../store/search_inputs.ts";
import { acquireWorker, type SearchLease, tryAcquireWorker } from "./search_pool.ts";

/** A match as the tool returns it. */
export type AstResult = AstMatch & { enclosing_symbol?: string; symbol_kind?: string };

/** Message to the worker. */
export interface AstWorkerRequest {
  id: number;
  dbPath: string;
  files: { path: string; language: string }[];
  patterns: AstPattern[];
}

/** Messages from the worker. */
export type AstWorkerReply =
  | { type: "file"; id: number; path: string; matches: AstResult[]; skipped: string | null }
  | { type: "grammar"; id: number; ms: number }
  | { type: "done"; id: number }
  | { type: "error"; id: number; message: string };

/** What a scan found. */
export interface AstScan {
  matches: AstResult[];
  filesTotal: number;
  filesScanned: number;
  filesSkipped: number;
  filesWithMatches: number;
  languages: string[];
  timedOut: boolean;
}

/** Default time budget of one scan. */
export const AST_BUDGET_MS = 10_000;
/**
 * Most time a scan's budget is extended by for its workers' grammar loading (each grammar is
 * compiled once per worker, ~5 s for all of them on one quiet core: 17.9 MB of Verilog alone takes
 * 0.8 s). Past it a scan that keeps loading grammars is cut like any other.
 */
const _GRAMMAR_ALLOWANCE_MS = 30_000;
/**
 * Loading a grammar, in bytes of files parsed and checked in the same time (~70 ms: a grammar's
 * mean load on the 2-core build machine; files go at ~80-110 KB/s with every preset).
 */
const _GRAMMAR_BYTES = 8_000;

/** Results of earlier scans of this index state (at most 32). */
const SCANS = facet("ast-scans", () => new Map<string, AstScan>());
/** Scans of this index state running now, by key: an identical call waits for the same one. */
const RUNNING = facet("ast-running", () => new Map<string, Promise<AstScan>>());
/** Longest wait for a worker of the pool before `server_busy`, in ms. */
const _WAIT_MS = 15_000;
let _nextId = 1;

/** Files with at least one symbol, and their longest function or method in lines. */
const SYMBOL_FILES = facet("ast-symbol-files", (view) => view.index.longestFunctionByFile());

/** The substrings one of which a file must contain for the pattern to match, or null (any). */
function _triggers(p: AstPattern): string[] | null {
  const c = p.check;
  switch (c.kind) {
    case "eval_exec":
      return [
        "eval",
        "exec",
        "Function",
        "system",
        "popen",
        "passthru",
        "proc_open",
      ];
    case "empty_catch":
      return ["catch", "except", "rescue"];
    case "bare_except":
      return ["except"];
    case "todo_fixme":
      return ["TODO", "FIXME", "XXX", "HACK"];
    case "hardcoded_secret":
      return [
        "pass",
        "PASS",
        "Pass",
        "secret",
        "Secret",
        "SECRET",
        "token",
        "Token",
        "TOKEN",
        "key",
        "Key",
        "KEY",
        "credential",
        "Credential",
        "CREDENTIAL",
      ];
    case "call": {
      const parts = c.glob.split(/[*?.]+/).filter((x) => x.length >= 2);
      const longest = parts.sort((a, b) => b.length - a.length)[0];
      return longest === undefined ? null : [longest];
    }
    default:
      return null;
  }
}

/** Run `patterns` over the repo's files within the time budget. */
export async function scanAst(
  view: RepoView,
  patterns: AstPattern[],
  options: { language?: string; filePattern?: string; budgetMs?: number } = {},
): Promise<AstScan> {
  const key = JSON.stringify([patterns.map((p) => p.name), options.language, options.filePattern]);
  const cache = view.get(SCANS);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const running = view.get(RUNNING);
  const same = running.get(key);
  if (same !== undefined) return await same;
  const files = _select(view, patterns, options);
  const run = _runWorkers(view.index.dbPath, files, patterns, options.budgetMs ?? AST_BUDGET_MS);
  running.set(key, run);
  try {
    const scan = await run;
    if (!scan.timedOut) {
      cache.set(key, scan);
      if (cache.size > 32) cache.delete(cache.keys().next().value!);
    }
    return scan;
  } finally {
    running.delete(key);
  }
}

/** A file to scan, with its size (what `dealByLanguage` weighs). */
type _Selected = { path: string; language: string; size: number };

function _select(
  view: RepoView,
  patterns: AstPattern[],
  options: { language?: string; filePattern?: string },
): _Selected[] {
  const longestFn = view.get(SYMBOL_FILES);
  const glob = options.filePattern === undefined ? null : globMatcher(options.filePattern);
  const enc = new TextEncoder();
  // Per pattern: how a file qualifies without parsing it.
  const gates = patterns.map((p) => {
    const c = p.check;
    if (c.kind === "lines") return { minLines: c.min, needles: null };
    if (c.kind === "god_function") {
      return { minLines: Math.min(c.maxLines, c.maxComplexity), needles: null };
    }
    const t = _triggers(p);
    return { minLines: 0, needles: t === null ? null : t.map((x) => enc.encode(x)) };
  });
  const always = gates.some((g) => g.minLines === 0 && g.needles === null);
  const out: _Selected[] = [];
  for (const f of view.get(FILES).values()) {
    const longest = longestFn.get(f.path);
    if (longest === undefined) continue;
    if (options.language !== undefined && f.language !== options.language) continue;
    // A language read by its own extractor (no tree-sitter grammar) has no tree to check.
    if (!_hasGrammar(f.language)) continue;
    if (glob !== null && !glob(f.path)) continue;
    if (!always) {
      let bytes: Uint8Array | undefined;
      const ok = gates.some((g) => {
        if (g.minLines > 0) return longest >= g.minLines;
        bytes ??= view.index.fileBytes(f.path);
        if (bytes === undefined || !g.needles!.some((n) => _contains(bytes!, n))) return false;
        // A trigger found in the stored bytes must be there as the file is served: a needle
        // inside a secret (a `call:` glob is the caller's) must not select the file.
        bytes = searchBytes(bytes);
        return g.needles!.some((n) => _contains(bytes!, n));
      });
      if (!ok) continue;
    }
    out.push({ path: f.path, language: f.language, size: f.size });
  }
  return out;
}

function _hasGrammar(language: string): boolean {
  const spec = languageById(language);
  return spec !== undefined && spec.extractor === undefined;
}

/** Whether `hay` contains `needle` (bytes). */
function _contains(hay: Uint8Array, needle: Uint8Array): boolean {
  const first = needle[0]!;
  const last = hay.length - needle.length;
  for (let i = hay.indexOf(first); i !== -1 && i <= last; i = hay.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && hay[i + j] === needle[j]) j++;
    if (j === needle.length) return true;
  }
  return false;
}

/** Workers one scan uses at most: one per core, at most 4, and one per 40 files. */
function _workerCount(files: number): number {
  const cores = typeof navigator !== "undefined" ? navigator.hardwareConcurrency ?? 1 : 1;
  return Math.max(1, Math.min(cores, 4, Math.ceil(files / 40)));
}

/** A worker for the scan (waiting its turn), and the pool's other free ones it may use. */
async function _leases(files: number): Promise<SearchLease[]> {
  const leases = [await acquireWorker("ast", _WAIT_MS)];
  for (let k = 1; k < _workerCount(files); k++) {
    const extra = tryAcquireWorker("ast");
    if (extra === null) break;
    leases.push(await extra);
  }
  return leases;
}

function _emptyScan(files: { path: string; language: string }[]): AstScan {
  return {
    matches: [],
    filesTotal: files.length,
    filesScanned: 0,
    filesSkipped: 0,
    filesWithMatches: 0,
    languages: [...new Set(files.map((f) => f.language))].sort(),
    timedOut: false,
  };
}

async function _runWorkers(
  dbPath: string,
  files: _Selected[],
  patterns: AstPattern[],
  budgetMs: number,
): Promise<AstScan> {
  const scan = _emptyScan(files);
  if (files.length === 0) return scan;
  const leases = await _leases(files.length);
  const id = _nextId++;
  return await new Promise<AstScan>((resolve, reject) => {
    let running = leases.length;
    const finished = new Set<SearchLease>();
    const end = (lease: SearchLease, keep: boolean) => {
      if (finished.has(lease)) return;
      finished.add(lease);
      lease.worker.removeAllListeners("message");
      lease.worker.removeAllListeners("error");
      lease.release(keep);
    };
    // The budget starts once the scan has its workers; a worker's grammar loading extends it.
    const started = performance.now();
    const loading = leases.map(() => 0);
    const cut = () => {
      scan.timedOut = true;
      for (const l of leases) end(l, false);
      resolve(scan);
    };
    let timer = setTimeout(cut, budgetMs);
    const extend = (k: number, ms: number) => {
      loading[k] = Math.min(_GRAMMAR_ALLOWANCE_MS, loading[k]! + ms);
      clearTimeout(timer);
      const deadline = started + budgetMs + Math.max(...loading);
      timer = setTimeout(cut, Math.max(0, deadline - performance.now()));
    };
    const fail = (e: unknown) => {
      clearTimeout(timer);
      for (const l of leases) end(l, false);
      reject(e instanceof Error ? e : new Error(String(e)));
    };
    const shares = _byAffinity(dealByLanguage(files, leases.length), leases);
    leases.forEach((lease, k) => {
      lease.worker.on("message", (r: AstWorkerReply | { type: "ready" }) => {
        if (r.type === "ready" || r.id !== id) return;
        if (r.type === "error") return fail(new Error(`search_ast worker failed: ${r.message}`));
        if (r.type === "grammar") return extend(k, r.ms);
        if (r.type === "file") return _add(scan, r);
        end(lease, true);
        if (--running === 0) {
          clearTimeout(timer);
          resolve(scan);
        }
      });
      lease.worker.on("error", (e: unknown) => fail(e));
      const share = shares[k]!.map((f) => ({ path: f.path, language: f.language }));
      lease.worker.postMessage({ id, dbPath, files: share, patterns } satisfies AstWorkerRequest);
    });
  });
}

/**
 * `files` in at most `parts` shares of about equal cost, a language's files together (in their
 * order) so that each grammar is compiled by one worker: only a language cut by a share's end is
 * loaded by two. A file costs its size, its language's grammar {@linkcode _GRAMMAR_BYTES} more.
 * (Dealt round-robin, every worker met nearly every language: each of 2 workers compiled the 72
 * grammars of fixtures/languages.)
 */
export function dealByLanguage<F extends { language: string; size: number }>(
  files: readonly F[],
  parts: number,
): F[][] {
  if (parts <= 1 || files.length <= 1) return [[...files]];
  const order = new Map<string, number>();
  for (const f of files) if (!order.has(f.language)) order.set(f.language, order.size);
  const sorted = files.map((f, i) => ({ f, i })).sort((a, b) =>
    order.get(a.f.language)! - order.get(b.f.language)! || a.i - b.i
  ).map((x) => x.f);
  const total = sorted.reduce((n, f) => n + f.size, 0) + order.size * _GRAMMAR_BYTES;
  const out: F[][] = [[]];
  let spent = 0;
  for (const [i, f] of sorted.entries()) {
    const first = i === 0 || sorted[i - 1]!.language !== f.language;
    const cost = f.size + (first ? _GRAMMAR_BYTES : 0);
    if (spent + cost / 2 > (total * out.length) / parts && out.length < parts) out.push([]);
    out.at(-1)!.push(f);
    spent += cost;
  }
  return out;
}

/** The languages each pool worker was sent files of: its grammars are loaded. */
const _known = new WeakMap<object, Set<string>>();

/**
 * The shares in the order of `leases`: each lease gets the share with most of the languages its
 * worker already knows (the pool lends idle workers in any order).
 */
function _byAffinity<F extends { language: string }>(
  shares: F[][],
  leases: readonly SearchLease[],
): F[][] {
  const left = [...shares];
  return leases.map((lease) => {
    const known = _known.get(lease.worker) ?? new Set<string>();
    const score = (share: F[]) => share.filter((f) => known.has(f.language)).length;
    let best = 0;
    for (let i = 1; i < left.length; i++) if (score(left[i]!) > score(left[best]!)) best = i;
    const share = left.splice(best, 1)[0] ?? [];
    for (const f of share) known.add(f.language);
    _known.set(lease.worker, known);
    return share;
  });
}

/** One file's reply into the scan. */
function _add(scan: AstScan, r: { matches: AstResult[]; skipped: string | null }): void {
  scan.filesScanned++;
  if (r.skipped !== null) scan.filesSkipped++;
  if (r.matches.length > 0) scan.filesWithMatches++;
  for (const m of r.matches) scan.matches.push(m);
}
