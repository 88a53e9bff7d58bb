/** `get_churn_rate`: how often a file or a symbol changed over a window (docs/api.md). */
import { z } from "zod";
import { ToolError } from "../errors.ts";
import { isoDate } from "../parser/git/objects.ts";
import { fileCommits } from "../query/churn.ts";
import { historyOf } from "../query/history.ts";
import { symbolLineLog } from "../query/provenance.ts";
import { findSymbol } from "../query/symbol_lookup.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { clampInt, graphMeta } from "./graph_args.ts";

/** Tool name. */
export const name = "get_churn_rate";

/** Tool description shown to agents. */
export const description =
  "Get how often a file or a symbol changed in the last `days` (default 90): commits, authors, first seen, last modified, commits per week and an assessment (stable ≤1/week, active ≤3/week, volatile). A symbol's churn counts the commits that changed its own lines (as `git log -L`), not every commit to its file; file_commits gives the file's count too.";

/** Input schema. */
export const inputSchema = z.object({
  repo: z.string().describe("Repo id from list_repos (a locally indexed git checkout)"),
  target: z.string().describe("A repo-relative file path, or a symbol id (or unique name)"),
  days: z.number().int().optional().describe(
    "Look-back window in days (default 90, clamped to 1..36500)",
  ),
});

/** Validated arguments. */
export type GetChurnRateArgs = z.infer<typeof inputSchema>;

/** Annotations for MCP clients. */
export const annotations = { readOnlyHint: true, openWorldHint: false } as const;

/** The assessment of a rate. */
export function churnAssessment(perWeek: number): string {
  return perWeek <= 1 ? "stable" : perWeek <= 3 ? "active" : "volatile";
}

/** Churn of one file or symbol. */
export function handler(ctx: ToolContext, args: GetChurnRateArgs): ToolOutput {
  const warnings: string[] = [];
  const days = clampInt("days", args.days, 90, 1, 36500, warnings);
  const { repo, view } = openRepo(ctx, args.repo);
  const history = historyOf(view, name);
  const head = history.resolveCommit("HEAD");
  const since = Math.floor(Date.now() / 1000) - days * 86400;
  const isFile = view.index.file(args.target) !== undefined ||
    history.fileAt(head, args.target) !== null;
  const symbol = isFile ? null : findSymbol(view, args.target);
  const file = symbol?.file ?? args.target;
  const fileLog = fileCommits(history, head, file, since);
  if (isFile && fileLog.commits.length === 0 && history.fileAt(head, file) === null) {
    throw new ToolError(
      "file_not_found",
      `No file ${file} in ${repo} or its history: pass a repo-relative path or a symbol id`,
    );
  }
  let commits = fileLog.commits;
  let shallow = fileLog.reachedShallow;
  if (symbol !== null) {
    const found = symbolLineLog(view, history, head, symbol, history.limits.maxCommits);
    commits = (found?.log.entries ?? []).map((e) => e.commit).filter((c) =>
      c.committer.time >= since
    );
    shallow ||= found?.log.reachedShallow ?? false;
  }
  const perWeek = Math.round((commits.length / (days / 7)) * 100) / 100;
  const response: Record<string, unknown> = {
    repo,
    target: args.target,
    target_type: symbol === null ? "file" : "symbol",
    file,
    days,
    commits: commits.length,
    file_commits: fileLog.commits.length,
    authors: [...new Set(commits.map((c) => c.author.email || c.author.name))].sort(),
    first_seen: commits.length === 0 ? null : isoDate(commits[commits.length - 1]!.author),
    last_modified: commits.length === 0 ? null : isoDate(commits[0]!.author),
    churn_per_week: perWeek,
    assessment: churnAssessment(perWeek),
    shallow,
  };
  if (symbol !== null) response.symbol_id = symbol.id;
  if (shallow) {
    response.note = "The history stops at the edge of this shallow clone: counts are a lower bound";
  }
  return {
    response,
    repo,
    meta: graphMeta(
      warnings,
      fileLog.truncated,
      "The walk stopped at CODEMUNCH_HISTORY_MAX_COMMITS",
    ),
  };
}
