/** `get_blast_radius`: the files and symbols a change to a symbol may break (API.md §2.5). */
import { z } from "zod";
import { affectedFiles, affectedSymbols, riskScore } from "../query/impact.ts";
import { IMPORT_GRAPH } from "../query/import_graph.ts";
import { fileRole } from "../query/priors.ts";
import { findSymbol } from "../query/symbol_lookup.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { graphMeta, SYMBOL_HEADING, symbolHeading, withWarnings } from "./graph_args.ts";
import {
  type ArgsOf,
  defineTool,
  META,
  type MetaOf,
  type ResponseOf,
  type Shape,
  table,
} from "./define.ts";

const _description =
  "Get what a change to a symbol may break: the files importing its file up to depth hops, split into confirmed (they name it) and potential (they import the file without naming it), files of its own package calling it, and the symbols calling it up to call_depth levels; ranked by distance then centrality, tests listed apart.";

const _args = {
  symbol: z.string().describe("Symbol id, a unique Qualified.name, or a unique name"),
  depth: z.number().int().min(1).max(3).optional().describe(
    "Import hops to follow (default 1)",
  ),
  call_depth: z.number().int().min(0).max(3).optional().describe(
    "Caller levels to list as affected symbols (default 1; 0 lists none)",
  ),
  max_results: z.number().int().min(1).max(500).optional().describe(
    "Most rows per list (default 50)",
  ),
  include_depth_scores: z.boolean().optional().describe(
    "Add impact_by_depth: the files at each hop and the hop's weight d^-0.7",
  ),
  cross_repo: z.boolean().optional().describe(
    "Accepted for compatibility; other repos are not searched (named in _meta.warnings)",
  ),
  include_source: z.boolean().optional().describe(
    "Accepted for compatibility; snippets are not included (fetch them with get_symbol_source)",
  ),
  source_budget: z.number().int().optional().describe(
    "Accepted for compatibility with include_source; ignored",
  ),
  fqn: z.string().optional().describe("Accepted for compatibility (PHP FQN); ignored"),
  decorator_filter: z.string().optional().describe(
    "Accepted for compatibility; ignored (named in _meta.warnings)",
  ),
};

/** Validated arguments. */
export type GetBlastRadiusArgs = ArgsOf<typeof _args, "required">;

const _SYMBOL = {
  id: z.string().nullable().describe("Symbol id (null for a file-level call)"),
  name: z.string().describe("Name"),
  kind: z.string().describe("Kind"),
  file: z.string().describe("File"),
  line: z.number().int().describe("Line"),
  depth: z.number().int().describe("Caller level"),
  resolution: z.string().describe("resolved, or by_name"),
  importers: z.number().int().describe("Files importing its file (centrality)"),
} satisfies Shape;

const _count = (what: string) => z.number().int().describe(what);

const _fields = {
  repo: z.string().describe("Repo id"),
  symbol: SYMBOL_HEADING,
  depth: _count("Import hops followed"),
  call_depth: _count("Caller levels followed"),
  importer_count: _count("Files importing it, at every hop"),
  direct_dependents_count: _count("Files importing it directly"),
  overall_risk_score: z.number().describe("Risk, 0..1, weighted by hop"),
  confirmed_count: _count("Importing files that name the symbol"),
  potential_count: _count("Importing files that never name it"),
  test_count: _count("Test files affected"),
  affected_symbol_count: _count("Symbols calling it"),
  test_symbol_count: _count("Test symbols calling it"),
  confirmed: table("c", {
    file: z.string().describe("File"),
    depth: z.number().int().describe("Import hop (0: its own package)"),
    references: z.number().int().describe("Whole-word occurrences of the name"),
    importers: z.number().int().describe("Files importing this file"),
    has_test_reach: z.boolean().describe("Whether a test imports this file"),
  }, { intern: ["file"] }).describe("Files that import it and name it"),
  potential: table("p", {
    file: z.string().describe("File"),
    depth: z.number().int().describe("Import hop"),
    reason: z.string().describe("Why it may be affected"),
  }, { intern: ["file", "reason"] }).describe("Files that import it without naming it"),
  tests: table("t", {
    file: z.string().describe("Test file"),
    depth: z.number().int().describe("Import hop"),
    references: z.number().int().describe("Occurrences of the name"),
  }, { intern: ["file"] }).describe("Test files affected"),
  affected_symbols: table("s", _SYMBOL, { intern: ["file", "id"] }).describe(
    "Symbols calling it, by level then centrality",
  ),
  test_symbols: table("u", _SYMBOL, { intern: ["file", "id"] }).describe("Test code calling it"),
  impact_by_depth: table("d", {
    depth: z.number().int().describe("Hop"),
    file_count: z.number().int().describe("Files at that hop"),
    risk_score: z.number().describe("The hop's weight d^-0.7"),
  }).optional().describe("include_depth_scores: files and weight per hop"),
};

const _meta = { truncated: META.truncated, hint: META.hint };

type _Response = ResponseOf<typeof _fields>;

/** The blast radius of one symbol. */
export function handler(
  ctx: ToolContext,
  args: GetBlastRadiusArgs,
): ToolOutput<_Response, MetaOf<typeof _meta>> {
  const warnings: string[] = [];
  const depth = args.depth ?? 1;
  const callDepth = args.call_depth ?? 1;
  const max = args.max_results ?? 50;
  if (args.cross_repo === true) warnings.push("cross_repo is not supported: this repo only");
  for (const ignored of ["include_source", "source_budget", "fqn", "decorator_filter"] as const) {
    if (args[ignored] !== undefined && args[ignored] !== false) {
      warnings.push(`${ignored} is not supported and was ignored`);
    }
  }
  const { repo, view } = openRepo(ctx, args.repo);
  const symbol = findSymbol(view, args.symbol);
  const graph = view.get(IMPORT_GRAPH);
  const files = affectedFiles(view, symbol, depth);
  const source = files.filter((f) => !f.isTest);
  const confirmed = source.filter((f) => f.references > 0);
  const potential = source.filter((f) => f.references === 0);
  const tests = files.filter((f) => f.isTest);
  const calls = callDepth > 0
    ? affectedSymbols(view, symbol, callDepth, 2000)
    : { symbols: [], truncated: false, depthReached: 0 };
  const symbolRows = calls.symbols.map((s) => ({
    id: s.symbol?.id ?? null,
    name: s.symbol?.name ?? "<module>",
    kind: s.symbol?.kind ?? "module",
    file: s.symbol?.file ?? s.file,
    line: s.symbol?.line ?? s.callLine,
    depth: s.depth,
    resolution: s.resolution,
    importers: s.importers,
  }));
  const sourceSymbols = symbolRows.filter((r) => fileRole(r.file) !== "test");
  const testSymbols = symbolRows.filter((r) => fileRole(r.file) === "test");
  const response: _Response = {
    repo,
    symbol: symbolHeading(symbol),
    depth,
    call_depth: callDepth,
    importer_count: files.filter((f) => f.depth > 0).length,
    direct_dependents_count: files.filter((f) => f.depth === 1).length,
    overall_risk_score: riskScore(files),
    confirmed_count: confirmed.length,
    potential_count: potential.length,
    test_count: tests.length,
    affected_symbol_count: sourceSymbols.length,
    test_symbol_count: testSymbols.length,
    confirmed: confirmed.slice(0, max).map((f) => ({
      file: f.file,
      depth: f.depth,
      references: f.references,
      importers: f.importers,
      has_test_reach: graph.importerFiles(f.file).some((i) => fileRole(i) === "test"),
    })),
    potential: potential.slice(0, max).map((f) => ({
      file: f.file,
      depth: f.depth,
      reason: "imports the file but never names the symbol (namespace or wildcard import)",
    })),
    tests: tests.slice(0, max).map((f) => ({
      file: f.file,
      depth: f.depth,
      references: f.references,
    })),
    affected_symbols: sourceSymbols.slice(0, max),
    test_symbols: testSymbols.slice(0, max),
  };
  if (args.include_depth_scores === true) {
    const byDepth = new Map<number, string[]>();
    for (const f of files) {
      if (f.depth === 0) continue;
      byDepth.set(f.depth, [...byDepth.get(f.depth) ?? [], f.file]);
    }
    response.impact_by_depth = [...byDepth].sort((a, b) => a[0] - b[0]).map(([d, list]) => ({
      depth: d,
      file_count: list.length,
      risk_score: Math.round(Math.pow(d, -0.7) * 10000) / 10000,
    }));
  }
  const truncated = calls.truncated ||
    [confirmed, potential, tests, sourceSymbols, testSymbols].some((l) => l.length > max);
  return {
    response,
    repo,
    meta: graphMeta(
      truncated,
      `Lists are cut at ${max} rows: raise max_results (up to 500) or lower depth/call_depth`,
    ),
    ...withWarnings(warnings),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_blast_radius",
  title: "Blast radius",
  summary:
    "files and symbols a change to a symbol may break, ranked by distance and centrality, tests apart",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "br3" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
