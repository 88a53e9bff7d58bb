/**
 * The registry of tier-1 encoder specs: one file per tool, listed here. Tools without a spec
 * encode through `gen1`.
 *
 * @module
 */
import type { EncoderSpec } from "../spec.ts";
import { GET_FILE_TREE } from "./get_file_tree.ts";
import { GET_FILE_OUTLINE } from "./get_file_outline.ts";
import { GET_REPO_OUTLINE } from "./get_repo_outline.ts";
import { SEARCH_SYMBOLS } from "./search_symbols.ts";
import { SEARCH_TEXT } from "./search_text.ts";
import { FIND_REFERENCES } from "./find_references.ts";
import { FIND_IMPORTERS } from "./find_importers.ts";
import { GET_CALL_HIERARCHY } from "./get_call_hierarchy.ts";
import { GET_DEPENDENCY_GRAPH } from "./get_dependency_graph.ts";
import { GET_DEPENDENCY_CYCLES } from "./get_dependency_cycles.ts";
import { GET_BLAST_RADIUS } from "./get_blast_radius.ts";
import { GET_IMPACT_PREVIEW } from "./get_impact_preview.ts";
import { GET_CLASS_HIERARCHY } from "./get_class_hierarchy.ts";
import { SEARCH_AST } from "./search_ast.ts";
import { GET_RANKED_CONTEXT } from "./get_ranked_context.ts";
import { GET_CONTEXT_BUNDLE } from "./get_context_bundle.ts";
import { GET_SIGNAL_CHAINS } from "./get_signal_chains.ts";
import { GET_TECTONIC_MAP } from "./get_tectonic_map.ts";

/** Every tier-1 spec. */
export const SPECS: readonly EncoderSpec[] = [
  SEARCH_SYMBOLS,
  GET_FILE_OUTLINE,
  GET_FILE_TREE,
  GET_REPO_OUTLINE,
  SEARCH_TEXT,
  FIND_REFERENCES,
  FIND_IMPORTERS,
  GET_CALL_HIERARCHY,
  GET_DEPENDENCY_GRAPH,
  GET_DEPENDENCY_CYCLES,
  GET_BLAST_RADIUS,
  GET_IMPACT_PREVIEW,
  GET_CLASS_HIERARCHY,
  SEARCH_AST,
  GET_RANKED_CONTEXT,
  GET_CONTEXT_BUNDLE,
  GET_SIGNAL_CHAINS,
  GET_TECTONIC_MAP,
];

const BY_TOOL = new Map(SPECS.map((s) => [s.tool, s]));
const BY_ID = new Map(SPECS.map((s) => [s.id, s]));

/** The tier-1 spec of a tool, if it has one. */
export function specForTool(tool: string): EncoderSpec | undefined {
  return BY_TOOL.get(tool);
}

/** The tier-1 spec with this encoding id, if known. */
export function specForId(id: string): EncoderSpec | undefined {
  return BY_ID.get(id);
}
