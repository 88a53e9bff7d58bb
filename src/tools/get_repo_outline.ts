/** `get_repo_outline`: a one-screen overview of an indexed repo (API.md §1.10). */
import { z } from "zod";
import { readGitHead } from "../ingest/git_head.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { facet } from "../query/view.ts";
import { SYMBOL_BRIEFS } from "../query/files.ts";
import { BRIEFS_BY_FILE, centralSymbols, FILE_RANK, IMPORT_EDGES } from "../query/page_rank.ts";
import { DEFAULT_TOKEN_BUDGET, estimateTokens, TOKEN_BUDGET_RANGE } from "../query/budget.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf, table } from "./define.ts";

const _args = {
  token_budget: z.number().int().min(TOKEN_BUDGET_RANGE.min).max(TOKEN_BUDGET_RANGE.max)
    .optional().describe(
      `Most tokens returned (default ${DEFAULT_TOKEN_BUDGET})`,
    ),
};

/** Validated arguments. */
export type GetRepoOutlineArgs = ArgsOf<typeof _args, "required">;

const _counts = (what: string) => z.record(z.string(), z.number().int()).describe(what);

const _fields = {
  repo: z.string().describe("Repo id"),
  indexed_at: z.string().describe("When it was last indexed (ISO 8601)"),
  file_count: z.number().int().describe("Files in the index"),
  symbol_count: z.number().int().describe("Symbols in the index"),
  languages: _counts("Files per language"),
  directories: _counts("Files per directory (`dir/`), the 40 largest, largest first"),
  symbol_kinds: _counts("Symbols per kind, most first"),
  most_imported_files: table("i", {
    file: z.string().describe("Repo-relative path"),
    imported_by: z.number().int().describe("Files importing it"),
  }, { intern: ["file"] }).optional().describe("The 10 files most imported (by more than one)"),
  most_central_symbols: table("c", {
    symbol_id: z.string().describe("The main symbol of a central file"),
    score: z.number().describe("The file's PageRank over resolved imports"),
    kind: z.string().describe("Symbol kind"),
  }, { intern: ["symbol_id"] }).optional().describe(
    "The main symbols of the 10 most central files",
  ),
  staleness_warning: z.string().optional().describe("Why the index may be stale, and what to run"),
};

const _meta = {
  symbol_count: META.symbol_count,
  is_stale: z.boolean().nullable().describe(
    "Whether the folder's git HEAD moved since indexing (or, without git, it is 7+ days old)",
  ),
  truncated: META.truncated,
  hint: META.hint,
};

type _Response = ResponseOf<typeof _fields>;

/** Days after which an index without a git head to compare counts as stale. */
const _STALE_DAYS = 7;

function _byCountDesc<T extends string>(counts: Map<T, number>): [T, number][] {
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** `dir/` → file count; two levels for big repos when that is finer, the 40 largest. */
export function directoryCounts(paths: readonly string[]): Record<string, number> {
  const level = (depth: number) => {
    const counts = new Map<string, number>();
    for (const p of paths) {
      const parts = p.split("/");
      const dir = parts.length === 1 ? "(root)" : parts.slice(0, Math.min(depth, parts.length - 1))
        .join("/") + "/";
      counts.set(dir, (counts.get(dir) ?? 0) + 1);
    }
    return counts;
  };
  let counts = level(1);
  if (paths.length > 500) {
    const two = level(2);
    if (two.size > counts.size) counts = two;
  }
  return Object.fromEntries(_byCountDesc(counts).slice(0, 40));
}

const OVERVIEW = facet("repo-overview", (view) => {
  const index = view.index;
  const files = index.listFiles();
  const paths = files.map((f) => f.path);
  const kinds = new Map<string, number>();
  for (const s of view.get(SYMBOL_BRIEFS)) kinds.set(s.kind, (kinds.get(s.kind) ?? 0) + 1);
  const inDegree = new Map<string, number>();
  for (const [, to] of view.get(IMPORT_EDGES)) inDegree.set(to, (inDegree.get(to) ?? 0) + 1);
  const mostImported = _byCountDesc(inDegree).filter(([, n]) => n > 1).slice(0, 10)
    .map(([file, n]) => ({ file, imported_by: n }));
  const central = centralSymbols(view.get(BRIEFS_BY_FILE), view.get(FILE_RANK), 10)
    .map(({ symbol, score }) => ({ symbol_id: symbol.id, score, kind: symbol.kind }));
  return {
    directories: directoryCounts(paths),
    symbol_kinds: Object.fromEntries(_byCountDesc(kinds)),
    most_imported_files: mostImported,
    most_central_symbols: central,
    // An overview stands in for a listing of the repo's paths, not for reading its files.
    raw_bytes: files.reduce((n, f) => n + f.path.length + 1, 0),
  };
});

/** The overview of a repo. */
export function handler(
  ctx: ToolContext,
  args: GetRepoOutlineArgs,
): ToolOutput<_Response, MetaOf<typeof _meta>> {
  const { repo, index, view } = openRepo(ctx, args.repo);
  const meta = index.meta();
  const o = view.get(OVERVIEW);
  const response: _Response = {
    repo,
    indexed_at: meta.indexed_at,
    file_count: meta.file_count,
    symbol_count: meta.symbol_count,
    languages: meta.languages,
    directories: o.directories,
    symbol_kinds: o.symbol_kinds,
  };
  if (o.most_imported_files.length > 0) response.most_imported_files = o.most_imported_files;
  if (o.most_central_symbols.length > 0) response.most_central_symbols = o.most_central_symbols;
  let isStale: boolean | null = null;
  if (meta.git_head !== "" && meta.source_root !== "") {
    const head = readGitHead(meta.source_root);
    if (head !== "") {
      isStale = head !== meta.git_head;
      if (isStale) {
        response.staleness_warning = `The folder's git HEAD (${
          head.slice(0, 12)
        }) differs from the indexed commit (${meta.git_head.slice(0, 12)}): run index_folder again`;
      }
    }
  } else if (meta.indexed_at !== "") {
    const days = (Date.now() - Date.parse(meta.indexed_at)) / 86_400_000;
    isStale = days >= _STALE_DAYS;
    if (isStale) {
      response.staleness_warning = `Indexed ${Math.floor(days)} days ago: re-index to refresh`;
    }
  }
  const out: MetaOf<typeof _meta> = { symbol_count: meta.symbol_count, is_stale: isStale };
  const budget = args.token_budget ?? DEFAULT_TOKEN_BUDGET;
  const dirs = Object.entries(o.directories);
  let dropped = 0;
  while (estimateTokens(response) > budget && dirs.length > 1) {
    dirs.pop(); // ordered by file count: the smallest go first
    dropped++;
    response.directories = Object.fromEntries(dirs);
  }
  out.truncated = dropped > 0 || estimateTokens(response) > budget;
  if (out.truncated === true) {
    out.hint =
      `${dropped} smaller directories left out to fit token_budget=${budget}: call get_file_tree with a path_prefix (e.g. path_prefix="${
        dirs.at(-1)?.[0] ?? ""
      }") to list one directory, or raise token_budget`;
  }
  return { response, rawBytes: o.raw_bytes, repo, meta: out };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_repo_outline",
  title: "Repo overview",
  summary: "one-screen overview: languages, biggest directories, symbol kinds, most imported files",
  description:
    "One-screen overview of a repo: counts, languages, biggest directories, most imported files, most central symbols, staleness. Use it first on an unfamiliar repo.",
  repo: "optional",
  args: _args,
  output: {
    fields: _fields,
    meta: _meta,
    encoding: {
      id: "ro1",
      transforms: [
        { kind: "dict", key: "languages", keyColumn: "language", valueColumn: "file_count" },
        { kind: "dict", key: "directories", keyColumn: "path", valueColumn: "file_count" },
        { kind: "dict", key: "symbol_kinds", keyColumn: "kind", valueColumn: "count" },
      ],
      reshaped: [
        { tag: "l", key: "languages", columns: ["language", "file_count"] },
        { tag: "d", key: "directories", columns: ["path", "file_count"], intern: ["path"] },
        { tag: "k", key: "symbol_kinds", columns: ["kind", "count"] },
      ],
    },
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
