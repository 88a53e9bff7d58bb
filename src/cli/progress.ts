/**
 * Indexing progress for the CLI: on a terminal, one self-redrawing bar (files, symbols, rate,
 * ETA); elsewhere (a pipe, a log file, CI), a plain line every few seconds. Either way, the
 * caller ends with a one-line summary ({@linkcode indexSummary}).
 *
 * @module
 */

/** A progress snapshot. */
export interface ProgressState {
  done: number;
  total: number;
  symbols: number;
  /** Milliseconds since indexing started. */
  elapsedMs: number;
  path: string;
}

const _n = (x: number) => x.toLocaleString("en-US");

/** `1 file`, `1,200 files`. */
const _count = (x: number, noun: string) => `${_n(x)} ${noun}${x === 1 ? "" : "s"}`;

function _duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
}

/**
 * The bar line: `[#####.....]  120/500 files  3,400 symbols  85 files/s  ETA 4s  src/a.ts`,
 * cut to `width` columns.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { progressBar } from "./progress.ts";
 * const line = progressBar({ done: 50, total: 100, symbols: 1200, elapsedMs: 2000, path: "a.go" }, 80);
 * equal(line, "[##########..........]  50/100 files  1,200 symbols  25 files/s  ETA 2s  a.go");
 * ```
 */
export function progressBar(s: ProgressState, width: number): string {
  const cells = 20;
  const fraction = s.total === 0 ? 1 : Math.min(1, s.done / s.total);
  const filled = Math.round(fraction * cells);
  const head = `[${"#".repeat(filled)}${".".repeat(cells - filled)}]  ${s.done}/${s.total} files  ${
    _n(s.symbols)
  } symbols`;
  const line = _finishing(s) ? `${head}  ${s.path}` : `${head}  ${_pace(s)}  ${s.path}`;
  return line.length > width ? line.slice(0, width - 1) + "…" : line;
}

/**
 * Every file is done: what comes now is the index's final write (imports resolved, search
 * indexes built, the transaction committed), and `path` says which step it is.
 */
function _finishing(s: ProgressState): boolean {
  return s.total > 0 && s.done >= s.total;
}

/** `25 files/s  ETA 2s`. */
function _pace(s: ProgressState): string {
  const rate = s.elapsedMs > 0 ? (s.done * 1000) / s.elapsedMs : 0;
  const eta = rate > 0 ? _duration(((s.total - s.done) / rate) * 1000) : "?";
  return `${rate >= 10 ? Math.round(rate) : rate.toFixed(1)} files/s  ETA ${eta}`;
}

/**
 * A plain progress line for logs: `indexing: 120/500 files, 3,400 symbols, 12s`, and during the
 * final write what it is doing (`…, 30s: writing the search indexes`).
 */
export function progressLine(s: ProgressState): string {
  return `indexing: ${s.done}/${s.total} files, ${_n(s.symbols)} symbols, ${
    _duration(s.elapsedMs)
  }${_finishing(s) ? `: ${s.path}` : ""}`;
}

/** Where progress goes. */
export interface ProgressSink {
  /** A terminal (redraw one line) or not (plain lines). */
  terminal: boolean;
  /** Terminal width in columns. */
  columns: number;
  write(text: string): void;
  now(): number;
}

/** stderr as a sink. */
export function stderrSink(): ProgressSink {
  const enc = new TextEncoder();
  const terminal = Deno.stderr.isTerminal();
  let columns = 100;
  try {
    if (terminal) columns = Deno.consoleSize().columns;
  } catch { /* not a console after all */ }
  return {
    terminal,
    columns,
    write: (text) => void Deno.stderr.writeSync(enc.encode(text)),
    now: () => performance.now(),
  };
}

/**
 * A progress callback (the shape of the indexer's) drawing on `sink`, and `end()` to clear the
 * bar before the summary is printed. A bar is redrawn at most 10 times a second; plain lines come
 * every `plainEveryMs` (default 5 s).
 */
export function progressReporter(
  sink: ProgressSink,
  plainEveryMs = 5000,
): {
  onProgress: (done: number, total: number, path: string, symbols?: number) => void;
  end(): void;
} {
  const start = sink.now();
  let last = -Infinity;
  let drawn = false;
  return {
    onProgress(done, total, path, symbols = 0) {
      const now = sink.now();
      const state = { done, total, path, symbols, elapsedMs: now - start };
      if (sink.terminal) {
        if (now - last < 100 && done < total) return;
        last = now;
        sink.write(`\r\x1b[2K${progressBar(state, sink.columns - 1)}`);
        drawn = true;
      } else {
        if (now - last < plainEveryMs) return;
        if (last === -Infinity) {
          last = now; // no line for runs shorter than the interval
          return;
        }
        last = now;
        sink.write(progressLine(state) + "\n");
      }
    },
    end() {
      if (drawn) sink.write("\r\x1b[2K");
      drawn = false;
    },
  };
}

/**
 * The one-line summary of an index_folder response: a full index (`file_count`) or an
 * incremental one (`changed`, `new`, `deleted`).
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { indexSummary } from "./progress.ts";
 * equal(
 *   indexSummary({ repo: "local/app", file_count: 1200, symbol_count: 35000 }, 2000),
 *   "Indexed local/app: 1,200 files, 35,000 symbols in 2.0 s (600 files/s)",
 * );
 * equal(
 *   indexSummary({ repo: "local/app", changed: 2, new: 1, deleted: 0 }, 300),
 *   "Updated local/app: 2 changed, 1 new, 0 deleted files in 0.3 s",
 * );
 * ```
 */
export function indexSummary(body: Record<string, unknown>, elapsedMs: number): string {
  const seconds = `${(elapsedMs / 1000).toFixed(1)} s`;
  if (body.file_count === undefined) {
    const [c, n, d] = [body.changed, body.new, body.deleted].map((x) => Number(x ?? 0));
    if (c === 0 && n === 0 && d === 0) return `${body.repo} is up to date (no changes, ${seconds})`;
    return `Updated ${body.repo}: ${c} changed, ${n} new, ${d} deleted files in ${seconds}`;
  }
  const files = Number(body.file_count);
  const rate = elapsedMs > 0 ? (files * 1000) / elapsedMs : files;
  const perSecond = rate >= 1 ? _n(Math.round(rate)) : rate.toFixed(1);
  return `Indexed ${body.repo}: ${_count(files, "file")}, ${
    _count(Number(body.symbol_count ?? 0), "symbol")
  } in ${seconds} (${perSecond} files/s)`;
}
