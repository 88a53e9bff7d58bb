/** `get_layer_violations`: imports that cross a forbidden layer boundary (docs/api.md). */
import { z } from "zod";
import { stripJsonc } from "../ingest/jsonc.ts";
import { PATHS } from "../query/files.ts";
import {
  checkLayerRules,
  configuredLayers,
  inferredLayers,
  LAYER_CONFIG_FILE,
  layerAssigner,
  type LayerRule,
  type LayerSource,
  type LayerViolation,
  ruleViolations,
} from "../query/layers.ts";
import type { RepoView } from "../query/view.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf, rows } from "./define.ts";
import { graphMeta } from "./graph_args.ts";

const _args = {
  rules: z.array(z.record(z.string(), z.unknown())).max(100).optional().describe("Layer rules"),
  max_results: z.number().int().min(1).max(5000).optional().describe(
    "Default 100",
  ),
};

/** Validated arguments. */
export type GetLayerViolationsArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  source: z.enum(["argument", "config", "inferred", "none"]).describe(
    "Where the layers came from: rules, the config file, the module map, or nowhere",
  ),
  layer_count: z.number().int().describe("Layers"),
  layers: rows({
    name: z.string().describe("Layer name"),
    files: z.number().int().describe("Indexed files in it"),
  }).describe("The layers, as declared or as the module map's plates"),
  violation_count: z.number().int().describe("Violations (all of them)"),
  violations: rows({
    file: z.string().describe("The importing file"),
    line: z.number().int().describe("Line of the import"),
    file_layer: z.string().describe("Its layer"),
    import_target: z.string().describe("The imported file"),
    target_layer: z.string().describe("Its layer"),
    rule_violated: z.string().describe('"a may_not_import b" (inferred: with both counts)'),
  }).describe("By file and line"),
  note: z.string().optional().describe("What was inferred, or why nothing was checked"),
};

const _meta = { truncated: META.truncated, hint: META.hint };

type _Response = ResponseOf<typeof _fields>;

function _declared(view: RepoView, rules: LayerRule[]): { name: string; files: number }[] {
  const layerOf = layerAssigner(rules);
  const counts = new Map(rules.map((r) => [r.name, 0]));
  for (const p of view.get(PATHS)) {
    const l = layerOf(p);
    if (l !== null) counts.set(l, counts.get(l)! + 1);
  }
  return rules.map((r) => ({ name: r.name, files: counts.get(r.name)! }));
}

/** The layers to check and their violations. */
function _check(view: RepoView, args: GetLayerViolationsArgs): {
  source: LayerSource;
  layers: { name: string; files: number }[];
  violations: LayerViolation[];
  note?: string;
} {
  const given = args.rules === undefined ? null : checkLayerRules(args.rules, "rules");
  const rules = given ?? configuredLayers(view, stripJsonc);
  if (rules !== null && rules.length > 0) {
    return {
      source: given !== null ? "argument" : "config",
      layers: _declared(view, rules),
      violations: ruleViolations(view, rules),
    };
  }
  const inferred = inferredLayers(view);
  if (inferred.layers.length < 2) {
    return {
      source: "none",
      layers: inferred.layers,
      violations: [],
      note:
        `No layers declared (pass rules, or add architecture.layers to ${LAYER_CONFIG_FILE}) and the module map has fewer than two plates to infer them from`,
    };
  }
  return {
    source: "inferred",
    layers: inferred.layers,
    violations: inferred.violations,
    note:
      `No layers declared: the layers are the module map's plates (get_tectonic_map), and a violation is an import against the direction most imports between two plates take${
        inferred.undecided > 0
          ? ` (${inferred.undecided} pairs import each other equally often: not judged)`
          : ""
      }. Declare layers with rules or architecture.layers in ${LAYER_CONFIG_FILE}`,
  };
}

/** The layer violations of a repo. */
export function handler(
  ctx: ToolContext,
  args: GetLayerViolationsArgs,
): ToolOutput<_Response, MetaOf<typeof _meta>> {
  const max = args.max_results ?? 100;
  const { repo, view } = openRepo(ctx, args.repo);
  const c = _check(view, args);
  const response: _Response = {
    repo,
    source: c.source,
    layer_count: c.layers.length,
    layers: c.layers,
    violation_count: c.violations.length,
    violations: c.violations.slice(0, max),
  };
  if (c.note !== undefined) response.note = c.note;
  return {
    response,
    repo,
    meta: graphMeta(
      c.violations.length > max,
      `Showing ${max} of ${c.violations.length} violations: raise max_results (up to 5000)`,
    ),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_layer_violations",
  title: "Layer violations",
  summary:
    "imports that cross a forbidden layer boundary, declared or inferred from the module map",
  description:
    `List imports that break layer rules [{name, paths, may_not_import}] (from rules, ${LAYER_CONFIG_FILE} architecture.layers, or inferred from the module map), with file and line.`,
  repo: "required",
  args: _args,
  output: { fields: _fields, meta: _meta },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
