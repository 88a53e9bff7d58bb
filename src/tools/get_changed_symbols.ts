/** `get_changed_symbols`: the symbols a change added, removed, modified or renamed (docs/api.md). */
import { z } from "zod";
import { changedSymbols, type SymbolChange } from "../query/changed_symbols.ts";
import { historyOf, resolveRev } from "../query/history.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { clampInt, graphMeta } from "./graph_args.ts";

/** Tool name. */
export const name = "get_changed_symbols";

/** Tool description shown to agents. */
export const description =
  "Get the symbols a change touched: by default what you changed in the working tree against HEAD; with since_sha/until_sha, between two commits (refs, tags, abbreviated ids, HEAD~N). Each symbol is added, removed, modified (with its changed line ranges and whether the signature changed or only the body) or renamed; changed_files lists the files with their git status (renames detected). History is read in process from the local clone (no git subprocess); GitHub-indexed repos have none.";

/** Input schema. */
export const inputSchema = z.object({
  repo: z.string().describe("Repo id from list_repos (a locally indexed git checkout)"),
  since_sha: z.string().optional().describe(
    "Base revision: a commit id, branch, tag or HEAD~N (default HEAD)",
  ),
  until_sha: z.string().optional().describe(
    'Head revision (default the working tree, uncommitted edits included; "HEAD" compares commits)',
  ),
  max_results: z.number().int().optional().describe(
    "Most symbols per list (default 200, clamped to 1..2000)",
  ),
  include_blast_radius: z.boolean().optional().describe(
    "Accepted for compatibility; use get_pr_risk_profile or get_blast_radius (named in _meta.warnings)",
  ),
  max_blast_depth: z.number().int().optional().describe("Accepted for compatibility; ignored"),
});

/** Validated arguments. */
export type GetChangedSymbolsArgs = z.infer<typeof inputSchema>;

/** Annotations for MCP clients. */
export const annotations = { readOnlyHint: true, openWorldHint: false } as const;

/** A changed symbol as a row. */
export function changeRow(c: SymbolChange): Record<string, unknown> {
  const row: Record<string, unknown> = {
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
export async function handler(ctx: ToolContext, args: GetChangedSymbolsArgs): Promise<ToolOutput> {
  const warnings: string[] = [];
  const max = clampInt("max_results", args.max_results, 200, 1, 2000, warnings);
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
  const result = await changedSymbols(history, from, to, untracked);
  const rows = (kinds: string[]) =>
    result.symbols.filter((s) => kinds.includes(s.change)).map(changeRow);
  const added = rows(["added"]);
  const removed = rows(["removed"]);
  const changed = rows(["modified", "renamed"]);
  const walk = to === null
    ? null
    : history.walk(to, { stop: [from], max: history.limits.maxCommits });
  const response: Record<string, unknown> = {
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
    meta: graphMeta(
      warnings,
      truncated,
      `Lists are cut at ${max} rows: raise max_results (up to 2000)`,
    ),
  };
}
