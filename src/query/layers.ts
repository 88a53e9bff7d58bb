/**
 * Layer rules and the imports that break them (`get_layer_violations`). A layer is a named set
 * of paths (folder prefixes, files, or fnmatch globs); a rule says which layers it may not
 * import. Rules come from the caller, from the repo's `.jcodemunch.jsonc` (key
 * `architecture.layers`, read from the index: the file is indexed like any other, so an edit is
 * seen as soon as it is re-indexed), or — when neither declares any — are inferred from the
 * module map (tectonic.ts): between two plates the imports mostly go one way, and the imports
 * going the other way are the violations.
 */
import { ToolError } from "../errors.ts";
import { globMatcher } from "./glob.ts";
import { byCodePoint, IMPORT_GRAPH } from "./import_graph.ts";
import { TECTONIC } from "./tectonic.ts";
import { facet, type RepoView } from "./view.ts";

/** The repo config file the reference reads layers from. */
export const LAYER_CONFIG_FILE = ".jcodemunch.jsonc";

/** One declared layer. */
export interface LayerRule {
  name: string;
  /** Folder prefixes, files, or fnmatch globs (with `*`, `?` or `[`). */
  paths: string[];
  /** Layers whose files this layer's files must not import. */
  may_not_import: string[];
}

/** One import that breaks a rule. */
export interface LayerViolation {
  file: string;
  line: number;
  file_layer: string;
  import_target: string;
  target_layer: string;
  rule_violated: string;
}

/** Where the rules came from. */
export type LayerSource = "argument" | "config" | "inferred" | "none";

function _strings(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    throw new ToolError("invalid_argument", `${where} must be a list of strings`);
  }
  return value;
}

/**
 * Layer rules checked: each `{name, paths, may_not_import}` with a non-empty unique name and
 * string lists, a `may_not_import` naming declared layers only. Throws `invalid_argument`
 * naming `where` and the entry.
 */
export function checkLayerRules(value: unknown, where: string): LayerRule[] {
  if (!Array.isArray(value)) {
    throw new ToolError("invalid_argument", `${where} must be a list of layers`);
  }
  const rules = value.map((entry, i): LayerRule => {
    const at = `${where}[${i}]`;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      throw new ToolError(
        "invalid_argument",
        `${at} must be an object {name, paths, may_not_import}`,
      );
    }
    const e = entry as Record<string, unknown>;
    if (typeof e.name !== "string" || e.name === "") {
      throw new ToolError("invalid_argument", `${at}.name must be a non-empty string`);
    }
    return {
      name: e.name,
      paths: _strings(e.paths, `${at}.paths`),
      may_not_import: _strings(e.may_not_import, `${at}.may_not_import`),
    };
  });
  const names = new Set<string>();
  for (const r of rules) {
    if (names.has(r.name)) {
      throw new ToolError("invalid_argument", `${where}: two layers are named "${r.name}"`);
    }
    names.add(r.name);
  }
  for (const r of rules) {
    const unknown = r.may_not_import.filter((n) => !names.has(n));
    if (unknown.length > 0) {
      throw new ToolError(
        "invalid_argument",
        `${where}: layer "${r.name}" may_not_import undeclared layers: ${unknown.join(", ")}`,
      );
    }
  }
  return rules;
}

/**
 * The layers `.jcodemunch.jsonc` declares (`architecture.layers`), or null when the repo has no
 * such file or it declares none (`stripJsonc` turns JSON with comments into JSON: the indexer's
 * reader, handed in). A file that is not JSON with comments, or whose layers are
 * malformed, is `invalid_argument` naming it.
 */
export function configuredLayers(
  view: RepoView,
  stripJsonc: (text: string) => string,
): LayerRule[] | null {
  const text = view.index.fileText(LAYER_CONFIG_FILE);
  if (text === undefined || text.trim() === "") return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripJsonc(text.replace(/^\uFEFF/, "")));
  } catch (e) {
    throw new ToolError(
      "invalid_argument",
      `${LAYER_CONFIG_FILE} is not valid JSON with comments: ${
        (e as Error).message
      }; fix it and re-index`,
    );
  }
  const architecture = (parsed as Record<string, unknown> | null)?.architecture;
  const layers = (architecture as Record<string, unknown> | undefined)?.layers;
  if (layers === undefined) return null;
  const rules = checkLayerRules(layers, `${LAYER_CONFIG_FILE} architecture.layers`);
  return rules.length === 0 ? null : rules;
}

/** The layer of each path: the first layer with a path that matches it (null: none). */
export function layerAssigner(rules: readonly LayerRule[]): (path: string) => string | null {
  const matchers = rules.map((r) => ({
    name: r.name,
    tests: r.paths.map((p): (path: string) => boolean => {
      if (/[*?[]/.test(p)) return globMatcher(p);
      const prefix = p.replace(/^\.\//, "").replace(/\/+$/, "");
      return (path) => prefix === "" || path === prefix || path.startsWith(prefix + "/");
    }),
  }));
  const memo = new Map<string, string | null>();
  return (path) => {
    let hit = memo.get(path);
    if (hit === undefined) {
      hit = matchers.find((m) => m.tests.some((t) => t(path)))?.name ?? null;
      memo.set(path, hit);
    }
    return hit;
  };
}

/** Every resolved import between two files, once per file, line and target. */
function _importEdges(view: RepoView): { file: string; line: number; target: string }[] {
  return view.get(_IMPORT_SITES);
}

const _IMPORT_SITES = facet("layer-import-sites", (view) => {
  const out: { file: string; line: number; target: string }[] = [];
  for (const [file, imports] of view.get(IMPORT_GRAPH).importsOf) {
    const seen = new Set<string>();
    for (const imp of imports) {
      if (imp.resolved === null || imp.resolved === file) continue;
      const key = `${imp.line}\0${imp.resolved}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ file, line: imp.line, target: imp.resolved });
    }
  }
  return out;
});

const _BY_SITE = (a: LayerViolation, b: LayerViolation) =>
  byCodePoint(a.file, b.file) || a.line - b.line || byCodePoint(a.import_target, b.import_target);

/** The imports that break declared rules, by file, line and target. */
export function ruleViolations(view: RepoView, rules: readonly LayerRule[]): LayerViolation[] {
  const layerOf = layerAssigner(rules);
  const forbidden = new Map(rules.map((r) => [r.name, new Set(r.may_not_import)]));
  const out: LayerViolation[] = [];
  for (const e of _importEdges(view)) {
    const from = layerOf(e.file);
    if (from === null) continue;
    const to = layerOf(e.target);
    if (to === null || to === from || !forbidden.get(from)!.has(to)) continue;
    out.push({
      file: e.file,
      line: e.line,
      file_layer: from,
      import_target: e.target,
      target_layer: to,
      rule_violated: `${from} may_not_import ${to}`,
    });
  }
  return out.sort(_BY_SITE);
}

/** Inferred layers: the plates of the module map and the imports against their main direction. */
export interface InferredLayers {
  /** Plate names with their file counts. */
  layers: { name: string; files: number }[];
  violations: LayerViolation[];
  /** Pairs of plates importing each other equally often (no direction to judge by). */
  undecided: number;
}

/**
 * Layers inferred from the module map: each plate is a layer; between two plates whose files
 * import each other, the direction with more imports is the layering, and each import the other
 * way is a violation (`rule_violated` names both counts).
 */
export function inferredLayers(view: RepoView): InferredLayers {
  return view.get(_INFERRED);
}

const _INFERRED = facet("inferred-layers", (view): InferredLayers => {
  const map = view.get(TECTONIC);
  const plateOf = new Map<string, string>();
  const names = new Map<number, string>();
  const taken = new Set<string>();
  for (const p of map.plates) {
    // Two plates may draw the same name from their folder and symbols: the second says its id.
    const name = taken.has(p.name) ? `${p.name} #${p.id}` : p.name;
    taken.add(name);
    names.set(p.id, name);
    for (const f of p.files) plateOf.set(f, name);
  }
  const byPair = new Map<string, { file: string; line: number; target: string }[]>();
  for (const e of _importEdges(view)) {
    const a = plateOf.get(e.file), b = plateOf.get(e.target);
    if (a === undefined || b === undefined || a === b) continue;
    const key = `${a}\0${b}`;
    let list = byPair.get(key);
    if (list === undefined) byPair.set(key, list = []);
    list.push(e);
  }
  const violations: LayerViolation[] = [];
  let undecided = 0;
  for (const [key, back] of byPair) {
    const [a, b] = key.split("\0") as [string, string];
    const forward = byPair.get(`${b}\0${a}`)?.length ?? 0;
    if (forward === back.length && a < b) undecided++;
    if (forward <= back.length) continue;
    for (const e of back) {
      violations.push({
        file: e.file,
        line: e.line,
        file_layer: a,
        import_target: e.target,
        target_layer: b,
        rule_violated:
          `${a} may_not_import ${b} (inferred: ${b} imports ${a} ${forward}×, ${a} imports ${b} ${back.length}×)`,
      });
    }
  }
  return {
    layers: map.plates.map((p) => ({ name: names.get(p.id)!, files: p.files.length })),
    violations: violations.sort(_BY_SITE),
    undecided,
  };
});
