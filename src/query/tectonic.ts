/**
 * The module map of a repo (`get_tectonic_map`): a deterministic partition of its files into
 * modules ("plates") by how they are coupled, each named from its files and symbols.
 *
 * Coupling between two files is the fusion of three signals, each normalised to a maximum of 1:
 * - structural (weight 0.5): import statements of one file that resolve to the other;
 * - calls (weight 0.3): calls in one file to a name defined in the other, where the name is
 *   defined in at most 3 files (a call to a name defined in more is too ambiguous to count; each
 *   of the k defining files gets 1/k);
 * - shared dependencies (weight 0.2): both files import the same specifier or resolved file that
 *   at most 30 files import (ubiquitous imports like `os` or `fmt` say nothing), each shared one
 *   adding 1.
 *
 * Clustering is Louvain modularity optimisation with no randomness: files are visited in path
 * order, each moves to the neighbouring module with the largest modularity gain (ties: the
 * lowest module number), passes repeat until nothing moves, then modules are merged into nodes
 * and the next level runs, until a level changes nothing. Same index, same map. (Label
 * propagation, the reference's method, needs random order to work and still collapses most of a
 * repo into one module around a file everything imports.)
 */
import { facet, type RepoView } from "./view.ts";
import { SYMBOL_BRIEFS } from "./files.ts";
import { fileRole } from "./priors.ts";

/** Weights of the fused signals. */
export const SIGNAL_WEIGHTS = { structural: 0.5, calls: 0.3, shared_dependencies: 0.2 } as const;

/** One module of the map. */
export interface Plate {
  id: number;
  name: string;
  anchor: string;
  files: string[];
  cohesion: number;
  majority_directory: string;
  drifters: string[];
  top_symbols: string[];
}

/** The module map of one index state. */
export interface TectonicMap {
  plates: Plate[];
  /** Files coupled to nothing, or in a plate below the size cut (filled per call). */
  unplaced: string[];
  /** Coupling between plates: plate ids (low first) and the summed fused weight. */
  couplings: { from: number; to: number; weight: number }[];
  signals: string[];
  edgeCount: number;
  activeFiles: number;
}

const _MAX_CALL_DEFINERS = 3;
const _MAX_SHARED_IMPORTERS = 30;
const _MAX_PASSES = 30;
const _MAX_LEVELS = 10;

/** Fused coupling between files: `a < b` by path, weight > 0. */
function _edges(view: RepoView): { weights: Map<string, Map<string, number>>; signals: string[] } {
  const index = view.index;
  const structural = new Map<string, number>();
  const calls = new Map<string, number>();
  const shared = new Map<string, number>();
  const key = (a: string, b: string) => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);
  const add = (m: Map<string, number>, a: string, b: string, w: number) => {
    if (a === b) return;
    const k = key(a, b);
    m.set(k, (m.get(k) ?? 0) + w);
  };
  const imports = index.allImports();
  const importersOf = new Map<string, Set<string>>();
  for (const i of imports) {
    if (i.resolved !== null) add(structural, i.file, i.resolved, 1);
    const target = i.resolved ?? `ext:${i.specifier}`;
    let set = importersOf.get(target);
    if (set === undefined) importersOf.set(target, set = new Set());
    set.add(i.file);
  }
  for (const importers of importersOf.values()) {
    if (importers.size < 2 || importers.size > _MAX_SHARED_IMPORTERS) continue;
    const list = [...importers].sort();
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) add(shared, list[x]!, list[y]!, 1);
    }
  }
  const definers = new Map<string, Set<string>>();
  for (const s of view.get(SYMBOL_BRIEFS)) {
    if (s.kind === "import") continue;
    let set = definers.get(s.name);
    if (set === undefined) definers.set(s.name, set = new Set());
    set.add(s.file);
  }
  for (const c of index.allCalls()) {
    const files = definers.get(c.callee);
    if (files === undefined || files.size > _MAX_CALL_DEFINERS || files.has(c.file)) continue;
    for (const f of files) add(calls, c.file, f, 1 / files.size);
  }
  const signals: string[] = [];
  const weights = new Map<string, Map<string, number>>();
  const fuse = (m: Map<string, number>, name: keyof typeof SIGNAL_WEIGHTS) => {
    if (m.size === 0) return;
    signals.push(name);
    let max = 0;
    for (const v of m.values()) if (v > max) max = v;
    for (const [k, v] of m) {
      const [a, b] = k.split("\u0000") as [string, string];
      const w = SIGNAL_WEIGHTS[name] * v / max;
      for (const [p, q] of [[a, b], [b, a]] as const) {
        let row = weights.get(p);
        if (row === undefined) weights.set(p, row = new Map());
        row.set(q, (row.get(q) ?? 0) + w);
      }
    }
  };
  fuse(structural, "structural");
  fuse(calls, "calls");
  fuse(shared, "shared_dependencies");
  return { weights, signals };
}

/** The directory key of a path: its first two folders (or one, or `.`). */
export function directoryKey(path: string): string {
  const parts = path.split("/").slice(0, -1);
  return parts.length === 0 ? "." : parts.slice(0, 2).join("/");
}

/** The module map of the repo's current index state (min plate size applied per call). */
export const TECTONIC = facet("tectonic-map", (view): TectonicMap => {
  const { weights, signals } = _edges(view);
  const nodes = [...weights.keys()].sort();
  const community = louvain(nodes, weights);
  const groups = new Map<number, string[]>();
  nodes.forEach((n, i) => {
    const c = community[i]!;
    let g = groups.get(c);
    if (g === undefined) groups.set(c, g = []);
    g.push(n);
  });
  const symbolsByFile = new Map<string, { name: string; kind: string }[]>();
  for (const s of view.get(SYMBOL_BRIEFS)) {
    let list = symbolsByFile.get(s.file);
    if (list === undefined) symbolsByFile.set(s.file, list = []);
    list.push(s);
  }
  const ordered = [...groups.values()].sort((a, b) =>
    b.length - a.length || (a[0]! < b[0]! ? -1 : 1)
  );
  const plateOf = new Map<string, number>();
  const plates: Plate[] = ordered.map((files, i) => {
    for (const f of files) plateOf.set(f, i + 1);
    return _plate(i + 1, files, weights, symbolsByFile);
  });
  const between = new Map<string, number>();
  let edgeCount = 0;
  for (const [a, row] of weights) {
    for (const [b, w] of row) {
      if (a >= b) continue;
      edgeCount++;
      const pa = plateOf.get(a)!, pb = plateOf.get(b)!;
      if (pa === pb) continue;
      const k = pa < pb ? `${pa}:${pb}` : `${pb}:${pa}`;
      between.set(k, (between.get(k) ?? 0) + w);
    }
  }
  const couplings = [...between].map(([k, w]) => {
    const [from, to] = k.split(":").map(Number) as [number, number];
    return { from, to, weight: Math.round(w * 1000) / 1000 };
  }).sort((a, b) => b.weight - a.weight || a.from - b.from || a.to - b.to);
  const placed = new Set(nodes);
  const unplaced = [...view.get(SYMBOL_BRIEFS).reduce((s, x) => s.add(x.file), new Set<string>())]
    .filter((f) => !placed.has(f)).sort();
  return { plates, unplaced, couplings, signals, edgeCount, activeFiles: nodes.length };
});

function _plate(
  id: number,
  files: string[],
  weights: Map<string, Map<string, number>>,
  symbolsByFile: Map<string, { name: string; kind: string }[]>,
): Plate {
  const inPlate = new Set(files);
  let anchor = files[0]!;
  let anchorDegree = -1;
  let intra = 0;
  for (const f of files) {
    let degree = 0;
    for (const [g, w] of weights.get(f)!) {
      if (inPlate.has(g)) degree += w;
    }
    intra += degree;
    // Library source anchors a plate before tests and examples of the same weight.
    const bonus = fileRole(f) === "source" ? 1e-9 : 0;
    if (degree + bonus > anchorDegree) {
      anchor = f;
      anchorDegree = degree + bonus;
    }
  }
  intra /= 2;
  const n = files.length;
  const dirCounts = new Map<string, number>();
  for (const f of files) dirCounts.set(directoryKey(f), (dirCounts.get(directoryKey(f)) ?? 0) + 1);
  const majority = [...dirCounts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
  const drifters = files.filter((f) => directoryKey(f) !== majority);
  const kindRank: Record<string, number> = { class: 0, type: 1, function: 2, method: 3 };
  const top = (symbolsByFile.get(anchor) ?? [])
    .filter((s) => s.kind in kindRank && !s.name.startsWith("_"))
    .sort((a, b) => kindRank[a.kind]! - kindRank[b.kind]!)
    .slice(0, 3)
    .map((s) => s.name);
  const name = `${majority === "." ? anchor : majority}${
    top.length > 0 ? ` (${top.join(", ")})` : ""
  }`;
  return {
    id,
    name,
    anchor,
    files,
    cohesion: n < 2 ? 0 : Math.round(intra / (n * (n - 1) / 2) * 1000) / 1000,
    majority_directory: majority,
    drifters,
    top_symbols: top,
  };
}

/**
 * Louvain community detection, deterministic: the module number of each node (by index into
 * `nodes`). `weights` is symmetric.
 */
export function louvain(
  nodes: readonly string[],
  weights: ReadonlyMap<string, ReadonlyMap<string, number>>,
): number[] {
  const id = new Map(nodes.map((n, i) => [n, i]));
  // adj[i]: neighbour -> weight (symmetric; a self loop holds twice the internal weight).
  let adj: Map<number, number>[] = nodes.map((n) => {
    const row = new Map<number, number>();
    for (const [m, w] of weights.get(n) ?? []) {
      const j = id.get(m);
      if (j !== undefined) row.set(j, w);
    }
    return row;
  });
  let membership = nodes.map((_, i) => i);
  for (let level = 0; level < _MAX_LEVELS; level++) {
    const n = adj.length;
    const k = adj.map((row) => {
      let sum = 0;
      for (const w of row.values()) sum += w;
      return sum;
    });
    const m2 = k.reduce((a, b) => a + b, 0);
    if (m2 === 0) break;
    const comm = Array.from({ length: n }, (_, i) => i);
    const tot = [...k];
    let movedAny = false;
    for (let pass = 0; pass < _MAX_PASSES; pass++) {
      let moved = false;
      for (let i = 0; i < n; i++) {
        const ci = comm[i]!;
        const ki = k[i]!;
        const toComm = new Map<number, number>();
        for (const [j, w] of adj[i]!) {
          if (j === i) continue;
          toComm.set(comm[j]!, (toComm.get(comm[j]!) ?? 0) + w);
        }
        tot[ci]! -= ki;
        let best = ci;
        let bestGain = (toComm.get(ci) ?? 0) - tot[ci]! * ki / m2;
        for (const c of [...toComm.keys()].sort((a, b) => a - b)) {
          const gain = toComm.get(c)! - tot[c]! * ki / m2;
          if (gain > bestGain + 1e-12) {
            best = c;
            bestGain = gain;
          }
        }
        tot[best]! += ki;
        if (best !== ci) {
          comm[i] = best;
          moved = true;
          movedAny = true;
        }
      }
      if (!moved) break;
    }
    if (!movedAny) break;
    // Renumber modules in order of first member, then merge each into one node.
    const renumber = new Map<number, number>();
    for (const c of comm) if (!renumber.has(c)) renumber.set(c, renumber.size);
    const next: Map<number, number>[] = Array.from({ length: renumber.size }, () => new Map());
    for (let i = 0; i < n; i++) {
      const a = renumber.get(comm[i]!)!;
      for (const [j, w] of adj[i]!) {
        const b = renumber.get(comm[j]!)!;
        next[a]!.set(b, (next[a]!.get(b) ?? 0) + w);
      }
    }
    membership = membership.map((c) => renumber.get(comm[c]!)!);
    adj = next;
  }
  return membership;
}
