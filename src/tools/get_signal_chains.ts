/**
 * `get_signal_chains`: the repo's entry points (HTTP routes, CLI commands, scheduled tasks, event
 * handlers, `main`) and what each reaches through the call graph (API.md §2.7).
 */
import { z } from "zod";
import { type Gateway, GATEWAY_KINDS, GATEWAYS } from "../query/gateways.ts";
import { type ChainTrace, gatewayId, traceGateway } from "../query/signal_chains.ts";
import { findSymbol } from "../query/symbol_lookup.ts";
import type { RepoView } from "../query/view.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import {
  type ArgsOf,
  defineTool,
  META,
  type MetaOf,
  type ResponseOf,
  type RowOf,
  table,
} from "./define.ts";

const _description =
  "List the repo's entry points (HTTP routes, CLI commands, scheduled tasks, event handlers, main functions; tests with include_tests), each traced through the call graph to max_depth with how many symbols and files it reaches. With symbol: which entry points reach it. Use it to see how outside input flows into the code.";

const _args = {
  symbol: z.string().optional().describe(
    "A symbol id or name: list the entry points whose chains reach it (lookup mode)",
  ),
  kind: z.enum(["http", "cli", "task", "event", "main", "test"]).optional().describe(
    "Only entry points of this kind",
  ),
  max_depth: z.number().int().min(1).max(8).optional().describe(
    "Call depth traced from each entry point (1-8, default 5)",
  ),
  include_tests: z.boolean().optional().describe(
    "Include the entry points of test, example and fixture files, and test functions (default false; excluded_gateway_count says how many are left out)",
  ),
  max_results: z.number().int().min(1).max(5000).optional().describe(
    "Most chains returned (1-5000, default 100); gateway_count counts them all",
  ),
  max_chain_symbols: z.number().int().min(0).max(100).optional().describe(
    "Symbols listed per chain, nearest first (0-100, default 10); reach counts them all",
  ),
};

/** Validated arguments. */
export type GetSignalChainsArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  gateway_count: z.number().int().optional().describe("Entry points found (all of them)"),
  chain_count: z.number().int().describe("Chains listed (lookup: chains reaching the symbol)"),
  symbol: z.string().optional().describe("symbol: its name"),
  symbol_id: z.string().optional().describe("symbol: its id"),
  chains: table("c", {
    gateway: z.string().describe("Entry point id (symbol id, or file:line)"),
    gateway_name: z.string().nullable().describe("Its symbol's name"),
    kind: z.string().describe("http, cli, task, event, main or test"),
    label: z.string().describe('What it is, e.g. "GET /users/{id}"'),
    file: z.string().optional().describe("File"),
    line: z.number().int().optional().describe("Line"),
    via: z.string().optional().describe("How it was recognised"),
    depth: z.number().int().optional().describe("Call depth reached"),
    reach: z.number().int().optional().describe("Symbols the chain reaches, itself included"),
    file_count: z.number().int().optional().describe("Files they are in"),
    chain_truncated: z.boolean().optional().describe("The walk stopped at its limit"),
    depth_from_gateway: z.number().int().optional().describe("lookup: depth of the symbol"),
    chain_reach: z.number().int().optional().describe("lookup: the chain's reach"),
  }, { intern: ["gateway", "file"] }).describe(
    "One row per entry point (lookup: per reaching one)",
  ),
  chain_symbols: table("y", {
    gateway: z.string().describe("Entry point id"),
    symbol_id: z.string().describe("A symbol on its chain"),
    depth: z.number().int().describe("Its depth"),
    from: z.string().describe("The symbol calling it on the chain"),
  }, { intern: ["gateway", "symbol_id", "from"] }).optional().describe(
    "The nearest max_chain_symbols symbols of each chain",
  ),
  kind_summary: table("k", {
    kind: z.string().describe("Entry point kind"),
    count: z.number().int().describe("How many"),
  }).optional().describe("Entry points per kind"),
  on_no_chain: z.boolean().optional().describe("lookup: no entry point reaches the symbol"),
  total_functions_methods: z.number().int().optional().describe(
    "Functions and methods in the repo",
  ),
  orphan_symbols: z.number().int().optional().describe("Of them, on no chain shown"),
  orphan_symbol_pct: z.number().optional().describe("Their share, in percent"),
  gateway_warning: z.string().optional().describe("No entry point recognised: what to try"),
  excluded_gateway_count: z.number().int().optional().describe(
    "Entry points left out as tests, examples or fixtures (without include_tests)",
  ),
  excluded_hint: z.string().optional().describe("How to include them"),
};

const _meta = {
  total_gateways: z.number().int().describe("lookup: entry points searched"),
  max_depth: z.number().int().describe("Call depth traced"),
  include_tests: z.boolean().describe("Whether tests were entry points"),
  truncated: META.truncated,
  hint: META.hint,
};

type _Response = ResponseOf<typeof _fields>;
type _Chain = RowOf<typeof _fields.chains>;
type _Output = ToolOutput<_Response, MetaOf<typeof _meta>>;

/** Entry points and their chains, or the chains that reach one symbol. */
export function handler(ctx: ToolContext, args: GetSignalChainsArgs): _Output {
  const { repo, view } = openRepo(ctx, args.repo);
  const maxDepth = args.max_depth ?? 5;
  const includeTests = args.include_tests ?? false;
  const ofKind = view.get(GATEWAYS).filter((g) => args.kind === undefined || g.kind === args.kind);
  const all = ofKind.filter((g) => includeTests || !g.inTest);
  if (args.symbol !== undefined) return _lookup(view, repo, args, all, maxDepth);
  const out = _chains(view, repo, args, all, maxDepth, includeTests);
  _sayLeftOut(out, ofKind.length - all.length, ofKind.some((g) => g.inTest && g.kind !== "test"));
  return out;
}

/**
 * Say how many entry points were left out as tests, examples or fixtures (a library whose routes
 * all live in `docs_src/` has none left), and how to include them.
 */
function _sayLeftOut(out: _Output, leftOut: number, examples: boolean): void {
  const response = out.response;
  response.excluded_gateway_count = leftOut;
  if (leftOut === 0) return;
  const what = examples ? "tests, examples or fixtures" : "test functions";
  response.excluded_hint =
    `${leftOut} entry points were left out as ${what}: pass include_tests=true to include them`;
  if (response.gateway_warning !== undefined) {
    response.gateway_warning =
      `No entry points recognised outside tests and examples (routes, CLI commands, tasks, event handlers, main); ${leftOut} were left out as ${what}: pass include_tests=true to include them`;
  }
}

/** Lookup mode: the entry points whose chains reach `args.symbol`. */
function _lookup(
  view: RepoView,
  repo: string,
  args: GetSignalChainsArgs,
  all: Gateway[],
  maxDepth: number,
): _Output {
  const target = findSymbol(view, args.symbol!);
  const chains: _Chain[] = [];
  for (const g of all) {
    if (g.symbol?.id === target.id) {
      chains.push(_lookupRow(g, 0, 0));
      continue;
    }
    const t = traceGateway(view, g, maxDepth);
    const hit = t.nodes.find((n) => n.symbol?.id === target.id);
    if (hit !== undefined) chains.push(_lookupRow(g, hit.depth, t.nodes.length + 1));
  }
  const maxResults = args.max_results ?? 100;
  const response: _Response = {
    repo,
    symbol: target.name,
    symbol_id: target.id,
    chain_count: chains.length,
    chains: chains.slice(0, maxResults),
    on_no_chain: chains.length === 0,
  };
  const meta: MetaOf<typeof _meta> = { total_gateways: all.length, max_depth: maxDepth };
  if (chains.length > maxResults) {
    meta.truncated = true;
    meta.hint =
      `${chains.length} chains reach it, ${maxResults} shown: raise max_results or filter by kind`;
  }
  return { response, repo, meta, rawBytes: 0 };
}

/** Discovery mode: every entry point, its chain, and the functions on no chain. */
function _chains(
  view: RepoView,
  repo: string,
  args: GetSignalChainsArgs,
  all: Gateway[],
  maxDepth: number,
  includeTests: boolean,
): _Output {
  const kinds: Record<string, number> = {};
  for (const g of all) kinds[g.kind] = (kinds[g.kind] ?? 0) + 1;
  const kindSummary = GATEWAY_KINDS.filter((k) => kinds[k] !== undefined).map((k) => ({
    kind: k,
    count: kinds[k]!,
  }));
  const maxResults = args.max_results ?? 100;
  const perChain = args.max_chain_symbols ?? 10;
  const shown = all.slice(0, maxResults);
  const chains: _Chain[] = [];
  const chainSymbols: NonNullable<_Response["chain_symbols"]> = [];
  const onChains = new Set<string>();
  for (const g of shown) {
    const t = traceGateway(view, g, maxDepth);
    const id = gatewayId(g);
    if (g.symbol !== null) onChains.add(g.symbol.id);
    const files = new Set<string>([g.file]);
    for (const n of t.nodes) {
      if (n.symbol === null) continue;
      onChains.add(n.symbol.id);
      files.add(n.symbol.file);
    }
    chains.push(_chainRow(g, t, files.size));
    for (const n of t.nodes.slice(0, perChain)) {
      if (n.symbol === null) continue;
      chainSymbols.push({ gateway: id, symbol_id: n.symbol.id, depth: n.depth, from: n.from });
    }
  }
  const functions =
    view.index.allSymbols().filter((s) => s.kind === "function" || s.kind === "method")
      .length;
  const orphans = Math.max(0, functions - onChains.size);
  const response: _Response = {
    repo,
    gateway_count: all.length,
    chain_count: chains.length,
    chains,
    chain_symbols: chainSymbols,
    kind_summary: kindSummary,
    total_functions_methods: functions,
    orphan_symbols: orphans,
    orphan_symbol_pct: functions === 0 ? 0 : Math.round(orphans / functions * 1000) / 10,
  };
  const meta: MetaOf<typeof _meta> = { max_depth: maxDepth, include_tests: includeTests };
  if (all.length === 0) {
    response.gateway_warning =
      "No entry points recognised (routes, CLI commands, tasks, event handlers, main). See the tool description for what is recognised, or pass include_tests";
  }
  if (all.length > shown.length) {
    meta.truncated = true;
    meta.hint =
      `${all.length} entry points, ${shown.length} traced and shown: raise max_results (up to 5000) or filter by kind (${
        kindSummary.map((k) => `${k.kind}: ${k.count}`).join(", ")
      }); orphan counts cover the chains shown`;
  }
  return { response, repo, meta, rawBytes: 0 };
}

function _chainRow(g: Gateway, t: ChainTrace, fileCount: number): _Chain {
  return {
    gateway: gatewayId(g),
    gateway_name: g.symbol?.name ?? null,
    kind: g.kind,
    label: g.label,
    file: g.file,
    line: g.line,
    via: g.via,
    depth: t.depthReached,
    reach: t.nodes.length + 1,
    file_count: fileCount,
    chain_truncated: t.truncated,
  };
}

function _lookupRow(g: Gateway, depth: number, reach: number): _Chain {
  return {
    gateway: gatewayId(g),
    gateway_name: g.symbol?.name ?? null,
    kind: g.kind,
    label: g.label,
    depth_from_gateway: depth,
    chain_reach: reach,
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_signal_chains",
  title: "Entry points and their chains",
  summary:
    "entry points (HTTP routes, CLI commands, tasks, event handlers, `main`) and what each reaches through the call graph; or which entry points reach a symbol",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "sc3" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
