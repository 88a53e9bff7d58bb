/** `get_class_hierarchy`: ancestors and descendants of a class across files (API.md §7.3). */
import { z } from "zod";
import { CLASS_BASES, type HierarchyLink } from "../query/class_bases.ts";
import { definitionsNamed } from "../query/references.ts";
import { symbolRef } from "../query/symbols.ts";
import { findSymbol } from "../query/symbol_lookup.ts";
import { DetailedToolError } from "../errors.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { graphMeta, SYMBOL_HEADING, symbolHeading } from "./graph_args.ts";
import {
  type ArgsOf,
  defineTool,
  META,
  type MetaOf,
  type ResponseOf,
  type RowOf,
  type Shape,
  table,
} from "./define.ts";

const _description =
  "Get the ancestors and descendants of a class, interface, trait or Go type across files (extends, implements, mixins, embedding), resolved through imports. Each row gives the class, relation, depth, of (the class it relates to) and resolution; bases outside the repo are listed by name in external_bases.";

const _args = {
  class_name: z.string().describe("Class or type name, Qualified.name, or symbol id"),
  depth: z.number().int().min(1).max(20).optional().describe(
    "Levels to follow each way (default 10)",
  ),
  max_results: z.number().int().min(1).max(1000).optional().describe(
    "Most rows per list (default 100)",
  ),
};

/** Validated arguments. */
export type GetClassHierarchyArgs = ArgsOf<typeof _args, "required">;

const _LINK = {
  id: z.string().describe("Class id"),
  name: z.string().describe("Name"),
  kind: z.string().describe("Kind"),
  file: z.string().describe("File"),
  line: z.number().int().describe("Line"),
  relation: z.string().describe("extends, implements, mixin or embeds"),
  depth: z.number().int().describe("Level"),
  of: z.string().describe("The class it is a base or subclass of"),
  resolution: z.string().describe("resolved, or by_name"),
} satisfies Shape;

const _fields = {
  repo: z.string().describe("Repo id"),
  class: SYMBOL_HEADING,
  ancestor_count: z.number().int().describe("Ancestors found"),
  descendant_count: z.number().int().describe("Descendants found"),
  ancestors: table("a", _LINK, { intern: ["file", "id", "of"] }).describe("Bases, level by level"),
  descendants: table("d", _LINK, { intern: ["file", "id", "of"] }).describe(
    "Subclasses and implementors, level by level",
  ),
  external_bases: table("x", {
    name: z.string().describe("Base name (outside the repo)"),
    relation: z.string().describe("extends, implements, mixin or embeds"),
    depth: z.number().int().describe("Level"),
    of: z.string().describe("The class naming it"),
  }, { intern: ["of"] }).describe("Bases outside the repo, by name"),
};

const _meta = { truncated: META.truncated, hint: META.hint };

const _CLASS_KINDS = new Set(["class", "type"]);

function _row(link: HierarchyLink, of: string): RowOf<typeof _fields.ancestors> {
  return {
    ...symbolRef(link.symbol),
    relation: link.relation,
    depth: link.depth,
    of,
    resolution: link.resolution,
  };
}

/** The hierarchy of one class. */
export function handler(
  ctx: ToolContext,
  args: GetClassHierarchyArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const depth = args.depth ?? 10;
  const max = args.max_results ?? 100;
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
      truncated,
      `Lists are cut at ${max} rows: raise max_results (up to 1000) or lower depth`,
    ),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_class_hierarchy",
  title: "Class hierarchy",
  summary:
    "ancestors and descendants of a class/interface/Go type across files (extends, implements, mixins, embedding)",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "gh1" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
