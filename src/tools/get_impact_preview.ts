/** `get_impact_preview`: what breaks if a symbol is removed or renamed (API.md §2.6). */
import { z } from "zod";
import { affectedSymbols } from "../query/impact.ts";
import { byCodePoint } from "../query/import_graph.ts";
import { findSymbol } from "../query/symbol_lookup.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { graphMeta, SYMBOL_HEADING, symbolHeading } from "./graph_args.ts";
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
  "Preview what breaks if a symbol is removed or renamed: every symbol calling it, transitively, each once at its shortest distance with from (the next symbol on the call chain) and its resolution; ranked by distance then centrality, tests apart, affected_files summing symbols per file.";

const _args = {
  symbol_id: z.string().describe("Symbol id, a unique Qualified.name, or a unique name"),
  depth: z.number().int().min(1).max(5).optional().describe(
    "Caller levels to follow (default 5)",
  ),
  max_results: z.number().int().min(1).max(1000).optional().describe(
    "Most rows per list (default 100)",
  ),
};

/** Validated arguments. */
export type GetImpactPreviewArgs = ArgsOf<typeof _args, "required">;

const _SYMBOL = {
  id: z.string().nullable().describe("Symbol id (null for a file-level call)"),
  name: z.string().describe("Name"),
  kind: z.string().describe("Kind"),
  file: z.string().describe("File"),
  line: z.number().int().describe("Line"),
  depth: z.number().int().describe("Caller level"),
  from: z.string().nullable().describe("The symbol it calls on the way"),
  resolution: z.string().describe("resolved, or by_name"),
  candidates: z.number().int().describe("Definitions the call could mean"),
  importers: z.number().int().describe("Files importing its file (centrality)"),
} satisfies Shape;

const _fields = {
  repo: z.string().describe("Repo id"),
  symbol: SYMBOL_HEADING,
  depth: z.number().int().describe("Caller levels followed"),
  depth_reached: z.number().int().describe("Deepest level found"),
  affected_file_count: z.number().int().describe("Files with affected symbols"),
  affected_symbol_count: z.number().int().describe("Symbols calling it, transitively"),
  test_symbol_count: z.number().int().describe("Test symbols calling it"),
  affected_symbols: table("s", _SYMBOL, { intern: ["file", "id", "from"] }).describe(
    "Callers by distance then centrality",
  ),
  test_symbols: table("u", _SYMBOL, { intern: ["file", "id", "from"] }).describe(
    "Callers in test code",
  ),
  affected_files: table("f", {
    file: z.string().describe("File"),
    symbols: z.number().int().describe("Affected symbols in it"),
    depth: z.number().int().describe("Nearest level"),
    importers: z.number().int().describe("Files importing it"),
  }, { intern: ["file"] }).describe("Affected symbols summed per file"),
};

const _meta = { truncated: META.truncated, hint: META.hint };

/** Most symbols a preview walks before it stops (then `_meta.truncated`). */
const _WALK_LIMIT = 1000;

/** The impact preview of one symbol. */
export function handler(
  ctx: ToolContext,
  args: GetImpactPreviewArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const depth = args.depth ?? 5;
  const max = args.max_results ?? 100;
  const { repo, view } = openRepo(ctx, args.repo);
  const symbol = findSymbol(view, args.symbol_id);
  const walk = affectedSymbols(view, symbol, depth, _WALK_LIMIT);
  const rows = walk.symbols.map((s) => ({
    id: s.symbol?.id ?? null,
    name: s.symbol?.name ?? "<module>",
    kind: s.symbol?.kind ?? "module",
    file: s.symbol?.file ?? s.file,
    line: s.symbol?.line ?? s.callLine,
    depth: s.depth,
    from: s.from,
    resolution: s.resolution,
    candidates: s.candidates,
    importers: s.importers,
    test: s.isTest,
  }));
  const source = rows.filter((r) => !r.test).map(({ test: _, ...r }) => r);
  const tests = rows.filter((r) => r.test).map(({ test: _, ...r }) => r);
  const perFile = new Map<
    string,
    { file: string; symbols: number; depth: number; importers: number }
  >();
  for (const r of source) {
    const f = perFile.get(r.file);
    if (f === undefined) {
      perFile.set(r.file, { file: r.file, symbols: 1, depth: r.depth, importers: r.importers });
    } else f.symbols++;
  }
  const files = [...perFile.values()].sort((a, b) =>
    a.depth - b.depth || b.importers - a.importers || byCodePoint(a.file, b.file)
  );
  const truncated = walk.truncated || source.length > max || tests.length > max ||
    files.length > max;
  return {
    response: {
      repo,
      symbol: symbolHeading(symbol),
      depth,
      depth_reached: walk.depthReached,
      affected_file_count: files.length,
      affected_symbol_count: source.length,
      test_symbol_count: tests.length,
      affected_symbols: source.slice(0, max),
      test_symbols: tests.slice(0, max),
      affected_files: files.slice(0, max),
    },
    repo,
    meta: graphMeta(
      truncated,
      walk.truncated
        ? `The walk stopped after ${_WALK_LIMIT} symbols: lower depth`
        : `Lists are cut at ${max} rows: raise max_results (up to 1000) or lower depth`,
    ),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_impact_preview",
  title: "Impact preview",
  summary: "every symbol calling a symbol, transitively, ranked, tests apart",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "ip2" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
