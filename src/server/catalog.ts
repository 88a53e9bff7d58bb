/**
 * MCP prompts and resources, answered by the method table both transports share (protocol.ts):
 *
 * - the prompt `codemunch_workflow` teaches an agent the way through an indexed codebase —
 *   `list_repos` → `get_repo_outline` / `get_file_outline` → `search_symbols` / `search_text` →
 *   `get_symbol_source` — optionally aimed at a task and a repo;
 * - the prompt `jcodemunch_guide` (the reference's name) is the text of the tool of that name:
 *   the guide to the tools this server serves;
 * - each indexed repo is a resource `codemunch://repo/<repo id>` whose content is its
 *   `get_repo_outline` (JSON); the template `codemunch://repo/{repo}` names the scheme.
 *
 * Answers are plain MCP result objects; the data comes through the {@linkcode ToolRunner}, so
 * errors carry the tools' messages.
 *
 * @module
 */
import type { ToolRunner } from "./runner.ts";

/** The workflow prompt's name. */
export const WORKFLOW_PROMPT = "codemunch_workflow";

/** URI prefix of the repo resources. */
export const REPO_URI = "codemunch://repo/";

/** The guide prompt's name (and its tool's). */
export const GUIDE_PROMPT = "jcodemunch_guide";

/** The `prompts/list` result. */
export const PROMPTS_LIST = {
  prompts: [{
    name: WORKFLOW_PROMPT,
    title: "Explore code with codemunch",
    description:
      "How to answer a question about an indexed codebase with the fewest tokens: list_repos, then outlines, then search, then the exact symbols.",
    arguments: [
      { name: "task", description: "What you want to find or understand", required: false },
      { name: "repo", description: "Repo id (from list_repos), if known", required: false },
    ],
  }, {
    name: GUIDE_PROMPT,
    title: "Guide to the codemunch tools",
    description:
      "Which tool answers which question, in the order that reads the least, and every tool this server serves in one line (the jcodemunch_guide tool's text).",
    arguments: [],
  }],
};

/** The `resources/templates/list` result. */
export const RESOURCE_TEMPLATES_LIST = {
  resourceTemplates: [{
    uriTemplate: `${REPO_URI}{repo}`,
    name: "repo-outline",
    title: "Indexed repo outline",
    description: "Overview of an indexed repo (languages, directories, symbol kinds) as JSON",
    mimeType: "application/json",
  }],
};

/** A JSON-RPC error for the servers to send: `code` is -32602 (invalid params). */
export class CatalogError extends Error {
  readonly code = -32602;
}

function _workflowText(task: string | undefined, repo: string | undefined): string {
  const target = repo ? `the repo \`${repo}\`` : "the codebase";
  return [
    task
      ? `Task: ${task}\n\nUse the codemunch tools to work on ${target}, reading as little as possible.`
      : `Use the codemunch tools to explore ${target}, reading as little as possible.`,
    "",
    repo
      ? `1. The repo id is \`${repo}\` (call \`list_repos\` if a tool says it is unknown).`
      : "1. Call `list_repos` for the repo id (if the folder is missing, `index_folder` with its absolute path).",
    "2. Get your bearings: `get_repo_outline` (languages, biggest directories), then `get_file_tree` with a `path_prefix` if needed.",
    "3. Find candidates: `search_symbols` for names, signatures and docstrings (filter with `kind`, `language`, `file_pattern`); `search_text` for literal strings, error messages and config keys.",
    "4. Look before reading: `get_file_outline` shows a file's classes and functions with signatures.",
    "5. Read exactly what you need: `get_symbol_source` with the ids from steps 3–4 (`symbol_ids` for several, `context_lines` for surroundings).",
    "",
    'Read whole files with `get_file_content` only when you need most of a file. Responses may be MUNCH (header `#MUNCH/1`), a compact lossless format; pass `format: "json"` if you prefer JSON.',
  ].join("\n");
}

/** The `prompts/get` result (the guide's text comes from its tool, through the runner). */
export async function getPrompt(
  params: Record<string, unknown> | undefined,
  runner: () => Promise<ToolRunner>,
): Promise<Record<string, unknown>> {
  const name = params?.name;
  if (name === GUIDE_PROMPT) return await _guidePrompt(await runner());
  if (name !== WORKFLOW_PROMPT) {
    throw new CatalogError(
      `Unknown prompt: ${String(name)}. Available: ${
        PROMPTS_LIST.prompts.map((p) => p.name).join(", ")
      }`,
    );
  }
  const args = (params?.arguments ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
  return {
    description: PROMPTS_LIST.prompts[0]!.description,
    messages: [{
      role: "user",
      content: { type: "text", text: _workflowText(str(args.task), str(args.repo)) },
    }],
  };
}

async function _guidePrompt(runner: ToolRunner): Promise<Record<string, unknown>> {
  const r = await runner.call(GUIDE_PROMPT, { format: "json" });
  if (r.isError) throw new CatalogError(JSON.parse(r.text).error);
  return {
    description: PROMPTS_LIST.prompts[1]!.description,
    messages: [{
      role: "user",
      content: { type: "text", text: (JSON.parse(r.text) as { guide: string }).guide },
    }],
  };
}

/** The `resources/list` result: one resource per indexed repo. */
export async function listResources(runner: ToolRunner): Promise<Record<string, unknown>> {
  const r = await runner.call("list_repos", { format: "json" });
  if (r.isError) throw new Error(JSON.parse(r.text).error);
  const body = JSON.parse(r.text) as {
    repos?: { repo: string; file_count?: number; symbol_count?: number; source_root?: string }[];
  };
  return {
    resources: (body.repos ?? []).map((m) => ({
      uri: REPO_URI + encodeURIComponent(m.repo),
      name: m.repo,
      title: `Repo ${m.repo}`,
      description: `Outline of ${m.source_root ?? m.repo}: ${m.file_count ?? "?"} files, ${
        m.symbol_count ?? "?"
      } symbols`,
      mimeType: "application/json",
    })),
  };
}

/** The `resources/read` result: the repo's outline as JSON. */
export async function readResource(
  runner: ToolRunner,
  params: Record<string, unknown> | undefined,
): Promise<Record<string, unknown>> {
  const uri = params?.uri;
  if (typeof uri !== "string" || !uri.startsWith(REPO_URI)) {
    throw new CatalogError(`Unknown resource: ${String(uri)}. Resources are ${REPO_URI}<repo id>`);
  }
  const repo = decodeURIComponent(uri.slice(REPO_URI.length));
  const r = await runner.call("get_repo_outline", { repo, format: "json" });
  if (r.isError) throw new CatalogError(JSON.parse(r.text).error);
  return { contents: [{ uri, mimeType: "application/json", text: r.text }] };
}
