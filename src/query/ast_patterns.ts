/**
 * What `search_ast` looks for (API.md §2.10): ten presets grouped in categories, and a small DSL
 * for custom searches. Parsing a pattern happens once, on the calling thread, so a bad pattern is
 * an `invalid_argument` before any file is read; the checks themselves run in
 * {@linkcode ./ast_checks.ts} inside a worker.
 */
import { ToolError } from "../errors.ts";
import { levenshtein } from "./names.ts";

/** How serious a match is; results sort error → warning → info. */
export type Severity = "error" | "warning" | "info";

/** A preset or custom check, as the worker runs it (structured-clone safe). */
export type AstCheck =
  | { kind: "empty_catch" }
  | { kind: "bare_except" }
  | { kind: "deeply_nested"; min: number }
  | { kind: "nested_loops"; min: number }
  | { kind: "god_function"; maxLines: number; maxComplexity: number }
  | { kind: "eval_exec" }
  | { kind: "hardcoded_secret" }
  | { kind: "todo_fixme" }
  | { kind: "magic_number" }
  | { kind: "reassigned_param" }
  | { kind: "call"; glob: string }
  | { kind: "string"; source: string; flags: string; literal: boolean }
  | { kind: "comment"; source: string; flags: string; literal: boolean }
  | { kind: "lines"; min: number };

/** A named check with its severity and category. */
export interface AstPattern {
  /** Preset name, or the custom pattern as written. */
  name: string;
  severity: Severity;
  category: string;
  description: string;
  check: AstCheck;
}

/** The presets, in the order `category: "all"` runs them. */
export const PRESETS: readonly AstPattern[] = [
  {
    name: "empty_catch",
    severity: "error",
    category: "error_handling",
    description: "A catch/except/rescue block with no statements: the error is swallowed",
    check: { kind: "empty_catch" },
  },
  {
    name: "bare_except",
    severity: "warning",
    category: "error_handling",
    description: "Python `except:` with no exception type (also catches KeyboardInterrupt)",
    check: { kind: "bare_except" },
  },
  {
    name: "deeply_nested",
    severity: "warning",
    category: "complexity",
    description: "Control flow nested 5 or more levels deep inside a function",
    check: { kind: "deeply_nested", min: 5 },
  },
  {
    name: "god_function",
    severity: "warning",
    category: "complexity",
    description: "A function longer than 100 lines or with cyclomatic complexity above 15",
    check: { kind: "god_function", maxLines: 100, maxComplexity: 15 },
  },
  {
    name: "todo_fixme",
    severity: "info",
    category: "maintenance",
    description: "TODO, FIXME, XXX and HACK comments",
    check: { kind: "todo_fixme" },
  },
  {
    name: "eval_exec",
    severity: "error",
    category: "security",
    description:
      "Dynamic code execution: eval, exec, new Function, os.system, child_process.exec and kin",
    check: { kind: "eval_exec" },
  },
  {
    name: "hardcoded_secret",
    severity: "error",
    category: "security",
    description:
      "A string literal of 8+ characters assigned to a name like password, secret, token or api_key",
    check: { kind: "hardcoded_secret" },
  },
  {
    name: "nested_loops",
    severity: "warning",
    category: "performance",
    description: "Loops nested 3 or more deep",
    check: { kind: "nested_loops", min: 3 },
  },
  {
    name: "magic_number",
    severity: "info",
    category: "maintenance",
    description:
      "A numeric literal other than -1, 0, 1, 2, 10, 100, 1000 inside a function body (not in a constant)",
    check: { kind: "magic_number" },
  },
  {
    name: "reassigned_param",
    severity: "info",
    category: "maintenance",
    description: "A function parameter assigned a new value in the body",
    check: { kind: "reassigned_param" },
  },
];

/** Category names accepted by `category` (`all` runs every preset). */
export const CATEGORIES: readonly string[] = [
  "security",
  "error_handling",
  "complexity",
  "performance",
  "maintenance",
  "all",
];

/** Longest custom pattern accepted. */
const _MAX_PATTERN = 500;

const _DSL_HELP =
  "custom patterns: call:<glob> (e.g. call:os.system, call:*.exec*), string:/regex/i or string:literal, comment:/regex/i, nesting:N+, loops:N+, lines:N+";

/**
 * The checks a `search_ast` call runs: the preset or custom `pattern`, or every preset of
 * `category` (which wins when both are given). Throws `invalid_argument` with what is accepted.
 */
export function resolvePatterns(pattern?: string, category?: string): AstPattern[] {
  if (category !== undefined) {
    const c = category.trim().toLowerCase();
    if (!CATEGORIES.includes(c)) {
      throw new ToolError(
        "invalid_argument",
        `Unknown category "${category}": expected one of ${CATEGORIES.join(", ")}`,
      );
    }
    return PRESETS.filter((p) => c === "all" || p.category === c);
  }
  if (pattern === undefined || pattern.trim() === "") {
    throw new ToolError(
      "invalid_argument",
      `Provide "pattern" (a preset: ${
        PRESETS.map((p) => p.name).join(", ")
      }; or ${_DSL_HELP}) or "category" (${CATEGORIES.join(", ")})`,
    );
  }
  const p = pattern.trim();
  const preset = PRESETS.find((x) => x.name === p.toLowerCase());
  if (preset !== undefined) return [preset];
  return [parseCustomPattern(p)];
}

/**
 * Parse one DSL pattern.
 *
 * @example Usage
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { parseCustomPattern } from "./ast_patterns.ts";
 * deepEqual(parseCustomPattern("loops:2+").check, { kind: "nested_loops", min: 2 });
 * deepEqual(parseCustomPattern("call:os.system").check, { kind: "call", glob: "os.system" });
 * ```
 */
export function parseCustomPattern(pattern: string): AstPattern {
  if (pattern.length > _MAX_PATTERN) {
    throw new ToolError(
      "invalid_argument",
      `Argument "pattern" is ${pattern.length} characters: at most ${_MAX_PATTERN}`,
    );
  }
  const colon = pattern.indexOf(":");
  const head = colon === -1 ? "" : pattern.slice(0, colon).toLowerCase();
  const body = colon === -1 ? "" : pattern.slice(colon + 1);
  const custom = (check: AstCheck, description: string): AstPattern => ({
    name: pattern,
    severity: "info",
    category: "custom",
    description,
    check,
  });
  const count = (what: string): number => {
    const m = /^\s*(\d{1,4})\s*\+?\s*$/.exec(body);
    if (m === null || Number(m[1]) < 1) {
      throw new ToolError(
        "invalid_argument",
        `Pattern "${pattern}": ${what} takes a positive count like ${what}:4+`,
      );
    }
    return Number(m[1]);
  };
  switch (head) {
    case "call": {
      const glob = body.trim();
      if (glob === "" || !/^[\w.$*?:\->]+$/.test(glob)) {
        throw new ToolError(
          "invalid_argument",
          `Pattern "${pattern}": call: takes a dotted name glob such as os.system or *.exec*`,
        );
      }
      return custom({ kind: "call", glob }, `Calls whose callee matches ${glob}`);
    }
    case "string":
    case "comment": {
      const re = _regexBody(pattern, body);
      return custom(
        { kind: head, ...re },
        `${head === "string" ? "String literals" : "Comments"} matching ${body}`,
      );
    }
    case "nesting":
      return custom(
        { kind: "deeply_nested", min: count("nesting") },
        `Control flow nested ${body} levels`,
      );
    case "loops":
      return custom({ kind: "nested_loops", min: count("loops") }, `Loops nested ${body} deep`);
    case "lines":
      return custom({ kind: "lines", min: count("lines") }, `Functions of ${body} lines`);
  }
  const near = PRESETS.map((x) => ({ n: x.name, d: levenshtein(x.name, pattern.toLowerCase(), 4) }))
    .filter((x) => x.d <= 4).sort((a, b) => a.d - b.d)[0];
  throw new ToolError(
    "invalid_argument",
    `Unknown pattern "${pattern}"${
      near === undefined ? "" : `: did you mean ${near.n}?`
    } Presets: ${PRESETS.map((x) => x.name).join(", ")}; ${_DSL_HELP}`,
  );
}

/**
 * A `/regex/flags` or literal body. The regex is compiled here to reject a bad one early; it runs
 * in the search worker, which is terminated at the time budget, so a pathological regex cannot
 * stall the server (and it only ever sees one literal or comment, at most 2,000 characters).
 */
function _regexBody(
  pattern: string,
  body: string,
): { source: string; flags: string; literal: boolean } {
  const m = /^\/(.+)\/([imsu]*)$/s.exec(body);
  if (m === null) {
    if (body === "") {
      throw new ToolError(
        "invalid_argument",
        `Pattern "${pattern}": give a literal or /regex/flags after the colon`,
      );
    }
    return { source: body, flags: "i", literal: true };
  }
  try {
    new RegExp(m[1]!, m[2]);
  } catch (e) {
    throw new ToolError(
      "invalid_argument",
      `Pattern "${pattern}": invalid regular expression: ${(e as Error).message}`,
    );
  }
  return { source: m[1]!, flags: m[2]!, literal: false };
}
