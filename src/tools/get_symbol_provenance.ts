/** `get_symbol_provenance`: the commits that changed a symbol's lines, newest first (docs/api.md). */
import { z } from "zod";
import { historyOf } from "../query/history.ts";
import { commitRow, symbolLineLog } from "../query/provenance.ts";
import { findSymbol } from "../query/symbol_lookup.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { graphMeta, SYMBOL_HEADING, symbolHeading } from "./graph_args.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf, rows } from "./define.ts";

const name = "get_symbol_provenance";

const _description =
  "Get a symbol's history: the commits that changed its lines, newest first, following its file through renames as `git log -L` does, each with author, date, subject and a change category (feature, bugfix, refactor, perf, docs, test, config, rename, revert, evolution); origin is the commit that introduced it. Use it to learn why code is the way it is before changing it. Reads the local clone's history in process.";

const _args = {
  symbol: z.string().describe("Symbol id, a unique Qualified.name, or a unique name"),
  max_commits: z.number().int().min(1).max(1000).optional().describe(
    "Most commits listed (default 25)",
  ),
};

/** Validated arguments. */
export type GetSymbolProvenanceArgs = ArgsOf<typeof _args, "required">;

const _COMMIT = {
  sha: z.string().describe("Commit id"),
  author: z.string().describe("Author name"),
  email: z.string().describe("Author e-mail"),
  date: z.string().describe("Author date (ISO 8601)"),
  subject: z.string().describe("First line of the message"),
  category: z.string().describe(
    "feature, bugfix, refactor, perf, docs, test, config, rename, revert, evolution or creation",
  ),
  path: z.string().describe("The file's path in that commit"),
  changed_lines: z.string().describe("Lines of the symbol it changed"),
  introduced: z.boolean().describe("Whether it introduced the symbol"),
};

const _fields = {
  repo: z.string().describe("Repo id"),
  symbol: SYMBOL_HEADING.extend({ end_line: z.number().int() }),
  committed: z.boolean().describe("Whether the symbol is in HEAD"),
  head_lines: z.string().nullable().describe("Its lines in HEAD"),
  total_commits: z.number().int().describe("Commits listed"),
  origin: z.object(_COMMIT).nullable().describe("The commit that introduced it"),
  lineage: rows(_COMMIT).describe("Commits that changed its lines, newest first"),
  authors: rows({
    author: z.string().describe("Author"),
    commits: z.number().int().describe("Commits listed"),
  }).describe("Authors, most commits first"),
  categories: z.record(z.string(), z.number().int()).describe("Commits per category"),
  shallow: z.boolean().describe("The history reached the edge of a shallow clone"),
  note: z.string().optional().describe("Why the history is short"),
};

const _meta = { truncated: META.truncated, hint: META.hint };

/** The provenance of one symbol. */
export function handler(
  ctx: ToolContext,
  args: GetSymbolProvenanceArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const max = args.max_commits ?? 25;
  const { repo, view } = openRepo(ctx, args.repo);
  const symbol = findSymbol(view, args.symbol);
  const history = historyOf(view, name);
  const head = history.resolveCommit("HEAD");
  const found = symbolLineLog(view, history, head, symbol, max);
  const entries = found?.log.entries ?? [];
  const lineage = entries.map((e) => ({
    ...commitRow(e.commit, e.introduced ? "creation" : undefined),
    path: e.path,
    changed_lines: e.lines.map(([s, t]) => (s === t ? `${s}` : `${s}-${t}`)).join(","),
    introduced: e.introduced,
  }));
  const last = lineage[lineage.length - 1];
  const counts = new Map<string, number>();
  for (const l of lineage) counts.set(l.author, (counts.get(l.author) ?? 0) + 1);
  const categories: Record<string, number> = {};
  for (const l of lineage) categories[l.category] = (categories[l.category] ?? 0) + 1;
  const response: ResponseOf<typeof _fields> = {
    repo,
    symbol: { ...symbolHeading(symbol), end_line: symbol.end_line },
    committed: found !== null,
    head_lines: found === null ? null : `${found.range[0]}-${found.range[1]}`,
    total_commits: lineage.length,
    origin: last !== undefined && last.introduced ? last : null,
    lineage,
    authors: [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([author, commits]) => ({ author, commits })),
    categories,
    shallow: found?.log.reachedShallow ?? false,
  };
  if (found === null) {
    response.note = "The symbol is not committed yet (it exists only in the working tree)";
  } else if (found.log.reachedShallow) {
    response.note =
      "The history stops at the edge of this shallow clone: older commits are missing (git fetch --unshallow)";
  }
  const truncated = found?.log.truncated ?? false;
  return {
    response,
    repo,
    meta: graphMeta(
      truncated,
      `Only the newest ${max} commits are listed: raise max_commits (up to 1000)`,
    ),
  };
}

/** The declaration. */
export const tool = defineTool({
  name,
  title: "Symbol provenance",
  summary:
    "the commits that changed a symbol's lines, newest first, through file renames (as `git log -L`), with author, date, subject, category and the commit that introduced it",
  description: _description,
  repo: "optional",
  repoDescription: "Repo id from list_repos (a locally indexed git checkout)",
  args: _args,
  output: { fields: _fields, meta: _meta },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
