/**
 * Dead code: definitions and files nothing reaches — no call, import, subclass, type use, string
 * or comment names them outside their own definition, they are no entry point, runtime or
 * framework hook, discovered test, override, reflection target or (at lower confidence) exported
 * API (the conventions are the language's `LivenessRules`, read by `liveness.ts`).
 *
 * Each finding has a confidence and a reason:
 *
 * | reason                    | confidence | evidence                                                  |
 * |---------------------------|------------|-----------------------------------------------------------|
 * | `unreferenced`            | 1.0        | not exported; its name is written nowhere else            |
 * | `unreferenced_export`     | 0.9        | exported, but only inside the repo (internal path, a program, a module no package entry re-exports); written nowhere else |
 * | `used_only_by_dead_code`  | 0.7        | every reference to it comes from definitions found dead at ≥ 0.9 |
 * | `unreferenced_public`     | 0.5        | the repo's API (a library's users may call it); written nowhere else in the repo |
 * | `mentioned_only`          | 0.3        | its name is written elsewhere (a comment, a string, a same-named member of something else) but no call, import or base resolves to it |
 *
 * The two lowest tiers need the call graph and are computed only when asked for (`withGraph`).
 */
import type { SymbolRecord } from "../parser/types.ts";
import { semanticsOf } from "../parser/semantics/mod.ts";
import { CALL_GRAPH } from "./call_graph.ts";
import { CLASS_BASES } from "./class_bases.ts";
import { FILES } from "./files.ts";
import { IMPORT_GRAPH } from "./import_graph.ts";
import type { LanguageSemantics } from "../parser/language_spec.ts";
import {
  conventionRoot,
  DYNAMIC_PREFIXES,
  exportedByRule,
  type ExportLevel,
  type FileLiveness,
  fileLiveness,
  overrideOf,
  PACKAGE_ENTRIES,
} from "./liveness.ts";
import { countWord, definitionSpan, fileStem, NAME_MENTIONS } from "./mentions.ts";
import { fileRole } from "./priors.ts";
import { SYMBOLS } from "./symbols.ts";
import { facet, type RepoView } from "./view.ts";

/** Why a definition is found dead (see the module doc). */
export type DeadReason =
  | "unreferenced"
  | "unreferenced_export"
  | "used_only_by_dead_code"
  | "unreferenced_public"
  | "mentioned_only";

/** The confidence of each reason. */
export const DEAD_CONFIDENCE: Readonly<Record<DeadReason, number>> = {
  unreferenced: 1,
  unreferenced_export: 0.9,
  used_only_by_dead_code: 0.7,
  unreferenced_public: 0.5,
  mentioned_only: 0.3,
};

/**
 * The evidence behind a finding, each a fact checked: `no_mentions` (its name is written nowhere
 * outside its definition), `no_callers` (no call site resolves to it), `callers_dead` (every
 * caller is dead), `not_exported` / `exported_in_repo` / `public_api` (how far it is exported),
 * `file_not_imported` (nothing imports its file), `not_a_convention_root` (no entry point, hook,
 * test, registering decorator or override by the language's rules), `no_reflection` (its file
 * reaches no name by a computed string).
 */
export type DeadEvidence =
  | "no_mentions"
  | "no_callers"
  | "callers_dead"
  | "not_exported"
  | "exported_in_repo"
  | "public_api"
  | "file_not_imported"
  | "not_a_convention_root"
  | "no_reflection";

/** One dead definition. */
export interface DeadSymbol {
  symbol: SymbolRecord;
  reason: DeadReason;
  confidence: number;
  exported: ExportLevel;
  evidence: DeadEvidence[];
  /** Whole-word occurrences of its name outside its own definition. */
  mentions: number;
  /** Call sites that may call it (resolved or by name). */
  callers: number;
  /** Whether its file is a test file (listed only with tests included). */
  isTest: boolean;
}

/** Why a file is found dead. */
export type DeadFileReason =
  | "no_importer_all_dead"
  | "no_importer"
  | "no_importer_public"
  | "no_importer_name_mentioned"
  | "all_dead";

/** The confidence of each file reason. */
export const DEAD_FILE_CONFIDENCE: Readonly<Record<DeadFileReason, number>> = {
  no_importer_all_dead: 1,
  all_dead: 1,
  no_importer: 0.7,
  no_importer_public: 0.5,
  no_importer_name_mentioned: 0.4,
};

/** One dead file. */
export interface DeadFile {
  file: string;
  confidence: number;
  reason: DeadFileReason;
  /** Files importing it (always 0: a file with an importer is live). */
  importers: number;
  symbols: number;
  deadSymbols: number;
}

/** Why candidates were kept alive, by kind of evidence (counts). */
export type LiveCounts = Record<string, number>;

/** The dead-code analysis of one index state. */
export interface DeadCode {
  symbols: DeadSymbol[];
  files: DeadFile[];
  /** Definitions weighed (functions, methods, classes, types of source files). */
  candidates: number;
  /** Of those, functions and methods. */
  functions: number;
  live: LiveCounts;
  /** Files that are entry points or roots by their role (their definitions are live). */
  roots: number;
  /** Languages of source files not weighed: they declare no liveness rules. */
  unweighedLanguages: string[];
}

/** Kinds of definitions weighed. */
const _KINDS = new Set(["function", "method", "class", "type"]);

/** Most candidates the call-graph tiers look at (those with the fewest mentions first). */
export const MAX_GRAPH_CANDIDATES = 4000;
/** Candidates with more mentions than this are taken as used by the call-graph tiers. */
const _MAX_MENTIONS_CHECKED = 12;

/** What the per-file pass keeps for the graph tiers: mentioned candidates, by mentions. */
interface _Mentioned {
  symbol: SymbolRecord;
  exported: ExportLevel;
  mentions: number;
  isTest: boolean;
  fileImported: boolean;
  dynamic: boolean;
}

type _Analysis = DeadCode & { mentioned: _Mentioned[] };

/** What the analysis weighs and what it takes as roots besides the language's rules. */
interface _Scope {
  includeTests: boolean;
  /** Files the caller declares entry points (`entry_point_patterns`). */
  isEntry: (path: string) => boolean;
}

function _analyse(view: RepoView, scope: _Scope): _Analysis {
  const symbols = view.get(SYMBOLS);
  const out: _Analysis = {
    symbols: [],
    files: [],
    candidates: 0,
    functions: 0,
    live: {},
    roots: 0,
    unweighedLanguages: [],
    mentioned: [],
  };
  const unweighed = new Set<string>();
  for (const [path, entry] of view.get(FILES)) {
    const role = fileRole(path);
    const isTest = role === "test";
    if (role !== "source" && !(isTest && scope.includeTests)) continue;
    const semantics = semanticsOf(entry.language);
    if (semantics.liveness === undefined) {
      if (symbols.ofFile(path).some((s) => _KINDS.has(s.kind))) unweighed.add(entry.language);
      continue;
    }
    if (semantics.liveness.declarationFiles?.test(path)) continue;
    const text = view.index.fileText(path) ?? "";
    const fl = fileLiveness(path, entry.language, text);
    const defs = symbols.ofFile(path).filter((s) => _KINDS.has(s.kind));
    const entryWhy = scope.isEntry(path) ? "declared entry" : _entryOf(view, path, fl);
    if (entryWhy !== null) {
      out.roots++;
      if (defs.length > 0) _count(out.live, entryWhy.replace(/ /g, "_"));
      continue;
    }
    const dead = _weighFile(view, { path, text, fl, semantics, defs, isTest }, out);
    const file = _deadFile(view, path, text, defs, dead);
    if (file !== null) out.files.push(file);
  }
  out.unweighedLanguages = [...unweighed].sort();
  return out;
}

/**
 * Why a file is a root, or null. A file that is an entry by its name alone (`wsgi.py`) but that
 * the repo imports is a module like any other (werkzeug's `wsgi.py`, imported by its wrappers):
 * the server that starts a project's `wsgi.py` loads it by a dotted path, not by an import.
 */
function _entryOf(view: RepoView, path: string, fl: FileLiveness): string | null {
  if (fl.entry !== "entry file") return fl.entry;
  return view.get(IMPORT_GRAPH).importers(path, 1).length > 0 ? null : fl.entry;
}

function _count(live: LiveCounts, why: string): void {
  const key = why.split(" ")[0]!;
  live[key] = (live[key] ?? 0) + 1;
}

/** One file's part of the analysis. */
interface _FileAtHand {
  path: string;
  text: string;
  fl: FileLiveness;
  semantics: LanguageSemantics;
  defs: SymbolRecord[];
  isTest: boolean;
}

/** Weigh the definitions of one file; the dead ones (≥ 0.9) of it, by id. */
function _weighFile(view: RepoView, f: _FileAtHand, out: _Analysis): Set<string> {
  const mentions = view.get(NAME_MENTIONS);
  const symbols = view.get(SYMBOLS);
  const publicUnit = !f.fl.internal &&
    (f.semantics.publicApi !== "package_entries" || view.get(PACKAGE_ENTRIES).has(f.path));
  const fileImported = view.get(IMPORT_GRAPH).importers(f.path, 1).length > 0;
  const prefixes = view.get(DYNAMIC_PREFIXES).get(f.semantics.family) ?? [];
  const lines = f.text.split("\n");
  const lineOf = (line: number) => lines[line - 1] ?? "";
  const dead = new Set<string>();
  for (const s of f.defs) {
    out.candidates++;
    if (s.kind === "function" || s.kind === "method") out.functions++;
    const root = conventionRoot(s, f.isTest) ??
      (prefixes.some((p) => s.name.startsWith(p)) ? "reflection" : null);
    if (root !== null) {
      _count(out.live, root);
      continue;
    }
    // The file's own export list (`__all__`, `module.exports = {…}`) writes an exported name once.
    const listed = f.fl.exportList?.has(s.name) === true ? 1 : 0;
    const outside = mentions.outside(s.name, _ownOccurrences(lines, s) + listed);
    const owner = s.parent === null ? undefined : symbols.byId(s.parent);
    let exported: ExportLevel = "none";
    if (exportedByRule(s, owner, f.fl, f.semantics, lineOf)) {
      exported = publicUnit ? "public" : "internal";
    }
    if (outside > 0) {
      _count(out.live, "mentioned");
      out.mentioned.push({
        symbol: s,
        exported,
        mentions: outside,
        isTest: f.isTest,
        fileImported,
        dynamic: f.fl.dynamic,
      });
      continue;
    }
    if (overrideOf(view, s) !== null) {
      _count(out.live, "override");
      continue;
    }
    const reason: DeadReason = exported === "none"
      ? "unreferenced"
      : exported === "internal"
      ? "unreferenced_export"
      : "unreferenced_public";
    const evidence = _evidence(["no_mentions", "no_callers"], exported, fileImported, f.fl.dynamic);
    const confidence = DEAD_CONFIDENCE[reason];
    out.symbols.push({
      symbol: s,
      reason,
      confidence,
      exported,
      evidence,
      mentions: 0,
      callers: 0,
      isTest: f.isTest,
    });
    if (confidence >= 0.9) dead.add(s.id);
  }
  return dead;
}

/** The evidence list of a finding: what was checked, in a stable order. */
function _evidence(
  first: DeadEvidence[],
  exported: ExportLevel,
  fileImported: boolean,
  dynamic: boolean,
): DeadEvidence[] {
  const out = [...first];
  out.push(
    exported === "none"
      ? "not_exported"
      : exported === "internal"
      ? "exported_in_repo"
      : "public_api",
  );
  if (!fileImported) out.push("file_not_imported");
  out.push("not_a_convention_root");
  if (!dynamic) out.push("no_reflection");
  return out;
}

/** Occurrences of a definition's name inside its own span and doc comment. */
function _ownOccurrences(lines: readonly string[], s: SymbolRecord): number {
  const [start, end] = definitionSpan(lines, s);
  return countWord(lines.slice(start - 1, end).join("\n"), s.name);
}

/**
 * A file nothing imports and the language's rules do not start: dead when every definition of it
 * is (for a language importing folders, the only evidence), less sure when its name is written
 * elsewhere (a module loaded by a dotted path in a string) or it offers public API. Files
 * without definitions and re-export files (`__init__.py`, `mod.rs`) are never reported.
 */
function _deadFile(
  view: RepoView,
  path: string,
  text: string,
  defs: readonly SymbolRecord[],
  dead: ReadonlySet<string>,
): DeadFile | null {
  if (defs.length === 0) return null;
  const language = view.get(FILES).get(path)?.language ?? "";
  const semantics = semanticsOf(language);
  if (semantics.reexportFile?.test(path)) return null;
  const base = { file: path, importers: 0, symbols: defs.length, deadSymbols: dead.size };
  const made = (reason: DeadFileReason): DeadFile => ({
    ...base,
    reason,
    confidence: DEAD_FILE_CONFIDENCE[reason],
  });
  if (semantics.unit === "package_folder") {
    return dead.size === defs.length ? made("all_dead") : null;
  }
  if (view.get(IMPORT_GRAPH).importers(path, 1).length > 0) return null;
  const stem = fileStem(path);
  const mentions = view.get(NAME_MENTIONS);
  if (stem !== "index" && mentions.outside(stem, countWord(text, stem)) > 0) {
    return made("no_importer_name_mentioned");
  }
  if (dead.size === defs.length) return made("no_importer_all_dead");
  const symbols = view.get(SYMBOLS);
  const fl = fileLiveness(path, language, text);
  const lines = text.split("\n");
  const lineOf = (line: number) => lines[line - 1] ?? "";
  const ownerOf = (s: SymbolRecord) => s.parent === null ? undefined : symbols.byId(s.parent);
  const offersApi = !fl.internal &&
    defs.some((s) => exportedByRule(s, ownerOf(s), fl, semantics, lineOf));
  return made(offersApi ? "no_importer_public" : "no_importer");
}

/** The analysis without caller-declared entries: test files not weighed (they are roots). */
const _DEAD = facet("dead-code", (v) => _analyse(v, { includeTests: false, isEntry: _never }));
/** The analysis weighing test files' definitions too. */
const _DEAD_WITH_TESTS = facet(
  "dead-code-with-tests",
  (v) => _analyse(v, { includeTests: true, isEntry: _never }),
);

function _never(): boolean {
  return false;
}

/** The call-graph tiers of an analysis (see the module doc). */
function _graphTiers(view: RepoView, base: _Analysis): DeadSymbol[] {
  const deadIds = new Set(base.symbols.filter((d) => d.confidence >= 0.9).map((d) => d.symbol.id));
  const calls = view.get(CALL_GRAPH);
  const bases = view.get(CLASS_BASES);
  const out: DeadSymbol[] = [];
  const checked = base.mentioned.filter((m) => m.mentions <= _MAX_MENTIONS_CHECKED)
    .sort((a, b) => a.mentions - b.mentions).slice(0, MAX_GRAPH_CANDIDATES);
  for (const m of checked) {
    if (overrideOf(view, m.symbol) !== null) continue;
    const callers = calls.callers(m.symbol);
    const users = callers.map((c) => c.symbol?.id ?? null);
    if (m.symbol.kind === "class" || m.symbol.kind === "type") {
      for (const sub of bases.namingBase(m.symbol.name)) {
        if (bases.parents(sub).links.some((l) => l.symbol.id === m.symbol.id)) users.push(sub.id);
      }
    }
    let reason: DeadReason | null = null;
    if (users.length === 0) reason = "mentioned_only";
    else if (users.length >= m.mentions && users.every((u) => u !== null && deadIds.has(u))) {
      reason = "used_only_by_dead_code";
    }
    if (reason === null) continue;
    const first: DeadEvidence[] = reason === "mentioned_only" ? ["no_callers"] : ["callers_dead"];
    out.push({
      symbol: m.symbol,
      reason,
      confidence: DEAD_CONFIDENCE[reason],
      exported: m.exported,
      evidence: _evidence(first, m.exported, m.fileImported, m.dynamic),
      mentions: m.mentions,
      callers: callers.length,
      isTest: m.isTest,
    });
  }
  return out;
}

const _GRAPH_TIERS = facet("dead-code-graph", (v) => _graphTiers(v, v.get(_DEAD)));
const _GRAPH_TIERS_WITH_TESTS = facet(
  "dead-code-graph-with-tests",
  (v) => _graphTiers(v, v.get(_DEAD_WITH_TESTS)),
);

/** Options of {@linkcode deadCode}. */
export interface DeadCodeOptions {
  /** Weigh the definitions of test files too (they are roots otherwise). */
  includeTests: boolean;
  /** Add the call-graph tiers (`used_only_by_dead_code`, `mentioned_only`). */
  withGraph: boolean;
  /** Files the caller declares entry points (globs, `entry_point_patterns`); cached when none. */
  isEntry?: (path: string) => boolean;
}

/** The dead code of a view: findings by confidence (highest first), then path and line. */
export function deadCode(view: RepoView, options: DeadCodeOptions): DeadCode {
  let base: _Analysis;
  let extra: DeadSymbol[] = [];
  if (options.isEntry === undefined) {
    base = view.get(options.includeTests ? _DEAD_WITH_TESTS : _DEAD);
    if (options.withGraph) {
      extra = view.get(options.includeTests ? _GRAPH_TIERS_WITH_TESTS : _GRAPH_TIERS);
    }
  } else {
    base = _analyse(view, { includeTests: options.includeTests, isEntry: options.isEntry });
    if (options.withGraph) extra = _graphTiers(view, base);
  }
  const symbols = [...base.symbols, ...extra].sort((a, b) =>
    b.confidence - a.confidence || _byText(a.symbol.file, b.symbol.file) ||
    a.symbol.line - b.symbol.line
  );
  const files = [...base.files].sort((a, b) =>
    b.confidence - a.confidence || _byText(a.file, b.file)
  );
  const { candidates, functions, live, roots, unweighedLanguages } = base;
  return { symbols, files, candidates, functions, live, roots, unweighedLanguages };
}

function _byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
