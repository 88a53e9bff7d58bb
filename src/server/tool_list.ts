/**
 * The advertised tool list, derived from the declarations (`src/tools/mod.ts`): each tool's
 * name, title, description, JSON Schema of its arguments (with `format`) and annotations, as
 * `tools/list` sends it. `deno task gen` writes it to `tools_list.json`, which the stdio server
 * answers from without loading a tool; `tests/e2e/tools_list_test.ts` fails when that copy is
 * stale.
 *
 * @module
 */
import { z } from "zod";
import { type Tool, TOOLS } from "../tools/mod.ts";

/** The `format` argument every tool takes. */
export const FORMAT_ARGUMENT = z.enum([
  "auto",
  "compact",
  "json",
  "table",
  "adaptive",
  "encoded",
  "raw",
])
  .optional()
  .describe(
    "Response format: auto (default: compact MUNCH when it saves at least 15%, else JSON), compact (always MUNCH), json, or table (JSON with columnar lists)",
  );

/** One entry of `tools/list`. */
export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: Record<string, boolean>;
  execution: { taskSupport: "forbidden" };
}

/** The JSON Schema of a tool's arguments, `format` included (draft 7, as MCP clients read it). */
export function argumentsSchema(tool: Tool): Record<string, unknown> {
  return z.toJSONSchema(tool.inputSchema.extend({ format: FORMAT_ARGUMENT }), {
    target: "draft-7",
    io: "input",
  }) as Record<string, unknown>;
}

function _entry(tool: Tool, name: string, description: string): ListedTool {
  return {
    name,
    title: tool.title,
    description,
    inputSchema: argumentsSchema(tool),
    annotations: { ...tool.annotations },
    execution: { taskSupport: "forbidden" },
  };
}

/** Every tool as `tools/list` lists it; an alias follows its tool. */
export function listedTools(tools: readonly Tool[] = TOOLS): ListedTool[] {
  return tools.flatMap((t) => [
    _entry(t, t.name, t.description),
    ...t.aliases.map((a) => _entry(t, a, `Alias of ${t.name}. ${t.description}`)),
  ]);
}
