/** `get_coupling_metrics`: afferent/efferent coupling and instability per module (docs/api.md). */
import { z } from "zod";
import { COUPLING, type ModuleCoupling } from "../query/coupling.ts";
import { FILES } from "../query/files.ts";
import { UNITS } from "../query/units.ts";
import type { RepoView } from "../query/view.ts";
import { openRepo, requireFile, type ToolContext, type ToolOutput } from "./context.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf, rows } from "./define.ts";
import { graphMeta } from "./graph_args.ts";
import { SCOPE, scopeMatcher } from "./structure_args.ts";

const _args = {
  module_path: z.string().optional().describe("File or package folder"),
  scope: SCOPE,
  max_results: z.number().int().min(1).max(1000).optional().describe("Default 50"),
};

/** Validated arguments. */
export type GetCouplingMetricsArgs = ArgsOf<typeof _args, "required">;

const _ASSESSMENT = z.enum(["isolated", "stable", "neutral", "unstable"]);

const _fields = {
  repo: z.string().describe("Repo id"),
  module_count: z.number().int().describe("Modules in scope"),
  modules: rows({
    module: z.string().describe("A file, or a package folder"),
    files: z.number().int().describe("Its indexed files"),
    role: z.string().describe("source, test, example, docs, vendor, generated, …"),
    ca: z.number().int().describe("Afferent: modules importing it"),
    ce: z.number().int().describe("Efferent: modules it imports"),
    instability: z.number().nullable().describe("Ce / (Ca + Ce); null when isolated"),
    assessment: _ASSESSMENT.describe("stable ≤ 0.3 < neutral ≤ 0.7 < unstable"),
  }).describe("Most coupled (Ca + Ce) first; with module_path, that module alone"),
  module: z.string().optional().describe("The module of module_path"),
  ca: z.number().int().optional().describe("Its afferent coupling"),
  ce: z.number().int().optional().describe("Its efferent coupling"),
  instability: z.number().nullable().optional().describe("Its instability"),
  assessment: _ASSESSMENT.optional().describe("Its assessment"),
  importers: z.array(z.string()).optional().describe("Modules importing it"),
  dependencies: z.array(z.string()).optional().describe("Modules it imports"),
};

const _meta = { truncated: META.truncated, hint: META.hint };

type _Response = ResponseOf<typeof _fields>;

function _row(m: ModuleCoupling): _Response["modules"][number] {
  const { importers: _i, dependencies: _d, ...row } = m;
  return row;
}

/** The module `module_path` names: a file's unit, or a module key itself. */
function _moduleOf(view: RepoView, path: string): ModuleCoupling {
  const modules = view.get(COUPLING).modules;
  const clean = path.replace(/^\.\//, "").replace(/\/+$/, "");
  const key = view.get(FILES).has(clean) ? view.get(UNITS).keyOf(clean) : clean;
  const hit = modules.get(key);
  if (hit !== undefined) return hit;
  requireFile(view, clean); // throws file_not_found with the closest paths
  throw new Error(`unreachable: ${clean} is indexed but has no module`);
}

/** The coupling of one module or of every module. */
export function handler(
  ctx: ToolContext,
  args: GetCouplingMetricsArgs,
): ToolOutput<_Response, MetaOf<typeof _meta>> {
  const max = args.max_results ?? 50;
  const { repo, view } = openRepo(ctx, args.repo);
  if (args.module_path !== undefined) {
    const m = _moduleOf(view, args.module_path);
    const cut = m.importers.length > max || m.dependencies.length > max;
    return {
      response: {
        repo,
        module_count: 1,
        modules: [_row(m)],
        module: m.module,
        ca: m.ca,
        ce: m.ce,
        instability: m.instability,
        assessment: m.assessment,
        importers: m.importers.slice(0, max),
        dependencies: m.dependencies.slice(0, max),
      },
      repo,
      meta: graphMeta(cut, `Lists cut to ${max}: raise max_results (up to 1000)`),
    };
  }
  const inScope = scopeMatcher(args.scope);
  const all = view.get(COUPLING).ranked.filter((m) => inScope(m.module));
  return {
    response: { repo, module_count: all.length, modules: all.slice(0, max).map(_row) },
    repo,
    meta: graphMeta(
      all.length > max,
      `Showing ${max} of ${all.length} modules: raise max_results (up to 1000), narrow scope, or pass module_path`,
    ),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_coupling_metrics",
  title: "Coupling metrics",
  summary: "afferent/efferent coupling and instability per module, from the resolved imports",
  description:
    "Coupling per module (file or Go package): Ca importers, Ce imports, instability Ce/(Ca+Ce); one module_path or all.",
  repo: "required",
  args: _args,
  output: { fields: _fields, meta: _meta },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
