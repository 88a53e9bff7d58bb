/**
 * Coupling per module (`get_coupling_metrics`), Robert C. Martin's package metrics over the
 * resolved imports: a module is a unit of the graph (units.ts: a file, or a Go package's folder).
 *
 * - **Ca** (afferent): other modules with a file importing a file of this one;
 * - **Ce** (efferent): other modules a file of this one imports;
 * - **instability** `I = Ce / (Ca + Ce)`: 0 nothing it depends on can break it but many depend
 *   on it (stable), 1 it depends on others and nothing depends on it (unstable); null when both
 *   are 0 (isolated). Assessment as the reference: stable ≤ 0.3 < neutral ≤ 0.7 < unstable.
 *
 * Imports that stay inside a module, and imports of anything outside the index, are not counted;
 * documents and data files are no modules.
 */
import { byCodePoint, IMPORT_GRAPH } from "./import_graph.ts";
import { FILES } from "./files.ts";
import { contentOf, type FileRole, fileRole } from "./priors.ts";
import { UNITS } from "./units.ts";
import { facet } from "./view.ts";

/** How a module's instability reads. */
export type CouplingAssessment = "isolated" | "stable" | "neutral" | "unstable";

/** One module's coupling. */
export interface ModuleCoupling {
  /** The unit key: a file's path, or a package folder. */
  module: string;
  /** Indexed files in it. */
  files: number;
  /** The role of its files (`source`, `test`, …; a folder takes its first file's). */
  role: FileRole;
  ca: number;
  ce: number;
  instability: number | null;
  assessment: CouplingAssessment;
  /** Modules importing it, sorted. */
  importers: string[];
  /** Modules it imports, sorted. */
  dependencies: string[];
}

/** The coupling of every module of one index state. */
export interface CouplingMap {
  /** Module key → its coupling. */
  modules: Map<string, ModuleCoupling>;
  /** Every module, most coupled (Ca + Ce) first, then by key. */
  ranked: ModuleCoupling[];
}

/** The assessment of an instability figure (null: isolated). */
export function couplingAssessment(instability: number | null): CouplingAssessment {
  if (instability === null) return "isolated";
  return instability <= 0.3 ? "stable" : instability <= 0.7 ? "neutral" : "unstable";
}

function _push(map: Map<string, Set<string>>, key: string, value: string): void {
  let set = map.get(key);
  if (set === undefined) map.set(key, set = new Set());
  set.add(value);
}

/** The coupling of every module (see the module doc). */
export const COUPLING = facet("coupling", (view): CouplingMap => {
  const units = view.get(UNITS);
  const graph = view.get(IMPORT_GRAPH);
  const fileCount = new Map<string, number>();
  const firstFile = new Map<string, string>();
  for (const [path, entry] of view.get(FILES)) {
    // Documents and data (README.md, package.json) are no modules of the code.
    if (contentOf(entry.language) !== "code") continue;
    const key = units.keyOf(path);
    fileCount.set(key, (fileCount.get(key) ?? 0) + 1);
    if (!firstFile.has(key)) firstFile.set(key, path);
  }
  const out = new Map<string, Set<string>>();
  const into = new Map<string, Set<string>>();
  for (const [file, imports] of graph.importsOf) {
    const from = units.keyOf(file);
    for (const imp of imports) {
      if (imp.resolved === null) continue;
      const to = units.keyOf(imp.resolved);
      if (to === from) continue;
      _push(out, from, to);
      _push(into, to, from);
    }
  }
  const modules = new Map<string, ModuleCoupling>();
  for (const [module, files] of fileCount) {
    const importers = [...(into.get(module) ?? [])].sort(byCodePoint);
    const dependencies = [...(out.get(module) ?? [])].sort(byCodePoint);
    const ca = importers.length, ce = dependencies.length;
    const instability = ca + ce === 0 ? null : Math.round(ce / (ca + ce) * 10000) / 10000;
    modules.set(module, {
      module,
      files,
      role: fileRole(firstFile.get(module)!),
      ca,
      ce,
      instability,
      assessment: couplingAssessment(instability),
      importers,
      dependencies,
    });
  }
  const ranked = [...modules.values()].sort((a, b) =>
    b.ca + b.ce - (a.ca + a.ce) || byCodePoint(a.module, b.module)
  );
  return { modules, ranked };
});
