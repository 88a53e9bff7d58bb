/**
 * Every reference to an identifier or a file, from the stored graph: calls (resolved through the
 * name resolver), imports of the name or the module, type uses in declarations (signatures that
 * name a class or type), and inheritance (classes naming it as a base).
 */
import type { SymbolRecord } from "../parser/types.ts";
import { CALL_GRAPH } from "./call_graph.ts";
import { CLASS_BASES } from "./class_bases.ts";
import { semanticsOf } from "../parser/semantics/mod.ts";
import { byCodePoint, IMPORT_GRAPH } from "./import_graph.ts";
import { UNITS } from "./units.ts";
import { NAME_RESOLVER, type Resolution } from "./resolve_names.ts";
import { SYMBOLS } from "./symbols.ts";
import type { RepoView } from "./view.ts";

/** What kind of use a reference is. */
export type ReferenceKind = "call" | "import" | "type_use" | "inherits";

/** One reference. */
export interface Reference {
  file: string;
  line: number;
  kind: ReferenceKind;
  /** The symbol the reference is written in (caller, subclass, declaring symbol), or null. */
  symbol: string | null;
  /** The definition referred to (a symbol id, or the imported file), or null when unknown. */
  target: string | null;
  resolution: Resolution;
  /** How many definitions the reference could mean (1 when resolved or unique). */
  candidates: number;
  /** The import specifier, the call as written (`recv.name`), or the base relation. */
  detail: string;
}

const _CLASS_KINDS = new Set(["class", "type"]);

/** The definitions an identifier names: a symbol id, a qualified name, or a plain name. */
export function definitionsNamed(view: RepoView, identifier: string): SymbolRecord[] {
  const symbols = view.get(SYMBOLS);
  const exact = symbols.byId(identifier);
  if (exact !== undefined) return [exact];
  const sep = identifier.indexOf("::");
  if (sep !== -1) {
    const qualified = identifier.slice(sep + 2).replace(/#\w+$/, "");
    return symbols.ofFile(identifier.slice(0, sep)).filter((s) => s.qualified_name === qualified);
  }
  const last = identifier.slice(identifier.lastIndexOf(".") + 1);
  const named = symbols.byName(last).filter((s) => s.kind !== "import");
  return identifier.includes(".") ? named.filter((s) => s.qualified_name === identifier) : named;
}

/** The references to an indexed file: every import that reaches it (re-exports followed). */
export function fileReferences(view: RepoView, path: string): Reference[] {
  return view.get(IMPORT_GRAPH).importers(path).map((i) => ({
    file: i.file,
    line: i.line,
    kind: "import" as const,
    symbol: null,
    target: path,
    resolution: "resolved" as const,
    candidates: 1,
    detail: i.via === null ? i.specifier : `${i.specifier} (via ${i.via})`,
  }));
}

/** What the reference finders of one identifier share. */
interface _Lookup {
  view: RepoView;
  /** The definitions the identifier names. */
  targets: SymbolRecord[];
  ids: Set<string>;
  /** The name written at the uses. */
  name: string;
  /** The unit key of a file (a Go package's folder). */
  unit: (file: string) => string;
  /** The importers reaching a definition's file (re-exports followed), by importing file. */
  reach: (defining: string) => Map<string, number>;
  add: (r: Reference) => void;
}

/** The references to an identifier (a name, a qualified name or a symbol id). */
export function identifierReferences(view: RepoView, identifier: string): Reference[] {
  const targets = definitionsNamed(view, identifier);
  const name = identifier.includes("::")
    ? targets[0]?.name ?? identifier
    : identifier.slice(identifier.lastIndexOf(".") + 1);
  const out = new Map<string, Reference>();
  const graph = view.get(IMPORT_GRAPH);
  const units = view.get(UNITS);
  const reachMemo = new Map<string, Map<string, number>>();
  const lookup: _Lookup = {
    view,
    targets,
    ids: new Set(targets.map((t) => t.id)),
    name,
    unit: (file) => units.keyOf(file),
    reach: (defining) => {
      let hit = reachMemo.get(defining);
      if (hit === undefined) {
        hit = new Map(graph.importers(defining).map((i) => [i.file, i.line]));
        reachMemo.set(defining, hit);
      }
      return hit;
    },
    add: (r) => {
      const key = `${r.file}\0${r.line}\0${r.kind}\0${r.symbol ?? ""}\0${r.target ?? ""}`;
      if (!out.has(key)) out.set(key, r);
    },
  };
  _callReferences(lookup);
  _importReferences(lookup);
  if (targets.some((t) => _CLASS_KINDS.has(t.kind))) {
    _typeUses(lookup);
    _inherits(lookup);
  }
  return [...out.values()].sort((a, b) =>
    byCodePoint(a.file, b.file) || a.line - b.line || byCodePoint(a.kind, b.kind)
  );
}

/** Calls: each site naming it, resolved once (whatever the number of definitions). */
function _callReferences({ view, targets, ids, name, add }: _Lookup): void {
  const calls = view.get(CALL_GRAPH);
  if (targets.length === 1) {
    for (const e of calls.callers(targets[0]!)) {
      add({
        file: e.file,
        line: e.callLine,
        kind: "call",
        symbol: e.symbol?.id ?? null,
        target: targets[0]!.id,
        resolution: e.resolution,
        candidates: e.candidates,
        detail: e.receiver === null ? name : `${e.receiver}.${name}`,
      });
    }
    return;
  }
  if (targets.length === 0) return;
  // A name several definitions share: one row per call site reaching any of them, naming the
  // target when only one of them is a candidate.
  const resolver = view.get(NAME_RESOLVER);
  for (const site of calls.sitesNamed(name)) {
    const r = resolver.resolveCall(site);
    if (r === null) continue;
    const hits = r.targets.filter((t) => ids.has(t.id));
    if (hits.length === 0) continue;
    add({
      file: site.file,
      line: site.line,
      kind: "call",
      symbol: site.caller,
      target: hits.length === 1 ? hits[0]!.id : null,
      resolution: r.resolution,
      candidates: r.targets.length,
      detail: site.receiver === null ? name : `${site.receiver}.${name}`,
    });
  }
}

/** Imports of the name (into a file that can be a definition's), or of a module named so. */
function _importReferences({ view, targets, name, unit, reach, add }: _Lookup): void {
  for (const [file, imports] of view.get(IMPORT_GRAPH).importsOf) {
    for (const imp of imports) {
      const named = imp.names.includes(name);
      const stem = imp.specifier.replace(/\.\w+$/, "").split(/[./\\:]/).pop() ?? "";
      if (!named && !(targets.length === 0 && stem === name)) continue;
      const there = imp.resolved === null
        ? []
        : targets.filter((t) =>
          unit(t.file) === unit(imp.resolved!) || reach(t.file).get(file) === imp.line
        );
      const hit = there.length > 0;
      if (targets.length > 0 && imp.resolved !== null && !hit) continue;
      add({
        file,
        line: imp.line,
        kind: "import",
        symbol: null,
        target: there.length === 1 ? there[0]!.id : imp.resolved,
        resolution: hit || (targets.length === 0 && imp.resolved !== null) ? "resolved" : "by_name",
        candidates: hit ? Math.max(1, there.length) : Math.max(1, targets.length),
        detail: imp.specifier,
      });
    }
  }
}

/** Type uses: declarations whose signature names one of the classes, where they can see it. */
function _typeUses({ view, targets, ids, name, unit, reach, add }: _Lookup): void {
  const classes = targets.filter((t) => _CLASS_KINDS.has(t.kind));
  // As a language that writes other units' names qualified (Go) writes them: bare inside the
  // unit, `pkg.Name` outside.
  const qualified = new RegExp(`[\\p{L}\\p{N}_]\\.${_escape(name)}(?![\\p{L}\\p{N}_])`, "u");
  const bare = new RegExp(`(?<![\\p{L}\\p{N}_.])${_escape(name)}(?![\\p{L}\\p{N}_])`, "u");
  for (const s of view.index.symbolsWithSignatureWord(name)) {
    if (ids.has(s.id) || s.kind === "import") continue;
    // A class's own members name it (a Go method's receiver): not a use from outside.
    if (s.parent !== null && ids.has(s.parent)) continue;
    if (
      classes.some((c) =>
        s.qualified_name.startsWith(c.qualified_name + ".") && unit(s.file) === unit(c.file)
      )
    ) continue;
    // A declaration naming it as a base is an `inherits` row.
    if (view.get(CLASS_BASES).basesOf(s).some((b) => b.name.split(".").pop() === name)) continue;
    // Only definitions the declaring file can see (its unit, or what it imports); a class of
    // that name in the declaring file itself shadows them.
    const seeing = classes.filter((c) => {
      if (unit(s.file) !== unit(c.file) && !reach(c.file).has(s.file)) return false;
      if (!semanticsOf(c.language).qualifiedImports) return true;
      return unit(s.file) === unit(c.file) ? bare.test(s.signature) : qualified.test(s.signature);
    });
    if (seeing.length === 0) continue;
    const shadowed = view.get(SYMBOLS).byName(name).some((d) =>
      d.file === s.file && _CLASS_KINDS.has(d.kind) && !ids.has(d.id)
    );
    if (shadowed) continue;
    add({
      file: s.file,
      line: s.line,
      kind: "type_use",
      symbol: s.id,
      target: seeing.length === 1 ? seeing[0]!.id : null,
      resolution: seeing.length === 1 ? "resolved" : "by_name",
      candidates: seeing.length,
      detail: s.signature.length > 120 ? s.signature.slice(0, 117) + "..." : s.signature,
    });
  }
}

/** Inheritance: the classes naming one of the classes as a base. */
function _inherits({ view, ids, name, add }: _Lookup): void {
  const bases = view.get(CLASS_BASES);
  for (const sub of bases.namingBase(name)) {
    for (const link of bases.parents(sub).links) {
      if (!ids.has(link.symbol.id)) continue;
      add({
        file: sub.file,
        line: sub.line,
        kind: "inherits",
        symbol: sub.id,
        target: link.symbol.id,
        resolution: link.resolution,
        candidates: 1,
        detail: link.relation,
      });
    }
  }
}

function _escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
