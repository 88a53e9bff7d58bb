/**
 * One summary of a repo's health (`get_repo_health`): complexity, dead code, test reach, import
 * cycles, coupling and hotspots, each as a figure and the ids to follow up, from the same
 * analyses as the tools that answer each in full (get_symbol_complexity / get_hotspots,
 * find_dead_code, get_untested_symbols, get_dependency_cycles, get_coupling_metrics).
 */
import { measuredSymbols } from "./complexity.ts";
import { COUPLING, type ModuleCoupling } from "./coupling.ts";
import { deadCode, type DeadSymbol } from "./dead_code.ts";
import { FILES, SYMBOL_BRIEFS } from "./files.ts";
import { type Hotspot, hotspots } from "./hotspots.ts";
import { IMPORT_CYCLES, type ImportCycle } from "./import_graph.ts";
import { PAGERANK_IMPORTANCE } from "./importance.ts";
import { fileRole } from "./priors.ts";
import { TEST_REACH } from "./test_reach.ts";
import { facet, type RepoView } from "./view.ts";

/** Cyclomatic complexity from which a function counts as highly complex (as the reference). */
export const HIGH_COMPLEXITY = 11;
/** The confidence from which a definition counts as dead (find_dead_code's default). */
export const DEAD_CONFIDENCE = 0.8;

/** The figures and follow-ups of one repo. */
export interface RepoHealth {
  files: number;
  symbols: number;
  functions: number;
  avgComplexity: number;
  highComplexity: number;
  deadCandidates: number;
  dead: DeadSymbol[];
  untestedWeighed: number;
  /** Untested functions and methods of source files, most important first. */
  untested: { id: string; score: number }[];
  cycles: ImportCycle[];
  /** Source modules with dependents that are themselves unstable (I > 0.7, Ca ≥ 1), most unstable first. */
  unstable: ModuleCoupling[];
  /** Hotspots (complexity ≥ 2), highest first; ranked by complexity alone without churn. */
  hotspots: Hotspot[];
}

/** Everything but the hotspots, once per index state. */
const _BASE = facet("repo-health-base", (view): Omit<RepoHealth, "hotspots"> => {
  const measured = measuredSymbols(view);
  const total = measured.reduce((n, m) => n + m.cyclomatic, 0);
  const dead = deadCode(view, { includeTests: false, withGraph: false });
  const reach = view.get(TEST_REACH).reached;
  const roles = new Map<string, boolean>();
  const weighed = new Set<string>();
  for (const s of view.get(SYMBOL_BRIEFS)) {
    if (s.kind !== "function" && s.kind !== "method") continue;
    let source = roles.get(s.file);
    if (source === undefined) roles.set(s.file, source = fileRole(s.file) === "source");
    if (source) weighed.add(s.id);
  }
  const untested = view.get(PAGERANK_IMPORTANCE).ranked
    .filter((r) => weighed.has(r.symbol.id) && !reach.has(r.symbol.id))
    .map((r) => ({ id: r.symbol.id, score: r.score }));
  const unstable = view.get(COUPLING).ranked
    .filter((m) => m.role === "source" && m.ca > 0 && m.assessment === "unstable")
    .sort((a, b) => b.instability! - a.instability! || b.ca - a.ca);
  return {
    files: view.get(FILES).size,
    symbols: view.get(SYMBOL_BRIEFS).length,
    functions: measured.length,
    avgComplexity: measured.length === 0 ? 0 : Math.round(total / measured.length * 100) / 100,
    highComplexity: measured.filter((m) => m.cyclomatic >= HIGH_COMPLEXITY).length,
    deadCandidates: dead.candidates,
    dead: dead.symbols.filter((d) => d.confidence >= DEAD_CONFIDENCE),
    untestedWeighed: weighed.size,
    untested,
    cycles: view.get(IMPORT_CYCLES),
    unstable,
  };
});

/** Hotspots without churn: by complexity alone. */
const _BY_COMPLEXITY = facet("repo-health-complexity", (view) => hotspots(view, null, 2));

/** The health of a repo, with churn of a window when there is history (null: none). */
export function repoHealth(view: RepoView, churn: ReadonlyMap<string, number> | null): RepoHealth {
  const base = view.get(_BASE);
  return {
    ...base,
    hotspots: churn === null ? view.get(_BY_COMPLEXITY) : hotspots(view, churn, 2),
  };
}
