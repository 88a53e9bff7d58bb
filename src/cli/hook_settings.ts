/**
 * `init --hooks`: the Claude Code hooks codemunch adds to `~/.claude/settings.json` — a
 * PreToolUse hook on `Read|Grep|Glob` that points the agent at the cheaper codemunch call for an
 * indexed file, and a PostToolUse hook on `Edit|Write|MultiEdit` that re-indexes the edited file.
 * Each hook is a shell command (Claude Code runs it with `sh`, Git Bash on Windows) that starts
 * `codemunch hook <event>` with absolute paths, as the client configs do, and the same allowed
 * folders. Pure: the settings text comes in and goes out; init.ts reads and writes the file.
 *
 * @module
 */
import { type ServerCommand, shellWord } from "./server_entry.ts";

/** Claude Code's user settings file, under the home folder. */
export const CLAUDE_SETTINGS = [".claude", "settings.json"] as const;

/** The hook events codemunch handles, with the tools each one matches. */
export const HOOK_EVENTS = {
  PreToolUse: { subcommand: "pre-tool-use", matcher: "Read|Grep|Glob" },
  PostToolUse: { subcommand: "post-tool-use", matcher: "Edit|Write|MultiEdit" },
} as const;

/** One of {@linkcode HOOK_EVENTS}. */
export type HookEvent = keyof typeof HOOK_EVENTS;

/**
 * The shell command of a hook: the server's command with `hook <event>` instead of `serve`, the
 * allowed folders in front.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { hookCommand } from "./hook_settings.ts";
 * equal(
 *   hookCommand({ command: "/opt/codemunch", args: ["serve"] }, ["/src/app"], "PostToolUse", ":"),
 *   "CODEMUNCH_ALLOWED_ROOTS=/src/app /opt/codemunch hook post-tool-use",
 * );
 * ```
 */
export function hookCommand(
  server: ServerCommand,
  roots: readonly string[],
  event: HookEvent,
  delimiter: string,
): string {
  const args = server.args.at(-1) === "serve" ? server.args.slice(0, -1) : server.args;
  return [
    shellWord(`CODEMUNCH_ALLOWED_ROOTS=${roots.join(delimiter)}`),
    shellWord(server.command),
    ...args.map(shellWord),
    "hook",
    HOOK_EVENTS[event].subcommand,
  ].join(" ");
}

/** Whether a hook command is one of ours (any version, any path): `… hook pre-tool-use`. */
function _ours(command: unknown, event: HookEvent): boolean {
  return typeof command === "string" &&
    command.endsWith(` hook ${HOOK_EVENTS[event].subcommand}`) &&
    command.includes("CODEMUNCH_ALLOWED_ROOTS=");
}

/** What `--hooks` does to the settings file. */
export interface HookSettingsChange {
  status: "create" | "add" | "replace" | "unchanged" | "error";
  /** Why it cannot be changed. */
  reason?: string;
  /** The new file text (create/add/replace). */
  text?: string;
}

/** A matcher group of the settings' hooks list. */
interface _Group {
  matcher?: string;
  hooks?: { type?: string; command?: unknown }[];
}

/**
 * Add (or bring up to date) codemunch's hooks in a Claude Code settings text, keeping every other
 * setting and every other hook; `null` is a file that does not exist yet.
 */
export function mergeHookSettings(
  before: string | null,
  commands: Readonly<Record<HookEvent, string>>,
): HookSettingsChange {
  let settings: Record<string, unknown> = {};
  if (before !== null && before.trim() !== "") {
    try {
      settings = JSON.parse(before);
    } catch (e) {
      return { status: "error", reason: `it is not plain JSON (${(e as Error).message})` };
    }
    if (typeof settings !== "object" || settings === null || Array.isArray(settings)) {
      return { status: "error", reason: "it does not hold a JSON object" };
    }
  }
  const hooks = settings.hooks ?? {};
  if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)) {
    return { status: "error", reason: `its "hooks" is not an object; add the hooks by hand` };
  }
  const next: Record<string, unknown> = { ...hooks as Record<string, unknown> };
  let replaced = false;
  let current = true;
  for (const event of Object.keys(HOOK_EVENTS) as HookEvent[]) {
    const groups = next[event] ?? [];
    if (!Array.isArray(groups)) {
      return { status: "error", reason: `its "hooks.${event}" is not a list; add it by hand` };
    }
    const ours: _Group = {
      matcher: HOOK_EVENTS[event].matcher,
      hooks: [{ type: "command", command: commands[event] }],
    };
    const mine = (groups as _Group[]).flatMap((g) => g.hooks ?? []).filter((h) =>
      _ours(h.command, event)
    );
    const exact = (groups as _Group[]).some((g) => JSON.stringify(g) === JSON.stringify(ours));
    if (mine.length !== 1 || !exact) current = false;
    if (mine.length > 0) replaced = true;
    // Every other hook stays where it is; ours (re)placed as one group of its own.
    const others = (groups as _Group[]).flatMap((g) => {
      const kept = (g.hooks ?? []).filter((h) => !_ours(h.command, event));
      return kept.length === 0 && (g.hooks ?? []).length > 0 ? [] : [{ ...g, hooks: kept }];
    });
    next[event] = [...others, ours];
  }
  if (current && before !== null) return { status: "unchanged" };
  const text = JSON.stringify({ ...settings, hooks: next }, null, 2) + "\n";
  return { status: before === null ? "create" : replaced ? "replace" : "add", text };
}
