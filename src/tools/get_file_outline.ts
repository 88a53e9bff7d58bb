/**
 * `get_file_outline`: the symbol outline of one or several files (API.md §1.5), as rows: one per
 * symbol in source order with its `parent` id (null at the top level) instead of nested
 * `children`, so an outline is one table in JSON and in MUNCH v1 (docs/answers.md).
 */
import { z } from "zod";
import { buildOutline, type OutlineNode } from "../parser/outline.ts";
import type { RepoView } from "../query/view.ts";
import { ToolError } from "../errors.ts";
import {
  cutSignature,
  DEFAULT_TOKEN_BUDGET,
  estimateTokens,
  TOKEN_BUDGET_RANGE,
  TokenBudget,
} from "../query/budget.ts";
import { summaryRepeatsSignature } from "../parser/summary.ts";
import { fileSummaryOf } from "../query/file_summaries.ts";
import { openRepo, requireFile, type ToolContext, type ToolOutput } from "./context.ts";
import { decoratorText, squareRows } from "./rows.ts";
import { oneLine } from "../query/one_line.ts";
import {
  type ArgsOf,
  defineTool,
  META,
  type MetaOf,
  type ResponseOf,
  type RowOf,
  rows,
  table,
} from "./define.ts";

const _args = {
  file_path: z.string().optional().describe(
    "Repo-relative path, e.g. src/app.ts",
  ),
  file_paths: z.array(z.string()).optional().describe(
    "Several file paths",
  ),
  token_budget: z.number().int().min(TOKEN_BUDGET_RANGE.min).max(TOKEN_BUDGET_RANGE.max)
    .optional().describe(
      `Most tokens returned (default ${DEFAULT_TOKEN_BUDGET})`,
    ),
};

/** Validated arguments. */
export type GetFileOutlineArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  file: z.string().optional().describe("The file (file_path)"),
  language: z.string().optional().describe("Its language (file_path)"),
  file_summary: z.string().optional().describe("Its one-line summary (file_path)"),
  files: rows({
    file: z.string().describe("Repo-relative path"),
    language: z.string().describe("Language id"),
    file_summary: z.string().describe("One-line summary"),
    symbol_count: z.number().int().describe("Symbols the file has (shown or not)"),
  }).optional().describe("One row per file (file_paths)"),
  symbols: table("s", {
    file: z.string().optional().describe("The symbol's file (file_paths only)"),
    id: z.string().describe("Symbol id for get_symbol_source"),
    parent: z.string().nullable().describe(
      "Id of the enclosing symbol (a method's class), null at the top",
    ),
    kind: z.string().describe("function, class, method, type, constant, …"),
    name: z.string().describe("Name"),
    line: z.number().int().describe("First line"),
    end_line: z.number().int().describe("Last line"),
    signature: z.string().describe('Signature (a long one is cut and ends in " …")'),
    summary: z.string().nullable().describe(
      "One-line summary; null when it would repeat the signature",
    ),
    decorators: z.string().nullable().optional().describe("Decorators or annotations, as one line"),
  }, {
    order: [
      "__depth",
      "file",
      "id",
      "name",
      "kind",
      "line",
      "end_line",
      "parent",
      "signature",
      "summary",
      "decorators",
    ],
    intern: ["file", "id", "parent", "signature", "summary", "decorators"],
  }).describe("One row per symbol in source order, each after its parent"),
  errors: rows({
    file: z.string().describe("A path asked for"),
    error: z.string().describe("Why it has no outline"),
  }).optional().describe("Paths of file_paths that failed"),
};

const _meta = { symbol_count: META.symbol_count, truncated: META.truncated, hint: META.hint };

type _Response = ResponseOf<typeof _fields>;
type _Row = RowOf<typeof _fields.symbols>;

/** What building an outline cut, for the hint. */
interface _Cuts {
  signatures: number;
  /** The first symbol left out for the budget, if any. */
  firstLeftOut: { line: number; id: string } | null;
  leftOut: number;
}

/**
 * A node's row and then its descendants' rows (pre-order: source order, each symbol after its
 * parent), while the budget lasts; a symbol left out takes its descendants with it.
 */
function _rows(
  n: OutlineNode,
  parent: string | null,
  file: string | null,
  budget: TokenBudget,
  cuts: _Cuts,
  out: _Row[],
): void {
  const s = n.symbol;
  const sig = cutSignature(s.signature);
  const row: _Row = {
    ...(file === null ? {} : { file }),
    id: s.id,
    parent,
    kind: s.kind,
    name: s.name,
    line: s.line,
    end_line: s.end_line,
    signature: sig.text,
    // null when it would only repeat the signature (every row has the same keys: one table)
    summary: summaryRepeatsSignature(s) ? null : oneLine(s.summary),
  };
  if (s.decorators.length > 0) row.decorators = decoratorText(s.decorators);
  if (!budget.take(estimateTokens(row) + 2)) {
    cuts.firstLeftOut ??= { line: s.line, id: s.id };
    cuts.leftOut += _count(n);
    return;
  }
  if (sig.cut) cuts.signatures++;
  out.push(row);
  for (const c of n.children) _rows(c, s.id, file, budget, cuts, out);
}

function _count(n: OutlineNode): number {
  return 1 + n.children.reduce((a, c) => a + _count(c), 0);
}

/** One file's outline: its facts, its symbol rows, and what was cut to fit the budget. */
export interface FileOutline {
  /** `file`, `language`, `file_summary`. */
  facts: { file: string; language: string; file_summary: string };
  /** Symbol rows in source order, each after its parent; with a `file` column in batch mode. */
  symbols: _Row[];
  /** Symbols the file has (shown or not). */
  symbolCount: number;
  /** Bytes of the file. */
  size: number;
  hints: string[];
}

/**
 * One file's outline as rows. `withFile` adds a `file` column to each row (the batch's one
 * table of several files).
 */
export function fileOutline(
  view: RepoView,
  path: string,
  budget: TokenBudget = new TokenBudget(DEFAULT_TOKEN_BUDGET),
  withFile = false,
): FileOutline {
  const { index } = view;
  const entry = requireFile(view, path);
  const symbols = index.symbolsOfFile(path);
  const cuts: _Cuts = { signatures: 0, firstLeftOut: null, leftOut: 0 };
  const fileSummary = oneLine(fileSummaryOf(view, path, symbols));
  budget.take(estimateTokens(fileSummary) + 40);
  const rows: _Row[] = [];
  for (const n of buildOutline(symbols)) _rows(n, null, withFile ? path : null, budget, cuts, rows);
  const hints: string[] = [];
  if (cuts.firstLeftOut !== null) {
    hints.push(
      `${path}: ${cuts.leftOut} symbols from line ${cuts.firstLeftOut.line} on left out to fit token_budget=${budget.limit}: call get_file_outline with file_path="${path}" and a larger token_budget, or get_file_content with file_path="${path}", start_line=${cuts.firstLeftOut.line}`,
    );
  }
  if (cuts.signatures > 0) {
    hints.push(
      `${path}: ${cuts.signatures} signatures ending in " …" were cut: get_symbol_source with the id gives the whole text`,
    );
  }
  return {
    facts: { file: path, language: entry.language, file_summary: fileSummary },
    symbols: rows,
    symbolCount: symbols.length,
    size: entry.size,
    hints,
  };
}

/**
 * `{repo, file, language, file_summary, symbols}` for `file_path`; for `file_paths`, one table of
 * every file's symbols with a `file` column: `{repo, files, symbols, errors?}`.
 */
export function handler(
  ctx: ToolContext,
  args: GetFileOutlineArgs,
): ToolOutput<_Response, MetaOf<typeof _meta>> {
  const single = args.file_path;
  const batch = args.file_paths;
  if (single !== undefined && batch !== undefined && batch.length > 0) {
    throw new ToolError(
      "invalid_argument",
      'Pass either "file_path" (one file) or "file_paths" (several), not both',
    );
  }
  if (single === undefined && (batch === undefined || batch.length === 0)) {
    throw new ToolError(
      "invalid_argument",
      'Missing argument "file_path": give a repo-relative file path (or "file_paths", a list)',
    );
  }
  const { repo, view } = openRepo(ctx, args.repo);
  const budget = new TokenBudget(args.token_budget ?? DEFAULT_TOKEN_BUDGET);
  if (single !== undefined) {
    const o = fileOutline(view, single, budget);
    return {
      response: { repo, ...o.facts, symbols: squareRows(o.symbols) },
      rawBytes: o.size,
      repo,
      meta: _metaOf(o.symbolCount, o.hints),
    };
  }
  const files: NonNullable<_Response["files"]> = [];
  const symbols: _Row[] = [];
  const errors: NonNullable<_Response["errors"]> = [];
  const hints: string[] = [];
  let rawBytes = 0;
  let symbolCount = 0;
  for (const path of batch!) {
    try {
      const o = fileOutline(view, path, budget, true);
      files.push({ ...o.facts, symbol_count: o.symbolCount });
      symbols.push(...o.symbols);
      hints.push(...o.hints);
      rawBytes += o.size;
      symbolCount += o.symbolCount;
    } catch (e) {
      if (!(e instanceof ToolError)) throw e;
      errors.push({ file: path, error: e.message });
    }
  }
  const response: _Response = { repo, files, symbols: squareRows(symbols) };
  if (errors.length > 0) response.errors = errors;
  return { response, rawBytes, repo, meta: _metaOf(symbolCount, hints) };
}

function _metaOf(symbolCount: number, hints: string[]): MetaOf<typeof _meta> {
  const meta: MetaOf<typeof _meta> = {
    symbol_count: symbolCount,
    truncated: hints.some((h) => h.includes("left out")),
  };
  if (hints.length > 0) meta.hint = hints.join("; ");
  return meta;
}

/** The declaration. */
export const tool = defineTool({
  name: "get_file_outline",
  title: "File outline",
  summary:
    "a file's classes/functions/methods as rows with parent ids, signatures and summaries (`file_paths`: one table, file column)",
  description:
    "Outline a file (or file_paths): its symbols in source order with ids, signatures, summaries and lines, no bodies. Read it instead of the file, then get_symbol_source. In MUNCH answers, expand an id's @N handle (@2::f#function) from its @N= line.",
  repo: "optional",
  args: _args,
  output: {
    fields: _fields,
    meta: _meta,
    encoding: { id: "fo1", transforms: [{ kind: "tree", key: "symbols", children: "children" }] },
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
