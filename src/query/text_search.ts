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
 *
 * The answer does not depend on the split, nor on how busy the machine is: a search that stops
 * early (`settleAfter`) stops at the same file split or not, and only the time budget — said in
 * `timedOut` — can end it anywhere else.
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
  if (parts.length === 1) return asOneScan([await _searchPart(request)], request);
  let offset = 0;
  const found = await Promise.all(parts.map((paths) => {
    // Each part settles by its own count, never before the whole scan would: `asOneScan` cuts.
    const settleAfter = Math.max(0, request.settleAfter - offset);
    const part = _searchPart({ ...request, paths, settleAfter }, offset);
    offset += paths.length;
    return part;
  }));
  return asOneScan(found, request);
}

/**
 * The result of one worker scanning all of `request.paths`, from the results of its contiguous
 * parts (files' `at` already in the whole scan's numbering): it stops before the first path
 * where `keep` matching lines are found and `settleAfter` paths are behind it. A part stops by
 * its own count, so never before that path; what a later part found past it is dropped. After a
 * timeout the parts are joined as they are (`timedOut` says the answer is cut).
 */
export function asOneScan(
  parts: readonly TextSearchResult[],
  request: Pick<MatchRequest, "keep" | "settleAfter" | "paths">,
): TextSearchResult {
  const files = parts.flatMap((f) => f.files);
  const filesSearched = parts.reduce((n, f) => n + f.filesSearched, 0);
  if (parts.some((f) => f.timedOut)) {
    return { files, filesSearched, timedOut: true, settled: parts.some((f) => f.settled) };
  }
  let total = 0;
  for (const f of files) {
    total += f.count;
    if (total < request.keep) continue;
    const stop = Math.max(f.at + 1, request.settleAfter);
    if (stop >= request.paths.length) break;
    const kept = files.filter((g) => g.at < stop);
    return { files: kept, filesSearched: stop, timedOut: false, settled: true };
  }
  return { files, filesSearched, timedOut: false, settled: false };
}

/**
 * How many of `paths` (in scan order) a search goes through before it may stop with enough
 * matches: the fewest whose sizes add up to `bytes` (all of them when they are fewer).
 */
export function settlePoint(
  paths: readonly string[],
  sizeOf: (path: string) => number,
  bytes: number,
): number {
  let sum = 0;
  for (let i = 0; i < paths.length; i++) {
    sum += sizeOf(paths[i]!);
    if (sum >= bytes) return i + 1;
  }
  return paths.length;
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

/** One worker's scan of `request.paths`; its files' `at` counted from `offset`. */
async function _searchPart(
  request: Omit<MatchRequest, "id">,
  offset = 0,
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
      } else for (const f of m.files) files.push({ ...f, at: f.at + offset });
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
