/**
 * What a rename of one definition to a new name would collide with, and what about it cannot be
 * known statically. Collisions, by scope the new name enters: `same_scope` (a sibling of that
 * name: the same file or Go package for a top-level name, the same class for a member, or a name
 * the file imports), `class_hierarchy` (a base or subclass member of that name: the renamed
 * method would override it or be shadowed by it), `importer_scope` (a file importing the name
 * defines or imports the new one), `shadowing` (a scope where the name is renamed already writes
 * the new name in code: a local, a parameter, a builtin). Unknowns: code uses of a shared name
 * the index cannot bind (`ambiguous`), code outside the repo (`public_api`), names reached by a
 * computed string (`reflection`), overrides (`override`), strings holding the name (`string`),
 * files not read (`unscanned`).
 */
import type { SymbolRecord } from "../parser/types.ts";
import { semanticsOf } from "../parser/semantics/mod.ts";
import { CLASS_BASES } from "./class_bases.ts";
import { IMPORT_GRAPH } from "./import_graph.ts";
import { DYNAMIC_PREFIXES, exportedByRule, fileLiveness } from "./liveness.ts";
import { nameTokens } from "./name_tokens.ts";
import type { RenameSite, RenameSites } from "./rename_sites.ts";
import { SYMBOLS } from "./symbols.ts";
import { UNITS } from "./units.ts";
import type { RepoView } from "./view.ts";

/** The scope a collision is in. */
export type CollisionScope = "same_scope" | "class_hierarchy" | "importer_scope" | "shadowing";

/** One collision. */
export interface Collision {
  scope: CollisionScope;
  file: string;
  line: number;
  /** The definition already named so (an id), or the line that writes the name. */
  existing: string;
  detail: string;
}

/** What cannot be known statically. */
export type UnknownKind =
  | "ambiguous"
  | "public_api"
  | "reflection"
  | "override"
  | "string"
  | "unscanned";

/** One unknown. */
export interface Unknown {
  kind: UnknownKind;
  file: string | null;
  line: number | null;
  detail: string;
}

/** Why `name` cannot name a definition of `language`, or null when it can. */
export function invalidName(language: string, name: string): string | null {
  if (!/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(name)) {
    return `"${name}" is not an identifier (letters, digits, _ and $, not starting with a digit)`;
  }
  return semanticsOf(language).reservedWords?.test(name)
    ? `"${name}" is a reserved word of ${language}`
    : null;
}

/** Most files listed in one unknown's detail. */
const _LISTED = 5;

/** The collisions of renaming the sites' definition to `newName`. */
export async function renameCollisions(
  view: RepoView,
  found: RenameSites,
  newName: string,
): Promise<Collision[]> {
  const { symbol } = found;
  const symbols = view.get(SYMBOLS);
  const units = view.get(UNITS);
  const out: Collision[] = [];
  const named = symbols.byName(newName).filter((s) => s.kind !== "import");
  for (const s of named) {
    const sibling = s.parent === symbol.parent &&
      (s.file === symbol.file || (symbol.parent === null && units.same(s.file, symbol.file)));
    if (sibling) {
      out.push(_defined("same_scope", s, `${s.kind} ${s.qualified_name} already has the name`));
    }
  }
  out.push(..._hierarchy(view, symbol, newName));
  const graph = view.get(IMPORT_GRAPH);
  // Files where the bare name is renamed gain the new one: it must be free there.
  const bareFiles = new Set(
    found.sites.filter((s) => _editable(s) && s.role !== "string" && !_isMember(s))
      .map((s) => s.file),
  );
  for (const file of [...bareFiles].sort()) {
    for (const imp of graph.importsOf.get(file) ?? []) {
      if (!imp.names.includes(newName)) continue;
      const scope = file === symbol.file ? "same_scope" : "importer_scope";
      out.push({
        scope,
        file,
        line: imp.line,
        existing: imp.specifier,
        detail: `it imports ${newName} from ${imp.resolved ?? imp.specifier}`,
      });
    }
    if (file !== symbol.file && !units.same(file, symbol.file)) {
      for (const s of named.filter((n) => n.file === file && n.parent === null)) {
        out.push(_defined("importer_scope", s, `it defines ${s.kind} ${s.name}`));
      }
    }
    for (const t of await nameTokens(view, file, newName)) {
      if (t.context !== "code" || t.member) continue;
      if (named.some((n) => n.file === file && n.line <= t.line && t.line <= n.end_line)) continue;
      if (out.some((c) => c.file === file && c.line === t.line)) continue;
      out.push({
        scope: "shadowing",
        file,
        line: t.line,
        existing: t.text.trim().slice(0, 160),
        detail: `${newName} is already written in code here (a local, parameter or builtin)`,
      });
    }
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

/** Whether a site is edited by the plan. */
function _editable(s: RenameSite): boolean {
  return s.certainty === "certain" || s.certainty === "likely" || s.certainty === "check";
}

function _isMember(s: RenameSite): boolean {
  const head = s.lineText.slice(0, s.start);
  return /(?:\?\.|\.|->|::)\s*$/.test(head);
}

function _defined(scope: CollisionScope, s: SymbolRecord, detail: string): Collision {
  return { scope, file: s.file, line: s.line, existing: s.id, detail };
}

/** Members of that name up and down the class hierarchy of a member. */
function _hierarchy(view: RepoView, symbol: SymbolRecord, newName: string): Collision[] {
  const owner = symbol.parent === null ? undefined : view.get(SYMBOLS).byId(symbol.parent);
  if (owner === undefined) return [];
  const bases = view.get(CLASS_BASES);
  const related = [...bases.ancestors(owner), ...bases.descendants(owner)].map((l) => l.symbol);
  const out: Collision[] = [];
  for (const cls of related) {
    for (const m of view.get(SYMBOLS).ofFile(cls.file)) {
      if (m.parent !== cls.id || m.name !== newName) continue;
      out.push(
        _defined(
          "class_hierarchy",
          m,
          `${cls.name} has a member ${newName}: it would override or be shadowed`,
        ),
      );
    }
  }
  return out;
}

/** What about the rename cannot be known statically. */
export function renameUnknowns(view: RepoView, found: RenameSites): Unknown[] {
  const { symbol } = found;
  const out: Unknown[] = [];
  const ambiguous = found.sites.filter((s) => s.certainty === "ambiguous");
  if (ambiguous.length > 0) {
    const files = [...new Set(ambiguous.map((s) => s.file))];
    out.push({
      kind: "ambiguous",
      file: null,
      line: null,
      detail:
        `${ambiguous.length} code uses of ${symbol.name} in ${files.length} files may mean any of ${
          found.namesakes.length + 1
        } definitions of the name (not in the edits; listed as sites): ${
          files.slice(0, _LISTED).join(", ")
        }`,
    });
  }
  const strings = found.sites.filter((s) => s.certainty === "check");
  if (strings.length > 0) {
    out.push({
      kind: "string",
      file: null,
      line: null,
      detail:
        `${strings.length} strings hold the name alone (export lists, getattr, route tables): renamed by the plan, to confirm by hand`,
    });
  }
  out.push(..._publicApi(view, symbol), ..._reflection(view, symbol), ..._overrides(view, symbol));
  if (found.filesSkipped.length > 0) {
    out.push({
      kind: "unscanned",
      file: null,
      line: null,
      detail:
        `${found.filesSkipped.length} more files write the name and were not read (raise max_files): ${
          found.filesSkipped.slice(0, _LISTED).join(", ")
        }`,
    });
  }
  return out;
}

/** Code outside the repo may use an exported definition. */
function _publicApi(view: RepoView, symbol: SymbolRecord): Unknown[] {
  const text = view.index.fileText(symbol.file) ?? "";
  const file = fileLiveness(symbol.file, symbol.language, text);
  if (file.internal) return [];
  const owner = symbol.parent === null ? undefined : view.get(SYMBOLS).byId(symbol.parent);
  const lines = text.split("\n");
  const exported = exportedByRule(
    symbol,
    owner,
    file,
    semanticsOf(symbol.language),
    (l) => lines[l - 1] ?? "",
  );
  if (!exported) return [];
  return [{
    kind: "public_api",
    file: symbol.file,
    line: symbol.line,
    detail: "exported by its language's rule: code outside this repo may use the old name",
  }];
}

/** Names reached by a computed string whose prefix the name starts with. */
function _reflection(view: RepoView, symbol: SymbolRecord): Unknown[] {
  const family = semanticsOf(symbol.language).family;
  const prefixes = view.get(DYNAMIC_PREFIXES).get(family) ?? [];
  return prefixes.filter((p) => symbol.name.startsWith(p) && symbol.name !== p).map((p) => ({
    kind: "reflection" as const,
    file: null,
    line: null,
    detail:
      `code of the repo builds names starting with "${p}" at run time (getattr, format strings): ${symbol.name} may be reached so`,
  }));
}

/** A method overriding a base's, or overridden by a subclass's: dispatch joins them by name. */
function _overrides(view: RepoView, symbol: SymbolRecord): Unknown[] {
  const owner = symbol.parent === null ? undefined : view.get(SYMBOLS).byId(symbol.parent);
  if (owner === undefined || symbol.kind !== "method") return [];
  const bases = view.get(CLASS_BASES);
  const out: Unknown[] = [];
  const walk = [
    ...bases.ancestors(owner).map((l) => ({ cls: l.symbol, how: "overrides" })),
    ...bases.descendants(owner).map((l) => ({ cls: l.symbol, how: "is overridden by" })),
  ];
  for (const { cls, how } of walk) {
    const m = view.get(SYMBOLS).ofFile(cls.file).find((s) =>
      s.parent === cls.id && s.name === symbol.name
    );
    if (m === undefined) continue;
    out.push({
      kind: "override",
      file: m.file,
      line: m.line,
      detail: `${symbol.qualified_name} ${how} ${m.qualified_name}: rename both or neither`,
    });
  }
  const external = bases.externalAncestors(owner);
  if (external.length > 0 && out.length === 0) {
    out.push({
      kind: "override",
      file: owner.file,
      line: owner.line,
      detail: `${owner.name} extends ${
        external.map((e) => e.name).join(", ")
      } (outside the repo): ${symbol.name} may override one of its methods`,
    });
  }
  return out;
}
