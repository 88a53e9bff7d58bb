/** `get_repo_health`: one call summarizing a repo's health, with the ids to follow up (docs/api.md). */
import { z } from "zod";
import {
  DEAD_CONFIDENCE,
  HIGH_COMPLEXITY,
  type RepoHealth,
  repoHealth,
} from "../query/repo_health.ts";
import { windowChurn } from "../query/window_churn.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf, rows } from "./define.ts";
import { graphMeta } from "./graph_args.ts";

const _args = {
  days: z.number().int().min(1).max(36500).optional().describe("Default 90"),
  top_n: z.number().int().min(1).max(20).optional().describe("Default 5"),
};

/** Validated arguments. */
export type GetRepoHealthArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  summary: z.string().describe("The figures in one sentence"),
  total_files: z.number().int().describe("Indexed files"),
  total_symbols: z.number().int().describe("Indexed symbols"),
  fn_method_count: z.number().int().describe("Measured functions and methods"),
  avg_complexity: z.number().describe("Their mean cyclomatic complexity"),
  high_complexity_count: z.number().int().describe(`Those with cyclomatic ≥ ${HIGH_COMPLEXITY}`),
  dead_count: z.number().int().describe(`Dead definitions at confidence ≥ ${DEAD_CONFIDENCE}`),
  dead_code_pct: z.number().describe("Their share of the definitions weighed, percent"),
  untested_count: z.number().int().describe("Source functions and methods no test reaches"),
  untested_pct: z.number().describe("Their share, percent"),
  cycle_count: z.number().int().describe("Import cycles"),
  unstable_modules: z.number().int().describe("Source modules with dependents and I > 0.7"),
  git_available: z.boolean().describe("Whether hotspots have churn"),
  follow_up: rows({
    signal: z.enum(["hotspot", "dead", "untested", "cycle", "unstable"]).describe("Which signal"),
    id: z.string().describe("Symbol id, or file / module"),
    value: z.number().describe(
      "hotspot score (cyclomatic without churn), dead confidence, importance, cycle length, instability",
    ),
    next: z.string().describe("The tool that answers it in full"),
  }).describe("The worst of each signal, top_n each"),
  note: z.string().optional().describe("Why churn is missing"),
};

const _meta = { truncated: META.truncated, hint: META.hint };

type _Row = ResponseOf<typeof _fields>["follow_up"][number];

function _pct(n: number, of: number): number {
  return of === 0 ? 0 : Math.round(n / of * 1000) / 10;
}

function _followUps(h: RepoHealth, n: number, withChurn: boolean): _Row[] {
  return [
    ...h.hotspots.slice(0, n).map((x): _Row => ({
      signal: "hotspot",
      id: x.id,
      value: withChurn ? x.score : x.cyclomatic,
      next: "get_hotspots",
    })),
    ...h.dead.slice(0, n).map((d): _Row => ({
      signal: "dead",
      id: d.symbol.id,
      value: d.confidence,
      next: "find_dead_code",
    })),
    ...h.untested.slice(0, n).map((u): _Row => ({
      signal: "untested",
      id: u.id,
      value: Math.round(u.score * 1e8) / 1e8,
      next: "get_untested_symbols",
    })),
    ...h.cycles.slice(0, n).map((c): _Row => ({
      signal: "cycle",
      id: c.files[0]!,
      value: c.files.length,
      next: "get_dependency_cycles",
    })),
    ...h.unstable.slice(0, n).map((m): _Row => ({
      signal: "unstable",
      id: m.module,
      value: m.instability!,
      next: "get_coupling_metrics",
    })),
  ];
}

/** The health of a repo. */
export function handler(
  ctx: ToolContext,
  args: GetRepoHealthArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const n = args.top_n ?? 5;
  const { repo, view } = openRepo(ctx, args.repo);
  const churn = windowChurn(view, args.days ?? 90);
  const h = repoHealth(view, churn.counts);
  const deadPct = _pct(h.dead.length, h.deadCandidates);
  const untestedPct = _pct(h.untested.length, h.untestedWeighed);
  const top = h.hotspots[0];
  const summary =
    `${h.files} files, ${h.symbols} symbols; mean complexity ${h.avgComplexity} (${h.highComplexity} functions ≥ ${HIGH_COMPLEXITY}); ${h.dead.length} dead (${deadPct}%); ${h.untested.length} untested (${untestedPct}%); ${h.cycles.length} import cycles; ${h.unstable.length} unstable modules${
      top === undefined ? "" : `; worst hotspot ${top.id}`
    }`;
  const response: ResponseOf<typeof _fields> = {
    repo,
    summary,
    total_files: h.files,
    total_symbols: h.symbols,
    fn_method_count: h.functions,
    avg_complexity: h.avgComplexity,
    high_complexity_count: h.highComplexity,
    dead_count: h.dead.length,
    dead_code_pct: deadPct,
    untested_count: h.untested.length,
    untested_pct: untestedPct,
    cycle_count: h.cycles.length,
    unstable_modules: h.unstable.length,
    git_available: churn.counts !== null,
    follow_up: _followUps(h, n, churn.counts !== null),
  };
  if (churn.note !== undefined) response.note = churn.note;
  const cut = [h.hotspots, h.dead, h.untested, h.cycles, h.unstable].some((l) => l.length > n);
  return {
    response,
    repo,
    meta: graphMeta(
      cut,
      `top_n=${n} per signal: raise top_n (up to 20) or call each follow-up's tool`,
    ),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_repo_health",
  title: "Repo health",
  summary:
    "one-call triage: complexity, dead code, untested share, cycles, unstable modules, hotspots",
  description:
    "Triage a repo: complexity, dead code, untested share, cycles, unstable modules, hotspots, with ids to follow up.",
  repo: "required",
  args: _args,
  output: { fields: _fields, meta: _meta },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
