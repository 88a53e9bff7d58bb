/**
 * `search_text`: grep over the stored file text — literal or regex, case options, context
 * lines — with the trigram index choosing the candidate files (API.md §1.9). The matching runs in
 * a worker terminated at the time budget (`src/query/text_search.ts` says why), so no pattern can
 * stall the server; files come back by relevance (library source before tests and docs, then
 * match density), one row per line (`{file, line, text, symbol}`; with context lines, a `kind`
 * column says "match" or "context"), each match row with its enclosing symbol.
 */
import { z } from "zod";
import { regexLiterals } from "../store/trigrams.ts";
import { ToolError } from "../errors.ts";
import type { RepoIndex } from "../store/repo_index.ts";
import { lineStarts } from "../parser/source_text.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { bytesOfFiles, FILES, PATHS } from "../query/files.ts";
import { enclosingSymbol } from "../query/enclosing.ts";
import { globMatcher } from "../query/glob.ts";
import { oneLine } from "../query/one_line.ts";
import { ROLE_WEIGHT } from "../query/priors.ts";
import { FILE_PRIORS } from "../query/file_priors.ts";
import { SecretMap } from "../query/secrets.ts";
import { compileTextQuery } from "../query/text_scan.ts";
import { type FileHits, searchFiles, settlePoint } from "../query/text_search.ts";
import {
  type ArgsOf,
  defineTool,
  META,
  type MetaOf,
  type ResponseOf,
  type RowOf,
  rows,
} from "./define.ts";

const _description =
  "Grep the indexed files for a string or a regex (case-insensitive by default; time-bounded): one row per matching line with its enclosing symbol, best files first. For strings, comments, config keys, messages.";

const _args = {
  query: z.string().min(1).max(500).describe(
    "Text to find (a literal substring unless is_regex is true)",
  ),
  is_regex: z.boolean().optional().describe(
    "query is a JavaScript regex, matched per line",
  ),
  case_sensitive: z.boolean().optional().describe("Match case exactly (default false)"),
  file_pattern: z.string().optional().describe(
    'Only files matching this glob, e.g. "*.py"',
  ),
  max_results: z.number().int().min(1).max(1000).optional().describe(
    "Most matching lines (default 20)",
  ),
  context_lines: z.number().int().min(0).max(10).optional().describe(
    "Lines of context around each match (default 0)",
  ),
};

/** Validated arguments. */
export type SearchTextArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  result_count: z.number().int().describe("Matching lines returned"),
  results: rows({
    file: z.string().describe("Repo-relative path"),
    line: z.number().int().describe("Line number"),
    kind: z.enum(["match", "context"]).optional().describe(
      'With context_lines: "match" or "context"',
    ),
    text: z.string().describe("The line (secrets redacted; cut at 200 characters)"),
    symbol: z.string().nullable().describe("Id of the symbol enclosing a match line"),
  }).describe("One row per line: files by relevance, lines in order"),
};

const _meta = {
  files_searched: z.number().int().describe("Files scanned"),
  total_matches: z.number().int().describe("Matching lines found"),
  total_is_lower_bound: z.boolean().describe("The search stopped early: total_matches is a floor"),
  truncated: META.truncated,
  timed_out: z.boolean().describe("The search ran out of time"),
  secrets_redacted: z.number().int().describe("Secrets redacted in the lines shown"),
  hint: META.hint,
};

type _Row = RowOf<typeof _fields.results>;

/** Longest line text returned (longer lines are cut). */
const _MAX_LINE = 200;
/** Time budget of one search, in milliseconds. */
const _BUDGET_MS = 2000;
/**
 * After this many bytes of candidate files a search that has `max_results` matching lines stops:
 * the files are scanned in role order (source first), so the rest would only add to
 * `total_matches`. Bytes, not milliseconds, so that the same call gives the same answer on a busy
 * machine (it was 100 ms: 1 to 225 files of gostd for `return` under load). About 50 ms of
 * scanning on the 2-core build machine when quiet.
 */
const _SETTLE_BYTES = 4_000_000;

/**
 * A line as a row shows it: on one line (a CR, form feed or other character some reader breaks
 * lines at becomes a space), right-trimmed, cut to {@linkcode _MAX_LINE} characters without
 * splitting a surrogate pair.
 */
function _clip(line: string): string {
  const t = oneLine(line).replace(/\s+$/, "");
  if (t.length <= _MAX_LINE) return t;
  const code = t.charCodeAt(_MAX_LINE - 1);
  return t.slice(0, code >= 0xd800 && code <= 0xdbff ? _MAX_LINE - 1 : _MAX_LINE);
}

/** Compile the query on the calling thread only to validate it: a bad regex is `invalid_argument`. */
export function compileQuery(
  query: string,
  isRegex: boolean,
  caseSensitive: boolean,
): { scan: RegExp; line: RegExp } {
  try {
    return compileTextQuery(query, isRegex, caseSensitive);
  } catch (e) {
    throw new ToolError(
      "invalid_argument",
      `Invalid regex "${query}": ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

/**
 * Matching lines as rows, files by relevance, at most `max_results` matching lines (plus their
 * context rows); `_meta` has the total number of matching lines found.
 */
export async function handler(
  ctx: ToolContext,
  args: SearchTextArgs,
): Promise<ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>>> {
  const { repo, index, view } = openRepo(ctx, args.repo);
  const isRegex = args.is_regex ?? false;
  const maxResults = args.max_results ?? 20;
  const contextLines = args.context_lines ?? 0;
  const caseSensitive = args.case_sensitive ?? false;
  const redact = ctx.redact !== false;
  compileQuery(args.query, isRegex, caseSensitive);
  const inPattern = args.file_pattern === undefined ? null : globMatcher(args.file_pattern);
  const allPaths = view.get(PATHS);
  const literals = isRegex ? regexLiterals(args.query) : [args.query];
  let candidates = (literals.length > 0 ? index.textCandidates(literals) : null) ?? allPaths;
  if (inPattern !== null) candidates = candidates.filter(inPattern);
  // Source first, then tests, docs, examples, …: the order results are ranked in.
  const priors = view.get(FILE_PRIORS);
  const roleOf = (p: string) => ROLE_WEIGHT[priors.byPath(p).role];
  candidates = _byRole(candidates, roleOf);

  const files = view.get(FILES);
  const sizeOf = (p: string) => files.get(p)?.size ?? 0;
  const found = candidates.length === 0
    ? { files: [], filesSearched: 0, timedOut: false, settled: false }
    : await searchFiles({
      dbPath: index.dbPath,
      paths: candidates,
      query: args.query,
      isRegex,
      caseSensitive,
      keep: maxResults,
      budgetMs: _BUDGET_MS,
      settleAfter: settlePoint(candidates, sizeOf, _SETTLE_BYTES),
      redact,
    }, sizeOf);

  const ranked = _rank(found.files, roleOf, (p) => files.get(p)?.line_count ?? 0);
  const total = ranked.reduce((n, f) => n + f.count, 0);
  // One row per line: files by relevance, lines in order within a file, each file's share of the
  // rows set by lineQuotas (one large file does not take every row).
  // A scan that settled early found the first files only, a set that varies with time: their
  // rows go in file order, as found, so that the same call answers the same.
  const quotas = found.settled || found.timedOut
    ? lineQuotas(ranked.map((f) => f.lines.length), maxResults, Infinity)
    : lineQuotas(ranked.map((f) => f.lines.length), maxResults);
  const results: _Row[] = [];
  const shownFiles: string[] = [];
  let count = 0;
  let redacted = 0;
  for (const [i, hits] of ranked.entries()) {
    if (quotas[i] === 0) continue;
    const lines = hits.lines.slice(0, quotas[i]);
    const served = _servedLines(index, hits.path, lines, contextLines, redact);
    if (served === null) continue;
    redacted += served.redacted;
    results.push(...served.rows);
    shownFiles.push(hits.path);
    count += lines.length;
  }
  const truncated = total > count;
  const meta: MetaOf<typeof _meta> = {
    files_searched: found.filesSearched,
    total_matches: total,
    ...(found.settled || found.timedOut ? { total_is_lower_bound: true } : {}),
    truncated,
    timed_out: found.timedOut,
  };
  if (redacted > 0) meta.secrets_redacted = redacted;
  if (found.timedOut) {
    meta.hint =
      `The search ran out of time (${_BUDGET_MS} ms) after ${found.filesSearched} of ${candidates.length} files, with ${total} matching lines so far: narrow it with file_pattern or a more specific query`;
  } else if (truncated) {
    meta.hint = `Showing ${count} of ${
      found.settled ? "at least " : ""
    }${total} matching lines: narrow with a longer query or file_pattern, or raise max_results`;
  }
  return {
    response: { result_count: count, results },
    rawBytes: bytesOfFiles(view, shownFiles),
    repo,
    meta,
  };
}

/** Paths by role weight (source first), in their order within a role. */
function _byRole(paths: readonly string[], roleOf: (path: string) => number): string[] {
  const weighted = paths.map((p, i) => ({ p, i, w: roleOf(p) }));
  weighted.sort((a, b) => b.w - a.w || a.i - b.i);
  return weighted.map((x) => x.p);
}

/** Most matching lines of one file in the first round of rows (see {@linkcode lineQuotas}). */
export const FIRST_ROUND_LINES = 5;

/**
 * How many of each file's matching lines are shown (files in relevance order, `available[i]`
 * lines found in file i): a first round gives each file, in order, up to
 * {@linkcode FIRST_ROUND_LINES}; the rows left go to the files in order again. So the best files
 * all show, and one large file does not take every row.
 *
 * @example Usage
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { lineQuotas } from "./search_text.ts";
 * deepEqual(lineQuotas([30, 2, 2, 1], 20), [15, 2, 2, 1]);
 * deepEqual(lineQuotas([30, 40], 8), [5, 3]);
 * ```
 */
export function lineQuotas(
  available: readonly number[],
  rows: number,
  firstRound = FIRST_ROUND_LINES,
): number[] {
  const quotas = available.map(() => 0);
  let left = rows;
  for (const limit of [firstRound, Infinity]) {
    for (let i = 0; i < available.length && left > 0; i++) {
      const add = Math.min(left, Math.min(available[i]!, limit) - quotas[i]!);
      if (add <= 0) continue;
      quotas[i]! += add;
      left -= add;
    }
  }
  return quotas;
}

/**
 * Files by relevance: role weight (source 1, tests 0.55, docs 0.6, …), then match density
 * (matching lines per line of the file), then path.
 */
function _rank(
  files: readonly FileHits[],
  roleOf: (path: string) => number,
  lineCount: (path: string) => number,
): FileHits[] {
  const scored = files.map((f) => ({
    f,
    role: roleOf(f.path),
    density: f.count / Math.max(1, lineCount(f.path)),
  }));
  scored.sort((a, b) =>
    b.role - a.role || b.density - a.density ||
    (a.f.path < b.f.path ? -1 : a.f.path > b.f.path ? 1 : 0)
  );
  return scored.map((s) => s.f);
}

/**
 * The rows of some matching lines of one file (text redacted, then clipped): `{file, line, text,
 * symbol}` per matching line; with context, `{file, line, kind, text, symbol}` for every line of
 * the merged windows around the matches (as grep -C), `kind` "match" or "context", `symbol` only
 * on match rows (null on context rows and outside any symbol).
 */
function _servedLines(
  index: RepoIndex,
  path: string,
  lineNos: readonly number[],
  contextLines: number,
  redact: boolean,
): { rows: _Row[]; redacted: number } | null {
  const text = index.fileText(path);
  if (text === undefined) return null;
  const starts = lineStarts(text);
  // The last "line" of a text ending in a line break is empty and not a line.
  const lineCount = starts.length > 1 && starts.at(-1) === text.length
    ? starts.length - 1
    : starts.length;
  const secrets = redact ? new SecretMap(text) : null;
  let redacted = 0;
  const lineText = (n: number): string => {
    const start = starts[n - 1]!;
    let end = n < starts.length ? starts[n]! : text.length;
    if (n < starts.length) {
      if (text.charCodeAt(end - 1) === 10) end--;
      if (text.charCodeAt(end - 1) === 13) end--;
    }
    if (secrets === null) return _clip(text.slice(start, end));
    const spans = secrets.spansIn(start, end);
    redacted += spans.length;
    return _clip(secrets.redacted(start, end));
  };
  const symbols = index.symbolSpans(path);
  const match = (n: number): _Row => ({
    file: path,
    line: n,
    ...(contextLines > 0 ? { kind: "match" as const } : {}),
    text: lineText(n),
    symbol: enclosingSymbol(symbols, n),
  });
  if (contextLines === 0) return { rows: lineNos.map(match), redacted };
  const matching = new Set(lineNos);
  const rows: _Row[] = [];
  let next = 1; // the first line not yet shown
  for (const n of lineNos) {
    for (let k = Math.max(next, n - contextLines); k < n; k++) {
      rows.push(_context(path, k, lineText));
    }
    if (n >= next) rows.push(match(n));
    next = Math.max(next, n + 1);
    const last = Math.min(lineCount, n + contextLines);
    for (let k = next; k <= last && !matching.has(k); k++) {
      rows.push(_context(path, k, lineText));
      next = k + 1;
    }
  }
  return { rows, redacted };
}

function _context(path: string, n: number, lineText: (n: number) => string): _Row {
  return { file: path, line: n, kind: "context", text: lineText(n), symbol: null };
}

/** The declaration. */
export const tool = defineTool({
  name: "search_text",
  title: "Search text",
  summary:
    "literal or regex search, one row per line (`is_regex`, `case_sensitive`, `context_lines`, `file_pattern`, `max_results`), narrowed by the trigram index",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "st1" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
