/** `get_file_tree`: the nested file tree of an indexed repo, optionally under a prefix (API.md §1.4). */
import { z } from "zod";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";

/** Tool name. */
export const name = "get_file_tree";

/** Tool description shown to agents. */
export const description =
  "Get the file tree of an indexed repo (folders nested, each file with its language and symbol count), optionally only under a path prefix. Use it to find where things live before asking for outlines or symbols; narrow big repos with path_prefix.";

/** Input schema. */
export const inputSchema = z.object({
  repo: z.string().describe("Repo id from list_repos (or a bare name that identifies one repo)"),
  path_prefix: z.string().optional().describe(
    'Only paths starting with this text, e.g. "src/api" (a raw prefix: "src" also matches "srcx/")',
  ),
  include_summaries: z.boolean().optional().describe("Add each file's one-line summary"),
  max_files: z.number().int().min(1).max(100_000).optional().describe(
    "Most files listed (default 500); the response says when it truncated",
  ),
});

/** Validated arguments. */
export type GetFileTreeArgs = z.infer<typeof inputSchema>;

/** Annotations for MCP clients. */
export const annotations = { readOnlyHint: true, openWorldHint: false } as const;

interface DirNode {
  path: string;
  type: "dir";
  children: Node[];
}
type Node = DirNode | Record<string, unknown>;

/** The tree: directories (`path` = segment + "/") and files (`path` = repo-relative path). */
export function handler(ctx: ToolContext, args: GetFileTreeArgs): ToolOutput {
  const { repo, index } = openRepo(ctx, args.repo);
  const prefix = args.path_prefix ?? "";
  const maxFiles = args.max_files ?? 500;
  const matching = index.listFiles().filter((f) => f.path.startsWith(prefix));
  const shown = matching.slice(0, maxFiles);
  const root: DirNode = { path: "", type: "dir", children: [] };
  const dirs = new Map<string, DirNode>([["", root]]);
  let rawBytes = 0;
  for (const f of shown) {
    // A tree stands in for a listing of the paths (`find`), not for reading the files.
    rawBytes += f.path.length + 1;
    let rel = f.path.slice(prefix.length);
    while (rel.startsWith("/")) rel = rel.slice(1);
    const segments = rel.split("/");
    let parent = root;
    let at = "";
    for (const seg of segments.slice(0, -1)) {
      at += seg + "/";
      let dir = dirs.get(at);
      if (dir === undefined) {
        dir = { path: seg + "/", type: "dir", children: [] };
        dirs.set(at, dir);
        parent.children.push(dir);
      }
      parent = dir;
    }
    const node: Record<string, unknown> = {
      path: f.path,
      type: "file",
      language: f.language,
      symbol_count: f.symbol_count,
    };
    if (args.include_summaries) node.summary = f.summary;
    parent.children.push(node);
  }
  const sortTree = (nodes: Node[]) => {
    const key = (n: Node) => {
      const p = String(n.path);
      return n.type === "dir" ? p.slice(0, -1) : p.slice(p.lastIndexOf("/") + 1);
    };
    nodes.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    for (const n of nodes) if (n.type === "dir") sortTree((n as DirNode).children);
  };
  sortTree(root.children);
  const truncated = shown.length < matching.length;
  const meta: Record<string, unknown> = { file_count: shown.length, truncated };
  if (truncated) {
    meta.total_file_count = matching.length;
    meta.hint =
      `Showing ${shown.length} of ${matching.length} files: narrow with path_prefix or raise max_files (up to ${matching.length})`;
  } else if (matching.length === 0) {
    meta.hint = prefix === ""
      ? "The repo has no indexed files"
      : `No indexed path starts with "${prefix}": call get_file_tree without path_prefix to see the top level`;
  }
  return { response: { repo, path_prefix: prefix, tree: root.children }, rawBytes, repo, meta };
}
