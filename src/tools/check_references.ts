/** `check_references`: is an identifier used anywhere, and how each use was found (docs/api.md). */
import { z } from "zod";
import { identifierUses, type Uses } from "../query/mentions_sites.ts";
import type { RepoView } from "../query/view.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { graphMeta, oneOf } from "./graph_args.ts";
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
  "Check whether an identifier (name, Qualified.name or symbol id) is used anywhere in the repo: the code graph's references (found_by resolved or by_name) and every other whole-word mention in any indexed file (found_by text), labelled code, string, comment, config or docs. Definitions are not counted. Use it before deleting or renaming; a string or config mention is a dynamic use to check by hand.";

const _args = {
  identifier: z.string().optional().describe(
    "A name (parse_config), a Qualified.name (Server.start) or a symbol id",
  ),
  identifiers: z.array(z.string()).max(50).optional().describe(
    "Several identifiers (batch, at most 50); use instead of identifier",
  ),
  search_content: z.boolean().optional().describe(
    "Also search every file's text for mentions (default true; false: graph references only)",
  ),
  max_content_results: z.number().int().min(1).max(100).optional().describe(
    "Most files with text mentions listed per identifier (default 20)",
  ),
  max_results: z.number().int().min(1).max(1000).optional().describe(
    "Most use rows listed per identifier (default 100)",
  ),
};

/** Validated arguments. */
export type CheckReferencesArgs = ArgsOf<typeof _args, "required">;

const _counts = {
  is_referenced: z.boolean().describe("Whether any use was found"),
  reference_count: z.number().int().describe(
    "Graph references (calls, imports, type uses, subclasses)",
  ),
  import_count: z.number().int().describe("Of those, imports"),
  content_count: z.number().int().describe("Files with text mentions the graph does not cover"),
  use_count: z.number().int().describe("Use rows found (all of them)"),
};

const _fields = {
  repo: z.string().describe("Repo id"),
  identifier: z.string().optional().describe("The identifier asked about (identifier)"),
  is_referenced: _counts.is_referenced.optional(),
  reference_count: _counts.reference_count.optional(),
  import_count: _counts.import_count.optional(),
  content_count: _counts.content_count.optional(),
  use_count: _counts.use_count.optional(),
  results: rows({ identifier: z.string().describe("An identifier asked about"), ..._counts })
    .optional().describe("identifiers: one row per identifier"),
  uses: table("u", {
    identifier: z.string().optional().describe("The identifier (identifiers only)"),
    file: z.string().describe("File of the use"),
    line: z.number().int().describe("Its line"),
    found_by: z.enum(["resolved", "by_name", "text"]).describe(
      "resolved or by_name (a graph reference), text (a mention of the name)",
    ),
    kind: z.string().describe(
      "call, import, type_use, inherits (graph); code, string, comment, config, docs (text)",
    ),
    symbol: z.string().nullable().describe("The symbol it is written in"),
    text: z.string().describe("The line, trimmed (at most 160 characters)"),
  }, { intern: ["identifier", "file", "found_by", "kind", "symbol"] }).describe(
    "Every use, by file and line, at most max_results per identifier",
  ),
};

const _meta = { truncated: META.truncated, hint: META.hint };

function _check(
  view: RepoView,
  identifier: string,
  args: CheckReferencesArgs,
): { counts: z.infer<z.ZodObject<typeof _counts>>; found: Uses } {
  const found = identifierUses(view, identifier, {
    searchContent: args.search_content ?? true,
    maxContentFiles: args.max_content_results ?? 20,
    maxUses: args.max_results ?? 100,
  });
  return {
    counts: {
      is_referenced: found.uses.length > 0,
      reference_count: found.references,
      import_count: found.imports,
      content_count: found.contentFiles,
      use_count: found.uses.length,
    },
    found,
  };
}

function _rows(found: Uses, max: number, identifier?: string) {
  return found.uses.slice(0, max).map((u) => ({
    ...(identifier === undefined ? {} : { identifier }),
    file: u.file,
    line: u.line,
    found_by: u.foundBy,
    kind: u.kind,
    symbol: u.symbol,
    text: u.text,
  }));
}

/** The uses of one identifier, or of several (`results` and one `uses` table). */
export function handler(
  ctx: ToolContext,
  args: CheckReferencesArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const which = oneOf("identifier", args.identifier, "identifiers", args.identifiers, "identifier");
  const max = args.max_results ?? 100;
  const { repo, view } = openRepo(ctx, args.repo);
  const hint =
    "Some uses were left out: raise max_results (up to 1000) or max_content_results (up to 100)";
  if ("single" in which) {
    const { counts, found } = _check(view, which.single, args);
    return {
      response: { repo, identifier: which.single, ...counts, uses: _rows(found, max) },
      repo,
      meta: graphMeta(found.uses.length > max || found.contentCut, hint),
    };
  }
  const checked = which.batch.map((id) => ({ id, ..._check(view, id, args) }));
  return {
    response: {
      repo,
      results: checked.map((c) => ({ identifier: c.id, ...c.counts })),
      uses: checked.flatMap((c) => _rows(c.found, max, c.id)),
    },
    repo,
    meta: graphMeta(checked.some((c) => c.found.uses.length > max || c.found.contentCut), hint),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "check_references",
  title: "Check references",
  summary:
    "is an identifier used anywhere: graph references and text mentions (code, strings, config, docs), each labelled",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "cr1" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
