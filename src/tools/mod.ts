/**
 * The registry: every MCP tool, one declaration per file (`defineTool`, define.ts), in the order
 * clients list them. The server, the CLI, the generators (`deno task gen`) and the tests loop
 * over {@linkcode TOOLS}. Adding a tool: its file, and one entry here (with its import).
 *
 * @module
 */
import type { Tool } from "./define.ts";
import { tool as indexFolder } from "./index_folder.ts";
import { tool as indexRepo } from "./index_repo.ts";
import { tool as listRepos } from "./list_repos.ts";
import { tool as getRepoOutline } from "./get_repo_outline.ts";
import { tool as getFileTree } from "./get_file_tree.ts";
import { tool as getFileOutline } from "./get_file_outline.ts";
import { tool as getSymbolSource } from "./get_symbol_source.ts";
import { tool as getFileContent } from "./get_file_content.ts";
import { tool as searchSymbols } from "./search_symbols.ts";
import { tool as searchText } from "./search_text.ts";
import { tool as invalidateCache } from "./invalidate_cache.ts";
import { tool as resolveRepo } from "./resolve_repo.ts";
import { tool as getWatchStatus } from "./get_watch_status.ts";
import { tool as indexFile } from "./index_file.ts";
import { tool as findReferences } from "./find_references.ts";
import { tool as findImporters } from "./find_importers.ts";
import { tool as getCallHierarchy } from "./get_call_hierarchy.ts";
import { tool as getDependencyGraph } from "./get_dependency_graph.ts";
import { tool as getDependencyCycles } from "./get_dependency_cycles.ts";
import { tool as getBlastRadius } from "./get_blast_radius.ts";
import { tool as getImpactPreview } from "./get_impact_preview.ts";
import { tool as getClassHierarchy } from "./get_class_hierarchy.ts";
import { tool as searchAst } from "./search_ast.ts";
import { tool as getTectonicMap } from "./get_tectonic_map.ts";
import { tool as getRankedContext } from "./get_ranked_context.ts";
import { tool as getContextBundle } from "./get_context_bundle.ts";
import { tool as getSignalChains } from "./get_signal_chains.ts";
import { tool as getChangedSymbols } from "./get_changed_symbols.ts";
import { tool as getSymbolDiff } from "./get_symbol_diff.ts";
import { tool as getSymbolProvenance } from "./get_symbol_provenance.ts";
import { tool as getChurnRate } from "./get_churn_rate.ts";
import { tool as getSymbolComplexity } from "./get_symbol_complexity.ts";
import { tool as getHotspots } from "./get_hotspots.ts";
import { tool as getPrRiskProfile } from "./get_pr_risk_profile.ts";
import { tool as checkReferences } from "./check_references.ts";
import { tool as findDeadCode } from "./find_dead_code.ts";
import { tool as getDeadCodeV2 } from "./get_dead_code_v2.ts";
import { tool as getUntestedSymbols } from "./get_untested_symbols.ts";
import { tool as checkRenameSafe } from "./check_rename_safe.ts";
import { tool as planRefactoring } from "./plan_refactoring.ts";
import { tool as getExtractionCandidates } from "./get_extraction_candidates.ts";
import { tool as embedRepo } from "./embed_repo.ts";
import { tool as getSymbolImportance } from "./get_symbol_importance.ts";
import { tool as getCouplingMetrics } from "./get_coupling_metrics.ts";
import { tool as getLayerViolations } from "./get_layer_violations.ts";
import { tool as getRelatedSymbols } from "./get_related_symbols.ts";
import { tool as winnowSymbols } from "./winnow_symbols.ts";
import { tool as getRepoHealth } from "./get_repo_health.ts";
import { tool as jcodemunchGuide } from "./jcodemunch_guide.ts";

export type { ToolContext, ToolOutput } from "./context.ts";
export type { MunchLayout, Tool, ToolAnnotations } from "./define.ts";
export { DetailedToolError } from "../errors.ts";
export { ToolError } from "../errors.ts";

/** Every tool, in the order clients list them (an alias is listed after its tool). */
export const TOOLS: readonly Tool[] = [
  indexFolder,
  indexRepo,
  listRepos,
  getRepoOutline,
  getFileTree,
  getFileOutline,
  getSymbolSource,
  getFileContent,
  searchSymbols,
  searchText,
  invalidateCache,
  resolveRepo,
  getWatchStatus,
  indexFile,
  findReferences,
  findImporters,
  getCallHierarchy,
  getDependencyGraph,
  getDependencyCycles,
  getBlastRadius,
  getImpactPreview,
  getClassHierarchy,
  searchAst,
  getTectonicMap,
  getRankedContext,
  getContextBundle,
  getSignalChains,
  getChangedSymbols,
  getSymbolDiff,
  getSymbolProvenance,
  getChurnRate,
  getSymbolComplexity,
  getHotspots,
  getPrRiskProfile,
  checkReferences,
  findDeadCode,
  getDeadCodeV2,
  getUntestedSymbols,
  checkRenameSafe,
  planRefactoring,
  getExtractionCandidates,
  embedRepo,
  getSymbolImportance,
  getCouplingMetrics,
  getLayerViolations,
  getRelatedSymbols,
  winnowSymbols,
  getRepoHealth,
  jcodemunchGuide,
];

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
