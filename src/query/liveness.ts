/**
 * What keeps a definition alive without a use the code graph can see, read from the language's
 * `LivenessRules` (`LanguageSemantics.liveness`, `src/parser/semantics/`): entry points and entry
 * files, runtime and framework hooks, test discovery, registering decorators, overrides of a base
 * class's method (a call through the base reaches them), names reached by reflection, and how far
 * a definition is exported (not at all, inside the repo only, or as the repo's API). The query
 * layer reads these rules and never a language's name.
 */
import {
  type LanguageSemantics,
  type LivenessRules,
  NO_LIVENESS_RULES,
} from "../parser/language_spec.ts";
import { semanticsOf } from "../parser/semantics/mod.ts";
import type { SymbolRecord } from "../parser/types.ts";
import { CLASS_BASES } from "./class_bases.ts";
import { FILES } from "./files.ts";
import { IMPORT_GRAPH } from "./import_graph.ts";
import { fileRole } from "./priors.ts";
import { SYMBOLS } from "./symbols.ts";
import { dirOf } from "./units.ts";
import { facet, type RepoView } from "./view.ts";

/** How far a definition is exported. */
export type ExportLevel = "none" | "internal" | "public";

/** What the rules say of one file. */
export interface FileLiveness {
  /** Why the file is an entry point (or a root by its role), or null. */
  entry: string | null;
  /** Whether its exports stay inside the repo (an internal path, a program). */
  internal: boolean;
  /** The names of its export list (`__all__`, `module.exports = {…}`), or null without one. */
  exportList: Set<string> | null;
  /** Whether its code reaches names by reflection (the language's `dynamicAccess`). */
  dynamic: boolean;
}

/** The liveness rules of a language (explicit defaults for one that declares none). */
export function livenessOf(language: string): LivenessRules {
  return semanticsOf(language).liveness ?? NO_LIVENESS_RULES;
}

/** Roles whose files are programs or material around the code: their definitions are roots. */
const _ROOT_ROLES = new Set(["example", "docs", "bench", "fixture", "vendor", "generated"]);

/** Read the rules of one file from its path and text. */
export function fileLiveness(path: string, language: string, text: string): FileLiveness {
  const rules = livenessOf(language);
  const role = fileRole(path);
  let entry: string | null = null;
  if (_ROOT_ROLES.has(role)) entry = `${role} file`;
  else if (rules.entryFiles?.test(path)) entry = "entry file";
  else if (rules.entryText?.test(text)) entry = "program";
  const internal = (rules.internalPath?.test(path) ?? false) ||
    (rules.entryText?.test(text) ?? false);
  let exportList: Set<string> | null = null;
  const listed = rules.exportList?.exec(text);
  if (listed !== null && listed !== undefined) {
    exportList = new Set(listed[1]!.match(/[\p{L}_$][\p{L}\p{N}_$]*/gu) ?? []);
  }
  return { entry, internal, exportList, dynamic: rules.dynamicAccess?.test(text) ?? false };
}

/**
 * Prefixes of names a file builds at run time and reaches by reflection: quoted prefixes ending
 * in `_`, alone or before a placeholder (`getattr(node, "as_" + vendor)`,
 * `"_get_current_%s" % period`, `` `on_${event}` ``), in a file that uses dynamic access.
 */
export function dynamicPrefixes(text: string): string[] {
  const out = new Set<string>();
  const quoted = /["'`]([A-Za-z_][A-Za-z0-9_]*_)(?:%[sdr]|\{[^}'"`]*\}|\$\{[^}]*\})?["'`]/g;
  for (const m of text.matchAll(quoted)) {
    if (/[A-Za-z0-9]/.test(m[1]!) && !m[1]!.endsWith("__")) out.add(m[1]!);
  }
  return [...out];
}

/**
 * The reflection prefixes of each language family: those of every file of the family that uses
 * dynamic access (one file builds the name, another defines it: Django's `as_<vendor>`).
 */
export const DYNAMIC_PREFIXES = facet("dynamic-prefixes", (view): Map<string, string[]> => {
  const byFamily = new Map<string, Set<string>>();
  for (const [path, entry] of view.get(FILES)) {
    const rules = livenessOf(entry.language);
    if (rules.dynamicAccess === undefined) continue;
    const text = view.index.fileText(path) ?? "";
    if (!rules.dynamicAccess.test(text)) continue;
    const family = semanticsOf(entry.language).family;
    let set = byFamily.get(family);
    if (set === undefined) byFamily.set(family, set = new Set());
    for (const p of dynamicPrefixes(text)) set.add(p);
  }
  return new Map([...byFamily].map(([f, set]) => [f, [...set].sort()]));
});

/**
 * Why the runtime, a framework or a test runner uses `s` though nothing in the code graph may:
 * an entry point, a hook method, a discovered test, a registering decorator, or null.
 */
export function conventionRoot(s: SymbolRecord, isTestFile: boolean): string | null {
  const rules = livenessOf(s.language);
  if (s.parent === null && rules.entryNames?.test(s.name)) return "entry point";
  if (s.kind === "method" && rules.hookMethods?.test(s.name)) return "runtime hook";
  if (isTestFile && rules.testNames?.test(s.name)) return "test";
  const decorator = s.decorators.find((d) => rules.registeringDecorators?.test(d));
  if (decorator !== undefined) return `decorator ${decorator.slice(0, 60)}`;
  return null;
}

/**
 * Whether the definition itself is exported by its language's rule (its unit's standing aside):
 * a member only when its owner is. `lineOf` gives a line of the file's text (1-based): the
 * export keyword may stand before what the signature holds (JavaScript's `export function`).
 */
export function exportedByRule(
  s: SymbolRecord,
  owner: SymbolRecord | undefined,
  file: FileLiveness,
  semantics: LanguageSemantics,
  lineOf: (line: number) => string,
): boolean {
  const rules = semantics.liveness ?? NO_LIVENESS_RULES;
  if (owner !== undefined) {
    if (owner.kind !== "class" && owner.kind !== "type") return false;
    if (!exportedByRule(owner, undefined, file, semantics, lineOf)) return false;
    return !_privateName(s, rules);
  }
  switch (rules.exports) {
    case "none":
      return true;
    case "capitalized":
      return /^\p{Lu}/u.test(s.name);
    case "public_name":
      if (file.exportList !== null) return file.exportList.has(s.name);
      return !s.name.startsWith("_");
    case "keyword": {
      if (rules.exportKeyword?.test(s.signature)) return true;
      if (rules.exportKeyword?.test(lineOf(s.line))) return true;
      if (file.exportList?.has(s.name)) return true;
      const objects = semantics.exportObjects ?? [];
      return objects.some((o) => s.qualified_name === `${o}.${s.name}`);
    }
  }
}

/** A member name the language keeps private (`_x`, `#x`, `private`, Go's lower case). */
function _privateName(s: SymbolRecord, rules: LivenessRules): boolean {
  if (s.name.startsWith("#") || /\bprivate\b/.test(s.signature)) return true;
  if (rules.exports === "capitalized") return !/^\p{Lu}/u.test(s.name);
  if (rules.exports === "public_name" || rules.exports === "keyword") {
    return s.name.startsWith("_") && !/^__\w+__$/.test(s.name);
  }
  return false;
}

/**
 * The files whose exports are a package's API where only package entries are
 * (`publicApi: "package_entries"`): the files each package manifest (`package.json`) names —
 * `main`, `module`, `browser`, `types`, `bin`, every path of `exports` — or its folder's
 * `index.*`, and the files those re-export (barrels followed).
 */
export const PACKAGE_ENTRIES = facet("package-entries", (view): Set<string> => {
  const files = view.get(FILES);
  const entries = new Set<string>();
  for (const path of files.keys()) {
    if (path !== "package.json" && !path.endsWith("/package.json")) continue;
    const dir = dirOf(path);
    for (const target of _manifestTargets(view.index.fileText(path) ?? "")) {
      const joined = _join(dir, target);
      for (const candidate of _withExtensions(joined)) {
        if (files.has(candidate)) entries.add(candidate);
      }
    }
    for (const candidate of _withExtensions(_join(dir, "index"))) {
      if (files.has(candidate)) entries.add(candidate);
    }
  }
  // What an entry re-exports is public too.
  const graph = view.get(IMPORT_GRAPH);
  const queue = [...entries];
  for (let i = 0; i < queue.length; i++) {
    for (const imp of graph.importsOf.get(queue[i]!) ?? []) {
      if (imp.resolved === null || entries.has(imp.resolved) || !graph.isReexport(imp)) continue;
      entries.add(imp.resolved);
      queue.push(imp.resolved);
    }
  }
  return entries;
});

function _manifestTargets(text: string): string[] {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return [];
  }
  if (manifest === null || typeof manifest !== "object") return [];
  const m = manifest as Record<string, unknown>;
  const out: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === "string") out.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value !== null && typeof value === "object") Object.values(value).forEach(collect);
  };
  for (const key of ["main", "module", "browser", "types", "typings", "bin", "exports"]) {
    collect(m[key]);
  }
  return out.filter((t) => t.startsWith("./") || /^[\w@]/.test(t));
}

function _join(dir: string, target: string): string {
  const parts = dir === "" ? [] : dir.split("/");
  for (const p of target.split("/")) {
    if (p === "" || p === ".") continue;
    if (p === "..") parts.pop();
    else parts.push(p);
  }
  return parts.join("/");
}

function _withExtensions(path: string): string[] {
  const exts = ["", ".js", ".cjs", ".mjs", ".ts", ".tsx", ".jsx", ".d.ts"];
  const out = exts.map((e) => path + e);
  // A built entry (`dist/index.js`) stands for its source (`src/index.ts`) only by name: keep
  // the path as written plus its TypeScript twin.
  out.push(path.replace(/\.[cm]?js$/, ".ts"));
  for (const e of ["/index.js", "/index.ts"]) out.push(path + e);
  return out;
}

/**
 * A method that overrides a method of a base class in the repo, or may override one of a base
 * outside it (a framework's): a call through the base reaches it. The reason, or null.
 */
export function overrideOf(view: RepoView, s: SymbolRecord): string | null {
  if (s.kind !== "method" || s.parent === null) return null;
  const owner = view.get(SYMBOLS).byId(s.parent);
  if (owner === undefined || (owner.kind !== "class" && owner.kind !== "type")) return null;
  const bases = view.get(CLASS_BASES);
  for (const base of bases.ancestors(owner)) {
    const same = view.get(SYMBOLS).byName(s.name).find((m) => m.parent === base.symbol.id);
    if (same !== undefined) return `overrides ${base.symbol.qualified_name}.${s.name}`;
  }
  const external = bases.externalAncestors(owner).find((b) => !_TRIVIAL_BASES.has(b.name));
  return external === undefined ? null : `may override a method of ${external.name}`;
}

/** Bases that hand no framework method down (their methods are the language's own). */
const _TRIVIAL_BASES = new Set(["object", "Object", "Exception", "BaseException", "Error"]);
