/**
 * `get_symbol_source` (aliases `get_symbol`, `get_symbols`): the exact source of symbols by id,
 * sliced by byte offset from the stored file content (API.md §1.6).
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import type { SymbolRecord } from "../parser/types.ts";
import type { RepoIndex } from "../store/repo_index.ts";
import { ToolError } from "../errors.ts";
import { findSymbol } from "../query/symbol_lookup.ts";
import { bytesOfFiles, freshnessChecker, markFreshness } from "../query/files.ts";
import { redactRange, secretSpans } from "../query/secrets.ts";
import { splitLines } from "../parser/source_text.ts";
import {
  DEFAULT_TOKEN_BUDGET,
  estimateTokens,
  fitLines,
  TOKEN_BUDGET_RANGE,
  TokenBudget,
} from "../query/budget.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { decoratorText } from "./rows.ts";

/** Tool name. */
export const name = "get_symbol_source";

/** Other names of this tool (the reference architecture's `get_symbol` and `get_symbols`). */
export const aliases = ["get_symbol", "get_symbols"] as const;

/** Tool description shown to agents. */
export const description =
  `Get the exact source code of one symbol (symbol_id) or several (symbol_ids), by the ids that search_symbols and get_file_outline return — only those lines, not the whole file. An id may also be a unique name, Qualified.name or file::Qualified.name without #kind. Optionally with surrounding lines (context_lines) and a hash check against the index (verify). At most token_budget tokens (default ${DEFAULT_TOKEN_BUDGET}, about 4 bytes each) come back: a longer source is cut at a whole line and _meta.hint names the get_file_content lines or symbol_ids that fetch the rest.`;

/** Input schema. */
export const inputSchema = z.object({
  repo: z.string().describe("Repo id from list_repos (or a bare name that identifies one repo)"),
  symbol_id: z.string().optional().describe(
    'Symbol id, e.g. "src/app.py::App.run#method"; also "src/app.py::App.run", "App.run" or "run" when unique',
  ),
  symbol_ids: z.array(z.string()).optional().describe(
    "Several symbol ids (batch); use instead of symbol_id",
  ),
  verify: z.boolean().optional().describe(
    "Re-hash the source and report content_verified (default false)",
  ),
  context_lines: z.number().int().min(0).max(50).optional().describe(
    "Lines of the file to add before and after the symbol (0-50, default 0)",
  ),
  token_budget: z.number().int().min(TOKEN_BUDGET_RANGE.min).max(TOKEN_BUDGET_RANGE.max)
    .optional().describe(
      `Most tokens of source to return over all symbols, counted as bytes/4 (default ${DEFAULT_TOKEN_BUDGET})`,
    ),
});

/** Validated arguments. */
export type GetSymbolSourceArgs = z.infer<typeof inputSchema>;

/** Annotations for MCP clients. */
export const annotations = { readOnlyHint: true, openWorldHint: false } as const;

export { closestSymbolIds, findSymbol } from "../query/symbol_lookup.ts";

const _decoder = new TextDecoder();

function _entry(
  index: RepoIndex,
  s: SymbolRecord,
  verify: boolean,
  contextLines: number,
  redact: boolean,
): Record<string, unknown> {
  const bytes = index.symbolBytes(s.id) ?? new Uint8Array();
  let source = _decoder.decode(bytes);
  // Tokens never span lines: the envelope redacts them in what is served. A private key block
  // does, so a symbol or context lines inside one are redacted by position in the whole file.
  const fileText = redact || contextLines > 0 ? index.fileText(s.file) ?? "" : "";
  const spans = redact && fileText.includes("PRIVATE KEY") ? secretSpans(fileText) : [];
  if (spans.length > 0) {
    const fileBytes = index.fileBytes(s.file) ?? new Uint8Array();
    const start = _decoder.decode(fileBytes.subarray(0, s.byte_offset)).length;
    source = redactRange(fileText, spans, start, start + source.length);
  }
  const entry: Record<string, unknown> = {
    id: s.id,
    kind: s.kind,
    name: s.name,
    file: s.file,
    line: s.line,
    end_line: s.end_line,
    signature: s.signature,
    decorators: decoratorText(s.decorators),
    docstring: s.docstring,
    content_hash: s.content_hash,
    source,
  };
  if (contextLines > 0) {
    const lines = splitLines(spans.length > 0 ? redactRange(fileText, spans) : fileText);
    entry.context_before = lines.slice(Math.max(0, s.line - 1 - contextLines), s.line - 1)
      .join("\n");
    entry.context_after = lines.slice(s.end_line, s.end_line + contextLines).join("\n");
  }
  if (verify && bytes.length > 0) {
    entry.content_verified = s.content_hash === ""
      ? null
      : createHash("sha256").update(bytes).digest("hex") === s.content_hash;
  }
  return entry;
}

/** One symbol as a flat object, or `{symbols, errors}` for `symbol_ids`. */
export function handler(ctx: ToolContext, args: GetSymbolSourceArgs): ToolOutput {
  const single = args.symbol_id;
  const batch = args.symbol_ids;
  if (single !== undefined && batch !== undefined) {
    throw new ToolError("invalid_argument", "Provide symbol_id or symbol_ids, not both");
  }
  if (single === undefined && batch === undefined) {
    throw new ToolError(
      "invalid_argument",
      "Provide symbol_id (string) or symbol_ids (array of strings): ids come from search_symbols or get_file_outline",
    );
  }
  const { repo, index, view } = openRepo(ctx, args.repo);
  const verify = args.verify ?? false;
  const contextLines = args.context_lines ?? 0;
  const budget = new TokenBudget(args.token_budget ?? DEFAULT_TOKEN_BUDGET);
  const check = freshnessChecker(view);
  const hints: string[] = [];
  if (single !== undefined) {
    const s = findSymbol(view, single);
    const entry = _entry(index, s, verify, contextLines, ctx.redact !== false);
    _fit(entry, s, budget, hints);
    const freshness = markFreshness([entry], check);
    return {
      response: entry,
      rawBytes: bytesOfFiles(view, [s.file]),
      repo,
      meta: {
        symbol_count: 1,
        truncated: hints.length > 0,
        ...(hints.length > 0 ? { hint: hints.join("; ") } : {}),
        ...(freshness === null ? {} : { freshness }),
      },
    };
  }
  const symbols: Record<string, unknown>[] = [];
  const errors: Record<string, unknown>[] = [];
  const files: string[] = [];
  const left: string[] = [];
  for (const id of batch!) {
    try {
      const s = findSymbol(view, id);
      const entry = _entry(index, s, verify, contextLines, ctx.redact !== false);
      if (!budget.fits(estimateTokens(entry)) && symbols.length > 0) {
        left.push(s.id);
        continue;
      }
      _fit(entry, s, budget, hints);
      symbols.push(entry);
      files.push(s.file);
    } catch (e) {
      if (!(e instanceof ToolError)) throw e;
      errors.push({ id, error: e.message });
    }
  }
  if (left.length > 0) {
    hints.push(
      `${left.length} symbols left out to fit token_budget=${budget.limit}: call get_symbol_source with symbol_ids=${
        JSON.stringify(left)
      } (or raise token_budget)`,
    );
  }
  const freshness = markFreshness(symbols, check);
  return {
    response: { symbols, errors },
    rawBytes: bytesOfFiles(view, files),
    repo,
    meta: {
      symbol_count: symbols.length,
      truncated: hints.length > 0,
      ...(hints.length > 0 ? { hint: hints.join("; ") } : {}),
      ...(freshness === null ? {} : { freshness }),
    },
  };
}

/**
 * Take the entry into the budget; a source larger than what is left is cut at a whole line, the
 * entry marked `truncated`, and a hint names the lines that fetch the rest.
 */
function _fit(
  entry: Record<string, unknown>,
  s: SymbolRecord,
  budget: TokenBudget,
  hints: string[],
): void {
  const tokens = estimateTokens(entry);
  if (tokens <= budget.remaining) {
    budget.take(tokens);
    return;
  }
  const source = String(entry.source);
  const others = tokens - estimateTokens(source);
  const room = Math.max(64, budget.remaining - others);
  const fit = fitLines(source.split("\n"), room);
  entry.source = fit.text;
  entry.truncated = true;
  budget.take(estimateTokens(entry));
  // Whole lines kept: the rest starts on the next line; none (one huge line): on the first one.
  const from = s.line + fit.kept;
  const where = fit.kept === 0 ? `inside line ${s.line}` : `after line ${from - 1}`;
  hints.push(
    `${s.id}: source cut ${where} to fit token_budget=${budget.limit}: call get_file_content with file_path="${s.file}", start_line=${from}, end_line=${s.end_line} for the rest (or raise token_budget)`,
  );
}
