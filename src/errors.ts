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

/** A tool failure with a stable `code` and a message that tells the user what to do next. */
export class ToolError extends Error {
  /** Stable machine-readable code, e.g. `repo_not_found`. */
  readonly code: ToolErrorCode;

  constructor(code: ToolErrorCode, message: string) {
    super(message);
    this.name = "ToolError";
    this.code = code;
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
      `Cannot access "${path}": it is outside the folders this server may read. Start the server with this folder in CODEMUNCH_ALLOWED_ROOTS (see README, "Permissions")`,
    );
  }
  return null;
}
