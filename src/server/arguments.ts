/**
 * Argument handling before a tool runs (API.md §0.1): the `format` argument is taken out, the
 * `file` alias becomes `file_path`, strings are coerced where the schema wants a boolean or a
 * number ("true", "10"), and the result is validated by the tool's zod schema. Every failure is
 * a `ToolError("invalid_argument")` whose message names the argument and what was expected.
 *
 * Forgiving and honest (API.md Part A §10): a number outside its range is clamped to the nearest
 * limit, and an argument the tool does not know is ignored; both are named in the warnings that
 * the server puts in `_meta.warnings`. A wrong type is still an error.
 */
import type { z } from "zod";
import { type Format, resolveFormat } from "../codec/dispatch.ts";
import { ArgumentError, type ArgumentProblem, ToolError } from "../errors.ts";

/** Arguments split into the format and the tool's own validated arguments. */
export interface PreparedArguments {
  format: Format | undefined;
  args: Record<string, unknown>;
  /** What was clamped or ignored, one sentence each. */
  warnings: string[];
}

// deno-lint-ignore no-explicit-any -- zod internals differ per schema type
type AnySchema = any;

function _baseType(schema: AnySchema): string {
  let s = schema;
  for (let i = 0; i < 5 && s?._zod?.def !== undefined; i++) {
    const def = s._zod.def;
    if (def.type === "optional" || def.type === "default" || def.type === "nullable") {
      s = def.innerType;
    } else return def.type as string;
  }
  return "unknown";
}

function _coerce(value: unknown, type: string): unknown {
  if (typeof value !== "string") return value;
  const v = value.trim().toLowerCase();
  if (type === "boolean") {
    if (["true", "1", "yes", "on"].includes(v)) return true;
    if (["false", "0", "no", "off"].includes(v)) return false;
  }
  if ((type === "number" || type === "int") && v !== "" && Number.isFinite(Number(v))) {
    return Number(v);
  }
  return value;
}

function _describe(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? text.slice(0, 57) + "..." : text;
}

/** Split off `format`, apply aliases and coercion, validate against `schema`. */
export function prepareArguments(
  tool: string,
  schema: z.ZodObject,
  raw: unknown,
): PreparedArguments {
  if (raw !== undefined && raw !== null && (typeof raw !== "object" || Array.isArray(raw))) {
    throw new ToolError(
      "invalid_argument",
      `Arguments of ${tool} must be a JSON object, got ${_describe(raw)}`,
    );
  }
  const args: Record<string, unknown> = { ...(raw as Record<string, unknown> | null ?? {}) };
  let format: Format | undefined;
  if (args.format !== undefined && args.format !== null) {
    if (typeof args.format !== "string") {
      throw new ToolError(
        "invalid_argument",
        `Invalid argument "format": expected a string (auto, compact, json or table), got ${
          _describe(args.format)
        }`,
      );
    }
    try {
      format = resolveFormat(args.format.trim().toLowerCase());
    } catch (e) {
      throw new ToolError("invalid_argument", `Invalid argument "format": ${(e as Error).message}`);
    }
  }
  delete args.format;
  const shape = schema.shape as Record<string, AnySchema>;
  const warnings: string[] = [];
  if (args.file !== undefined && args.file_path === undefined && "file_path" in shape) {
    args.file_path = args.file;
    delete args.file;
  }
  for (const key of Object.keys(args)) {
    const field = shape[key];
    if (field === undefined) {
      warnings.push(`${key} is not an argument of ${tool} and was ignored`);
      delete args[key];
      continue;
    }
    if (args[key] === null) {
      delete args[key]; // null means "not given" for the optional arguments of every tool
      continue;
    }
    args[key] = _coerce(args[key], _baseType(field));
  }
  let parsed = schema.safeParse(args);
  if (!parsed.success && _clamp(args, parsed.error.issues, warnings)) {
    parsed = schema.safeParse(args);
  }
  if (!parsed.success) {
    throw new ArgumentError(parsed.error.issues.map((issue) => _problem(issue, args, shape)));
  }
  return { format, args: parsed.data as Record<string, unknown>, warnings };
}

/** A type as a user reads it. */
const _TYPE_WORDS: Record<string, string> = {
  number: "a number",
  int: "a whole number",
  string: "text",
  boolean: "true or false",
  array: "a list",
  object: "an object",
};

/** A validation issue as our own words: what was expected, and what came. */
function _problem(
  issue: z.core.$ZodIssue,
  args: Record<string, unknown>,
  shape: Record<string, AnySchema>,
): ArgumentProblem {
  const argument = issue.path.map(String).join(".") || "(arguments)";
  const top = issue.path[0];
  const given = top === undefined ? args : args[String(top)];
  if (issue.code === "invalid_type" && given === undefined) {
    const described = shape[argument]?.description as string | undefined;
    return { argument, kind: "missing", detail: described ?? `expected ${issue.expected}` };
  }
  let expected: string;
  if (issue.code === "invalid_type") {
    expected = `expected ${_TYPE_WORDS[issue.expected] ?? issue.expected}`;
  } else if (issue.code === "invalid_value") {
    expected = `expected one of ${issue.values.map((v) => String(v)).join(", ")}`;
  } else expected = issue.message;
  return { argument, kind: "invalid", detail: `${expected}, got ${_describe(given)}` };
}

/**
 * Clamp every top-level number that failed only its range to the limit it crossed; returns whether
 * anything was clamped.
 */
function _clamp(
  args: Record<string, unknown>,
  issues: readonly z.core.$ZodIssue[],
  warnings: string[],
): boolean {
  let clamped = false;
  for (const issue of issues) {
    if (issue.path.length !== 1 || (issue.code !== "too_big" && issue.code !== "too_small")) {
      continue;
    }
    if (issue.origin !== "number") continue;
    const key = String(issue.path[0]);
    const value = args[key];
    if (typeof value !== "number" || !Number.isFinite(value)) continue;
    let limit: number;
    if (issue.code === "too_big") {
      const max = Number(issue.maximum);
      limit = issue.inclusive === false ? Math.ceil(max) - 1 : max;
    } else {
      const min = Number(issue.minimum);
      limit = issue.inclusive === false ? Math.floor(min) + 1 : min;
    }
    args[key] = limit;
    warnings.push(`${key}=${value} is out of range and was clamped to ${limit}`);
    clamped = true;
  }
  return clamped;
}
