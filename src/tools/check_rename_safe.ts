/** `check_rename_safe`: collisions, sites and unknowns of renaming a symbol (docs/api.md). */
import { z } from "zod";
import type { RenameSite } from "../query/rename_sites.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf, table } from "./define.ts";
import { graphMeta, SYMBOL_HEADING, symbolHeading } from "./graph_args.ts";
import {
  analyseRename,
  collisionRows,
  COLLISIONS,
  unknownRows,
  UNKNOWNS,
  verdictOf,
} from "./rename_args.ts";

const _description =
  "Check whether renaming a symbol is safe before doing it. Lists collisions in every scope the new name enters (same file or package, class and its bases/subclasses, files importing it), every site that must change with file, line and column range (definition, references, imports, re-exports) and how each was found (graph, scope, import, by_name), strings holding the name (certainty check), comment/docs/config mentions to check by hand, and what cannot be known statically (ambiguous uses of a shared name, public API, reflection, overrides). verdict: safe, review or unsafe. plan_refactoring gives the edits.";

const _args = {
  symbol_id: z.string().describe("Symbol id (or a unique qualified or plain name)"),
  new_name: z.string().describe("The proposed name"),
  max_results: z.number().int().min(1).max(5000).optional().describe(
    "Most site and collision rows (default 300, 1..5000); counts count all",
  ),
};

/** Validated arguments. */
export type CheckRenameSafeArgs = ArgsOf<typeof _args, "required">;

/** The sites table (plan_refactoring lists its edits the same way). */
const _SITES = table("s", {
  file: z.string().describe("File"),
  line: z.number().int().describe("Line"),
  col: z.number().int().describe("1-based column of the name (code points)"),
  end_col: z.number().int().describe("Column just past it"),
  role: z.enum([
    "definition",
    "reference",
    "import",
    "re_export",
    "string",
    "comment",
    "docs",
    "config",
  ]).describe("What the site is"),
  found_by: z.enum(["definition", "graph", "scope", "import", "by_name", "text"]).describe(
    "How it was found",
  ),
  certainty: z.enum(["certain", "likely", "check", "ambiguous", "mention"]).describe(
    "certain/likely/check: to change; ambiguous: maybe another definition; mention: look",
  ),
  text: z.string().describe("The line, trimmed"),
}, { intern: ["file", "role", "found_by", "certainty"] }).describe("Every site, by file and line");

const _fields = {
  repo: z.string().describe("Repo id"),
  symbol: SYMBOL_HEADING,
  new_name: z.string().describe("The proposed name"),
  safe: z.boolean().describe("No collision"),
  verdict: z.enum(["safe", "review", "unsafe"]).describe(
    "unsafe: a collision; review: unknowns or mentions to check; safe: neither",
  ),
  collision_count: z.number().int().describe("Collisions"),
  edit_count: z.number().int().describe("Sites to change (certain, likely, check)"),
  ambiguous_count: z.number().int().describe("Code uses that may be another definition"),
  mention_count: z.number().int().describe("Comment, string, docs and config mentions"),
  files_scanned: z.number().int().describe("Files writing the name that were read"),
  collisions: COLLISIONS,
  unknowns: UNKNOWNS,
  sites: _SITES,
};

const _meta = { truncated: META.truncated, hint: META.hint };

/** A site as a row. */
export function siteRow(s: RenameSite) {
  return {
    file: s.file,
    line: s.line,
    col: s.col,
    end_col: s.endCol,
    role: s.role,
    found_by: s.foundBy,
    certainty: s.certainty,
    text: s.text,
  };
}

/** The rename check. */
export async function handler(
  ctx: ToolContext,
  args: CheckRenameSafeArgs,
): Promise<ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>>> {
  const max = args.max_results ?? 300;
  const { repo, view } = openRepo(ctx, args.repo);
  const a = await analyseRename(view, args.symbol_id, args.new_name);
  const sites = a.found.sites;
  const count = (...c: string[]) => sites.filter((s) => c.includes(s.certainty)).length;
  return {
    response: {
      repo,
      symbol: symbolHeading(a.symbol),
      new_name: args.new_name,
      safe: a.collisions.length === 0,
      verdict: verdictOf(a),
      collision_count: a.collisions.length,
      edit_count: count("certain", "likely", "check"),
      ambiguous_count: count("ambiguous"),
      mention_count: count("mention"),
      files_scanned: a.found.filesScanned,
      collisions: collisionRows(a.collisions.slice(0, max)),
      unknowns: unknownRows(a.unknowns),
      sites: sites.slice(0, max).map(siteRow),
    },
    repo,
    meta: graphMeta(
      sites.length > max || a.collisions.length > max,
      `Showing ${max} of ${sites.length} sites and ${a.collisions.length} collisions: raise max_results (up to 5000)`,
    ),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "check_rename_safe",
  title: "Check rename safety",
  summary:
    "collisions, every site to change (with columns) and what cannot be known statically, before a rename",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "rs1" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
