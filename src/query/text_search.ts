/**
 * `search_text` runs its matcher off the main thread, in a worker that is terminated when the
 * time budget is over.
 *
 * Why a worker and not a linear-time engine: JavaScript regexes (lookaround, backreferences,
 * Unicode classes) are what agents write, and V8's backtracking engine runs them fast — but some
 * patterns (`(a|a)+$`, `(.*,){12}Q`, `.*.*.*.*Q`) take exponential or high-polynomial time on
 * ordinary lines, and no filter recognises them all. A regex cannot be interrupted from inside its
 * own thread, so the scan runs in a worker: the main thread keeps answering other calls (ping,
 * other tools) while it runs, and at the budget the worker is terminated — whatever the pattern —
 * and the search answers with what it found so far, `timed_out` set. The workers are those of
 * the shared search pool (`search_pool.ts`): kept between searches (no start-up cost per call),
 * at most one per core for all searches at once, never keeping the process alive while idle.
 */
import { ToolError } from "../errors.ts";
import { acquireWorker, closeIdleWorkers, poolLoad } from "./search_pool.ts";
import type { FileHits, MatchRequest, MatchResponse } from "./text_search_worker.ts";

export type { FileHits } from "./text_search_worker.ts";

/** What one search found. */
export interface TextSearchResult {
  /** Files with at least one match, in the order they were scanned. */
  files: FileHits[];
  filesSearched: number;
  /** True when the budget ended the search (the worker stopped or was terminated). */
  timedOut: boolean;
  /** True when the search stopped early with enough matches (the total is a lower bound). */
  settled: boolean;
}

/** Extra time the worker gets to stop by itself before it is terminated, in ms. */
const _GRACE_MS = 300;
/** Longest wait for a worker of the pool before `server_busy`, in ms. */
const _WAIT_MS = 10_000;
let _nextId = 1;

/**
 * Scan `paths` of the index at `dbPath` in matcher workers. Resolves by `budgetMs` (plus a short
 * grace) whatever the query; rejects only when a worker cannot run at all.
 *
 * A large scan (many candidates, megabytes of text: a phrase whose trigrams many files hold, a
 * regex with no literal) is split into contiguous parts of about equal bytes, one per core (at
 * most {@linkcode _SCAN_PARTS}), scanned at once by as many workers; the parts' files come back
 * in the order of `paths`. `sizeOf` gives a path's size in bytes (unknown: one part).
 */
export async function searchFiles(
  request: Omit<MatchRequest, "id">,
  sizeOf?: (path: string) => number,
): Promise<TextSearchResult> {
  // A split scan takes a second worker: only when the pool is idle (under load, one each).
  const load = poolLoad();
  const parts = sizeOf === undefined || load.running > 0 || load.waiting > 0
    ? [request.paths]
    : splitScan(request.paths, sizeOf);
  if (parts.length === 1) return await _searchPart(request);
  const found = await Promise.all(parts.map((paths) => _searchPart({ ...request, paths })));
  return {
    files: found.flatMap((f) => f.files),
    filesSearched: found.reduce((n, f) => n + f.filesSearched, 0),
    timedOut: found.some((f) => f.timedOut),
    settled: found.some((f) => f.settled),
  };
}

/** Most parts a scan is split into: the cores (a worker each), at most two. */
const _SCAN_PARTS = Math.max(1, Math.min(2, navigator.hardwareConcurrency ?? 1));
/** A scan is split only from this many bytes (below, a second worker costs more than it saves). */
const _SPLIT_BYTES = 1_000_000;

/**
 * `paths` in at most `parts` contiguous parts of about equal bytes, in order (one part below
 * {@linkcode _SPLIT_BYTES} in all).
 */
export function splitScan(
  paths: readonly string[],
  sizeOf: (path: string) => number,
  parts = _SCAN_PARTS,
): string[][] {
  const sizes = paths.map(sizeOf);
  const total = sizes.reduce((a, b) => a + b, 0);
  if (parts < 2 || total < _SPLIT_BYTES || paths.length < 2) return [[...paths]];
  const out: string[][] = [];
  let part: string[] = [];
  let bytes = 0;
  for (let i = 0; i < paths.length; i++) {
    part.push(paths[i]!);
    bytes += sizes[i]!;
    if (bytes >= (total * (out.length + 1)) / parts && out.length < parts - 1) {
      out.push(part);
      part = [];
    }
  }
  if (part.length > 0) out.push(part);
  return out;
}

/** One worker's scan of `request.paths`. */
async function _searchPart(
  request: Omit<MatchRequest, "id">,
): Promise<TextSearchResult> {
  const lease = await acquireWorker("text", _WAIT_MS);
  const worker = lease.worker;
  const id = _nextId++;
  const files: FileHits[] = [];
  let filesSearched = 0;
  return new Promise<TextSearchResult>((resolve, reject) => {
    let settled = false;
    let settledEarly = false;
    const finish = (timedOut: boolean, keep: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("error", onError);
      lease.release(keep);
      resolve({ files, filesSearched, timedOut, settled: settledEarly });
    };
    const onMessage = (m: MatchResponse) => {
      if (m.id !== id || "ready" in m) return;
      if ("error" in m) {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
        lease.release(true);
        // The worker's own ToolError (an index damaged since the call opened it) keeps its code.
        reject(m.code === undefined ? new Error(m.error) : new ToolError(m.code, m.error));
        return;
      }
      filesSearched = m.files_searched;
      if ("done" in m) {
        settledEarly = m.settled;
        finish(m.timed_out, true);
      } else files.push(...m.files);
    };
    const onError = (e: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      lease.release(false);
      reject(e instanceof Error ? e : new Error(String(e)));
    };
    // The hard stop: a regex stuck inside one line never returns to the worker's own checks.
    const timer = setTimeout(() => finish(true, false), request.budgetMs + _GRACE_MS);
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.postMessage({ ...request, id } satisfies MatchRequest);
  });
}

/** Terminate the idle search workers (for tests and shutdown; new searches start new ones). */
export function closeSearchWorkers(): void {
  closeIdleWorkers();
}
