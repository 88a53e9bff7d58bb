/** `get_class_hierarchy`: ancestors and descendants of a class across files (API.md §7.3). */
import { z } from "zod";
import { CLASS_BASES, type HierarchyLink } from "../query/class_bases.ts";
import { definitionsNamed } from "../query/references.ts";
import { symbolRef } from "../query/symbols.ts";
import { findSymbol } from "../query/symbol_lookup.ts";
import { DetailedToolError } from "../errors.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { clampInt, graphMeta, symbolHeading } from "./graph_args.ts";

/** Tool name. */
export const name = "get_class_hierarchy";

/** Tool description shown to agents. */
export const description =
  "Get the ancestors and descendants of a class, interface, trait or Go type across files: bases from extends, implements, mixins (with), Python base lists, Ruby <, C#/Kotlin/Swift/C++ base lists, and Go struct/interface embedding, resolved through the file's imports. Each row gives the class (id, name, kind, file, line), relation (extends, implements, mixin, embeds), depth, `of` (the class it is a base or subclass of) and resolution (`resolved`, or `by_name` when only the name matched). Bases outside the repo (library classes) are listed in external_bases by name. Go types implementing an interface without naming it are not found (the index has no method sets). max_results (default 100, 1..1000) per list.";

/** Input schema. */
export const inputSchema = z.object({
  repo: z.string().describe("Repo id from list_repos (or a bare name that identifies one repo)"),
  class_name: z.string().describe("Class or type name, Qualified.name, or symbol id"),
  depth: z.number().int().optional().describe(
    "Levels to follow each way (default 10, clamped to 1..20)",
  ),
  max_results: z.number().int().optional().describe(
    "Most rows per list (default 100, clamped to 1..1000)",
  ),
});

/** Validated arguments. */
export type GetClassHierarchyArgs = z.infer<typeof inputSchema>;

/** Annotations for MCP clients. */
export const annotations = { readOnlyHint: true, openWorldHint: false } as const;

const _CLASS_KINDS = new Set(["class", "type"]);

function _row(link: HierarchyLink, of: string): Record<string, unknown> {
  return {
    ...symbolRef(link.symbol),
    relation: link.relation,
    depth: link.depth,
    of,
    resolution: link.resolution,
  };
}

/** The hierarchy of one class. */
export function handler(ctx: ToolContext, args: GetClassHierarchyArgs): ToolOutput {
  const warnings: string[] = [];
  const depth = clampInt("depth", args.depth, 10, 1, 20, warnings);
  const max = clampInt("max_results", args.max_results, 100, 1, 1000, warnings);
  const { repo, view } = openRepo(ctx, args.repo);
  const classes = definitionsNamed(view, args.class_name).filter((s) => _CLASS_KINDS.has(s.kind));
  if (classes.length > 1) {
    throw new DetailedToolError(
      "symbol_ambiguous",
      `Ambiguous class "${args.class_name}": ${classes.length} definitions in ${repo}. Pass one of the candidate ids as class_name`,
      { candidates: classes.slice(0, 20).map(symbolRef) },
    );
  }
  const cls = classes[0] ?? findSymbol(view, args.class_name);
  const bases = view.get(CLASS_BASES);
  // Each row names the class it hangs from.
  const ancestors = bases.ancestors(cls, depth).map((l) => _row(l, l.from.id));
  const descendants = bases.descendants(cls, depth).map((l) => _row(l, l.from.id));
  const external = bases.externalAncestors(cls, depth).map((e) => ({
    name: e.name,
    relation: e.relation,
    depth: e.depth,
    of: e.of.id,
  }));
  const truncated = ancestors.length > max || descendants.length > max;
  return {
    response: {
      repo,
      class: symbolHeading(cls),
      ancestor_count: ancestors.length,
      descendant_count: descendants.length,
      ancestors: ancestors.slice(0, max),
      descendants: descendants.slice(0, max),
      external_bases: external.slice(0, max),
    },
    repo,
    meta: graphMeta(
      warnings,
      truncated,
      `Lists are cut at ${max} rows: raise max_results (up to 1000) or lower depth`,
    ),
  };
}
