/** `get_symbol_diff`: a symbol's source at two revisions as a unified diff (docs/api.md). */
import { z } from "zod";
import { historyOf, resolveRev } from "../query/history.ts";
import { parseSymbolId, symbolIn, type SymbolLike, unifiedDiff } from "../query/symbol_diff.ts";
import type { RepoView } from "../query/view.ts";
import type { SymbolRecord } from "../parser/types.ts";
import { ToolError } from "../errors.ts";
import { findSymbol } from "../query/symbol_lookup.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { graphMeta, SYMBOL_HEADING, symbolHeading } from "./graph_args.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf } from "./define.ts";

const name = "get_symbol_diff";

const _description =
  "Get how one symbol changed between two revisions as a unified diff of its source: by default from HEAD to the working tree (what you changed in it), or from_ref/to_ref (commits, branches, tags, HEAD~N). status says added, removed, modified or unchanged. The diff is cut to token_budget (default 2000) with a hint. Reads the local clone's history in process.";

const _args = {
  symbol: z.string().describe("Symbol id, a unique Qualified.name, or a unique name"),
  from_ref: z.string().optional().describe("Old revision (default HEAD)"),
  to_ref: z.string().optional().describe(
    'New revision (default the working tree; "HEAD" for commits)',
  ),
  context_lines: z.number().int().min(0).max(20).optional().describe(
    "Context lines around changes (default 3)",
  ),
  token_budget: z.number().int().min(100).max(50000).optional().describe(
    "Most tokens of diff text (default 2000)",
  ),
};

/** Validated arguments. */
export type GetSymbolDiffArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  symbol: SYMBOL_HEADING,
  from_sha: z.string().describe("The old commit"),
  to_sha: z.string().describe('The new commit, or "worktree"'),
  status: z.enum(["added", "removed", "modified", "unchanged", "absent"]).describe(
    "How the symbol changed",
  ),
  signature_changed: z.boolean().describe("Whether its signature changed"),
  lines_added: z.number().int().describe("Lines added"),
  lines_removed: z.number().int().describe("Lines removed"),
  diff: z.string().describe("Unified diff of its source (cut to token_budget)"),
};

const _meta = { truncated: META.truncated, hint: META.hint };

/** The diff of one symbol. */
export async function handler(
  ctx: ToolContext,
  args: GetSymbolDiffArgs,
): Promise<ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>>> {
  const context = args.context_lines ?? 3;
  const budget = args.token_budget ?? 2000;
  const { repo, view } = openRepo(ctx, args.repo);
  const history = historyOf(view, name);
  const from = resolveRev(history, args.from_ref ?? "HEAD", "from_ref");
  const worktree = args.to_ref === undefined || /^(worktree|working[_ -]?tree)$/i.test(args.to_ref);
  const to = worktree ? null : resolveRev(history, args.to_ref!, "to_ref");
  const { file, like } = _target(view, args.symbol);
  const newBytes = to === null ? view.index.fileBytes(file) ?? null : history.fileAt(to, file);
  const before = await symbolIn(file, history.fileAt(from, file), like);
  const after = await symbolIn(file, newBytes, like);
  if (before === null && after === null && !("line" in like)) {
    // An id of neither the index nor either revision: the index's own error, with its hints.
    findSymbol(view, args.symbol);
  }
  const symbol = after?.symbol ?? before?.symbol ?? (like as SymbolRecord);
  const status: ResponseOf<typeof _fields>["status"] = before === null && after === null
    ? "absent"
    : before === null
    ? "added"
    : after === null
    ? "removed"
    : before.source === after.source
    ? "unchanged"
    : "modified";
  const diff = unifiedDiff(
    before?.source ?? "",
    after?.source ?? "",
    [
      `${symbol.file}@${from.slice(0, 12)}`,
      `${symbol.file}@${to === null ? "worktree" : to.slice(0, 12)}`,
    ],
    [before?.symbol.line ?? 1, after?.symbol.line ?? 1],
    context,
  );
  const maxChars = budget * 4;
  const truncated = diff.text.length > maxChars;
  const text = truncated
    ? diff.text.slice(0, diff.text.lastIndexOf("\n", maxChars) + 1)
    : diff.text;
  const response: ResponseOf<typeof _fields> = {
    repo,
    symbol: symbolHeading(symbol),
    from_sha: from,
    to_sha: to ?? "worktree",
    status,
    signature_changed: before !== null && after !== null &&
      before.symbol.signature !== after.symbol.signature,
    lines_added: diff.added,
    lines_removed: diff.removed,
    diff: text,
  };
  return {
    response,
    repo,
    meta: graphMeta(
      truncated,
      `The diff is cut at ${budget} tokens: raise token_budget (up to 50000) or lower context_lines`,
    ),
  };
}

/**
 * The symbol to diff and its file: the index's, or for an id the index does not hold (a symbol
 * removed since the revisions, or added in one the index does not have) the id's own parts, to
 * be found in the revisions' versions of its file.
 */
function _target(view: RepoView, ref: string): { file: string; like: SymbolLike | SymbolRecord } {
  try {
    const s = findSymbol(view, ref);
    return { file: s.file, like: s };
  } catch (e) {
    const parsed = e instanceof ToolError && e.code === "symbol_not_found"
      ? parseSymbolId(ref)
      : null;
    if (parsed === null) throw e;
    return parsed;
  }
}

/** The declaration. */
export const tool = defineTool({
  name,
  title: "Symbol diff",
  summary:
    "one symbol's source at two revisions (default `HEAD` → working tree) as a unified diff within a token budget",
  description: _description,
  repo: "optional",
  repoDescription: "Repo id from list_repos (a locally indexed git checkout)",
  args: _args,
  output: { fields: _fields, meta: _meta },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
