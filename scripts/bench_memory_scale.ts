/**
 * The scale part of `deno task bench memory --scale` (issue 32): after a session's first queries
 * on the indexed copy, what a large repository costs besides memory — the index's size on disk,
 * its file and symbol counts and the files it skipped (by reason: the file-count and file-size
 * settings), warm `search_symbols` and `search_text` latencies (p50 and p90 of `--latency N`
 * rounds of the session's queries, timed at the client: the MCP round trip over stdio; after the
 * first round the result cache answers them), `search_symbols` on ten new questions asked once
 * each ({@linkcode UNCACHED_QUERIES}: what a new question costs), and a
 * one-file change re-indexed by the running server, its parser pool warm, two ways: `index_file`
 * on the edited file (what the watcher and a stale read do: the one-file re-index), then after a
 * second edit `index_folder` again (an incremental index: the whole tree walked and compared).
 */
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { percentile } from "./bench_util.ts";

/** What `--scale` adds to a session. */
export interface ScaleReport {
  files: number;
  symbols: number;
  /** Files the walk skipped, by reason (`file_limit`, `too_large`, …; zero counts left out). */
  skipped: Record<string, number>;
  /** Bytes of the index directory (the repo's database and its WAL, any side files). */
  db_mb: number;
  /** The first `search_symbols` and `search_text` of the session (their facets cold). */
  first_symbols_ms: number;
  first_text_ms: number;
  /** p50 / p90 of the rounds of the session's queries (after the first round, result-cache hits). */
  symbols_p50_ms: number;
  symbols_p90_ms: number;
  /** p50 / p90 of {@linkcode UNCACHED_QUERIES}, each asked once: answers no cache holds. */
  symbols_uncached_p50_ms: number;
  symbols_uncached_p90_ms: number;
  text_p50_ms: number;
  text_p90_ms: number;
  /** Calls timed for each tool. */
  latency_calls: number;
  /** `index_file` on the edited file, at the client; its `change` (must be `changed`). */
  one_file_ms: number;
  one_file_change: string;
  /** A `search_symbols` for the function the edit added, right after: did it find it, in ms. */
  added_found: boolean;
  added_search_ms: number;
  /** `index_folder` after a second edit of the same file, at the client. */
  folder_one_file_ms: number;
  /** Files `index_folder` found changed (must be 1). */
  one_file_changed: number;
  one_file_path: string;
  /** Files over the file-count limit (`JCODEMUNCH_MAX_FOLDER_FILES`), as the outcome counts them. */
  files_skipped_cap: number;
  /** Files the parser skipped or only partly parsed. */
  parse_warnings: number;
  /** Indexed files by language. */
  languages: Record<string, number>;
  /** The server's own time (`duration_seconds`) of the full index, `index_file` and the folder's. */
  index_duration_s: number;
  one_file_duration_s: number;
  folder_one_file_duration_s: number;
  /** p50 (ms) of each timed query, by tool and query. */
  p50_by_query: Record<string, number>;
  /** The server's RSS (MB) before and after the one-file re-index (`rss` given). */
  rss_before_one_file_mb: number;
  rss_after_one_file_mb: number;
}

/**
 * Descriptions of everyday programming work, each asked once (so the result cache holds none of
 * them): the cost of a new question. Written for any corpus, none tuned on one.
 */
export const UNCACHED_QUERIES = [
  "open a file",
  "parse a number",
  "write to a buffer",
  "close the connection",
  "lock a mutex",
  "free memory",
  "read a header",
  "handle an error",
  "start a timer",
  "copy a string",
];

/** The session's queries, as bench_memory.ts's SESSION_QUERIES gives them. */
export interface ScaleQueries {
  name: string;
  words: string[];
  text: string;
  phrase: string;
}

/** A tool call: the decoded response (throws on a tool error). */
export type Call = (
  client: Client,
  name: string,
  args: Record<string, unknown>,
) => Promise<Record<string, unknown>>;

/**
 * Timed calls: each of `argsList` once per round, `rounds` rounds; the times in ms, and the p50
 * of each query into `byQuery` (keyed `tool: query`).
 */
async function _timed(
  call: Call,
  client: Client,
  tool: string,
  argsList: Record<string, unknown>[],
  rounds: number,
  byQuery: Record<string, number>,
): Promise<number[]> {
  const times: number[] = [];
  const each = argsList.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    for (const [i, args] of argsList.entries()) {
      const t = performance.now();
      await call(client, tool, args);
      const ms = performance.now() - t;
      times.push(ms);
      each[i]!.push(ms);
    }
  }
  for (const [i, args] of argsList.entries()) {
    byQuery[`${tool}: ${args.query}`] = percentile(each[i]!, 50);
  }
  return times;
}

/**
 * The code appended to a file to change it, by its extension (an editor adding a function), and
 * the function's name; `n` tells the edits apart.
 */
export function appendedFunction(path: string, n = 1): { code: string; name: string } {
  if (path.endsWith(".go")) {
    const name = `benchAddedFunction${n}`;
    return { code: `\nfunc ${name}() int { return 1 }\n`, name };
  }
  const name = `bench_added_function_${n}`;
  if (path.endsWith(".py")) return { code: `\n\ndef ${name}():\n    return 1\n`, name };
  return { code: `\nint ${name}(void) { return 1; }\n`, name };
}

/** Bytes of the files under `dir`, recursively. */
export function treeBytes(dir: string): number {
  let n = 0;
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) n += treeBytes(p);
    else if (e.isFile) n += Deno.statSync(p).size;
  }
  return n;
}

/**
 * Measure a repo already indexed in the server (`indexed`: the `index_folder` response) and
 * whose first queries were asked (`first`: their times): the DB's size, warm latencies, then a
 * one-file change to `changeFile` (relative to `folder`) re-indexed.
 */
export async function scaleProbe(
  call: Call,
  client: Client,
  o: {
    folder: string;
    repo: string;
    indexDir: string;
    indexed: Record<string, unknown>;
    queries: ScaleQueries;
    first: { symbols_ms: number; text_ms: number };
    changeFile: string;
    rounds: number;
    /** The server's resident set in MB, now. */
    rss: () => Promise<number>;
  },
): Promise<ScaleReport> {
  const dbBytes = treeBytes(o.indexDir);
  const { repo, queries: q } = o;
  const byQuery: Record<string, number> = {};
  const symbols = await _timed(
    call,
    client,
    "search_symbols",
    [
      { repo, query: q.name },
      ...q.words.map((w) => ({ repo, query: w })),
    ],
    o.rounds,
    byQuery,
  );
  const text = await _timed(
    call,
    client,
    "search_text",
    [
      { repo, query: q.text },
      { repo, query: q.phrase },
    ],
    o.rounds,
    byQuery,
  );
  const uncached = await _timed(
    call,
    client,
    "search_symbols",
    UNCACHED_QUERIES.map((query) => ({ repo, query })),
    1,
    byQuery,
  );
  const rssBefore = await o.rss();
  const edit = await _oneFileEdits(call, client, o);
  const rssAfter = await o.rss();
  return {
    files: Number(o.indexed.file_count ?? NaN),
    symbols: Number(o.indexed.symbol_count ?? NaN),
    skipped: _skipped(o.indexed),
    db_mb: dbBytes / 1024 / 1024,
    first_symbols_ms: o.first.symbols_ms,
    first_text_ms: o.first.text_ms,
    symbols_p50_ms: percentile(symbols, 50),
    symbols_p90_ms: percentile(symbols, 90),
    symbols_uncached_p50_ms: percentile(uncached, 50),
    symbols_uncached_p90_ms: percentile(uncached, 90),
    text_p50_ms: percentile(text, 50),
    text_p90_ms: percentile(text, 90),
    latency_calls: symbols.length,
    one_file_ms: edit.fileMs,
    one_file_change: String(edit.file.change),
    added_found: edit.found,
    added_search_ms: edit.searchMs,
    folder_one_file_ms: edit.folderMs,
    one_file_changed: Number(edit.folder.changed ?? NaN),
    files_skipped_cap: Number(o.indexed.files_skipped_cap ?? 0),
    parse_warnings: (o.indexed.parse_warnings as unknown[] | undefined)?.length ?? 0,
    languages: (o.indexed.languages ?? {}) as Record<string, number>,
    index_duration_s: Number(o.indexed.duration_seconds ?? NaN),
    one_file_duration_s: Number(edit.file.duration_seconds ?? NaN),
    folder_one_file_duration_s: Number(edit.folder.duration_seconds ?? NaN),
    p50_by_query: byQuery,
    rss_before_one_file_mb: rssBefore,
    rss_after_one_file_mb: rssAfter,
    one_file_path: o.changeFile,
  };
}

/**
 * Two edits of `o.changeFile`, each appending a function: the first re-indexed by `index_file`
 * (then a `search_symbols` for the new function), the second by `index_folder`; the file is then
 * restored and re-indexed by `index_file`, so the index matches the disk again.
 */
async function _oneFileEdits(
  call: Call,
  client: Client,
  o: { folder: string; repo: string; changeFile: string },
) {
  const path = join(o.folder, o.changeFile);
  const original = Deno.readFileSync(path);
  const append = (n: number) => {
    const added = appendedFunction(o.changeFile, n);
    Deno.writeFileSync(
      path,
      new Uint8Array([...original, ...new TextEncoder().encode(added.code)]),
    );
    return added.name;
  };
  const timed = async (tool: string, args: Record<string, unknown>) => {
    const t = performance.now();
    const out = await call(client, tool, args);
    return { out, ms: performance.now() - t };
  };
  try {
    const name = append(1);
    const file = await timed("index_file", { path });
    const search = await timed("search_symbols", { repo: o.repo, query: name });
    const found = JSON.stringify(search.out).includes(name);
    append(2);
    const folder = await timed("index_folder", { path: o.folder });
    return {
      file: file.out,
      fileMs: file.ms,
      found,
      searchMs: search.ms,
      folder: folder.out,
      folderMs: folder.ms,
    };
  } finally {
    Deno.writeFileSync(path, original);
    await call(client, "index_file", { path });
  }
}

/** The non-zero `discovery_skip_counts` of an `index_folder` response. */
function _skipped(indexed: Record<string, unknown>): Record<string, number> {
  const raw = (indexed.discovery_skip_counts ?? {}) as Record<string, unknown>;
  if (typeof raw !== "object" || raw === null) return {};
  return Object.fromEntries(
    Object.entries(raw).filter(([, n]) => typeof n === "number" && n > 0) as [string, number][],
  );
}
