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

/**
 * The `format` argument as `tools/list` advertises it: the four names an agent needs (the
 * reference's `adaptive`, `encoded` and `raw` stay accepted), in few words — every listed tool
 * carries it, so its tokens count once per tool.
 */
const _ADVERTISED_FORMAT = {
  type: "string",
  enum: ["auto", "compact", "json", "table"],
  description: "Default auto",
};

/** Arguments accepted only for the reference's sake start their description with this. */
export const COMPAT_ONLY = "Accepted for compatibility";

/** A property without the bounds zod writes for any integer (they say nothing). */
function _withoutSafeBounds(property: Record<string, unknown>): Record<string, unknown> {
  const { maximum, minimum, ...rest } = property;
  return {
    ...rest,
    ...(minimum !== undefined && minimum !== Number.MIN_SAFE_INTEGER ? { minimum } : {}),
    ...(maximum !== undefined && maximum !== Number.MAX_SAFE_INTEGER ? { maximum } : {}),
  };
}

/** One entry of `tools/list`. */
export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: Record<string, boolean>;
}

/** The JSON Schema of a tool's arguments, `format` included (draft 7, as MCP clients read it). */
export function argumentsSchema(tool: Tool): Record<string, unknown> {
  return z.toJSONSchema(tool.inputSchema.extend({ format: FORMAT_ARGUMENT }), {
    target: "draft-7",
    io: "input",
  }) as Record<string, unknown>;
}

/**
 * The schema `tools/list` advertises: {@linkcode argumentsSchema} without what costs tokens and
 * tells an agent nothing — the `$schema` line, arguments accepted only for compatibility (their
 * description starts with {@linkcode COMPAT_ONLY}; still accepted) — and with the short
 * `format`.
 */
export function advertisedSchema(tool: Tool): Record<string, unknown> {
  const { $schema: _, ...schema } = argumentsSchema(tool) as {
    $schema?: string;
    properties: Record<string, { description?: string }>;
  };
  const properties = Object.fromEntries(
    Object.entries(schema.properties)
      .filter(([, p]) => !p.description?.startsWith(COMPAT_ONLY))
      .map(([name, p]) => [name, _withoutSafeBounds(p)]),
  );
  return { ...schema, properties: { ...properties, format: _ADVERTISED_FORMAT } };
}

/**
 * Every tool as `tools/list` lists it. Aliases are callable but not listed (an agent needs one
 * name per tool, and each entry costs its schema's tokens); `docs/tools.md` names them.
 */
export function listedTools(tools: readonly Tool[] = TOOLS): ListedTool[] {
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: advertisedSchema(tool),
    annotations: { ...tool.annotations },
  }));
}
