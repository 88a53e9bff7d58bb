/** `get_churn_rate`: how often a file or a symbol changed over a window (docs/api.md). */
import { z } from "zod";
import { ToolError } from "../errors.ts";
import { isoDate } from "../parser/git/objects.ts";
import { fileCommits } from "../query/churn.ts";
import { historyOf } from "../query/history.ts";
import { symbolLineLog } from "../query/provenance.ts";
import { findSymbol } from "../query/symbol_lookup.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { graphMeta } from "./graph_args.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf } from "./define.ts";

const name = "get_churn_rate";

const _description =
  "Get how often a file or a symbol changed in the last `days` (default 90): commits, authors, first seen, last modified, commits per week and an assessment (stable ≤1/week, active ≤3/week, volatile). A symbol's churn counts the commits that changed its own lines (as `git log -L`), not every commit to its file; file_commits gives the file's count too.";

const _args = {
  target: z.string().describe("A repo-relative file path, or a symbol id (or unique name)"),
  days: z.number().int().min(1).max(36500).optional().describe(
    "Look-back window in days (default 90)",
  ),
};

/** Validated arguments. */
export type GetChurnRateArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  target: z.string().describe("The file or symbol asked about"),
  target_type: z.enum(["file", "symbol"]).describe("What the target is"),
  file: z.string().describe("Its file"),
  days: z.number().int().describe("The window"),
  commits: z.number().int().describe("Commits that changed it in the window"),
  file_commits: z.number().int().describe("Commits that changed its file"),
  authors: z.array(z.string()).describe("Their authors"),
  first_seen: z.string().nullable().describe("Date of the oldest of those commits"),
  last_modified: z.string().nullable().describe("Date of the newest"),
  churn_per_week: z.number().describe("Commits per week"),
  assessment: z.enum(["stable", "active", "volatile"]).describe(
    "stable (≤1/week), active (≤3/week) or volatile",
  ),
  shallow: z.boolean().describe("The history reached the edge of a shallow clone"),
  symbol_id: z.string().optional().describe("The symbol's id (a symbol target)"),
  note: z.string().optional().describe("Why the counts are a lower bound"),
};

const _meta = { truncated: META.truncated, hint: META.hint };

/** The assessment of a rate. */
export function churnAssessment(perWeek: number): "stable" | "active" | "volatile" {
  return perWeek <= 1 ? "stable" : perWeek <= 3 ? "active" : "volatile";
}

/** Churn of one file or symbol. */
export function handler(
  ctx: ToolContext,
  args: GetChurnRateArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const days = args.days ?? 90;
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
  const response: ResponseOf<typeof _fields> = {
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
      fileLog.truncated,
      "The walk stopped at CODEMUNCH_HISTORY_MAX_COMMITS",
    ),
  };
}

/** The declaration. */
export const tool = defineTool({
  name,
  title: "Churn rate",
  summary: "how often a file or a symbol's own lines changed over a window, with an assessment",
  description: _description,
  repo: "optional",
  repoDescription: "Repo id from list_repos (a locally indexed git checkout)",
  args: _args,
  output: { fields: _fields, meta: _meta },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
