/**
 * What a command prints for a tool's answer: the response (pretty JSON unless `--format` asks for
 * another), or the error in the command line's words — an argument named by the flag the user
 * typed, a remedy for a command rather than a server — with its candidates or closest matches.
 *
 * @module
 */
import type { Format } from "../codec/dispatch.ts";
import { ArgumentError, describeArgumentProblem, type ToolError } from "../errors.ts";
import type { CallResult } from "../server/runner.ts";
import type { Command, Invocation } from "./args.ts";

/** A tool error's message as the command line says it. */
export function commandMessage(error: ToolError, inv: Invocation, command?: Command): string {
  if (!(error instanceof ArgumentError)) return error.messageFor("command");
  const flagOf = new Map<string, string>();
  for (const [name, flag] of Object.entries(command?.flags ?? {})) {
    const typed = inv.typed.get(name);
    if (flag.arg !== undefined && typed !== undefined) flagOf.set(flag.arg, typed);
  }
  return error.problems.map((p) => {
    const flag = flagOf.get(p.argument);
    return flag === undefined ? describeArgumentProblem(p) : describeArgumentProblem(p, flag);
  }).join("; ");
}

/** Print a tool error with its candidates or closest matches; exit code 1. */
export function printError(result: CallResult, inv: Invocation, command?: Command): number {
  let body: Record<string, unknown> = { error: result.text };
  try {
    body = JSON.parse(result.text) as Record<string, unknown>;
  } catch { /* not JSON: print as is */ }
  const message = result.error === undefined
    ? String(body.error)
    : commandMessage(result.error, inv, command);
  console.error(`codemunch: ${message.replace(/; closest: .*$/, "")} (${result.code})`);
  const list = (Array.isArray(body.candidates) ? body.candidates : body.closest) as
    | unknown[]
    | undefined;
  if (Array.isArray(list) && list.length > 0) {
    console.error(Array.isArray(body.candidates) ? "Candidates:" : "Closest:");
    for (const c of list) console.error(`  ${_candidate(c)}`);
  }
  return 1;
}

function _candidate(c: unknown): string {
  if (typeof c === "string") return c;
  const r = c as Record<string, unknown>;
  const where = r.file !== undefined ? `  ${r.file}${r.line ? `:${r.line}` : ""}` : "";
  return `${r.id ?? r.repo ?? JSON.stringify(r)}${where}`;
}

/** Print a tool's answer (pretty JSON for `json`, the text as it came otherwise). */
export function printResult(
  result: CallResult,
  format: Format,
  inv: Invocation,
  command?: Command,
): number {
  if (result.isError) return printError(result, inv, command);
  if (format === "json") console.log(JSON.stringify(JSON.parse(result.text), null, 2));
  else console.log(result.text.replace(/\n$/, ""));
  return 0;
}
