/** `get_symbol_provenance`: the commits that changed a symbol's lines, newest first (docs/api.md). */
import { z } from "zod";
import { historyOf } from "../query/history.ts";
import { commitRow, symbolLineLog } from "../query/provenance.ts";
import { findSymbol } from "../query/symbol_lookup.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { clampInt, graphMeta, symbolHeading } from "./graph_args.ts";

/** Tool name. */
export const name = "get_symbol_provenance";

/** Tool description shown to agents. */
export const description =
  "Get a symbol's history: the commits that changed its lines, newest first, following its file through renames as `git log -L` does, each with author, date, subject and a change category (feature, bugfix, refactor, perf, docs, test, config, rename, revert, evolution); origin is the commit that introduced it. Use it to learn why code is the way it is before changing it. Reads the local clone's history in process.";

/** Input schema. */
export const inputSchema = z.object({
  repo: z.string().describe("Repo id from list_repos (a locally indexed git checkout)"),
  symbol: z.string().describe("Symbol id, a unique Qualified.name, or a unique name"),
  max_commits: z.number().int().optional().describe(
    "Most commits listed (default 25, clamped to 1..1000)",
  ),
});

/** Validated arguments. */
export type GetSymbolProvenanceArgs = z.infer<typeof inputSchema>;

/** Annotations for MCP clients. */
export const annotations = { readOnlyHint: true, openWorldHint: false } as const;

/** The provenance of one symbol. */
export function handler(ctx: ToolContext, args: GetSymbolProvenanceArgs): ToolOutput {
  const warnings: string[] = [];
  const max = clampInt("max_commits", args.max_commits, 25, 1, 1000, warnings);
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
  const response: Record<string, unknown> = {
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
      warnings,
      truncated,
      `Only the newest ${max} commits are listed: raise max_commits (up to 1000)`,
    ),
  };
}
