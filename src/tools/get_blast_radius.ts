/** `get_blast_radius`: the files and symbols a change to a symbol may break (API.md §2.5). */
import { z } from "zod";
import { affectedFiles, affectedSymbols, riskScore } from "../query/impact.ts";
import { IMPORT_GRAPH } from "../query/import_graph.ts";
import { fileRole } from "../query/priors.ts";
import { findSymbol } from "../query/symbol_lookup.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { clampInt, graphMeta, symbolHeading } from "./graph_args.ts";

/** Tool name. */
export const name = "get_blast_radius";

/** Tool description shown to agents. */
export const description =
  "Get what a change to a symbol may break: the files importing its file up to depth hops (default 1, 1..3; re-exports followed; Go: its package), split into confirmed (they name the symbol; `references` = whole-word occurrences) and potential (they import the file but never name it: a namespace or wildcard import), plus files calling it from its own package (depth 0); and the symbols calling it up to call_depth levels (default 1, 0..3). Files and symbols are ranked by distance, then centrality (`importers` = files importing that file); test files are listed apart in `tests` and `test_symbols`. max_results (default 50, 1..500) per list; counts cover everything.";

/** Input schema. */
export const inputSchema = z.object({
  repo: z.string().describe("Repo id from list_repos (or a bare name that identifies one repo)"),
  symbol: z.string().describe("Symbol id, a unique Qualified.name, or a unique name"),
  depth: z.number().int().optional().describe("Import hops to follow (default 1, clamped to 1..3)"),
  call_depth: z.number().int().optional().describe(
    "Caller levels to list as affected symbols (default 1, clamped to 0..3; 0 lists none)",
  ),
  max_results: z.number().int().optional().describe(
    "Most rows per list (default 50, clamped to 1..500)",
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
});

/** Validated arguments. */
export type GetBlastRadiusArgs = z.infer<typeof inputSchema>;

/** Annotations for MCP clients. */
export const annotations = { readOnlyHint: true, openWorldHint: false } as const;

/** The blast radius of one symbol. */
export function handler(ctx: ToolContext, args: GetBlastRadiusArgs): ToolOutput {
  const warnings: string[] = [];
  const depth = clampInt("depth", args.depth, 1, 1, 3, warnings);
  const callDepth = clampInt("call_depth", args.call_depth, 1, 0, 3, warnings);
  const max = clampInt("max_results", args.max_results, 50, 1, 500, warnings);
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
  const response: Record<string, unknown> = {
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
      warnings,
      truncated,
      `Lists are cut at ${max} rows: raise max_results (up to 500) or lower depth/call_depth`,
    ),
  };
}
