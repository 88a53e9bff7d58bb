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
 * 2. The parse and checks run in worker threads (one per core, up to 4) terminated at the budget (default
 *    10 s): the server keeps answering meanwhile, and a custom regex cannot stall it. A cut scan
 *    says so (`truncated`, `files_scanned` of `files_total`) with a hint to narrow it.
 * 3. Results are cached per index state and arguments, so asking again costs nothing.
 */
import type { AstMatch } from "./ast_checks.ts";
import type { AstPattern } from "./ast_patterns.ts";
import { facet, type RepoView } from "./view.ts";
import { FILES } from "./files.ts";
import { globMatcher } from "./glob.ts";
import { searchBytes } from "../store/search_inputs.ts";

/** A match as the tool returns it. */
export type AstResult = AstMatch & { enclosing_symbol?: string; symbol_kind?: string };

/** Message to the worker. */
export interface AstWorkerRequest {
  dbPath: string;
  files: { path: string; language: string }[];
  patterns: AstPattern[];
}

/** Messages from the worker. */
export type AstWorkerReply =
  | { type: "file"; path: string; matches: AstResult[]; skipped: string | null }
  | { type: "done" };

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

/** Results of earlier scans of this index state (at most 32). */
const SCANS = facet("ast-scans", () => new Map<string, AstScan>());

/** Files with at least one symbol, and their longest function or method in lines. */
const SYMBOL_FILES = facet("ast-symbol-files", (view) => {
  const out = new Map<string, number>();
  const spans = view.index.allSymbols();
  for (const s of spans) {
    const len = s.kind === "function" || s.kind === "method" ? s.end_line - s.line + 1 : 0;
    out.set(s.file, Math.max(out.get(s.file) ?? 0, len));
  }
  return out;
});

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
  const files = _select(view, patterns, options);
  const scan = await _runWorker(
    view.index.dbPath,
    files,
    patterns,
    options.budgetMs ?? AST_BUDGET_MS,
  );
  scan.filesTotal = files.length;
  if (!scan.timedOut) {
    cache.set(key, scan);
    if (cache.size > 32) cache.delete(cache.keys().next().value!);
  }
  return scan;
}

function _select(
  view: RepoView,
  patterns: AstPattern[],
  options: { language?: string; filePattern?: string },
): { path: string; language: string }[] {
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
  const out: { path: string; language: string }[] = [];
  for (const f of view.get(FILES).values()) {
    const longest = longestFn.get(f.path);
    if (longest === undefined) continue;
    if (options.language !== undefined && f.language !== options.language) continue;
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
    out.push({ path: f.path, language: f.language });
  }
  return out;
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

/** Workers one scan uses: one per core, at most 4, and one per 40 files. */
function _workerCount(files: number): number {
  const cores = typeof navigator !== "undefined" ? navigator.hardwareConcurrency ?? 1 : 1;
  return Math.max(1, Math.min(cores, 4, Math.ceil(files / 40)));
}

function _runWorker(
  dbPath: string,
  files: { path: string; language: string }[],
  patterns: AstPattern[],
  budgetMs: number,
): Promise<AstScan> {
  const scan: AstScan = {
    matches: [],
    filesTotal: files.length,
    filesScanned: 0,
    filesSkipped: 0,
    filesWithMatches: 0,
    languages: [...new Set(files.map((f) => f.language))].sort(),
    timedOut: false,
  };
  if (files.length === 0) return Promise.resolve(scan);
  const n = _workerCount(files.length);
  const workers: Worker[] = [];
  return new Promise((resolve, reject) => {
    let running = n;
    const stop = () => {
      clearTimeout(timer);
      for (const w of workers) w.terminate();
    };
    const timer = setTimeout(() => {
      stop();
      scan.timedOut = true;
      resolve(scan);
    }, budgetMs);
    for (let k = 0; k < n; k++) {
      const worker = new Worker(new URL("./ast_worker.ts", import.meta.url), { type: "module" });
      workers.push(worker);
      worker.onmessage = (e: MessageEvent<AstWorkerReply>) => {
        const r = e.data;
        if (r.type === "done") {
          worker.terminate();
          if (--running === 0) {
            stop();
            resolve(scan);
          }
          return;
        }
        scan.filesScanned++;
        if (r.skipped !== null) scan.filesSkipped++;
        if (r.matches.length > 0) scan.filesWithMatches++;
        for (const m of r.matches) scan.matches.push(m);
      };
      worker.onerror = (e) => {
        e.preventDefault();
        stop();
        reject(new Error(`search_ast worker failed: ${e.message}`));
      };
      // Every n-th file, so each worker gets a share of every folder.
      const share = files.filter((_, i) => i % n === k);
      worker.postMessage({ dbPath, files: share, patterns } satisfies AstWorkerRequest);
    }
  });
}
