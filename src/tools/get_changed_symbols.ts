/** `get_changed_symbols`: the symbols a change added, removed, modified or renamed (docs/api.md). */
import { z } from "zod";
import { changedSymbols, type SymbolChange, symbolsFromIndex } from "../query/changed_symbols.ts";
import { historyOf, resolveRev } from "../query/history.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { graphMeta, withWarnings } from "./graph_args.ts";
import {
  type ArgsOf,
  defineTool,
  META,
  type MetaOf,
  type ResponseOf,
  type RowOf,
  rows,
  type Shape,
} from "./define.ts";

const name = "get_changed_symbols";

const _description =
  "Get the symbols a change touched: your working-tree edits against HEAD by default, or between two commits (since_sha/until_sha). Each is added, removed, modified (changed lines; signature or body) or renamed; changed_files gives each file's git status. Needs a local git checkout.";

const _args = {
  since_sha: z.string().optional().describe(
    "Base revision: a commit id, branch, tag or HEAD~N (default HEAD)",
  ),
  until_sha: z.string().optional().describe(
    'Head revision (default the working tree, uncommitted edits included; "HEAD" compares commits)',
  ),
  max_results: z.number().int().min(1).max(2000).optional().describe(
    "Most symbols per list (default 200)",
  ),
  include_blast_radius: z.boolean().optional().describe(
    "Accepted for compatibility; use get_pr_risk_profile or get_blast_radius (named in _meta.warnings)",
  ),
  max_blast_depth: z.number().int().optional().describe("Accepted for compatibility; ignored"),
};

/** Validated arguments. */
export type GetChangedSymbolsArgs = ArgsOf<typeof _args, "required">;

/** The columns of a changed symbol's row. */
const _CHANGE = {
  symbol_id: z.string().describe("Symbol id (on the new side; the old one when removed)"),
  name: z.string().describe("Name"),
  kind: z.string().describe("Kind"),
  file: z.string().describe("File"),
  line: z.number().int().describe("First line"),
  end_line: z.number().int().describe("Last line"),
  change_type: z.string().describe("added, removed, modified or renamed"),
  changed_lines: z.string().describe('Changed line ranges: "12-14,20"'),
  signature_changed: z.boolean().optional().describe("modified: the declaration changed too"),
  previous_name: z.string().optional().describe("renamed: the old name"),
  previous_id: z.string().optional().describe("renamed: the old id"),
} satisfies Shape;

const _fields = {
  repo: z.string().describe("Repo id"),
  from_sha: z.string().describe("The base commit"),
  to_sha: z.string().describe('The head commit, or "worktree"'),
  commits_spanned: z.number().int().describe("Commits between them (0 for the working tree)"),
  shallow: z.boolean().describe("Whether the clone is shallow"),
  changed_files_count: z.number().int().describe("Files changed"),
  changed_symbol_count: z.number().int().describe("Symbols changed"),
  changed_files: rows({
    path: z.string().describe("File"),
    status: z.string().describe("Git status: added, deleted, modified, renamed, …"),
    old_path: z.string().nullable().describe("The path before a rename"),
  }).describe("The changed files"),
  added_symbols: rows(_CHANGE).describe("Symbols added"),
  removed_symbols: rows(_CHANGE).describe("Symbols removed"),
  changed_symbols: rows(_CHANGE).describe("Symbols modified or renamed"),
  skipped_files: rows({
    path: z.string().describe("File"),
    reason: z.string().describe("Why it was not compared symbol by symbol"),
  }).describe("Changed files not compared symbol by symbol"),
};

const _meta = { truncated: META.truncated, hint: META.hint };

/** A changed symbol as a row. */
export function changeRow(c: SymbolChange): RowOf<typeof _fields.added_symbols> {
  const row: RowOf<typeof _fields.added_symbols> = {
    symbol_id: c.symbol.id,
    name: c.symbol.name,
    kind: c.symbol.kind,
    file: c.symbol.file,
    line: c.symbol.line,
    end_line: c.symbol.end_line,
    change_type: c.change,
    changed_lines: c.lines.map(([s, e]) => (s === e ? `${s}` : `${s}-${e}`)).join(","),
  };
  if (c.change === "modified") row.signature_changed = c.signatureChanged;
  if (c.previous !== null && c.change === "renamed") {
    row.previous_name = c.previous.name;
    row.previous_id = c.previous.id;
  }
  return row;
}

/** The changed symbols of a range or of the working tree. */
export async function handler(
  ctx: ToolContext,
  args: GetChangedSymbolsArgs,
): Promise<ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>>> {
  const warnings: string[] = [];
  const max = args.max_results ?? 200;
  if (args.include_blast_radius === true) {
    warnings.push(
      "include_blast_radius is not supported here: use get_pr_risk_profile or get_blast_radius",
    );
  }
  const { repo, view } = openRepo(ctx, args.repo);
  const history = historyOf(view, name);
  const from = resolveRev(history, args.since_sha ?? "HEAD", "since_sha");
  const worktree = args.until_sha === undefined ||
    /^(worktree|working[_ -]?tree)$/i.test(args.until_sha);
  const to = worktree ? null : resolveRev(history, args.until_sha!, "until_sha");
  const untracked = worktree ? view.index.listFiles().map((f) => f.path) : [];
  const result = await changedSymbols(history, from, to, untracked, {
    parse: (path, bytes, complexity) =>
      ctx.parser().parse(path, bytes, undefined, { symbolsOnly: true, complexity }),
    known: symbolsFromIndex(view.index),
  });
  const rows = (kinds: string[]) =>
    result.symbols.filter((s) => kinds.includes(s.change)).map(changeRow);
  const added = rows(["added"]);
  const removed = rows(["removed"]);
  const changed = rows(["modified", "renamed"]);
  const walk = to === null
    ? null
    : history.walk(to, { stop: [from], max: history.limits.maxCommits });
  const response: ResponseOf<typeof _fields> = {
    repo,
    from_sha: from,
    to_sha: to ?? "worktree",
    commits_spanned: walk === null ? 0 : walk.commits.length,
    shallow: history.isShallow,
    changed_files_count: result.files.length,
    changed_symbol_count: result.symbols.length,
    changed_files: result.files.slice(0, max).map((f) => ({
      path: f.path,
      status: f.status,
      old_path: f.oldPath === f.path ? null : f.oldPath,
    })),
    added_symbols: added.slice(0, max),
    removed_symbols: removed.slice(0, max),
    changed_symbols: changed.slice(0, max),
    skipped_files: result.skipped,
  };
  const truncated = [result.files, added, removed, changed].some((l) => l.length > max);
  return {
    response,
    repo,
    meta: graphMeta(truncated, `Lists are cut at ${max} rows: raise max_results (up to 2000)`),
    ...withWarnings(warnings),
  };
}

/** The declaration. */
export const tool = defineTool({
  name,
  title: "Changed symbols",
  summary:
    "the symbols a change added, removed, modified (changed lines; signature or body only) or renamed: the working tree against `HEAD` by default, or between two revisions; history read in process",
  description: _description,
  repo: "optional",
  repoDescription: "Repo id from list_repos (a locally indexed git checkout)",
  args: _args,
  output: { fields: _fields, meta: _meta },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
