/**
 * Every place a rename of one definition must touch, each with how it was found and how sure that
 * is. The candidates are the whole-word occurrences of the name (`name_tokens.ts`, from each
 * file's syntax tree) in the files that write it; each is weighed against the index:
 *
 * - `certain`: the definition itself; an import that resolves to its file; a code use where the
 *   name is bound to it — its own unit (file, or a Go package's folder) for a top-level name, a
 *   file importing the name, `module.Name` in a file importing its module, `self.name` /
 *   `this.name` inside its class; or a line where the call graph resolved a call to it.
 * - `likely`: a code use the index cannot bind, of a name nothing else in the repo defines.
 * - `check`: a string literal holding the name alone (`__all__`, `getattr(obj, "name")`, a route
 *   table): renamed with it, to be confirmed by hand.
 * - `ambiguous`: a code use of a name other definitions share, not bound to this one (`obj.name`
 *   with an unknown receiver): left out of the edits, listed as what cannot be known statically.
 * - mentions in comments, other strings, docs and config files: listed for a look, never edited.
 */
import type { SymbolRecord } from "../parser/types.ts";
import type { StoredImport } from "../store/repo_index.ts";
import { semanticsOf } from "../parser/semantics/mod.ts";
import { FILES } from "./files.ts";
import { IMPORT_GRAPH } from "./import_graph.ts";
import { NAME_MENTIONS } from "./mentions.ts";
import { type NameToken, nameTokens } from "./name_tokens.ts";
import { identifierReferences } from "./references.ts";
import { SYMBOLS } from "./symbols.ts";
import { UNITS } from "./units.ts";
import type { RepoView } from "./view.ts";

/** What a site is. */
export type SiteRole =
  | "definition"
  | "reference"
  | "import"
  | "re_export"
  | "string"
  | "comment"
  | "docs"
  | "config";

/** How sure a site is (see the module doc). */
export type Certainty = "certain" | "likely" | "check" | "ambiguous" | "mention";

/** How a site was found. */
export type SiteSource = "definition" | "graph" | "scope" | "import" | "by_name" | "text";

/** One site: the name at `line`, columns `col` to `end_col` (1-based, end exclusive). */
export interface RenameSite {
  file: string;
  line: number;
  /** 1-based column in code points. */
  col: number;
  /** 1-based column just past the name, in code points. */
  endCol: number;
  role: SiteRole;
  foundBy: SiteSource;
  certainty: Certainty;
  /** The line, trimmed and cut at 160 characters. */
  text: string;
  /** The whole line as it is now (the plan's edits are checked against it). */
  lineText: string;
  /** 0-based UTF-16 offset of the name in the line. */
  start: number;
}

/** The sites of a definition's name. */
export interface RenameSites {
  symbol: SymbolRecord;
  /** Every site, by file, line and column. */
  sites: RenameSite[];
  /** Other definitions of the same name in the repo. */
  namesakes: SymbolRecord[];
  /** Files that write the name and were read. */
  filesScanned: number;
  /** Files that write the name and were not read (over `maxFiles`). */
  filesSkipped: string[];
}

/** Classes and the like whose members a `self.x` / `this.x` names. */
const _OWNER_KINDS = new Set(["class", "type", "interface", "struct", "trait", "enum", "object"]);

/** The definition renamed, and its class when it is a member of one. */
interface _Target {
  symbol: SymbolRecord;
  owner: SymbolRecord | null;
  /** Nothing else in the repo defines the name. */
  unique: boolean;
}
const _SELF = /^(?:self|this|cls|super|me|@)$/;
const _MAX_TEXT = 160;

/** What the weighing of one file's tokens needs. */
interface _FileScope {
  path: string;
  /** Same unit as the definition (its file, or a Go package's folder). */
  sameUnit: boolean;
  /** The names the definition's module is bound to there (`store`, `utils`, `mod`). */
  moduleNames: Set<string>;
  /** The names modules defining another symbol of the name are bound to there. */
  otherModuleNames: Set<string>;
  /** Lines where another definition of the name is defined in the file. */
  namesakeLines: Set<number>;
  /** It imports the name from the definition's file (bare uses are the definition). */
  importsName: boolean;
  /** It defines another top-level symbol of the name (bare uses are that one). */
  shadows: boolean;
  /** It defines another top-level symbol of the name, whatever its unit. */
  definesNamesake: boolean;
  /** Its language is of another family than the definition's (its code cannot use it). */
  otherFamily: boolean;
  /** Import lines naming the name: line → whether the import binds the definition. */
  importLines: Map<number, { binds: boolean; reexport: boolean }>;
  /** Where import specifiers stand (line → UTF-16 ranges): a module path, never the name. */
  specifiers: Map<number, [number, number][]>;
  /** Lines where the graph resolved a reference to the definition. */
  graphLines: Set<number>;
}

/**
 * The sites of renaming `symbol`: the files writing its name, its own first and those bound to
 * it, at most `maxFiles` of them read.
 */
export async function renameSites(
  view: RepoView,
  symbol: SymbolRecord,
  maxFiles: number,
): Promise<RenameSites> {
  const name = symbol.name;
  const namesakes = view.get(SYMBOLS).byName(name).filter((s) =>
    s.id !== symbol.id && s.kind !== "import"
  );
  const parent = symbol.parent === null ? undefined : view.get(SYMBOLS).byId(symbol.parent);
  const target: _Target = {
    symbol,
    owner: parent !== undefined && _OWNER_KINDS.has(parent.kind) ? parent : null,
    unique: namesakes.length === 0,
  };
  const graphLines = _graphLines(view, symbol);
  const { files, bound } = _filesToRead(view, symbol, graphLines);
  const read = files.slice(0, maxFiles);
  const importerLines = new Map(
    view.get(IMPORT_GRAPH).importers(symbol.file).map((i) => [i.file, i.line]),
  );
  const sites: RenameSite[] = [];
  for (const path of read) {
    const scope = _scopeOf(view, symbol, path, namesakes, graphLines, importerLines);
    // Files that can bind the name, or any file when the name is unique, are parsed: their sites
    // may be edited. The others' sites are ambiguous at best (listed): read line by line.
    const tokens = await nameTokens(view, path, name, target.unique || bound.has(path));
    const definitionAt = path === symbol.file ? _definitionToken(tokens, symbol) : -1;
    tokens.forEach((t, i) => {
      const site = _weigh(t, scope, target, i === definitionAt);
      if (site !== null) sites.push(_site(path, t, [...name].length, site));
    });
  }
  sites.sort((a, b) =>
    (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.col - b.col
  );
  return {
    symbol,
    sites,
    namesakes,
    filesScanned: read.length,
    filesSkipped: files.slice(maxFiles),
  };
}

/** The graph's references to the definition, as `file → lines`. */
function _graphLines(view: RepoView, symbol: SymbolRecord): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const r of identifierReferences(view, symbol.id)) {
    if (r.target !== symbol.id && r.target !== null) continue;
    if (r.resolution !== "resolved" && r.candidates > 1) continue;
    let lines = out.get(r.file);
    if (lines === undefined) out.set(r.file, lines = new Set());
    lines.add(r.line);
  }
  return out;
}

/** The files to read: its own, its unit's, its importers', the graph's, then the rest by path. */
function _filesToRead(
  view: RepoView,
  symbol: SymbolRecord,
  graphLines: Map<string, Set<number>>,
): { files: string[]; bound: Set<string> } {
  const mentions = view.get(NAME_MENTIONS);
  const writing = mentions.tracks(symbol.name)
    ? new Set(mentions.filesOf(symbol.name))
    : new Set(view.get(FILES).keys());
  const first = [
    symbol.file,
    ...view.get(UNITS).filesOf(symbol.file),
    ...view.get(IMPORT_GRAPH).importers(symbol.file).map((i) => i.file),
    ...graphLines.keys(),
  ];
  const bound = new Set(first.filter((f) => writing.has(f) || f === symbol.file));
  const ordered = new Set(bound);
  for (const f of [...writing].sort()) ordered.add(f);
  return { files: [...ordered], bound };
}

function _scopeOf(
  view: RepoView,
  symbol: SymbolRecord,
  path: string,
  namesakes: SymbolRecord[],
  graphLines: Map<string, Set<number>>,
  importerLines: Map<string, number>,
): _FileScope {
  const units = view.get(UNITS);
  const graph = view.get(IMPORT_GRAPH);
  const sameUnit = units.same(path, symbol.file);
  const reachLine = importerLines.get(path);
  const importLines = new Map<number, { binds: boolean; reexport: boolean }>();
  const moduleNames = new Set<string>();
  const otherModuleNames = new Set<string>();
  const elsewhere = namesakes.filter((n) => !units.same(n.file, symbol.file));
  let importsName = false;
  const lines = (view.index.fileText(path) ?? "").split("\n");
  const specifiers = new Map<number, [number, number][]>();
  for (const imp of graph.importsOf.get(path) ?? []) {
    const at = (lines[imp.line - 1] ?? "").indexOf(imp.specifier);
    if (at !== -1 && imp.specifier.includes(symbol.name)) {
      const ranges = specifiers.get(imp.line) ?? [];
      ranges.push([at, at + imp.specifier.length]);
      specifiers.set(imp.line, ranges);
    }
    const toUnit = imp.resolved !== null && units.same(imp.resolved, symbol.file);
    const binds = toUnit || reachLine === imp.line;
    const names = () => moduleBindings(imp, lines[imp.line - 1] ?? "");
    if (binds) { for (const n of names()) moduleNames.add(n); }
    else if (imp.resolved !== null && elsewhere.some((n) => units.same(n.file, imp.resolved!))) {
      for (const n of names()) otherModuleNames.add(n);
    }
    if (!imp.names.includes(symbol.name)) continue;
    const unbound = imp.resolved === null && namesakes.length === 0;
    importLines.set(imp.line, { binds: binds || unbound, reexport: _reexport(graph, imp) });
    if (binds) importsName = true;
  }
  const definesNamesake = namesakes.some((n) =>
    n.file === path && n.parent === null && n.kind !== "method"
  );
  const family = (f: string) => semanticsOf(units.languageOf(f)).family;
  return {
    path,
    sameUnit,
    moduleNames,
    otherModuleNames,
    namesakeLines: new Set(namesakes.filter((n) => n.file === path).map((n) => n.line)),
    importsName,
    shadows: !sameUnit && definesNamesake,
    definesNamesake,
    otherFamily: family(path) !== family(symbol.file),
    importLines,
    specifiers,
    graphLines: graphLines.get(path) ?? new Set(),
  };
}

function _reexport(graph: { isReexport(imp: StoredImport): boolean }, imp: StoredImport) {
  return graph.isReexport(imp);
}

/**
 * The names an import binds its module to, read from the specifier and the import's line: the
 * specifier's last segment (`store` of `example.com/m/store`, `utils` of `./utils.js`, `a.b` of
 * `import a.b`), a name imported that is the module itself (`from pkg import mod`), and an alias
 * (`import x as y`, `y = require(...)`, `import * as y`, `import y from`, Go's `y "path"`).
 */
export function moduleBindings(imp: StoredImport, line: string): string[] {
  const out = new Set<string>();
  const spec = imp.specifier.replace(/\.[cm]?[jt]sx?$|\.py$/, "");
  out.add(spec);
  out.add(spec.split(/[/\\:]/).pop() ?? spec);
  const stem = (imp.resolved ?? "").replace(/\.[^./]*$/, "").split("/").pop() ?? "";
  if (imp.names.includes(stem)) out.add(stem);
  const patterns = [
    /\bas\s+([\p{L}_$][\p{L}\p{N}_$]*)/gu,
    /([\p{L}_$][\p{L}\p{N}_$]*)\s*=\s*(?:await\s+)?(?:require|import)\s*\(/gu,
    /\bimport\s+([\p{L}_$][\p{L}\p{N}_$]*)\s*(?:,|from\b)/gu,
    /^\s*(?:import\s+)?([\p{L}_][\p{L}\p{N}_]*)\s+"[^"]+"/gu,
  ];
  for (const p of patterns) for (const m of line.matchAll(p)) out.add(m[1]!);
  return [...out].filter((n) => n !== "");
}

/** The index of the definition's own name token: the first code one within its span. */
function _definitionToken(tokens: NameToken[], symbol: SymbolRecord): number {
  return tokens.findIndex((t) =>
    t.context === "code" && t.line >= symbol.line && t.line <= symbol.end_line
  );
}

/** A token's role, source and certainty. */
function _weigh(
  t: NameToken,
  scope: _FileScope,
  target: _Target,
  isDefinition: boolean,
): { role: SiteRole; foundBy: SiteSource; certainty: Certainty } | null {
  if (t.context !== "code") {
    if (t.context === "string" && t.exactString) {
      return { role: "string", foundBy: "text", certainty: "check" };
    }
    return { role: t.context, foundBy: "text", certainty: "mention" };
  }
  if (isDefinition) return { role: "definition", foundBy: "definition", certainty: "certain" };
  // A module path of the same name (`from ..user_agent import UserAgent`): not this definition.
  if (scope.specifiers.get(t.line)?.some(([a, b]) => t.start >= a && t.start < b)) return null;
  if (scope.otherFamily) return { role: "reference", foundBy: "text", certainty: "mention" };
  const unique = target.unique;
  const imported = scope.importLines.get(t.line);
  if (imported !== undefined) {
    return {
      role: imported.reexport ? "re_export" : "import",
      foundBy: "import",
      certainty: imported.binds ? "certain" : unique ? "likely" : "ambiguous",
    };
  }
  // Another definition of the name, or a use through its module (`cart.New`): not this one's.
  if (scope.namesakeLines.has(t.line) || (t.member && scope.otherModuleNames.has(t.receiver))) {
    return null;
  }
  if (scope.graphLines.has(t.line)) {
    return { role: "reference", foundBy: "graph", certainty: "certain" };
  }
  if (_bound(t, scope, target)) {
    return { role: "reference", foundBy: "scope", certainty: "certain" };
  }
  // A bare name in a file defining another top-level symbol of it: that one.
  if (!t.member && scope.definesNamesake) return null;
  return { role: "reference", foundBy: "by_name", certainty: unique ? "likely" : "ambiguous" };
}

/** Whether the scope binds a code token to the definition. */
function _bound(t: NameToken, scope: _FileScope, target: _Target): boolean {
  const { symbol, owner } = target;
  const self = _SELF.test(t.receiver.split(".").pop() ?? "");
  if (owner !== null) {
    // A member: `self.name`, or a bare name (implicit `this`), inside its own class.
    return scope.path === owner.file && (self || !t.member) && t.line >= owner.line &&
      t.line <= owner.end_line;
  }
  if (!t.member) return (scope.sameUnit && !scope.shadows) || scope.importsName;
  if (self) return false;
  // `module.name` in a file importing its module; `exports.name` in its own file.
  if (scope.moduleNames.has(t.receiver)) return true;
  return scope.sameUnit && symbol.qualified_name.includes(".") &&
    symbol.qualified_name.endsWith(`${t.receiver.split(".").pop()}.${symbol.name}`);
}

function _site(
  path: string,
  t: NameToken,
  length: number,
  w: { role: SiteRole; foundBy: SiteSource; certainty: Certainty },
): RenameSite {
  const col = [...t.text.slice(0, t.start)].length + 1;
  return {
    file: path,
    line: t.line,
    col,
    endCol: col + length,
    role: w.role,
    foundBy: w.foundBy,
    certainty: w.certainty,
    text: t.text.trim().slice(0, _MAX_TEXT),
    lineText: t.text,
    start: t.start,
  };
}
