/** `get_untested_symbols`: functions no test reaches through the call graph (docs/api.md). */
import { z } from "zod";
import type { SymbolRecord } from "../parser/types.ts";
import { globMatcher } from "../query/glob.ts";
import { nearestTestedCaller, TEST_REACH } from "../query/test_reach.ts";
import { UNTESTED } from "../query/untested.ts";
import type { RepoView } from "../query/view.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { graphMeta } from "./graph_args.ts";
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
  "Find functions and methods no test reaches through the call graph (static reachability from the test files, not runtime coverage). Confidence 1.0 unreached; 0.7 a test file writes its name but no call path reaches it. Each row names the nearest reached caller and its test, where a test could start.";

const _args = {
  file_pattern: z.string().optional().describe(
    'Only weigh functions of files matching this fnmatch glob ("src/*", "*.py")',
  ),
  min_confidence: z.number().min(0).max(1).optional().describe(
    "Least confidence listed (default 0.5: both tiers; 1 keeps only `unreached`)",
  ),
  max_results: z.number().int().min(1).max(2000).optional().describe(
    "Most rows (default 100); untested_count counts them all",
  ),
};

/** Validated arguments. */
export type GetUntestedSymbolsArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  untested_count: z.number().int().describe(
    "Untested functions and methods at or above min_confidence",
  ),
  total_non_test_symbols: z.number().int().describe(
    "Functions and methods of source files weighed",
  ),
  reached_pct: z.number().describe("Share of those a test reaches, in percent (one decimal)"),
  test_roots: z.number().int().describe("Where the walk started: test definitions and test files"),
  symbols: table("u", {
    symbol_id: z.string().describe("Symbol id"),
    name: z.string().describe("Its name"),
    kind: z.string().describe("function or method"),
    file: z.string().describe("Its file"),
    line: z.number().int().describe("Its first line"),
    confidence: z.number().describe("1.0 (unreached) or 0.7 (named_in_tests)"),
    reason: z.enum(["unreached", "named_in_tests"]).describe("Why it counts as untested"),
    nearest_caller: z.string().nullable().describe(
      "The nearest caller (up to 4 calls up) that a test reaches, or null",
    ),
    nearest_test: z.string().nullable().describe("The test that reaches that caller, or null"),
    distance: z.number().int().nullable().describe("Calls from that caller down to it"),
  }, { intern: ["kind", "file", "reason", "nearest_test"] }).describe(
    "Untested functions and methods, most confident first, then by file and line",
  ),
};

const _meta = { truncated: META.truncated, hint: META.hint };

type _Row = RowOf<typeof _fields.symbols>;

function _row(view: RepoView, s: SymbolRecord, namedInTests: boolean): _Row {
  const near = nearestTestedCaller(view, s);
  return {
    symbol_id: s.id,
    name: s.name,
    kind: s.kind,
    file: s.file,
    line: s.line,
    confidence: namedInTests ? 0.7 : 1,
    reason: namedInTests ? "named_in_tests" : "unreached",
    nearest_caller: near?.caller.id ?? null,
    nearest_test: near?.reach.test ?? null,
    distance: near?.distance ?? null,
  };
}

/** The untested functions of a repo. */
export function handler(
  ctx: ToolContext,
  args: GetUntestedSymbolsArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const min = args.min_confidence ?? 0.5;
  const max = args.max_results ?? 100;
  const { repo, view } = openRepo(ctx, args.repo);
  const reach = view.get(TEST_REACH);
  const all = view.get(UNTESTED);
  const matches = args.file_pattern === undefined ? null : globMatcher(args.file_pattern);
  const inScope = (s: SymbolRecord) => matches === null || matches(s.file);
  const weighed = matches === null ? all.weighed : all.weighed.filter(inScope);
  const scoped = matches === null ? all.untested : all.untested.filter((u) => inScope(u.symbol));
  const untested = scoped.filter((u) => (u.namedInTests ? 0.7 : 1) >= min);
  const reachedCount = weighed.length - scoped.length;
  return {
    response: {
      repo,
      untested_count: untested.length,
      total_non_test_symbols: weighed.length,
      reached_pct: weighed.length === 0
        ? 100
        : Math.round((reachedCount / weighed.length) * 1000) / 10,
      test_roots: reach.roots,
      symbols: untested.slice(0, max).map((u) => _row(view, u.symbol, u.namedInTests)),
    },
    repo,
    meta: graphMeta(
      untested.length > max,
      `Showing ${max} of ${untested.length}: raise max_results (up to 2000), raise min_confidence or narrow with file_pattern`,
    ),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_untested_symbols",
  title: "Untested symbols",
  summary:
    "functions no test reaches through the call graph, with the nearest tested caller and its test",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "ut1" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
