/**
 * What an agent needs to edit a symbol safely (`get_context_bundle`, API.md Part B §7.2): its
 * source, the import lines of its file that it uses, the signatures of what it calls and of what
 * calls it, and its class's signature with the sibling methods' — all within a token budget.
 *
 * The budget is filled in a fixed order of importance: the symbols' sources (or signatures only
 * with the `compact` strategy), then the imports they use, then their class, callees, callers and
 * siblings, one relation at a time across all symbols. An item that does not fit is left out and
 * counted; a primary source that does not fit is cut to whole lines. Tokens are UTF-8 bytes / 4 of
 * each item as returned, the estimate `_meta` uses.
 */
import type { SymbolKind, SymbolRecord } from "../parser/types.ts";
import { CALL_GRAPH } from "./call_graph.ts";
import { CENTRALITY } from "./centrality.ts";
import { IMPORT_GRAPH } from "./import_graph.ts";
import { cutSignature, estimateTokens, fitLines } from "./budget.ts";
import { SYMBOLS } from "./symbols.ts";
import type { RepoView } from "./view.ts";

/** How the budget is spent. */
export type BundleStrategy = "most_relevant" | "core_first" | "compact";

/** One bundled symbol. */
export interface BundleSymbol {
  symbol_id: string;
  name: string;
  kind: SymbolKind;
  file: string;
  line: number;
  end_line: number;
  /** True when the source was cut (or given as the signature only). */
  cut: boolean;
  tokens: number;
  source: string;
}

/** A related symbol's signature, for one bundled symbol. */
export interface BundleRelated {
  /** The bundled symbol it relates to. */
  symbol_id: string;
  relation: "class" | "calls" | "caller" | "sibling";
  id: string;
  kind: SymbolKind;
  file: string;
  line: number;
  signature: string;
  /** How the call was resolved (calls and callers): `resolved` or `by_name`. */
  resolution: string | null;
}

/** An import line of a bundled symbol's file that the symbol uses (deduplicated per file). */
export interface BundleImport {
  file: string;
  line: number;
  text: string;
  /** The bundled symbols that use it. */
  used_by: string;
}

/** The bundle and how its budget went. */
export interface Bundle {
  symbols: BundleSymbol[];
  imports: BundleImport[];
  related: BundleRelated[];
  importers: { symbol_id: string; file: string }[];
  report: { section: string; included: number; left_out: number; tokens: number }[];
  totalTokens: number;
}

/** Most entries per relation and symbol. */
const _PER_RELATION = 15;

/** The token budget of one bundle, spent section by section (each counted in the report). */
class _Budget {
  readonly report: Bundle["report"] = [];
  total = 0;
  readonly #budget: number;

  constructor(budget: number) {
    this.#budget = budget;
  }

  /** Tokens still free. */
  get left(): number {
    return this.#budget - this.total;
  }

  /** A new section of the report; `take` spends on it when the item fits. */
  section(name: string): { take(item: object): boolean; unskip(): void } {
    const r = { section: name, included: 0, left_out: 0, tokens: 0 };
    this.report.push(r);
    return {
      take: (item: object): boolean => {
        const t = estimateTokens(item);
        if (this.total + t > this.#budget) {
          r.left_out++;
          return false;
        }
        this.total += t;
        r.included++;
        r.tokens += t;
        return true;
      },
      // An item first left out and then taken in a cut form is not left out.
      unskip: () => {
        r.left_out--;
      },
    };
  }
}

/** Build the bundle of `symbols` (already looked up) within `budget` tokens. */
export function contextBundle(
  view: RepoView,
  primaries: SymbolRecord[],
  options: { budget: number; strategy: BundleStrategy; includeImporters: boolean },
): Bundle {
  const ordered = options.strategy === "most_relevant"
    ? [...primaries].sort((a, b) => {
      const c = view.get(CENTRALITY);
      return c.of(b.id) - c.of(a.id) || primaries.indexOf(a) - primaries.indexOf(b);
    })
    : primaries;
  const budget = new _Budget(options.budget);
  const symbols = _sources(view, ordered, options.strategy, budget);
  const table = view.get(SYMBOLS);
  const bundled = symbols.map((b) => table.byId(b.symbol_id)!).filter((s) => s !== undefined);
  const imports = _imports(view, bundled, budget);
  const related = _related(view, bundled, budget);
  const importers = options.includeImporters ? _importers(view, bundled, budget) : [];
  return { symbols, imports, related, importers, report: budget.report, totalTokens: budget.total };
}

/** 1. Sources (cut to whole lines when one does not fit; signatures only for `compact`). */
function _sources(
  view: RepoView,
  ordered: SymbolRecord[],
  strategy: BundleStrategy,
  budget: _Budget,
): BundleSymbol[] {
  const sources = budget.section("source");
  const symbols: BundleSymbol[] = [];
  for (const s of ordered) {
    const full = strategy === "compact" ? null : view.index.symbolSource(s.id) ?? "";
    const item = _symbolItem(s, full ?? `${s.signature}\n…`, full === null);
    if (sources.take(item)) {
      symbols.push(item);
      continue;
    }
    // Whole lines that fit in what is left (at least the signature's worth), marked as cut.
    const room = budget.left - estimateTokens(_symbolItem(s, "", true));
    if (room > 8 && full !== null) {
      const fit = fitLines(full.split("\n"), room);
      const cut = _symbolItem(s, fit.text + "\n…", true);
      if (sources.take(cut)) {
        sources.unskip();
        symbols.push(cut);
      }
    }
  }
  return symbols;
}

/** 2. The import lines each symbol's source uses. */
function _imports(view: RepoView, bundled: SymbolRecord[], budget: _Budget): BundleImport[] {
  const importsSection = budget.section("imports");
  const imports: BundleImport[] = [];
  const importGraph = view.get(IMPORT_GRAPH);
  const seen = new Map<string, BundleImport>();
  for (const s of bundled) {
    const body = view.index.symbolSource(s.id) ?? "";
    const lines = (view.index.fileText(s.file) ?? "").split(/\r\n|\r|\n/);
    for (const imp of importGraph.importsOf.get(s.file) ?? []) {
      const words = imp.names.length > 0
        ? imp.names.map((n) => n.split(/\s+as\s+/).pop()!)
        : [imp.specifier.split(/[./:\\]/).filter((x) => x !== "").pop() ?? imp.specifier];
      if (!words.some((w) => w !== "" && new RegExp(`\\b${_escape(w)}\\b`).test(body))) continue;
      const key = `${s.file}:${imp.line}`;
      const had = seen.get(key);
      if (had !== undefined) {
        had.used_by += `,${s.id}`;
        continue;
      }
      const item: BundleImport = {
        file: s.file,
        line: imp.line,
        text: cutSignature((lines[imp.line - 1] ?? imp.specifier).trim()).text,
        used_by: s.id,
      };
      if (importsSection.take(item)) {
        imports.push(item);
        seen.set(key, item);
      }
    }
  }
  return imports;
}

/** A related symbol of a bundled one, and how sure the link is. */
type _Relative = { symbol: SymbolRecord; resolution: string | null };

/** 3. Related signatures, one relation at a time across all symbols. */
function _related(view: RepoView, bundled: SymbolRecord[], budget: _Budget): BundleRelated[] {
  const table = view.get(SYMBOLS);
  const graph = view.get(CALL_GRAPH);
  const related: BundleRelated[] = [];
  const relations: [BundleRelated["relation"], (s: SymbolRecord) => _Relative[]][] = [
    ["class", (s) => {
      const parent = s.parent === null ? undefined : table.byId(s.parent);
      return parent === undefined ? [] : [{ symbol: parent, resolution: null }];
    }],
    ["calls", (s) =>
      graph.callees(s).filter((e) => e.symbol !== null).map((e) => ({
        symbol: e.symbol!,
        resolution: e.resolution,
      }))],
    ["caller", (s) =>
      graph.callers(s).filter((e) => e.symbol !== null).map((e) => ({
        symbol: e.symbol!,
        resolution: e.resolution,
      }))],
    ["sibling", (s) =>
      s.parent === null ? [] : table.ofFile(s.file)
        .filter((x) => x.parent === s.parent && x.id !== s.id && x.kind !== "import")
        .map((x) => ({ symbol: x, resolution: null }))],
  ];
  for (const [name, of] of relations) {
    const sec = budget.section(name);
    for (const s of bundled) {
      const listed = new Set<string>([s.id]);
      let n = 0;
      for (const r of of(s)) {
        if (listed.has(r.symbol.id) || n >= _PER_RELATION) continue;
        listed.add(r.symbol.id);
        const item = _relatedItem(s, name, r);
        if (sec.take(item)) {
          related.push(item);
          n++;
        }
      }
    }
  }
  return related;
}

function _relatedItem(
  s: SymbolRecord,
  relation: BundleRelated["relation"],
  r: _Relative,
): BundleRelated {
  return {
    symbol_id: s.id,
    relation,
    id: r.symbol.id,
    kind: r.symbol.kind,
    file: r.symbol.file,
    line: r.symbol.line,
    signature: cutSignature(r.symbol.signature).text,
    resolution: r.resolution,
  };
}

/** 4. Files importing each symbol's file (include_callers). */
function _importers(
  view: RepoView,
  bundled: SymbolRecord[],
  budget: _Budget,
): { symbol_id: string; file: string }[] {
  const importGraph = view.get(IMPORT_GRAPH);
  const importers: { symbol_id: string; file: string }[] = [];
  const sec = budget.section("importers");
  for (const s of bundled) {
    for (const file of importGraph.importerFiles(s.file).slice(0, 50)) {
      const item = { symbol_id: s.id, file };
      if (sec.take(item)) importers.push(item);
    }
  }
  return importers;
}

function _symbolItem(s: SymbolRecord, source: string, cut: boolean): BundleSymbol {
  const item: BundleSymbol = {
    symbol_id: s.id,
    name: s.name,
    kind: s.kind,
    file: s.file,
    line: s.line,
    end_line: s.end_line,
    cut,
    tokens: 0,
    source,
  };
  item.tokens = estimateTokens(item);
  item.tokens = estimateTokens(item);
  return item;
}

function _escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The bundle as one Markdown document (`output_format: "markdown"`). */
export function bundleMarkdown(b: Bundle): string {
  const out: string[] = [];
  for (const s of b.symbols) {
    out.push(`## ${s.symbol_id}${s.cut ? " (cut)" : ""}`, "", `${s.file}:${s.line}-${s.end_line}`);
    const imps = b.imports.filter((i) => i.used_by.split(",").includes(s.symbol_id));
    if (imps.length > 0) out.push("", "Imports:", "```", ...imps.map((i) => i.text), "```");
    out.push("", "```", s.source, "```");
    for (const rel of ["class", "calls", "caller", "sibling"] as const) {
      const rows = b.related.filter((r) => r.symbol_id === s.symbol_id && r.relation === rel);
      if (rows.length === 0) continue;
      const title =
        { class: "Class", calls: "Calls", caller: "Called by", sibling: "Siblings" }[rel];
      out.push("", `${title}:`);
      for (const r of rows) out.push(`- \`${r.signature.split("\n")[0]}\` — ${r.id}`);
    }
    const files = b.importers.filter((i) => i.symbol_id === s.symbol_id).map((i) => i.file);
    if (files.length > 0) out.push("", `Imported by: ${files.join(", ")}`);
    out.push("");
  }
  return out.join("\n");
}
