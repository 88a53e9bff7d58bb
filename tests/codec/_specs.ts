/**
 * Tier-1 specs as test data: the layouts the server's tools had when the codec still kept them
 * (`src/codec/schemas/`, removed when the specs became derived from the tool declarations). The
 * codec knows no tool; these exercise its transforms and layouts with specs passed in, and keep
 * the frozen-copy comparison (`v1_sameness_test.ts`) on the same inputs as before.
 */
import type { EncoderSpec } from "../../src/codec/spec.ts";

/** `fi3`: the importers of a file as one table. */
const FIND_IMPORTERS: EncoderSpec = {
  id: "fi3",
  tool: "find_importers",
  scalars: ["repo", "file_path", "importer_count"],
  tables: [{
    tag: "i",
    key: "importers",
    columns: ["file_path", "file", "specifier", "names", "line", "hops", "via", "has_importers"],
    intern: ["file_path", "file", "specifier", "via"],
  }],
};

/** `fr3`: every reference as one table row (files, symbols and targets interned). */
const FIND_REFERENCES: EncoderSpec = {
  id: "fr3",
  tool: "find_references",
  scalars: ["repo", "identifier", "reference_count", "file_count"],
  tables: [{
    tag: "r",
    key: "references",
    columns: [
      "identifier",
      "file",
      "line",
      "kind",
      "symbol",
      "target",
      "resolution",
      "candidates",
      "detail",
    ],
    intern: ["identifier", "file", "symbol", "target", "detail"],
  }],
};

const _SYMBOL_GET_BLAST_RADIUS = [
  "id",
  "name",
  "kind",
  "file",
  "line",
  "depth",
  "resolution",
  "importers",
];

/** `br3`: affected files (confirmed, potential, tests) and symbols as tables. */
const GET_BLAST_RADIUS: EncoderSpec = {
  id: "br3",
  tool: "get_blast_radius",
  scalars: [
    "repo",
    "depth",
    "call_depth",
    "importer_count",
    "direct_dependents_count",
    "overall_risk_score",
    "confirmed_count",
    "potential_count",
    "test_count",
    "affected_symbol_count",
    "test_symbol_count",
  ],
  tables: [
    {
      tag: "c",
      key: "confirmed",
      columns: ["file", "depth", "references", "importers", "has_test_reach"],
      intern: ["file"],
    },
    {
      tag: "p",
      key: "potential",
      columns: ["file", "depth", "reason"],
      intern: ["file", "reason"],
    },
    { tag: "t", key: "tests", columns: ["file", "depth", "references"], intern: ["file"] },
    {
      tag: "s",
      key: "affected_symbols",
      columns: _SYMBOL_GET_BLAST_RADIUS,
      intern: ["file", "id"],
    },
    { tag: "u", key: "test_symbols", columns: _SYMBOL_GET_BLAST_RADIUS, intern: ["file", "id"] },
    { tag: "d", key: "impact_by_depth", columns: ["depth", "file_count", "risk_score"] },
  ],
};

const _EDGE_GET_CALL_HIERARCHY = [
  "id",
  "name",
  "kind",
  "file",
  "line",
  "call_line",
  "depth",
  "from",
  "resolution",
  "candidates",
];

/** `ch2`: callers and callees as two tables of edges. */
const GET_CALL_HIERARCHY: EncoderSpec = {
  id: "ch2",
  tool: "get_call_hierarchy",
  scalars: ["repo", "direction", "depth", "depth_reached", "caller_count", "callee_count"],
  tables: [
    { tag: "c", key: "callers", columns: _EDGE_GET_CALL_HIERARCHY, intern: ["file", "id", "from"] },
    { tag: "e", key: "callees", columns: _EDGE_GET_CALL_HIERARCHY, intern: ["file", "id", "from"] },
  ],
};

const _LINK_GET_CLASS_HIERARCHY = [
  "id",
  "name",
  "kind",
  "file",
  "line",
  "relation",
  "depth",
  "of",
  "resolution",
];

/** `gh1`: ancestors, descendants and external bases as tables. */
const GET_CLASS_HIERARCHY: EncoderSpec = {
  id: "gh1",
  tool: "get_class_hierarchy",
  scalars: ["repo", "ancestor_count", "descendant_count"],
  tables: [
    {
      tag: "a",
      key: "ancestors",
      columns: _LINK_GET_CLASS_HIERARCHY,
      intern: ["file", "id", "of"],
    },
    {
      tag: "d",
      key: "descendants",
      columns: _LINK_GET_CLASS_HIERARCHY,
      intern: ["file", "id", "of"],
    },
    {
      tag: "x",
      key: "external_bases",
      columns: ["name", "relation", "depth", "of"],
      intern: ["of"],
    },
  ],
};

/**
 * `cb1`: get_context_bundle as four tables — the symbols with their sources, the import lines they
 * use, the related signatures (class, calls, caller, sibling) and the importing files.
 */
const GET_CONTEXT_BUNDLE: EncoderSpec = {
  id: "cb1",
  tool: "get_context_bundle",
  scalars: ["repo", "total_tokens", "budget_tokens", "markdown"],
  tables: [
    {
      tag: "s",
      key: "symbols",
      columns: ["symbol_id", "name", "kind", "file", "line", "end_line", "cut", "tokens", "source"],
      intern: ["symbol_id", "file"],
    },
    {
      tag: "m",
      key: "imports",
      columns: ["file", "line", "text", "used_by"],
      intern: ["file", "used_by"],
    },
    {
      tag: "r",
      key: "related",
      columns: ["symbol_id", "relation", "id", "kind", "file", "line", "signature", "resolution"],
      intern: ["symbol_id", "file", "id"],
    },
    { tag: "f", key: "importers", columns: ["symbol_id", "file"], intern: ["symbol_id"] },
  ],
};

/** `dc3`: the cycles (number, size, shortest path) and their members as two tables. */
const GET_DEPENDENCY_CYCLES: EncoderSpec = {
  id: "dc3",
  tool: "get_dependency_cycles",
  scalars: ["repo", "cycle_count"],
  tables: [
    { tag: "y", key: "cycles", columns: ["cycle", "length", "path"] },
    { tag: "f", key: "cycle_files", columns: ["cycle", "file"], intern: ["file"] },
  ],
};

/** `dg2`: the edges around a file as one table (importer → imported, with the hop). */
const GET_DEPENDENCY_GRAPH: EncoderSpec = {
  id: "dg2",
  tool: "get_dependency_graph",
  scalars: ["repo", "file", "direction", "depth", "depth_reached", "node_count", "edge_count"],
  tables: [{ tag: "e", key: "edges", columns: ["from", "to", "depth"], intern: ["from", "to"] }],
};

/**
 * Layout of codemunch's outline rows (`symbols`: one row per symbol with its `parent` id, and in
 * a batch a `file` column first, interned), and `fo1` (extended format only) for the nested
 * shape of the reference: a file outline's symbol tree flattened in preorder with a
 * `__depth` column (children follow their parent), so nested methods stay in the table instead
 * of JSON blobs; a batched outline (`file_paths`) is one table of files and one table of all
 * their symbols, each symbol row naming its file first.
 */
const GET_FILE_OUTLINE: EncoderSpec = {
  id: "fo1",
  tool: "get_file_outline",
  scalars: ["repo", "file", "language", "file_summary", "symbol_count"],
  tables: [
    {
      tag: "s",
      key: "symbols",
      columns: [
        "__depth",
        "file",
        "id",
        "name",
        "kind",
        "line",
        "end_line",
        "parent",
        "signature",
        "summary",
        "decorators",
      ],
      intern: ["file", "id", "parent", "signature", "summary", "decorators"],
    },
    {
      tag: "f",
      key: "results",
      columns: ["file", "language", "file_summary", "symbols"],
      intern: ["file"],
    },
    {
      tag: "o",
      key: "__symbols__",
      columns: [
        "file",
        "__depth",
        "id",
        "name",
        "kind",
        "line",
        "end_line",
        "signature",
        "summary",
      ],
      intern: ["file", "id", "signature", "summary"],
    },
  ],
  transforms: [
    { kind: "tree", key: "symbols", children: "children" },
    {
      kind: "forest",
      key: "results",
      into: "__symbols__",
      by: "file",
      child: "symbols",
      children: "children",
    },
  ],
};

/**
 * `ft1` (ours; the reference has no tier-1 encoder for this tool): the nested file tree
 * flattened in preorder with a `__depth` column, paths interned.
 */
const GET_FILE_TREE: EncoderSpec = {
  id: "ft1",
  tool: "get_file_tree",
  scalars: ["repo", "path_prefix"],
  tables: [{
    tag: "f",
    key: "tree",
    columns: ["__depth", "path", "type", "language", "symbol_count", "summary"],
    intern: ["path"],
  }],
  transforms: [{ kind: "tree", key: "tree", children: "children" }],
};

const _SYMBOL_GET_IMPACT_PREVIEW = [
  "id",
  "name",
  "kind",
  "file",
  "line",
  "depth",
  "from",
  "resolution",
  "candidates",
  "importers",
];

/** `ip2`: affected symbols, test symbols and files as tables. */
const GET_IMPACT_PREVIEW: EncoderSpec = {
  id: "ip2",
  tool: "get_impact_preview",
  scalars: [
    "repo",
    "depth",
    "depth_reached",
    "affected_file_count",
    "affected_symbol_count",
    "test_symbol_count",
  ],
  tables: [
    {
      tag: "s",
      key: "affected_symbols",
      columns: _SYMBOL_GET_IMPACT_PREVIEW,
      intern: ["file", "id", "from"],
    },
    {
      tag: "u",
      key: "test_symbols",
      columns: _SYMBOL_GET_IMPACT_PREVIEW,
      intern: ["file", "id", "from"],
    },
    {
      tag: "f",
      key: "affected_files",
      columns: ["file", "symbols", "depth", "importers"],
      intern: ["file"],
    },
  ],
};

/** `rc2`: get_ranked_context items as one table (ids and files interned), source in a column. */
const GET_RANKED_CONTEXT: EncoderSpec = {
  id: "rc2",
  tool: "get_ranked_context",
  scalars: [
    "repo",
    "query",
    "total_tokens",
    "budget_tokens",
    "items_included",
    "items_considered",
    "token_estimate",
  ],
  tables: [{
    tag: "i",
    key: "context_items",
    columns: [
      "symbol_id",
      "name",
      "kind",
      "file",
      "line",
      "end_line",
      "score",
      "why",
      "cut",
      "tokens",
      "source",
      "_freshness",
    ],
    intern: ["file", "symbol_id"],
  }],
};

/** `ro1`: the repo overview; its count maps (languages, directories, kinds) become tables. */
const GET_REPO_OUTLINE: EncoderSpec = {
  id: "ro1",
  tool: "get_repo_outline",
  scalars: [
    "repo",
    "source_root",
    "display_name",
    "indexed_at",
    "git_head",
    "file_count",
    "symbol_count",
    "staleness_warning",
  ],
  tables: [
    { tag: "l", key: "languages", columns: ["language", "file_count"] },
    { tag: "d", key: "directories", columns: ["path", "file_count"], intern: ["path"] },
    { tag: "k", key: "symbol_kinds", columns: ["kind", "count"] },
    { tag: "i", key: "most_imported_files", columns: ["file", "imported_by"], intern: ["file"] },
    {
      tag: "c",
      key: "most_central_symbols",
      columns: ["symbol_id", "score", "kind"],
      intern: ["symbol_id"],
    },
  ],
  transforms: [
    { kind: "dict", key: "languages", keyColumn: "language", valueColumn: "file_count" },
    { kind: "dict", key: "directories", keyColumn: "path", valueColumn: "file_count" },
    { kind: "dict", key: "symbol_kinds", keyColumn: "kind", valueColumn: "count" },
  ],
};

/**
 * `sc3`: get_signal_chains as tables — the chains (one row per entry point, or per reaching entry
 * point in lookup mode), their listed members, and the count per kind. (The reference's `sc2`
 * dropped the member lists.)
 */
const GET_SIGNAL_CHAINS: EncoderSpec = {
  id: "sc3",
  tool: "get_signal_chains",
  scalars: [
    "repo",
    "gateway_count",
    "chain_count",
    "symbol",
    "symbol_id",
    "on_no_chain",
    "total_functions_methods",
    "orphan_symbols",
    "orphan_symbol_pct",
    "gateway_warning",
  ],
  tables: [
    {
      tag: "c",
      key: "chains",
      columns: [
        "gateway",
        "gateway_name",
        "kind",
        "label",
        "file",
        "line",
        "via",
        "depth",
        "reach",
        "file_count",
        "chain_truncated",
        "depth_from_gateway",
        "chain_reach",
      ],
      intern: ["gateway", "file"],
    },
    {
      tag: "y",
      key: "chain_symbols",
      columns: ["gateway", "symbol_id", "depth", "from"],
      intern: ["gateway", "symbol_id", "from"],
    },
    { tag: "k", key: "kind_summary", columns: ["kind", "count"] },
  ],
};

/**
 * `tm3`: get_tectonic_map as tables — modules, their member files, the coupling between modules,
 * and the drifters. (The reference's `tm2` dropped member files and coupling.)
 */
const GET_TECTONIC_MAP: EncoderSpec = {
  id: "tm3",
  tool: "get_tectonic_map",
  scalars: ["repo", "plate_count", "file_count", "isolated_count"],
  tables: [
    {
      tag: "p",
      key: "plates",
      columns: [
        "plate_id",
        "name",
        "anchor",
        "file_count",
        "cohesion",
        "majority_directory",
        "drifter_count",
      ],
    },
    { tag: "m", key: "members", columns: ["plate_id", "file"] },
    { tag: "c", key: "couplings", columns: ["from", "to", "weight"] },
    {
      tag: "z",
      key: "drifter_summary",
      columns: ["file", "current_directory", "belongs_with", "plate_id"],
    },
  ],
};

/**
 * `sa2`: search_ast matches as one table (files, symbol ids and snippets interned); detector
 * extras (callee, function_name, nesting_depth, …) are further columns, empty where a match has
 * none. (The reference's `sa1` named columns its matches do not have.)
 */
const SEARCH_AST: EncoderSpec = {
  id: "sa2",
  tool: "search_ast",
  scalars: ["repo", "total_matches", "truncated", "pattern", "category", "description"],
  tables: [{
    tag: "a",
    key: "matches",
    columns: [
      "file",
      "line",
      "end_line",
      "column",
      "severity",
      "pattern",
      "snippet",
      "language",
      "enclosing_symbol",
      "symbol_kind",
    ],
    intern: ["file", "enclosing_symbol", "pattern", "language"],
  }],
};

/** `ss1`: search_symbols hits as one table, ids and files interned. */
const SEARCH_SYMBOL_SEARCH_SYMBOLSS: EncoderSpec = {
  id: "ss1",
  tool: "search_symbols",
  scalars: ["result_count", "query", "repo"],
  tables: [{
    tag: "s",
    key: "results",
    columns: ["id", "name", "kind", "file", "line", "score", "signature", "summary", "decorators"],
    // Summaries often repeat the signature (the signature fallback): interning shares them.
    intern: ["file", "id", "signature", "summary", "decorators"],
  }],
};

/**
 * `st1` (extended format only): search_text as grep prints it — one table, one row per line,
 * each naming its file first (interned, so a file's rows share one legend handle); with context,
 * the context lines are rows too, marked `-` (before) and `+` (after), the matches `:`.
 */
const SEARCH_TEXT: EncoderSpec = {
  id: "st1",
  tool: "search_text",
  scalars: ["result_count", "total_matches", "query", "repo"],
  tables: [
    {
      tag: "m",
      key: "__lines__",
      columns: ["file", "line", "mark", "text", "symbol"],
      intern: ["file", "symbol"],
    },
  ],
  transforms: [{
    kind: "lines",
    key: "results",
    into: "__lines__",
    by: "file",
    child: "matches",
    before: "before",
    after: "after",
    mark: "mark",
  }],
};

/** Every spec. */
export const SPECS: readonly EncoderSpec[] = [
  FIND_IMPORTERS,
  FIND_REFERENCES,
  GET_BLAST_RADIUS,
  GET_CALL_HIERARCHY,
  GET_CLASS_HIERARCHY,
  GET_CONTEXT_BUNDLE,
  GET_DEPENDENCY_CYCLES,
  GET_DEPENDENCY_GRAPH,
  GET_FILE_OUTLINE,
  GET_FILE_TREE,
  GET_IMPACT_PREVIEW,
  GET_RANKED_CONTEXT,
  GET_REPO_OUTLINE,
  GET_SIGNAL_CHAINS,
  GET_TECTONIC_MAP,
  SEARCH_AST,
  SEARCH_SYMBOL_SEARCH_SYMBOLSS,
  SEARCH_TEXT,
];

/** The spec of a tool name, if any. */
export function specFor(tool: string): EncoderSpec | undefined {
  return SPECS.find((s) => s.tool === tool);
}

/** `encode` options with the tool's spec (and `extra`). */
export function withSpec<T extends object>(
  tool: string,
  extra: T = {} as T,
): T & { spec?: EncoderSpec } {
  const spec = specFor(tool);
  return spec === undefined ? extra : { ...extra, spec };
}
