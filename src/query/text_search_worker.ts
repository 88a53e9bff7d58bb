/**
 * The `search_text` matcher worker (a `node:worker_threads` worker, see `text_search.ts`). It
 * reads the candidate files from the repo's index (its own read-only connection) and scans them
 * with `text_scan.ts`, posting what it found in batches: if a regex runs away inside one line,
 * the main thread terminates this worker at the time budget and keeps the batches already sent,
 * while it went on answering other calls all along.
 *
 * In: {@linkcode MatchRequest}. Out: `{ id, files, files_searched }` batches, then
 * `{ id, done: true, files_searched, timed_out }`, or `{ id, error }`.
 */
import { searchPort } from "./search_port.ts";
import { RepoIndex, SCAN_MMAP_BYTES } from "../store/repo_index.ts";
import { ToolError } from "../errors.ts";
import { asciiLiteralProbe, compileTextQuery, scanText } from "./text_scan.ts";

/** Where this worker answers (its pool port, see `search_port.ts`). */
const _port = searchPort();

/** A search for the worker. */
export interface MatchRequest {
  id: number;
  dbPath: string;
  /** Candidate paths, in scan order. */
  paths: string[];
  query: string;
  isRegex: boolean;
  caseSensitive: boolean;
  /** Most line numbers kept per file. */
  keep: number;
  /** Milliseconds the scan may take (the worker stops by itself then). */
  budgetMs: number;
  /**
   * After the first this many paths, stop as soon as `keep` matching lines are found: the files
   * come in relevance order, so what is left only adds to the total (then a lower bound). A count
   * of paths, never a time: the same search over the same index stops at the same file, however
   * busy the machine (`text_search.ts`).
   */
  settleAfter: number;
  redact: boolean;
}

/** One file with matches. */
export interface FileHits {
  path: string;
  count: number;
  lines: number[];
  /** The file's place in the request's `paths`. */
  at: number;
}

/** A message from the worker. */
export type MatchResponse =
  | { ready: true; id?: undefined }
  | { id: number; files: FileHits[]; files_searched: number }
  | { id: number; done: true; files_searched: number; timed_out: boolean; settled: boolean }
  | { id: number; error: string; code?: string };

/** How often found files are posted, in ms: what survives a termination. */
const _FLUSH_MS = 25;

let _open: { path: string; key: string; index: RepoIndex } | null = null;
/**
 * An idle worker closes its index after this long without a search, in ms: the pages a scan
 * touched through the memory map count in the server's resident set for as long as the map
 * lives (most of the stored contents after a few searches of a large repo); a burst of searches
 * keeps it, the next search after a pause opens the index again (~1 ms).
 */
const _CLOSE_IDLE_MS = 30_000;
let _closeTimer: ReturnType<typeof setTimeout> | undefined;

/** Close the open index once no search came for `_CLOSE_IDLE_MS`. */
function _closeWhenIdle(): void {
  clearTimeout(_closeTimer);
  _closeTimer = setTimeout(() => {
    _closeTimer = undefined;
    _open?.index.close();
    _open = null;
  }, _CLOSE_IDLE_MS);
  Deno.unrefTimer(_closeTimer as unknown as number);
}
/** Stored bytes to text as `RepoIndex.fileText` decodes them (invalid UTF-8 as U+FFFD). */
const _decoder = new TextDecoder();

/** The index at `dbPath`, reopened when the file was replaced (a rebuild, a deletion). */
function _index(dbPath: string): RepoIndex {
  const st = Deno.statSync(dbPath);
  const key = `${st.ino}:${st.birthtime?.getTime() ?? 0}`;
  if (_open !== null && _open.path === dbPath && _open.key === key) return _open.index;
  _open?.index.close();
  _open = null;
  const index = RepoIndex.open(dbPath, { mmapBytes: SCAN_MMAP_BYTES });
  _open = { path: dbPath, key, index };
  return index;
}

function _run(request: MatchRequest): void {
  const port = _port!;
  const started = performance.now();
  const deadline = started + request.budgetMs;
  const query = compileTextQuery(request.query, request.isRegex, request.caseSensitive);
  const probe = asciiLiteralProbe(request.query, request.isRegex, request.caseSensitive);
  const index = _index(request.dbPath);
  let batch: FileHits[] = [];
  // Paths gone through, empty ones included: where the scan is, as `settleAfter` counts.
  let searched = 0;
  let lastFlush = started;
  let timedOut = false;
  let settled = false;
  let total = 0;
  for (const path of request.paths) {
    const now = performance.now();
    if (now > deadline) {
      timedOut = true;
      break;
    }
    if (total >= request.keep && searched >= request.settleAfter) {
      settled = true;
      break;
    }
    const at = searched++;
    const bytes = index.fileBytes(path);
    if (bytes === undefined || bytes.byteLength === 0) continue;
    // A file that cannot match is not decoded (see asciiLiteralProbe).
    if (probe !== null && !probe(bytes)) continue;
    const text = _decoder.decode(bytes);
    const found = scanText(text, query, {
      keep: request.keep,
      deadline,
      redact: request.redact,
    });
    total += found.count;
    if (found.count > 0) batch.push({ path, count: found.count, lines: found.lines, at });
    if (found.timedOut) {
      timedOut = true;
      break;
    }
    const after = performance.now();
    if (batch.length > 0 && after - lastFlush >= _FLUSH_MS) {
      port.postMessage({ id: request.id, files: batch, files_searched: searched });
      batch = [];
      lastFlush = after;
    }
  }
  if (batch.length > 0) {
    port.postMessage({ id: request.id, files: batch, files_searched: searched });
  }
  port.postMessage({
    id: request.id,
    done: true,
    files_searched: searched,
    timed_out: timedOut,
    settled,
  });
}

// `_port` is null only when this module is loaded outside a worker: nothing to answer then.
_port?.on("message", (request: MatchRequest) => {
  clearTimeout(_closeTimer);
  try {
    _run(request);
    _closeWhenIdle();
  } catch (e) {
    _closeWhenIdle();
    const code = e instanceof ToolError ? e.code : undefined;
    _port!.postMessage({
      id: request.id,
      error: e instanceof Error ? e.message : String(e),
      ...(code === undefined ? {} : { code }),
    });
  }
});
// Loaded: the search's time budget starts now, not while this module was loading.
_port?.postMessage({ ready: true });
