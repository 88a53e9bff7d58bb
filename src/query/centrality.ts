/**
 * Symbol centrality from the stored import and call graph (API.md Part A §12): a symbol that many
 * files import or call matters more to an agent than a leaf helper with the same words.
 *
 * - **Importers of its module**: distinct other files whose resolved imports point at the
 *   symbol's module. The module is the file, except in Go, where an import names a package
 *   (a folder) and resolves to one of its files: there every file of the folder counts as imported.
 * - **Callers of its name**: distinct other files that call the symbol's name, shared out among
 *   the symbols of that name (a call `x.render()` cannot say which `render` it means). A bare call
 *   counts only from a file that imports the symbol's module or shares its module, so that a
 *   common function name is not credited with every unrelated call.
 *
 * `centrality = ln(1 + importers) + ln(1 + callers)`; search adds {@linkcode CENTRALITY_WEIGHT}
 * times it to a hit's score, capped at {@linkcode MAX_CENTRALITY_BONUS}.
 */
import { facet, type RepoView } from "./view.ts";
import { SYMBOL_BRIEFS } from "./files.ts";

/** Score points per unit of centrality in search ranking. */
export const CENTRALITY_WEIGHT = 1.5;

/** The most a hit's score can gain from centrality. */
export const MAX_CENTRALITY_BONUS = 12;

/** The graph facts behind centrality, per module and per name. */
export interface CentralityIndex {
  /** Distinct importing files (other than itself) per module. */
  importers: Map<string, number>;
  /** The centrality of a symbol by id (0 when unknown). */
  of(id: string): number;
  /** The search bonus of a symbol by id: weighted centrality, capped. */
  bonus(id: string): number;
}

/** The module an import resolves into: the file, or its folder for Go packages. */
export function moduleOf(path: string, language: string): string {
  if (language !== "go") return path;
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

function _isGo(path: string): boolean {
  return path.endsWith(".go");
}

/** The centrality of every symbol of a repo, from its stored imports and call sites. */
export const CENTRALITY = facet("centrality", (view: RepoView): CentralityIndex => {
  const index = view.index;
  // Module → distinct importing files; file → modules it imports.
  const importerSets = new Map<string, Set<string>>();
  const importsOf = new Map<string, Set<string>>();
  for (const i of index.allImports()) {
    if (i.resolved === null) continue;
    const mod = moduleOf(i.resolved, _isGo(i.resolved) ? "go" : "");
    if (mod === moduleOf(i.file, _isGo(i.file) ? "go" : "")) continue;
    let set = importerSets.get(mod);
    if (set === undefined) importerSets.set(mod, set = new Set());
    set.add(i.file);
    let mods = importsOf.get(i.file);
    if (mods === undefined) importsOf.set(i.file, mods = new Set());
    mods.add(mod);
  }
  const importers = new Map<string, number>();
  for (const [mod, set] of importerSets) importers.set(mod, set.size);

  // Name → the calling files (receiver calls and bare calls apart).
  const receiverCallers = new Map<string, Set<string>>();
  const bareCallers = new Map<string, Set<string>>();
  for (const c of index.allCalls()) {
    const target = c.receiver === null ? bareCallers : receiverCallers;
    let set = target.get(c.callee);
    if (set === undefined) target.set(c.callee, set = new Set());
    set.add(c.file);
  }

  const briefs = view.get(SYMBOL_BRIEFS);
  const namesake = new Map<string, number>();
  for (const s of briefs) namesake.set(s.name, (namesake.get(s.name) ?? 0) + 1);
  const scores = new Map<string, number>();
  for (const s of briefs) {
    const mod = moduleOf(s.file, s.language);
    const imported = importers.get(mod) ?? 0;
    const callers = new Set<string>();
    for (const f of receiverCallers.get(s.name) ?? []) if (f !== s.file) callers.add(f);
    for (const f of bareCallers.get(s.name) ?? []) {
      if (f === s.file) continue;
      if (moduleOf(f, s.language) === mod || importsOf.get(f)?.has(mod)) callers.add(f);
    }
    const called = callers.size / (namesake.get(s.name) ?? 1);
    const c = Math.log1p(imported) + Math.log1p(called);
    if (c > 0) scores.set(s.id, c);
  }
  return {
    importers,
    of: (id) => scores.get(id) ?? 0,
    bonus: (id) => Math.min(MAX_CENTRALITY_BONUS, CENTRALITY_WEIGHT * (scores.get(id) ?? 0)),
  };
});
