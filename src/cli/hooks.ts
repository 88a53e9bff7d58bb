/**
 * `codemunch hook pre-tool-use` and `codemunch hook post-tool-use`: the Claude Code hooks that
 * `init --hooks` installs. Claude Code runs each with the event as JSON on stdin
 * (`{"hook_event_name", "tool_name", "tool_input", "cwd", ...}`) and reads the exit code and
 * stdout:
 *
 * - PreToolUse (`Read|Grep|Glob`): when the file or folder is in an indexed repo, the hook answers
 *   `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "..."}}` naming
 *   the cheaper codemunch call with its arguments filled in (`get_file_outline` and
 *   `get_symbol_source` for a whole-file read, `search_text` / `search_symbols` for a grep,
 *   `get_file_tree` for a glob). It never blocks the tool: Claude Code needs a `Read` before an
 *   `Edit`, and a read with `offset`/`limit` (an edit coming) or of a small file passes silently.
 * - PostToolUse (`Edit|Write|MultiEdit`): the edited file is re-indexed (`index_file`) when it is
 *   in an indexed folder, so the next codemunch answer sees the edit; when that fails, the agent
 *   is told the index of that file is stale and how to refresh it.
 *
 * A hook never gets in the way: input it does not understand, a file outside every index, or any
 * failure of its own ends with exit code 0 and no output.
 *
 * @module
 */
import { resolve } from "node:path";
import { createRunner, type Environment } from "../server/compose.ts";
import type { ToolRunner } from "../server/runner.ts";
import { expectPositional, type Invocation, UsageError } from "./args.ts";

/** The fields of a hook event that the hooks read. */
export interface HookInput {
  hook_event_name?: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  cwd?: string;
}

/** Smallest file whose whole read gets a hint, in bytes (`JCODEMUNCH_HOOK_MIN_SIZE`). */
const _MIN_SIZE = 4096;

/** Run `hook <event>` with the event JSON from stdin; exit code 0 whatever happens. */
export async function hookCommand(inv: Invocation, environment: Environment): Promise<number> {
  expectPositional(inv, 1, "the hook event: pre-tool-use or post-tool-use");
  const event = inv.positional[0]!;
  if (event !== "pre-tool-use" && event !== "post-tool-use") {
    throw new UsageError(`Unknown hook event "${event}": use pre-tool-use or post-tool-use`);
  }
  let input: HookInput;
  try {
    input = JSON.parse(await new Response(Deno.stdin.readable).text());
  } catch {
    return 0; // not an event we can read: let the tool run
  }
  if (typeof input !== "object" || input === null || typeof input.tool_input !== "object") {
    return 0;
  }
  const { runner } = createRunner(environment);
  try {
    const options = { cwd: environment.cwd, minSize: _minSize(environment) };
    const output = event === "pre-tool-use"
      ? await preToolUse(runner, input, options)
      : await postToolUse(runner, input, options);
    if (output !== null) console.log(JSON.stringify(output));
  } catch {
    /* a hook's own failure never stops the agent */
  } finally {
    await runner.close();
  }
  return 0;
}

function _minSize(environment: Environment): number {
  const n = Number(environment.env("JCODEMUNCH_HOOK_MIN_SIZE"));
  return Number.isInteger(n) && n >= 0 ? n : _MIN_SIZE;
}

/** What a hook prints: context for the agent. */
export interface HookOutput {
  hookSpecificOutput: { hookEventName: "PreToolUse" | "PostToolUse"; additionalContext: string };
}

/** The indexed repo holding a path, and the path inside it. */
interface _Place {
  repo: string;
  relative: string;
}

/** Call a tool and parse its JSON answer; null on an error. */
async function _call(runner: ToolRunner, tool: string, args: Record<string, unknown>) {
  const r = await runner.call(tool, { ...args, format: "json" });
  return r.isError ? null : JSON.parse(r.text) as Record<string, unknown>;
}

/** The indexed repo of `path`, or null. */
async function _place(runner: ToolRunner, path: string): Promise<_Place | null> {
  const found = await _call(runner, "resolve_repo", { path });
  if (found === null || found.indexed !== true) return null;
  return { repo: String(found.repo), relative: String(found.relative_path ?? "") };
}

const _json = (args: Record<string, unknown>) => JSON.stringify(args);

/** Where a hook runs. */
export interface HookOptions {
  /** The folder relative paths resolve against when the event names none. */
  cwd: string;
  /** Smallest file whose whole read gets a hint, in bytes. @default 4096 */
  minSize?: number;
}

/** The PreToolUse answer for an event, or null to let the tool run without a word. */
export async function preToolUse(
  runner: ToolRunner,
  input: HookInput,
  options: HookOptions,
): Promise<HookOutput | null> {
  const tool = input.tool_input ?? {};
  const cwd = typeof input.cwd === "string" ? input.cwd : options.cwd;
  const minSize = options.minSize ?? _MIN_SIZE;
  const str = (k: string) => typeof tool[k] === "string" ? tool[k] as string : undefined;
  let text: string | null = null;
  if (input.tool_name === "Read" && str("file_path") !== undefined) {
    if (tool.offset !== undefined || tool.limit !== undefined) return null; // an edit is coming
    text = await _readHint(runner, resolve(cwd, str("file_path")!), minSize);
  } else if (input.tool_name === "Grep" && str("pattern") !== undefined) {
    text = await _grepHint(runner, resolve(cwd, str("path") ?? "."), str("pattern")!, str("glob"));
  } else if (input.tool_name === "Glob" && str("pattern") !== undefined) {
    text = await _globHint(runner, resolve(cwd, str("path") ?? "."), str("pattern")!);
  }
  return text === null
    ? null
    : { hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: text } };
}

async function _readHint(runner: ToolRunner, path: string, minSize: number) {
  let size: number;
  try {
    size = Deno.statSync(path).size;
  } catch {
    return null;
  }
  if (size < minSize) return null;
  const place = await _place(runner, path);
  if (place === null || place.relative === "") return null;
  const tree = await _call(runner, "get_file_tree", {
    repo: place.repo,
    path_prefix: place.relative,
  });
  const files = (tree?.files ?? []) as { path?: string; symbol_count?: number }[];
  const entry = files.find((f) => f.path === place.relative);
  if (entry === undefined || !entry.symbol_count) return null;
  const outline = _json({ repo: place.repo, file_path: place.relative });
  return `codemunch: ${place.relative} is indexed (${entry.symbol_count} symbols, ${
    Math.round(size / 4).toLocaleString("en-US")
  } tokens to read whole). Cheaper: get_file_outline ${outline}, then get_symbol_source with the ids you need. Read the whole file only when you are about to edit it.`;
}

async function _grepHint(runner: ToolRunner, path: string, pattern: string, glob?: string) {
  const place = await _place(runner, path);
  if (place === null) return null;
  const args: Record<string, unknown> = { repo: place.repo, query: pattern, is_regex: true };
  if (glob !== undefined) args.file_pattern = glob;
  else if (place.relative !== "") args.file_pattern = `${place.relative}/**`;
  const symbols = /^[A-Za-z_$][\w$]*$/.test(pattern)
    ? ` For a definition, search_symbols ${_json({ repo: place.repo, query: pattern })}.`
    : "";
  return `codemunch: ${place.repo} is indexed. Cheaper than grep: search_text ${
    _json(args)
  } (matching lines with their file and line).${symbols}`;
}

async function _globHint(runner: ToolRunner, path: string, pattern: string) {
  const place = await _place(runner, path);
  if (place === null) return null;
  const tree: Record<string, unknown> = { repo: place.repo };
  if (place.relative !== "") tree.path_prefix = place.relative;
  return `codemunch: ${place.repo} is indexed. get_file_tree ${
    _json(tree)
  } lists its files with their language and symbol count; search_symbols finds a definition by name without listing files (glob: ${pattern}).`;
}

/** The PostToolUse answer: re-index the edited file; context only when that failed. */
export async function postToolUse(
  runner: ToolRunner,
  input: HookInput,
  options: HookOptions,
): Promise<HookOutput | null> {
  const path = input.tool_input?.file_path;
  if (typeof path !== "string" || path === "") return null;
  const abs = resolve(typeof input.cwd === "string" ? input.cwd : options.cwd, path);
  const place = await _place(runner, abs);
  if (place === null || place.relative === "") return null;
  const r = await runner.call("index_file", { path: abs, format: "json" });
  if (!r.isError) return null;
  const why = r.error?.messageFor("command") ?? r.text;
  return {
    hookSpecificOutput: {
      hookEventName: "PostToolUse",
      additionalContext:
        `codemunch could not re-index ${place.relative} (${why}): its symbols in ${place.repo} are from before this edit until index_file ${
          _json({ path: abs })
        } succeeds.`,
    },
  };
}
