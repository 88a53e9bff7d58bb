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
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf, rows } from "./define.ts";

const _description =
  "The exact source of one symbol (symbol_id) or several (symbol_ids), by the ids search_symbols and get_file_outline give (or a unique name): only those lines.";

const _args = {
  symbol_id: z.string().optional().describe(
    'Symbol id, e.g. "src/app.py::App.run#method", or a unique name',
  ),
  symbol_ids: z.array(z.string()).optional().describe(
    "Several symbol ids",
  ),
  verify: z.boolean().optional().describe(
    "Re-hash the source and report content_verified",
  ),
  context_lines: z.number().int().min(0).max(50).optional().describe(
    "Lines to add around the symbol (default 0)",
  ),
  token_budget: z.number().int().min(TOKEN_BUDGET_RANGE.min).max(TOKEN_BUDGET_RANGE.max)
    .optional().describe(
      `Most tokens returned (default ${DEFAULT_TOKEN_BUDGET})`,
    ),
};

/** Validated arguments. */
export type GetSymbolSourceArgs = ArgsOf<typeof _args, "required">;

/** One symbol's source and facts: the whole response for symbol_id, a row for symbol_ids. */
const _ENTRY = {
  id: z.string().describe("Symbol id"),
  kind: z.string().describe("Symbol kind"),
  name: z.string().describe("Name"),
  file: z.string().describe("Repo-relative path"),
  line: z.number().int().describe("First line"),
  end_line: z.number().int().describe("Last line"),
  signature: z.string().describe("Full signature"),
  decorators: z.string().nullable().describe("Decorators or annotations, as one line"),
  docstring: z.string().describe("Docstring (empty when none)"),
  content_hash: z.string().describe("SHA-256 of the source bytes as indexed"),
  source: z.string().describe("The source (secrets redacted; cut to the budget when truncated)"),
  context_before: z.string().optional().describe("context_lines lines before it"),
  context_after: z.string().optional().describe("context_lines lines after it"),
  content_verified: z.boolean().nullable().optional().describe(
    "verify: whether the source still hashes to content_hash (null without a stored hash)",
  ),
  truncated: z.boolean().optional().describe("True when source was cut to the budget"),
  _freshness: z.enum(["fresh", "edited_uncommitted", "stale_index"]).nullable().optional()
    .describe("fresh, edited_uncommitted (the file changed on disk), stale_index (git HEAD moved)"),
};

const _fields = {
  ...z.object(_ENTRY).partial().shape,
  symbols: rows(_ENTRY).optional().describe("symbol_ids: one row per symbol found"),
  errors: rows({
    id: z.string().describe("An id asked for"),
    error: z.string().describe("Why it was not found"),
  }).optional().describe("symbol_ids: the ids not found"),
};

const _meta = {
  symbol_count: META.symbol_count,
  truncated: META.truncated,
  hint: META.hint,
  freshness: META.freshness,
};

type _Entry = z.infer<z.ZodObject<typeof _ENTRY>>;
type _Output = ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>>;

export { closestSymbolIds, findSymbol } from "../query/symbol_lookup.ts";

const _decoder = new TextDecoder();

function _entry(
  index: RepoIndex,
  s: SymbolRecord,
  verify: boolean,
  contextLines: number,
  redact: boolean,
): _Entry {
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
  const entry: _Entry = {
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
export function handler(ctx: ToolContext, args: GetSymbolSourceArgs): _Output {
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
  const symbols: _Entry[] = [];
  const errors: { id: string; error: string }[] = [];
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
  entry: _Entry,
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

/** The declaration. */
export const tool = defineTool({
  name: "get_symbol_source",
  title: "Symbol source",
  summary:
    "exact source of symbols by id (`symbol_ids` for several), optional `context_lines`, `verify`",
  description: _description,
  // The reference architecture's names for the same tool.
  aliases: ["get_symbol", "get_symbols"],
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
