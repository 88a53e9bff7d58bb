/**
 * Every MCP tool, one file each; the server and the CLI loop over {@linkcode TOOLS}.
 *
 * @module
 */
import type { z } from "zod";
import type { ToolContext, ToolOutput } from "./context.ts";
import * as indexFolder from "./index_folder.ts";
import * as indexRepo from "./index_repo.ts";
import * as listRepos from "./list_repos.ts";
import * as getFileTree from "./get_file_tree.ts";
import * as getFileOutline from "./get_file_outline.ts";
import * as getSymbolSource from "./get_symbol_source.ts";
import * as getFileContent from "./get_file_content.ts";
import * as searchSymbols from "./search_symbols.ts";
import * as searchText from "./search_text.ts";
import * as getRepoOutline from "./get_repo_outline.ts";
import * as invalidateCache from "./invalidate_cache.ts";
import * as resolveRepo from "./resolve_repo.ts";
import * as getWatchStatus from "./get_watch_status.ts";
import * as indexFile from "./index_file.ts";
import * as findReferences from "./find_references.ts";
import * as findImporters from "./find_importers.ts";
import * as getCallHierarchy from "./get_call_hierarchy.ts";
import * as getDependencyGraph from "./get_dependency_graph.ts";
import * as getDependencyCycles from "./get_dependency_cycles.ts";
import * as getBlastRadius from "./get_blast_radius.ts";
import * as getImpactPreview from "./get_impact_preview.ts";
import * as getClassHierarchy from "./get_class_hierarchy.ts";
import * as searchAst from "./search_ast.ts";
import * as getTectonicMap from "./get_tectonic_map.ts";
import * as getRankedContext from "./get_ranked_context.ts";
import * as getContextBundle from "./get_context_bundle.ts";
import * as getSignalChains from "./get_signal_chains.ts";
import * as getChangedSymbols from "./get_changed_symbols.ts";
import * as getSymbolDiff from "./get_symbol_diff.ts";
import * as getSymbolProvenance from "./get_symbol_provenance.ts";
import * as getChurnRate from "./get_churn_rate.ts";

export type { ToolContext, ToolOutput } from "./context.ts";
export { DetailedToolError } from "../errors.ts";
export { ToolError } from "../errors.ts";

/** MCP tool annotations. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** One tool: what the server advertises and the handler it calls with validated arguments. */
export interface ToolDefinition {
  name: string;
  description: string;
  // deno-lint-ignore no-explicit-any -- each tool has its own object schema
  inputSchema: z.ZodObject<any>;
  annotations: ToolAnnotations;
  // deno-lint-ignore no-explicit-any -- validated by inputSchema before the call
  run(ctx: ToolContext, args: any): ToolOutput | Promise<ToolOutput>;
}

/** A tool module whose handler returns its response object directly (no raw-byte count). */
interface PlainToolModule {
  name: string;
  description: string;
  // deno-lint-ignore no-explicit-any -- each tool has its own object schema
  inputSchema: z.ZodObject<any>;
  annotations: ToolAnnotations;
}

function _plain(
  m: PlainToolModule,
  // deno-lint-ignore no-explicit-any -- validated by inputSchema before the call
  run: (ctx: ToolContext, args: any) => Promise<Record<string, unknown>> | Record<string, unknown>,
): ToolDefinition {
  return {
    name: m.name,
    description: m.description,
    inputSchema: m.inputSchema,
    annotations: m.annotations,
    run: async (ctx, args) => {
      const response = await run(ctx, args);
      const repo = typeof response.repo === "string" ? response.repo : undefined;
      return { response, ...(repo !== undefined ? { repo } : {}) };
    },
  };
}

function _alias(tool: ToolDefinition, alias: string): ToolDefinition {
  return {
    ...tool,
    name: alias,
    description: `Alias of ${tool.name}. ${tool.description}`,
  };
}

const _symbolSource: ToolDefinition = { ...getSymbolSource, run: getSymbolSource.handler };

/** Every tool, in the order clients list them. */
export const TOOLS: readonly ToolDefinition[] = [
  _plain(indexFolder, (ctx, args) =>
    indexFolder.handler({
      store: ctx.store,
      ingest: ctx.ingest,
      parser: ctx.parser(),
      cwd: ctx.cwd,
      summarizer: ctx.summarizer,
      ...(ctx.onProgress !== undefined ? { onProgress: ctx.onProgress } : {}),
    }, args)),
  _plain(indexRepo, (ctx, args) =>
    indexRepo.handler({
      store: ctx.store,
      ingest: ctx.ingest,
      github: ctx.github,
      summarizer: ctx.summarizer,
      parser: ctx.parser(),
      ...(ctx.onProgress !== undefined ? { onProgress: ctx.onProgress } : {}),
    }, args)),
  _plain(listRepos, (ctx) => listRepos.handler(ctx)),
  { ...getRepoOutline, run: getRepoOutline.handler },
  { ...getFileTree, run: getFileTree.handler },
  { ...getFileOutline, run: getFileOutline.handler },
  _symbolSource,
  ...getSymbolSource.aliases.map((a) => _alias(_symbolSource, a)),
  { ...getFileContent, run: getFileContent.handler },
  { ...searchSymbols, run: searchSymbols.handler },
  { ...searchText, run: searchText.handler },
  _plain(invalidateCache, (ctx, args) => invalidateCache.handler(ctx, args)),
  { ...resolveRepo, run: resolveRepo.handler },
  { ...getWatchStatus, run: getWatchStatus.handler },
  { ...indexFile, run: indexFile.handler },
  { ...findReferences, run: findReferences.handler },
  { ...findImporters, run: findImporters.handler },
  { ...getCallHierarchy, run: getCallHierarchy.handler },
  { ...getDependencyGraph, run: getDependencyGraph.handler },
  { ...getDependencyCycles, run: getDependencyCycles.handler },
  { ...getBlastRadius, run: getBlastRadius.handler },
  { ...getImpactPreview, run: getImpactPreview.handler },
  { ...getClassHierarchy, run: getClassHierarchy.handler },
  { ...searchAst, run: searchAst.handler },
  { ...getTectonicMap, run: getTectonicMap.handler },
  { ...getRankedContext, run: getRankedContext.handler },
  { ...getContextBundle, run: getContextBundle.handler },
  { ...getSignalChains, run: getSignalChains.handler },
  { ...getChangedSymbols, run: getChangedSymbols.handler },
  { ...getSymbolDiff, run: getSymbolDiff.handler },
  { ...getSymbolProvenance, run: getSymbolProvenance.handler },
  { ...getChurnRate, run: getChurnRate.handler },
];

/** The tool with this name, if any. */
export function toolByName(name: string): ToolDefinition | undefined {
  return TOOLS.find((t) => t.name === name);
}
