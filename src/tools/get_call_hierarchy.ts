/** `get_call_hierarchy`: callers and callees of a symbol, breadth-first (API.md §2.3). */
import { z } from "zod";
import { CALL_GRAPH, MAX_CANDIDATES, type WalkNode } from "../query/call_graph.ts";
import { findSymbol } from "../query/symbol_lookup.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { graphMeta, SYMBOL_HEADING, symbolHeading, withWarnings } from "./graph_args.ts";
import {
  type ArgsOf,
  defineTool,
  META,
  type MetaOf,
  type ResponseOf,
  type RowOf,
  type Shape,
  table,
} from "./define.ts";

const _description =
  "Get who calls a symbol and what it calls, level by level, from the stored call sites (names resolved through scopes, imports and receiver types). Each edge gives the symbol, call_line, depth, from (the symbol it was reached from) and resolution (resolved, or by_name with the number of candidates).";

const _args = {
  symbol_id: z.string().describe(
    "Symbol id (from search_symbols or get_file_outline), a unique Qualified.name, or a unique name",
  ),
  direction: z.string().optional().describe(
    "callers, callees or both (default both; anything else is read as both, with a warning)",
  ),
  depth: z.number().int().min(1).max(5).optional().describe(
    "Levels to follow (default 3)",
  ),
  max_results: z.number().int().min(1).max(500).optional().describe(
    "Most edges listed per direction (default 100)",
  ),
};

/** Validated arguments. */
export type GetCallHierarchyArgs = ArgsOf<typeof _args, "required">;

const _EDGE = {
  id: z.string().nullable().describe("Symbol id (null for a file-level call)"),
  name: z.string().describe('Name ("<module>" for a file-level call)'),
  kind: z.string().describe('Kind ("module" for a file-level call)'),
  file: z.string().describe("Its file"),
  line: z.number().int().describe("Its line"),
  call_line: z.number().int().describe("Line of the call"),
  depth: z.number().int().describe("Level it was found at"),
  from: z.string().describe("The symbol it was reached from"),
  resolution: z.string().describe("resolved, or by_name"),
  candidates: z.number().int().describe("Definitions the call could mean"),
} satisfies Shape;

const _fields = {
  repo: z.string().describe("Repo id"),
  symbol: SYMBOL_HEADING,
  direction: z.string().describe("callers, callees or both"),
  depth: z.number().int().describe("Levels asked for"),
  depth_reached: z.number().int().describe("Deepest level found"),
  caller_count: z.number().int().describe("Callers listed"),
  callee_count: z.number().int().describe("Callees listed"),
  callers: table("c", _EDGE, { intern: ["file", "id", "from"] }).describe("Who calls it, by level"),
  callees: table("e", _EDGE, { intern: ["file", "id", "from"] }).describe(
    "What it calls, by level",
  ),
};

const _meta = { truncated: META.truncated, hint: META.hint };

function _edge(n: WalkNode): RowOf<typeof _fields.callers> {
  const s = n.symbol;
  return {
    id: s?.id ?? null,
    name: s?.name ?? "<module>",
    kind: s?.kind ?? "module",
    file: s?.file ?? n.file,
    line: s?.line ?? n.callLine,
    call_line: n.callLine,
    depth: n.depth,
    from: n.from,
    resolution: n.resolution,
    candidates: n.candidates,
  };
}

/** The call hierarchy of one symbol. */
export function handler(
  ctx: ToolContext,
  args: GetCallHierarchyArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const warnings: string[] = [];
  const depth = args.depth ?? 3;
  const max = args.max_results ?? 100;
  let direction = args.direction ?? "both";
  if (!["callers", "callees", "both"].includes(direction)) {
    warnings.push(`direction="${direction}" is not callers, callees or both; used both`);
    direction = "both";
  }
  const { repo, view } = openRepo(ctx, args.repo);
  const symbol = findSymbol(view, args.symbol_id);
  const graph = view.get(CALL_GRAPH);
  const walk = (d: "callers" | "callees") =>
    direction === d || direction === "both"
      ? graph.walk(symbol, d, depth, max, MAX_CANDIDATES)
      : { nodes: [], depthReached: 0, truncated: false };
  const callers = walk("callers");
  const callees = walk("callees");
  const response = {
    repo,
    symbol: symbolHeading(symbol),
    direction,
    depth,
    depth_reached: Math.max(callers.depthReached, callees.depthReached),
    caller_count: callers.nodes.length,
    callee_count: callees.nodes.length,
    callers: callers.nodes.map(_edge),
    callees: callees.nodes.map(_edge),
  };
  return {
    response,
    repo,
    meta: graphMeta(
      callers.truncated || callees.truncated,
      `More than ${max} edges: lower depth, pick one direction, or raise max_results (up to 500)`,
    ),
    ...withWarnings(warnings),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_call_hierarchy",
  title: "Call hierarchy",
  summary:
    "callers and callees of a symbol, level by level, resolved through scopes, imports and receiver types",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "ch2" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
