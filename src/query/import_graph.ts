/**
 * The file-level import graph of a repo and its reverse, from the imports the index resolved to
 * files: who imports a file (following re-exports through barrels — `LanguageSemantics`
 * `reexportFile`/`reexportLine` — and, where a unit is a folder, imports of any file of it), the
 * neighbourhood of a file, and every import cycle.
 */
import type { StoredImport } from "../store/repo_index.ts";
import type { LanguageSemantics } from "../parser/language_spec.ts";
import { FILES } from "./files.ts";
import { dirOf, UNITS, type Units } from "./units.ts";
import { breadthFirst, type Hop } from "./walk.ts";
import { SYMBOLS } from "./symbols.ts";
import { facet, type RepoView } from "./view.ts";

export { dirOf } from "./units.ts";

/** One importer of a file. */
export interface Importer {
  /** The importing file. */
  file: string;
  /** The specifier as written there. */
  specifier: string;
  /** The names it imports (`[]` when the syntax lists none). */
  names: string[];
  line: number;
  /** The re-exporting file the import reaches the target through, or null for a direct import. */
  via: string | null;
  /** 1 for a direct import, 2+ through re-exports. */
  hops: number;
}

/** The import graph of one index state. */
export class ImportGraph {
  readonly #view: RepoView;
  readonly #units: Units;
  /** Imports by importing file, in source order. */
  readonly importsOf: Map<string, StoredImport[]>;
  /** Resolved imports by the file they resolve to, by importing file and line. */
  readonly importersOf: Map<string, StoredImport[]>;
  readonly #lines = new Map<string, string[]>();

  constructor(view: RepoView) {
    this.#view = view;
    this.#units = view.get(UNITS);
    this.importsOf = new Map();
    this.importersOf = new Map();
    const files = view.get(FILES);
    for (const stored of view.index.allImports()) {
      const semantics = this.#units.semanticsOf(stored.file);
      for (const imp of submoduleImports(stored, semantics, (p) => files.has(p))) {
        _push(this.importsOf, imp.file, imp);
        if (imp.resolved !== null && imp.resolved !== imp.file) {
          _push(this.importersOf, imp.resolved, imp);
        }
      }
    }
  }

  /** The files a resolved import target stands for: its unit's (a Go package's files). */
  unitFiles(target: string): string[] {
    return this.#units.filesOf(target);
  }

  /**
   * The imports that reach `file` directly: those resolved to it, and where its unit is a folder
   * those resolved to any file of the unit (a Go import names the package).
   */
  directImporters(file: string): StoredImport[] {
    if (!this.#units.isFolderUnit(file)) return this.importersOf.get(file) ?? [];
    const out: StoredImport[] = [];
    for (const f of this.unitFiles(file)) {
      for (const imp of this.importersOf.get(f) ?? []) if (imp.file !== file) out.push(imp);
    }
    return out.sort((a, b) => byCodePoint(a.file, b.file) || a.line - b.line);
  }

  /** Whether an import re-exports what it imports (a barrel, `export … from`). */
  isReexport(imp: StoredImport): boolean {
    const semantics = this.#units.semanticsOf(imp.file);
    if (semantics.reexportFile?.test(imp.file)) return true;
    if (semantics.reexportLine === undefined) return false;
    return semantics.reexportLine.test(this.#line(imp.file, imp.line));
  }

  #line(file: string, line: number): string {
    let lines = this.#lines.get(file);
    if (lines === undefined) {
      lines = (this.#view.index.fileText(file) ?? "").split("\n");
      this.#lines.set(file, lines);
    }
    return lines[line - 1] ?? "";
  }

  /**
   * Every file importing `file`, one row per importing file (its first import of it, the most
   * direct one), following re-exports up to `maxHops`: a file importing a barrel that re-exports
   * `file` counts when it imports one of the re-exported names, or imports without names.
   */
  importers(file: string, maxHops = 4): Importer[] {
    const seen = new Map<string, Importer>();
    type Step = { file: string; names: Set<string> | null; via: string | null; origin: string };
    let frontier: Step[] = [{ file, names: null, via: null, origin: file }];
    for (let hop = 1; hop <= maxHops && frontier.length > 0; hop++) {
      const next: Step[] = [];
      for (const f of frontier) {
        for (const imp of this.directImporters(f.file)) {
          if (imp.file === file) continue;
          if (hop > 1 && !this.#usesAny(imp, f.names, f.origin)) continue;
          if (!seen.has(imp.file)) {
            seen.set(imp.file, {
              file: imp.file,
              specifier: imp.specifier,
              names: imp.names,
              line: imp.line,
              via: f.via,
              hops: hop,
            });
          }
          if (this.isReexport(imp)) {
            const passed = this.#passedNames(imp);
            next.push({
              file: imp.file,
              names: passed ?? f.names,
              via: imp.file,
              origin: passed === null ? f.origin : imp.file,
            });
          }
        }
      }
      frontier = next;
    }
    return [...seen.values()].sort((a, b) => a.hops - b.hops || byCodePoint(a.file, b.file));
  }

  /**
   * The names a re-exporting import passes on to its own importers, or null for every name its
   * target has (`*`, a bare ECMAScript `export * from`). Where modules are attributes
   * (`LanguageSemantics.attributeUses`), a whole-module import in a package file (`import django`
   * or `import a.b as d` in an `__init__.py`) passes on only the name it binds, not the module's
   * contents: `from pkg import x` does not import what `pkg/__init__.py`'s `import django` names.
   */
  #passedNames(imp: StoredImport): Set<string> | null {
    if (this.#units.semanticsOf(imp.file).attributeUses) {
      if (imp.names.length === 0) return new Set([imp.specifier.split(".")[0]!]);
      const alias = imp.names.length === 1 ? namespaceAlias(imp.names[0]!) : null;
      if (alias !== null) return new Set([alias]);
    }
    return _wildcard(imp.names) ? null : new Set(imp.names);
  }

  /**
   * Whether an import of a re-exporting file takes one of the names it passes on (`wanted`; null:
   * every name `origin` defines). An import of the whole module (`import pkg`, `from a import
   * pkg`), where the language says so (`LanguageSemantics.attributeUses`), takes the attributes
   * its file writes on the module's name (`pkg.Name`); any other takes its names, or everything.
   */
  #usesAny(imp: StoredImport, wanted: Set<string> | null, origin: string): boolean {
    const bound = this.#moduleName(imp);
    if (bound === null) return wanted === null || _importsAny(imp.names, wanted);
    const names = wanted ?? new Set(
      this.#view.get(SYMBOLS).ofFile(origin).filter((s) => s.parent === null).map((s) => s.name),
    );
    const text = this.#view.index.fileText(imp.file) ?? "";
    const b = bound.replace(/[.$]/g, "\\$&");
    for (const m of text.matchAll(new RegExp(`(?<![\\w.])${b}\\.([A-Za-z_]\\w*)`, "g"))) {
      if (names.has(m[1]!)) return true;
    }
    return false;
  }

  /** The name a whole-module import binds in its file, or null for an import of names. */
  #moduleName(imp: StoredImport): string | null {
    if (imp.resolved === null || !this.#units.semanticsOf(imp.file).attributeUses) return null;
    if (imp.names.length === 0) return imp.specifier;
    if (imp.names.length !== 1) return null;
    const alias = namespaceAlias(imp.names[0]!);
    if (alias !== null) return alias;
    const parts = imp.resolved.replace(/\.[^./]*$/, "").split("/");
    const stem = parts.at(-1) === "__init__" ? parts.at(-2) : parts.at(-1);
    return stem === imp.names[0] ? imp.names[0]! : null;
  }

  /** The files `file` imports (resolved), distinct, sorted. */
  importedBy(file: string): string[] {
    const out = new Set<string>();
    for (const imp of this.importsOf.get(file) ?? []) {
      if (imp.resolved !== null && imp.resolved !== file) out.add(imp.resolved);
    }
    return [...out].sort(byCodePoint);
  }

  /** The files importing `file` directly, distinct, sorted. */
  importerFiles(file: string): string[] {
    return [...new Set(this.directImporters(file).map((i) => i.file))].sort(byCodePoint);
  }

  /** Every file with at least one resolved import edge, and its distinct targets. */
  edges(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const [file] of this.importsOf) {
      const targets = this.importedBy(file);
      if (targets.length > 0) out.set(file, targets);
    }
    return out;
  }
}

/**
 * An import as the graph reads it: a name imported from a package that is a module of its own
 * (`from pkg import c` with `pkg/c.py`: `LanguageSemantics.submodules`) reaches that module, so
 * the stored import splits into one import per target, each with its names. The package is the
 * folder of the file the import resolved to: a package file (`reexportFile`), or a module of the
 * package named like one of the names (`from . import c` resolves to `c.py`).
 */
export function submoduleImports(
  imp: StoredImport,
  semantics: LanguageSemantics,
  isFile: (path: string) => boolean,
): StoredImport[] {
  const templates = semantics.submodules ?? [];
  const resolved = imp.resolved;
  if (templates.length === 0 || resolved === null || imp.names.length === 0) return [imp];
  const base = resolved.slice(resolved.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "");
  const isPackage = semantics.reexportFile?.test(resolved) ?? false;
  if (!isPackage && !imp.names.includes(base)) return [imp];
  const dir = dirOf(resolved);
  const inFolder = (folder: string, name: string) =>
    templates.map((t) => (folder === "" ? "" : folder + "/") + t.replaceAll("{}", name));
  // A name that is no module comes from the package file (the folder's `__init__.py`).
  const packageFile = isPackage || dir === "" ? resolved : inFolder(
    dirOf(dir),
    dir.slice(dir.lastIndexOf("/") + 1),
  ).find((p) => semantics.reexportFile?.test(p) && isFile(p)) ?? resolved;
  const byTarget = new Map<string, string[]>();
  for (const name of imp.names) {
    const sub = name === "*" || !/^[\p{L}\p{N}_]+$/u.test(name)
      ? undefined
      : inFolder(dir, name).find((p) => p !== imp.file && isFile(p));
    _push(byTarget, sub ?? packageFile, name);
  }
  if (byTarget.size === 1 && byTarget.has(resolved)) return [imp];
  return [...byTarget].map(([target, names]) => ({ ...imp, resolved: target, names }));
}

/** Which links of the import graph a neighbourhood follows. */
export type ImportDirection = "imports" | "importers" | "both";

/** The import graph around a file: the files reached and the edges between them. */
export interface Neighbourhood {
  /** Every file reached, the start included, sorted. */
  nodes: string[];
  /** Importing file → imported file, at the hop it was found, by hop and paths. */
  edges: { from: string; to: string; depth: number }[];
  /** The last hop that found an edge (new or not). */
  depthReached: number;
  /** Whether `maxNodes` cut it. */
  truncated: boolean;
}

/**
 * The files around `file` up to `depth` hops over imports, importers or both (direct imports:
 * re-exports are hops of their own), at most `maxNodes` files with the start; every edge among
 * them found on the way.
 */
export function neighbourhood(
  graph: ImportGraph,
  file: string,
  direction: ImportDirection,
  depth: number,
  maxNodes: number,
): Neighbourhood {
  const edges = new Map<string, { from: string; to: string; depth: number }>();
  let depthReached = 0;
  const walk = breadthFirst<string, [string, string]>(file, file, (node) => {
    const links: Hop<string, [string, string]>[] = [];
    if (direction !== "importers") {
      for (const t of graph.importedBy(node)) links.push({ node: t, key: t, edge: [node, t] });
    }
    if (direction !== "imports") {
      for (const f of graph.importerFiles(node)) links.push({ node: f, key: f, edge: [f, node] });
    }
    return links;
  }, {
    maxDepth: depth,
    maxNodes: maxNodes - 1,
    finishLevel: true,
    onEdge: (_from, hop, d) => {
      const [from, to] = hop.edge;
      const key = `${from}\0${to}`;
      if (!edges.has(key)) edges.set(key, { from, to, depth: d });
      depthReached = d;
    },
  });
  const edgeList = [...edges.values()].sort((a, b) =>
    a.depth - b.depth || byCodePoint(a.from, b.from) || byCodePoint(a.to, b.to)
  );
  return {
    nodes: [file, ...walk.visits.map((v) => v.node)].sort(byCodePoint),
    edges: edgeList,
    depthReached,
    truncated: walk.truncated,
  };
}

/**
 * Files importing `file`, breadth-first up to `depth` hops (re-exports followed), by hop: the
 * distance of each (the file itself left out).
 */
export function importersByDepth(
  graph: ImportGraph,
  file: string,
  depth: number,
): Map<string, number> {
  const walk = breadthFirst<string, null>(
    file,
    file,
    (f) => graph.importers(f).map((imp) => ({ node: imp.file, key: imp.file, edge: null })),
    {
      maxDepth: depth,
    },
  );
  return new Map(walk.visits.map((v) => [v.node, v.depth]));
}

/** The import graph of a view. */
export const IMPORT_GRAPH = facet("import-graph", (v) => new ImportGraph(v));

/** An import cycle: the files of one strongly connected component and a shortest cycle. */
export interface ImportCycle {
  /** Members, sorted. */
  files: string[];
  /** A shortest cycle through the first member: `[a, b, …, a]`. */
  path: string[];
}

/** Every import cycle (strongly connected components of more than one file), largest first. */
export const IMPORT_CYCLES = facet("import-cycles", (v): ImportCycle[] => {
  const edges = v.get(IMPORT_GRAPH).edges();
  const components = stronglyConnected(edges);
  const cycles = components.filter((c) => c.length > 1).map((files) => {
    const members = new Set(files);
    return { files, path: shortestCycle(files[0]!, edges, members) };
  });
  return cycles.sort((a, b) =>
    b.files.length - a.files.length || byCodePoint(a.files[0]!, b.files[0]!)
  );
});

/** Tarjan's strongly connected components (iterative), members sorted, in discovery order. */
export function stronglyConnected(edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let counter = 0;
  const nodes = [...edges.keys()].sort(byCodePoint);
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: { node: string; next: number }[] = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const succ = edges.get(top.node) ?? [];
      if (top.next < succ.length) {
        const w = succ[top.next++]!;
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ node: w, next: 0 });
        } else if (onStack.has(w)) {
          low.set(top.node, Math.min(low.get(top.node)!, index.get(w)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== top.node);
        out.push(component.sort(byCodePoint));
      }
    }
  }
  return out;
}

/** A shortest path `start → … → start` inside `members` (breadth-first, neighbours sorted). */
function shortestCycle(
  start: string,
  edges: Map<string, string[]>,
  members: Set<string>,
): string[] {
  const prev = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    for (const next of edges.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let n: string | undefined = node; n !== undefined && n !== start; n = prev.get(n)) {
          path.push(n);
        }
        path.push(start);
        return [start, ...path.slice(1, -1).reverse(), start];
      }
      if (!prev.has(next)) {
        prev.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start];
}

function _push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/**
 * The name a whole module is bound to by an imported name written `* as x` (an ECMAScript
 * namespace import, Python's `import a.b as x`), or null for any other name.
 */
export function namespaceAlias(name: string): string | null {
  return /^\*\s*as\s+(\S+)$/.exec(name)?.[1] ?? null;
}

function _wildcard(names: readonly string[]): boolean {
  return names.length === 0 || names.some((n) => n === "*" || n.startsWith("* as"));
}

function _importsAny(names: readonly string[], wanted: Set<string>): boolean {
  return _wildcard(names) || names.some((n) => wanted.has(n));
}

/** Code-point order, the same on every platform. */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
