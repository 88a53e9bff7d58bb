/**
 * `search_text`: grep over the stored file text — literal or regex, case options, context
 * lines — with the trigram index choosing the candidate files (API.md §1.9).
 */
import { z } from "zod";
import { regexLiterals } from "../store/trigrams.ts";
import { ToolError } from "../errors.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { bytesOfFiles, PATHS } from "../query/files.ts";
import { globMatcher } from "../query/glob.ts";

/** Tool name. */
export const name = "search_text";

/** Tool description shown to agents. */
export const description =
  "Search the text of every indexed file for a literal string or a regular expression (like grep, case-insensitive by default), returning matching lines grouped by file, with optional context lines. Use it for strings, comments, config keys, error messages and anything that is not a symbol name; use search_symbols to find definitions.";

/** Input schema. */
export const inputSchema = z.object({
  repo: z.string().describe("Repo id from list_repos (or a bare name that identifies one repo)"),
  query: z.string().min(1).max(500).describe(
    "Text to find (a literal substring unless is_regex is true)",
  ),
  is_regex: z.boolean().optional().describe(
    "Treat query as a JavaScript regular expression, matched per line (default false)",
  ),
  case_sensitive: z.boolean().optional().describe("Match case exactly (default false)"),
  file_pattern: z.string().optional().describe(
    'Only files matching this glob ("*" also crosses "/"), e.g. "*.py" or "src/*"',
  ),
  max_results: z.number().int().min(1).max(1000).optional().describe(
    "Most matching lines returned (1-1000, default 20)",
  ),
  context_lines: z.number().int().min(0).max(10).optional().describe(
    "Lines of context before and after each match (0-10, default 0)",
  ),
});

/** Validated arguments. */
export type SearchTextArgs = z.infer<typeof inputSchema>;

/** Annotations for MCP clients. */
export const annotations = { readOnlyHint: true, openWorldHint: false } as const;

/** Longest line text returned (longer lines are cut). */
const _MAX_LINE = 200;
/** Text scanned in path order before the trigram index is asked for candidates. */
const _PRESCAN_BYTES = 32 * 1024;
/** Time budget of one search, in milliseconds. */
const _BUDGET_MS = 2000;
/** A quantified group that itself holds a quantifier: `(a+)+`, `(\w*)*`, `(x+){2,}`. */
const _NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)(?:[+*]|\{\d*,)/;

function _escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function _clip(line: string): string {
  const t = line.replace(/\s+$/, "");
  return t.length > _MAX_LINE ? t.slice(0, _MAX_LINE) : t;
}

/** Compile the query; regex errors and catastrophic shapes are `invalid_argument`. */
export function compileQuery(
  query: string,
  isRegex: boolean,
  caseSensitive: boolean,
): { scan: RegExp; line: RegExp } {
  const source = isRegex ? query : _escape(query);
  if (isRegex && _NESTED_QUANTIFIER.test(query)) {
    throw new ToolError(
      "invalid_argument",
      `Regex rejected: nested quantifiers like (a+)+ can take exponential time; simplify "${query}"`,
    );
  }
  try {
    const flags = caseSensitive ? "" : "i";
    return { scan: new RegExp(source, "gm" + flags), line: new RegExp(source, flags) };
  } catch (e) {
    throw new ToolError(
      "invalid_argument",
      `Invalid regex "${query}": ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

/** Matching lines grouped by file, files in path order, at most `max_results` lines. */
export function handler(ctx: ToolContext, args: SearchTextArgs): ToolOutput {
  const { repo, index, view } = openRepo(ctx, args.repo);
  const isRegex = args.is_regex ?? false;
  const maxResults = args.max_results ?? 20;
  const contextLines = args.context_lines ?? 0;
  const { scan, line: lineRe } = compileQuery(args.query, isRegex, args.case_sensitive ?? false);
  const started = performance.now();
  const inPattern = args.file_pattern === undefined ? null : globMatcher(args.file_pattern);
  const allPaths = view.get(PATHS);
  const results: { file: string; matches: Record<string, unknown>[] }[] = [];
  let count = 0;
  let filesSearched = 0;
  let truncated = false;
  let timedOut = false;

  /** Scan one file; returns false when the search must stop (cap or time budget). */
  const scanFile = (path: string, text: string): boolean => {
    filesSearched++;
    scan.lastIndex = 0;
    let matches: Record<string, unknown>[] | null = null;
    let lineNo = 1;
    let counted = 0; // offset up to which newlines are counted into lineNo
    let m: RegExpExecArray | null;
    while ((m = scan.exec(text)) !== null) {
      const start = m.index === 0 ? 0 : text.lastIndexOf("\n", m.index - 1) + 1;
      let end = text.indexOf("\n", m.index);
      if (end === -1) end = text.length;
      const lineText = text.slice(start, end).replace(/\r$/, "");
      scan.lastIndex = end + 1;
      // A regex match may run over a line break; a line matches only on its own.
      if (isRegex && !lineRe.test(lineText)) {
        if (end >= text.length) break;
        continue;
      }
      for (
        let i = text.indexOf("\n", counted);
        i !== -1 && i < start;
        i = text.indexOf("\n", i + 1)
      ) {
        lineNo++;
      }
      counted = start;
      const match: Record<string, unknown> = { line: lineNo, text: _clip(lineText) };
      if (contextLines > 0) {
        match.before = _linesBefore(text, start, contextLines);
        match.after = _linesAfter(text, end, contextLines);
      }
      if (matches === null) {
        matches = [];
        results.push({ file: path, matches });
      }
      matches.push(match);
      count++;
      if (count >= maxResults) {
        truncated = true;
        return false;
      }
      if (end >= text.length) break;
    }
    if (performance.now() - started > _BUDGET_MS) {
      timedOut = true;
      return false;
    }
    return true;
  };

  // A common query fills max_results from the first few files: scan those directly, and ask the
  // trigram index for the remaining candidates only when they were not enough.
  const scanned = new Set<string>();
  let prescanBytes = 0;
  let go = true;
  for (const path of allPaths) {
    if (prescanBytes >= _PRESCAN_BYTES || !go) break;
    if (inPattern !== null && !inPattern(path)) continue;
    const text = index.fileText(path);
    if (text === undefined) continue;
    scanned.add(path);
    prescanBytes += text.length;
    go = scanFile(path, text);
  }
  if (go && scanned.size < allPaths.length) {
    const literals = isRegex ? regexLiterals(args.query) : [args.query];
    const candidates = (literals.length > 0 ? index.textCandidates(literals) : null) ?? allPaths;
    for (const path of candidates) {
      if (scanned.has(path) || (inPattern !== null && !inPattern(path))) continue;
      const text = index.fileText(path);
      if (text === undefined) continue;
      if (!scanFile(path, text)) break;
    }
  }
  const meta: Record<string, unknown> = {
    files_searched: filesSearched,
    truncated,
    timed_out: timedOut,
  };
  if (truncated) {
    meta.hint =
      `Stopped at ${maxResults} matching lines: narrow with a longer query or file_pattern, or raise max_results`;
  } else if (timedOut) {
    meta.hint = "The search ran out of time: narrow it with file_pattern or a more specific query";
  }
  return {
    response: { result_count: count, results },
    rawBytes: bytesOfFiles(view, results.map((r) => r.file)),
    repo,
    meta,
  };
}

function _linesBefore(text: string, lineStart: number, n: number): string[] {
  const out: string[] = [];
  let end = lineStart - 1; // the newline ending the previous line
  while (out.length < n && end >= 0) {
    const start = end === 0 ? 0 : text.lastIndexOf("\n", end - 1) + 1;
    out.unshift(_clip(text.slice(start, end).replace(/\r$/, "")));
    end = start - 1;
  }
  return out;
}

function _linesAfter(text: string, lineEnd: number, n: number): string[] {
  const out: string[] = [];
  let start = lineEnd + 1;
  while (out.length < n && start < text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    out.push(_clip(text.slice(start, end).replace(/\r$/, "")));
    start = end + 1;
  }
  return out;
}
