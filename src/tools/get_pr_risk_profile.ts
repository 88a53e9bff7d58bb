/** `get_pr_risk_profile`: the risk of a branch against its base, with the reasons (docs/api.md). */
import { z } from "zod";
import type { GitHistory } from "../parser/git/history.ts";
import { changedSymbols, symbolsFromIndex } from "../query/changed_symbols.ts";
import { churnByFile } from "../query/churn.ts";
import { historyOf, resolveRev } from "../query/history.ts";
import { riskProfile, type SymbolRisk } from "../query/pr_risk.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf, rows } from "./define.ts";
import { graphMeta } from "./graph_args.ts";

const name = "get_pr_risk_profile";

const _args = {
  base_ref: z.string().optional().describe(
    "Base revision (default: where head_ref branched from the default branch — origin/HEAD, main or master; on the default branch itself, HEAD with head_ref the working tree)",
  ),
  head_ref: z.string().optional().describe(
    'Head revision (default HEAD; "worktree" for the working tree, uncommitted edits included)',
  ),
  days: z.number().int().min(1).max(36500).optional().describe(
    "Churn window in days (default 90)",
  ),
  max_symbols: z.number().int().min(1).max(500).optional().describe(
    "Rows of hottest_symbols and untested_symbols (default 10)",
  ),
};

/** Validated arguments. */
export type GetPrRiskProfileArgs = ArgsOf<typeof _args, "required">;

const _SYMBOL = {
  symbol_id: z.string().describe("Symbol id"),
  name: z.string().describe("Name"),
  file: z.string().describe("File"),
  change_type: z.string().describe("added, removed, modified or renamed"),
  signature_changed: z.boolean().describe("Whether its declaration changed"),
  cyclomatic: z.number().int().nullable().describe("Cyclomatic complexity (null: removed)"),
  dependents: z.number().int().describe("Files depending on it (two hops, tests left out)"),
  tested: z.boolean().nullable().describe("Whether a test reaches it (null: a test, or removed)"),
  file_churn: z.number().int().describe("Commits that changed its file in the window"),
  hotspot_score: z.number().describe("cyclomatic × ln(1 + file_churn)"),
};

const _fields = {
  repo: z.string().describe("Repo id"),
  from_sha: z.string().describe("The base commit"),
  to_sha: z.string().describe('The head commit, or "worktree"'),
  base: z.string().describe("How the base was chosen"),
  risk_score: z.number().describe("0..1: the weighted sum of the signals"),
  risk_level: z.enum(["low", "medium", "high", "critical"]).describe(
    "low ≤ 0.25, medium ≤ 0.5, high ≤ 0.75, critical above",
  ),
  changed_symbols_count: z.number().int().describe("Symbols changed"),
  changed_files_count: z.number().int().describe("Files changed"),
  blast_radius_files: z.number().int().describe("Files depending on the changed symbols"),
  untested_count: z.number().int().describe("Changed symbols no test reaches"),
  signals: rows({
    signal: z.string().describe("blast_radius, complexity, test_gap, churn or volume"),
    score: z.number().describe("0..1"),
    weight: z.number().describe("Its weight"),
    contribution: z.number().describe("score × weight"),
    detail: z.string().describe("What it measured"),
  }).describe("The five signals (docs/history.md gives the formula)"),
  hottest_symbols: rows(_SYMBOL).describe("Changed symbols, riskiest first"),
  untested_symbols: rows(_SYMBOL).describe("Changed symbols no test reaches"),
  reasons: z.array(z.string()).describe("Why the score is what it is, in words"),
  index_matches_head: z.boolean().describe(
    "Whether the index is the head's state (dependents and tests are read from the index)",
  ),
  shallow: z.boolean().describe("Whether the clone is shallow"),
  note: z.string().optional().describe("What to keep in mind reading the score"),
};

const _meta = { truncated: META.truncated, hint: META.hint };

/** The default branches a base is looked for on, in order. */
const _DEFAULT_BRANCHES = ["origin/HEAD", "main", "master", "origin/main", "origin/master"];

/** Where `head` branched from a default branch, or null (it is on one, or none exists). */
function _branchPoint(history: GitHistory, head: string): { base: string; from: string } | null {
  for (const branch of _DEFAULT_BRANCHES) {
    let tip: string;
    try {
      tip = history.resolveCommit(branch);
    } catch {
      continue;
    }
    const base = history.mergeBase(tip, head);
    if (base !== null && base !== head) return { base, from: branch };
  }
  return null;
}

/** Base and head of the comparison, and how the base was chosen. */
function _range(
  history: GitHistory,
  args: GetPrRiskProfileArgs,
): { from: string; to: string | null; base: string } {
  const worktree = args.head_ref !== undefined &&
    /^(worktree|working[_ -]?tree)$/i.test(args.head_ref);
  const head = worktree ? null : resolveRev(history, args.head_ref ?? "HEAD", "head_ref");
  if (args.base_ref !== undefined) {
    return { from: resolveRev(history, args.base_ref, "base_ref"), to: head, base: "base_ref" };
  }
  const tip = head ?? history.resolveCommit("HEAD");
  const point = _branchPoint(history, tip);
  if (point !== null) {
    return { from: point.base, to: head, base: `where it branched from ${point.from}` };
  }
  return {
    from: tip,
    to: null,
    base: "HEAD (on the default branch: the working tree is the change)",
  };
}

function _row(s: SymbolRisk): z.infer<z.ZodObject<typeof _SYMBOL>> {
  return {
    symbol_id: s.change.symbol.id,
    name: s.change.symbol.name,
    file: s.change.symbol.file,
    change_type: s.change.change,
    signature_changed: s.change.signatureChanged,
    cyclomatic: s.cyclomatic,
    dependents: s.dependents,
    tested: s.tested,
    file_churn: s.fileChurn,
    hotspot_score: s.hotspot,
  };
}

/** The risk profile of a branch. */
export async function handler(
  ctx: ToolContext,
  args: GetPrRiskProfileArgs,
): Promise<ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>>> {
  const days = args.days ?? 90;
  const max = args.max_symbols ?? 10;
  const { repo, view } = openRepo(ctx, args.repo);
  const history = historyOf(view, name);
  const { from, to, base } = _range(history, args);
  const untracked = to === null ? view.index.listFiles().map((f) => f.path) : [];
  const changes = await changedSymbols(history, from, to, untracked, {
    parse: (path, bytes, complexity) =>
      ctx.parser().parse(path, bytes, undefined, { symbolsOnly: true, complexity }),
    known: symbolsFromIndex(view.index),
  });
  const head = to ?? history.resolveCommit("HEAD");
  const since = Math.floor(Date.now() / 1000) - days * 86400;
  const churn = churnByFile(history, head, since);
  const profile = riskProfile(view, {
    changes: changes.symbols,
    files: changes.files,
    churn: churn.counts,
    days,
  });
  const indexMatchesHead = to === null || to === history.resolveCommit("HEAD");
  const untested = profile.symbols.filter((s) => s.tested === false);
  const notes: string[] = [];
  if (!indexMatchesHead) {
    notes.push(
      "The head is not the indexed state: dependents and test reachability are those of the index",
    );
  }
  if (churn.reachedShallow) notes.push("Shallow clone: churn is a lower bound");
  if (changes.skipped.length > 0) {
    notes.push(`${changes.skipped.length} changed files were not compared symbol by symbol`);
  }
  const response: ResponseOf<typeof _fields> = {
    repo,
    from_sha: from,
    to_sha: to ?? "worktree",
    base,
    risk_score: profile.score,
    risk_level: profile.level,
    changed_symbols_count: changes.symbols.length,
    changed_files_count: changes.files.length,
    blast_radius_files: profile.blastFiles,
    untested_count: untested.length,
    signals: profile.signals,
    hottest_symbols: profile.symbols.slice(0, max).map(_row),
    untested_symbols: untested.slice(0, max).map(_row),
    reasons: profile.reasons,
    index_matches_head: indexMatchesHead,
    shallow: history.isShallow,
  };
  if (notes.length > 0) response.note = notes.join("; ");
  const cut = profile.symbols.length > max || untested.length > max;
  return {
    response,
    repo,
    meta: graphMeta(cut, `Symbol lists are cut at ${max}: raise max_symbols (up to 500)`),
  };
}

/** The declaration. */
export const tool = defineTool({
  name,
  title: "Risk of a change",
  summary:
    "a branch's risk against its base: changed symbols' blast radius, complexity, test reachability, churn and volume fused into one score with the reasons",
  description:
    "Get the risk of a branch before review or merge: its changed symbols against the base, their blast radius, complexity, test reach, churn and the change's volume, fused into a 0..1 score and level with each signal, the riskiest and untested symbols and the reasons. On the default branch it rates your uncommitted edits.",
  repo: "optional",
  repoDescription: "Repo id from list_repos (a locally indexed git checkout)",
  args: _args,
  output: { fields: _fields, meta: _meta },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
