/**
 * The one error type every layer throws (store, ingest, query, tools): it sits below them all, so
 * the store raises `repo_not_found` without knowing any tool. The server turns it into an MCP
 * error result (`isError: true`, `{"error": message, "code": code}`); the CLI prints the message.
 */

/** Stable error codes; clients may branch on them. */
export type ToolErrorCode =
  | "invalid_argument"
  | "repo_not_found"
  | "repo_ambiguous"
  | "folder_not_found"
  | "path_outside_allowed_roots"
  | "path_too_broad"
  | "index_busy"
  | "index_incompatible"
  | "index_corrupt"
  | "no_source_files"
  | "indexing_failed"
  | (string & Record<never, never>);

/** Who shows an error to the user: an MCP server, or a command run in a shell. */
export type ErrorEdge = "server" | "command";

/**
 * What to do about an error when that depends on who shows it: a server is restarted with a new
 * setting, a command is run again.
 */
export type Remedy = Readonly<Record<ErrorEdge, string>>;

/** A tool failure with a stable `code` and a message that tells the user what to do next. */
export class ToolError extends Error {
  /** Stable machine-readable code, e.g. `repo_not_found`. */
  readonly code: ToolErrorCode;
  /** What to do, in the words of each edge; the message carries the server's. */
  readonly remedy: Remedy | undefined;
  /** The message without the remedy. */
  readonly problem: string;

  constructor(code: ToolErrorCode, problem: string, remedy?: Remedy) {
    super(remedy === undefined ? problem : `${problem}. ${remedy.server}`);
    this.name = "ToolError";
    this.code = code;
    this.problem = problem;
    this.remedy = remedy;
  }

  /** The message as `edge` says it. */
  messageFor(edge: ErrorEdge): string {
    return this.remedy === undefined ? this.message : `${this.problem}. ${this.remedy[edge]}`;
  }
}

/** What is wrong with one argument of a call, as data (each edge names the argument its way). */
export interface ArgumentProblem {
  /** The argument (`max_results`; dotted for a nested field). */
  argument: string;
  /** A required argument not given, or a value the tool cannot take. */
  kind: "missing" | "invalid";
  /** What was expected (and what came): `expected a number, got "abc"`. */
  detail: string;
}

/**
 * One problem in words, the argument named by `name` (the server says `argument "max_results"`,
 * the command line its flag, `--max`).
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { describeArgumentProblem } from "./errors.ts";
 * const p = { argument: "max_results", kind: "invalid", detail: 'expected a number, got "abc"' } as const;
 * equal(describeArgumentProblem(p), 'Invalid argument "max_results": expected a number, got "abc"');
 * equal(describeArgumentProblem(p, "--max"), 'Invalid --max: expected a number, got "abc"');
 * ```
 */
export function describeArgumentProblem(
  p: ArgumentProblem,
  name = `argument "${p.argument}"`,
): string {
  return `${p.kind === "missing" ? "Missing required" : "Invalid"} ${name}: ${p.detail}`;
}

/**
 * An `invalid_argument` error that carries the arguments it is about, so that an edge can name
 * them its own way (the CLI names the flag the user typed) instead of rewriting the message.
 */
export class ArgumentError extends ToolError {
  readonly problems: readonly ArgumentProblem[];

  constructor(problems: readonly ArgumentProblem[]) {
    super("invalid_argument", problems.map((p) => describeArgumentProblem(p)).join("; "));
    this.problems = problems;
  }
}

/** A `ToolError` that carries extra fields for the error object (candidates, closest matches). */
export class DetailedToolError extends ToolError {
  /** Extra fields of the error object, e.g. `{candidates: [...]}`. */
  readonly details: Record<string, unknown>;

  constructor(code: ToolErrorCode, message: string, details: Record<string, unknown>) {
    super(code, message);
    this.details = details;
  }
}

/**
 * Map a failure from Deno's permission layer to a `ToolError`: reading outside the roots the
 * process was started with fails with `Deno.errors.NotCapable` (or `PermissionDenied` from an
 * interactive denial) before any file is opened. Returns null for other errors.
 */
export function permissionError(e: unknown, path: string): ToolError | null {
  if (e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied) {
    return new ToolError(
      "path_outside_allowed_roots",
      `Cannot access "${path}": it is outside the folders codemunch may read`,
      allowFolderRemedy(path, "add"),
    );
  }
  return null;
}

/**
 * How to let codemunch index `folder`: `set` CODEMUNCH_ALLOWED_ROOTS (none is allowed now) or
 * `add` the folder to it — a server then restarts, a command runs again.
 */
export function allowFolderRemedy(folder: string, how: "set" | "add"): Remedy {
  const setting = how === "set"
    ? "set CODEMUNCH_ALLOWED_ROOTS to the folders to index"
    : "add it to CODEMUNCH_ALLOWED_ROOTS";
  const cap = setting[0]!.toUpperCase() + setting.slice(1);
  return {
    server: `${cap} and restart the server (see README, "Allowed folders")`,
    command: `Run the command from inside ${folder}, or ${setting} (see README, "Allowed folders")`,
  };
}
