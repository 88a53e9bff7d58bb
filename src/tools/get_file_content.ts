/** `get_file_content`: the stored text of an indexed file, optionally a line range (API.md §1.7). */
import { z } from "zod";
import { splitLines } from "../parser/source_text.ts";
import { servedText } from "../query/secrets.ts";
import { DEFAULT_TOKEN_BUDGET, fitLines, TOKEN_BUDGET_RANGE, utf8Bytes } from "../query/budget.ts";
import { openRepo, requireFile, type ToolContext, type ToolOutput } from "./context.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf } from "./define.ts";

const _args = {
  file_path: z.string().describe("Repo-relative path, e.g. src/app.ts"),
  start_line: z.number().int().min(1).optional().describe("First line, 1-based (default 1)"),
  end_line: z.number().int().min(1).optional().describe(
    "Last line, inclusive (default: the end)",
  ),
  token_budget: z.number().int().min(TOKEN_BUDGET_RANGE.min).max(TOKEN_BUDGET_RANGE.max)
    .optional().describe(
      `Most tokens returned (default ${DEFAULT_TOKEN_BUDGET})`,
    ),
};

/** Validated arguments. */
export type GetFileContentArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  file: z.string().describe("The file"),
  language: z.string().describe("Its language"),
  file_summary: z.string().describe("Its stored one-line summary"),
  start_line: z.number().int().describe("First line returned (0 for an empty file)"),
  end_line: z.number().int().describe("Last line returned"),
  line_count: z.number().int().describe("Lines the file has"),
  content: z.string().describe("The text of those lines (secrets redacted)"),
};

const _meta = { truncated: META.truncated, hint: META.hint };

/**
 * Lines as every tool numbers them (`\r\n`, `\n` or a lone `\r`; form feed, vertical tab and
 * U+2028 stay inside a line, as for the parser and `search_text`).
 */
export { splitLines } from "../parser/source_text.ts";

/**
 * The file's text (or the requested lines, clamped to the file) with its line facts, cut at whole
 * lines to the token budget; `_meta.hint` then names the `start_line` that continues it.
 */
export function handler(
  ctx: ToolContext,
  args: GetFileContentArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const { repo, index, view } = openRepo(ctx, args.repo);
  const entry = requireFile(view, args.file_path);
  // Secrets are redacted in the whole file before a range is cut out of it: lines inside a
  // private key are hidden although they hold no key header.
  const text = servedText(index.fileText(args.file_path) ?? "", ctx.redact !== false);
  const lines = splitLines(text);
  const n = lines.length;
  const budget = args.token_budget ?? DEFAULT_TOKEN_BUDGET;
  let start = 1;
  let end = n;
  let content = text;
  const meta: MetaOf<typeof _meta> = { truncated: false };
  if (n === 0) {
    start = 0;
    end = 0;
    content = "";
  } else if (args.start_line !== undefined || args.end_line !== undefined) {
    start = Math.min(Math.max(args.start_line ?? 1, 1), n);
    end = Math.min(Math.max(args.end_line ?? n, start), n);
    content = lines.slice(start - 1, end).join("\n");
  }
  if (n > 0 && utf8Bytes(content) > budget * 4) {
    const wanted = end;
    const fit = fitLines(lines.slice(start - 1, end), budget);
    content = fit.text;
    end = start + Math.max(fit.kept, 1) - 1;
    const next = fit.kept === 0 ? start + 1 : end + 1;
    meta.truncated = true;
    meta.hint = fit.kept === 0
      ? `Line ${start} alone is larger than token_budget=${budget} and was cut: raise token_budget to read it whole${
        next <= wanted ? `, or continue with start_line=${next}` : ""
      }`
      : `Cut after line ${end} of ${wanted} to fit token_budget=${budget}: call get_file_content with file_path="${args.file_path}", start_line=${next}, end_line=${wanted} for the rest (or raise token_budget)`;
  }
  return {
    response: {
      repo,
      file: args.file_path,
      language: entry.language,
      // The stored summary: ranking its names by the repo's graph (as get_file_outline does) would
      // cost a first call the centrality build, for a field this tool does not need.
      file_summary: entry.summary,
      start_line: start,
      end_line: end,
      line_count: n,
      content,
    },
    // A cut read stands in for the lines it returns, not for the whole file.
    rawBytes: meta.truncated === true ? utf8Bytes(content) : entry.size,
    repo,
    meta,
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_file_content",
  title: "File content",
  summary: "stored text of a file, or `start_line`..`end_line`",
  description:
    "An indexed file's text, whole or lines start_line..end_line. For config, docs or a line range; for code prefer get_file_outline and get_symbol_source.",
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
