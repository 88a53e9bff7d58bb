/**
 * The registry: every MCP tool, one declaration per file (`defineTool`, define.ts), in the order
 * clients list them. The server, the CLI, the generators (`deno task gen`) and the tests loop
 * over {@linkcode TOOLS}. Adding a tool: its file, and one line here.
 *
 * @module
 */
import type { Tool } from "./define.ts";

export type { ToolContext, ToolOutput } from "./context.ts";
export type { MunchLayout, Tool, ToolAnnotations } from "./define.ts";
export { DetailedToolError } from "../errors.ts";
export { ToolError } from "../errors.ts";

/**
 * Every tool, in the order clients list them (an alias is listed after its tool): one line per
 * tool, its file. (Literal specifiers: `deno check`, `deno compile` and the layering test see
 * each as a static import would be seen.)
 */
export const TOOLS: readonly Tool[] = (await Promise.all([
  import("./index_folder.ts"),
  import("./index_repo.ts"),
  import("./list_repos.ts"),
  import("./get_repo_outline.ts"),
  import("./get_file_tree.ts"),
  import("./get_file_outline.ts"),
  import("./get_symbol_source.ts"),
  import("./get_file_content.ts"),
  import("./search_symbols.ts"),
  import("./search_text.ts"),
  import("./invalidate_cache.ts"),
  import("./resolve_repo.ts"),
  import("./get_watch_status.ts"),
  import("./index_file.ts"),
  import("./find_references.ts"),
  import("./find_importers.ts"),
  import("./get_call_hierarchy.ts"),
  import("./get_dependency_graph.ts"),
  import("./get_dependency_cycles.ts"),
  import("./get_blast_radius.ts"),
  import("./get_impact_preview.ts"),
  import("./get_class_hierarchy.ts"),
  import("./search_ast.ts"),
  import("./get_tectonic_map.ts"),
  import("./get_ranked_context.ts"),
  import("./get_context_bundle.ts"),
  import("./get_signal_chains.ts"),
  import("./get_changed_symbols.ts"),
  import("./get_symbol_diff.ts"),
  import("./get_symbol_provenance.ts"),
  import("./get_churn_rate.ts"),
  import("./get_symbol_complexity.ts"),
  import("./get_hotspots.ts"),
  import("./get_pr_risk_profile.ts"),
  import("./check_references.ts"),
  import("./find_dead_code.ts"),
  import("./get_dead_code_v2.ts"),
  import("./get_untested_symbols.ts"),
  import("./check_rename_safe.ts"),
  import("./plan_refactoring.ts"),
  import("./get_extraction_candidates.ts"),
  import("./embed_repo.ts"),
  import("./get_symbol_importance.ts"),
  import("./get_coupling_metrics.ts"),
  import("./get_layer_violations.ts"),
  import("./get_related_symbols.ts"),
  import("./winnow_symbols.ts"),
  import("./get_repo_health.ts"),
  import("./jcodemunch_guide.ts"),
])).map((m) => m.tool);

/** Every name a tool answers to (its own and its aliases), mapped to the tool. */
const _BY_NAME: ReadonlyMap<string, Tool> = (() => {
  const byName = new Map<string, Tool>();
  for (const t of TOOLS) {
    for (const name of [t.name, ...t.aliases]) {
      if (byName.has(name)) throw new TypeError(`Two tools are named "${name}"`);
      byName.set(name, t);
    }
  }
  return byName;
})();

/** The tool with this name or alias, if any. */
export function toolByName(name: string): Tool | undefined {
  return _BY_NAME.get(name);
}

/** Every callable name: each tool's own, then its aliases. */
export function toolNames(): string[] {
  return TOOLS.flatMap((t) => [t.name, ...t.aliases]);
}
