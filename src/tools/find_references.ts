/**
 * `find_references`: every use of an identifier or a file — calls, imports, type uses and
 * inheritance — from the stored graph (API.md §2.1, widened: the reference searches imports only).
 */
import { z } from "zod";
import { FILES } from "../query/files.ts";
import { fileReferences, identifierReferences, type Reference } from "../query/references.ts";
import type { RepoView } from "../query/view.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { graphMeta, oneOf, withWarnings } from "./graph_args.ts";
import {
  type ArgsOf,
  defineTool,
  META,
  type MetaOf,
  type ResponseOf,
  rows,
  table,
} from "./define.ts";

const _description =
  "Find the references to a name, Qualified.name, symbol id or file: calls (resolved through scopes, imports and types), imports, type uses and subclasses, each with its enclosing symbol and how sure it is; identifiers for several.";

const _args = {
  identifier: z.string().optional().describe(
    "A name, Qualified.name, symbol id or file path",
  ),
  identifiers: z.array(z.string()).optional().describe(
    "Several identifiers",
  ),
  max_results: z.number().int().min(1).max(200).optional().describe(
    "Most references per identifier (default 50)",
  ),
  include_call_chain: z.boolean().optional().describe(
    "Accepted for compatibility: every call row already names its enclosing symbol",
  ),
};

/** Validated arguments. */
export type FindReferencesArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  identifier: z.string().optional().describe("The identifier asked about (identifier)"),
  reference_count: z.number().int().optional().describe("References found (all of them)"),
  file_count: z.number().int().optional().describe("Files they are in"),
  identifiers: rows({
    identifier: z.string().describe("An identifier asked about"),
    reference_count: z.number().int().describe("References found"),
    file_count: z.number().int().describe("Files they are in"),
  }).optional().describe("identifiers: one row per identifier"),
  references: table("r", {
    identifier: z.string().optional().describe("The identifier (identifiers only)"),
    file: z.string().describe("File of the reference"),
    line: z.number().int().describe("Its line"),
    kind: z.string().describe("call, import, type_use or inherits"),
    symbol: z.string().nullable().describe("The symbol it is written in"),
    target: z.string().nullable().describe("The definition referred to (null when unknown)"),
    resolution: z.string().describe("resolved, or by_name"),
    candidates: z.number().int().describe("Definitions the name could mean"),
    detail: z.string().describe("The specifier, the call as written, or the base relation"),
  }, {
    intern: ["identifier", "file", "symbol", "target", "detail"],
  }).describe("Sorted by file and line, at most max_results per identifier"),
};

const _meta = { truncated: META.truncated, hint: META.hint };

function _references(view: RepoView, identifier: string): Reference[] {
  return view.get(FILES).has(identifier)
    ? fileReferences(view, identifier)
    : identifierReferences(view, identifier);
}

function _result(view: RepoView, identifier: string, max: number) {
  const all = _references(view, identifier);
  return {
    identifier,
    reference_count: all.length,
    file_count: new Set(all.map((r) => r.file)).size,
    references: all.slice(0, max),
  };
}

/**
 * The references of `identifier`, or for `identifiers` `{repo, identifiers, references}`: one row
 * per identifier (its counts), and one table of all references with an `identifier` column.
 */
export function handler(
  ctx: ToolContext,
  args: FindReferencesArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const which = oneOf("identifier", args.identifier, "identifiers", args.identifiers, "identifier");
  const warnings: string[] = [];
  const max = args.max_results ?? 50;
  if (args.include_call_chain === true) {
    warnings.push("include_call_chain is not needed: every call row names its enclosing symbol");
  }
  const { repo, view } = openRepo(ctx, args.repo);
  if ("single" in which) {
    const r = _result(view, which.single, max);
    const truncated = r.reference_count > r.references.length;
    return {
      response: { repo, ...r },
      repo,
      meta: graphMeta(
        truncated,
        `Showing ${r.references.length} of ${r.reference_count}: raise max_results (up to 200) or pass a symbol id to narrow to one definition`,
      ),
      ...withWarnings(warnings),
    };
  }
  // Two tables: one row per identifier, and every reference row naming its identifier.
  const results = which.batch.map((id) => _result(view, id, max));
  const truncated = results.some((r) => r.reference_count > r.references.length);
  const identifiers = results.map(({ references: _, ...counts }) => counts);
  const references = results.flatMap((r) =>
    r.references.map((ref) => ({ identifier: r.identifier, ...ref }))
  );
  return {
    response: { repo, identifiers, references },
    repo,
    meta: graphMeta(truncated, "Some lists are cut: raise max_results (up to 200)"),
    ...withWarnings(warnings),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "find_references",
  title: "Find references",
  summary:
    "every call, import, type use and subclass of a name, symbol id or file, each `resolved` or `by_name` (see [docs/graph.md](docs/graph.md))",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "fr3" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
