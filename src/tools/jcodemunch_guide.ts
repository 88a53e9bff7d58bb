/**
 * `jcodemunch_guide` (the reference's name, so a one-line CLAUDE.md written for it works here:
 * "Call jcodemunch_guide and follow it"): how to read code with this server's tools — the order
 * that reads the least, which tool answers which question, what to do after an edit, how to read
 * a compact answer — and every tool it offers in one line each. Generated from the tool registry
 * at call time, so it names only tools this server serves and never drifts from them; a step
 * naming a tool the server does not offer is left out. The MCP prompt of the same name
 * (src/server/catalog.ts) carries the same text.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ResponseOf } from "./define.ts";

/** A tool as the guide names it. */
export interface GuideTool {
  name: string;
  summary: string;
}

/** One line of the guide's workflow: the tools it names (all must be served) and its text. */
type _Step = readonly [tools: readonly string[], text: string];

/** The workflow, by section: each line kept only when every tool it names is served. */
const _SECTIONS: readonly (readonly [title: string, steps: readonly _Step[]])[] = [
  ["Start a session", [
    [
      ["resolve_repo", "index_folder"],
      '1. `resolve_repo {"path": "<the project folder>"}` gives its repo id, which every other tool takes as `repo`; when it is not indexed, `index_folder {"path": "<the folder>"}`.',
    ],
    [["list_repos"], "   Several projects: `list_repos` names every indexed repo and its id."],
    [
      ["get_repo_outline", "get_file_tree"],
      "2. `get_repo_outline` for the languages, biggest directories and most imported files; `get_file_tree` with `path_prefix` to look inside a directory.",
    ],
  ]],
  ["Find and read code", [
    [
      ["search_symbols"],
      "- A function, class or method by name or words: `search_symbols` (`kind`, `language`, `file_pattern` narrow it).",
    ],
    [
      ["search_text"],
      "- A literal string, error message, config key or comment: `search_text` (`is_regex`, `context_lines`).",
    ],
    [
      ["get_file_outline", "get_symbol_source"],
      "- What a file holds: `get_file_outline`, then `get_symbol_source` with the ids you need (`symbol_ids` for several in one call).",
    ],
    [
      ["get_ranked_context"],
      "- The code a task needs, best first, within a token budget: `get_ranked_context`.",
    ],
    [
      ["get_context_bundle"],
      "- A symbol with what editing it needs (its imports, class, callers, callees): `get_context_bundle`.",
    ],
    [["get_file_content"], "- A range of lines: `get_file_content` with `start_line`/`end_line`."],
  ]],
  ["Relationships and impact", [
    [
      ["get_call_hierarchy", "find_references", "find_importers"],
      "- Who calls it and what it calls: `get_call_hierarchy`; every use of a name: `find_references`; who imports a file: `find_importers`.",
    ],
    [
      ["get_blast_radius", "get_impact_preview"],
      "- What a change may break: `get_blast_radius` (files and symbols), `get_impact_preview` (every caller, transitively).",
    ],
    [["get_class_hierarchy"], "- Base classes and subclasses: `get_class_hierarchy`."],
    [
      ["get_changed_symbols"],
      "- What changed since the last commit, symbol by symbol: `get_changed_symbols`.",
    ],
  ]],
  ["After an edit", [
    [
      ["index_file"],
      '- `index_file {"path": "<absolute path>"}` makes the next answer see the edit. A server watching the folder, or the Claude Code hook of `codemunch init --hooks`, does it for you.',
    ],
  ]],
];

/** How answers read, whatever tools are served. */
const _ANSWERS = [
  "## Reading answers",
  "",
  "- Symbol ids look like `path/to/file.py::Class.method#method`; pass them on as they are.",
  '- A compact answer (MUNCH: its first line is `#MUNCH/1`) writes repeated strings as `@N` handles defined at its top: expand a handle before passing a value on, or ask with `format: "json"`.',
  '- An error is `{"error": ..., "code": ...}` and says what to do next: do that rather than guessing.',
];

/**
 * The guide for these served tools (Markdown).
 *
 * @example Only steps whose tools are served
 * ```ts
 * import { match, ok } from "node:assert/strict";
 * import { guideText } from "./jcodemunch_guide.ts";
 * const text = guideText([{ name: "search_text", summary: "literal or regex search" }]);
 * match(text, /`search_text` \(`is_regex`/);
 * ok(!text.includes("search_symbols"));
 * match(text, /- `search_text`: literal or regex search/);
 * ```
 */
export function guideText(tools: readonly GuideTool[]): string {
  const served = new Set(tools.map((t) => t.name));
  const lines = [
    "# Reading code with codemunch",
    "",
    "Use these tools instead of reading, grepping or globbing the files of an indexed repository: they answer with the symbols and lines you need, not whole files. Read a whole file only when you are about to edit it.",
  ];
  for (const [title, steps] of _SECTIONS) {
    const kept = steps.filter(([names]) => names.every((n) => served.has(n)));
    if (kept.length > 0) lines.push("", `## ${title}`, "", ...kept.map(([, text]) => text));
  }
  lines.push("", ..._ANSWERS, "", `## Every tool (${tools.length})`, "");
  for (const t of tools) lines.push(`- \`${t.name}\`: ${t.summary}`);
  return lines.join("\n") + "\n";
}

const _fields = {
  guide: z.string().describe("The guide, as Markdown"),
  tool_count: z.number().int().describe("Tools the guide lists (the tools this server serves)"),
};

/** The response of jcodemunch_guide. */
export type GuideResponse = ResponseOf<typeof _fields>;

/** The declaration. */
export const tool = defineTool({
  name: "jcodemunch_guide",
  title: "Usage guide",
  summary: "how to use these tools, in the order that reads the least — call it first",
  description:
    "Return the guide to this server's tools: the order that reads the least (resolve the repo, outlines, search, then exact symbols), which tool answers which question, what to do after an edit, how to read compact answers, and every tool in one line. Call it once at the start of a session and follow it.",
  repo: "none",
  args: {},
  output: { fields: _fields },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: async (ctx) => {
    // The registry lists this tool too: read it when called, not when the module loads.
    const { TOOLS } = await import("./mod.ts");
    const tools = TOOLS.filter((t) => ctx.serves?.(t.name) ?? true)
      .map((t) => ({ name: t.name, summary: t.summary }));
    return { response: { guide: guideText(tools), tool_count: tools.length } };
  },
});
