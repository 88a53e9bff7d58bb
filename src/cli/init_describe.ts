/**
 * The plan of `codemunch init` as the lines shown before anything is written: the server entry,
 * the allowed folders (kept and added), each client's config file and what happens to it, the
 * Claude Code hooks, and what follows (indexing, the agent policy).
 *
 * @module
 */
import type { OsName } from "./clients.ts";
import type { ConfigChange, InitPlan } from "./init.ts";
import { SERVER_NAME, serverEntry } from "./server_entry.ts";

/** The plan as the lines shown before anything is written. */
export function describePlan(plan: InitPlan, os: OsName): string[] {
  const entry = JSON.stringify(
    { [SERVER_NAME]: serverEntry({ typed: false }, plan.server, plan.roots, os) },
    null,
    2,
  );
  return [
    "The server entry (absolute paths, so it runs even where the client's PATH has no deno;",
    'VS Code\'s adds "type": "stdio"):',
    ...entry.slice(2, -2).split("\n").map((l) => `  ${l.slice(2)}`),
    "",
    ..._folderLines(plan),
    "",
    "Client config files:",
    ..._clientLines(plan.changes),
    ..._hookLines(plan),
    ..._thenLines(plan),
  ];
}

/** Which folders the server may index, and which of them are new. */
function _folderLines(plan: InitPlan): string[] {
  const lines = ["Folders the server may index (CODEMUNCH_ALLOWED_ROOTS):"];
  for (const r of plan.rootsKept) lines.push(`  ${r}  (already allowed, kept)`);
  for (const r of plan.rootsAdded) {
    lines.push(`  ${r}  (${plan.rootsKept.length ? "added" : "new"})`);
  }
  if (plan.rootsAdded.length === 0) lines.push("  (every folder named is already allowed)");
  return lines;
}

function _clientLines(changes: readonly ConfigChange[]): string[] {
  const width = Math.max(...changes.map((c) => c.client.name.length));
  const lines: string[] = [];
  for (const c of changes) {
    const what = {
      create: "create it with the codemunch entry",
      add: `add the codemunch entry${_kept(c.kept)}`,
      replace: `update the codemunch entry${_kept(c.kept)}`,
      unchanged: "already set up, unchanged",
      skip: `skipped: ${c.reason}`,
      error: `cannot change: ${c.reason}`,
    }[c.status];
    lines.push(`  ${c.client.name.padEnd(width)}  ${c.client.file}`);
    lines.push(`  ${"".padEnd(width)}  → ${what}`);
    if (c.client.id === "claude-code" && c.text !== undefined) {
      lines.push(`  ${"".padEnd(width)}    (quit Claude Code first: it rewrites this file)`);
    }
  }
  if (changes.every((c) => c.status === "skip")) {
    lines.push(
      '  No MCP client found: name one with --client (claude-desktop, claude-code, cursor, vscode, windsurf), or add the entry by hand (README, "Connect a client").',
    );
  }
  return lines;
}

function _kept(kept: string[]): string {
  return kept.length === 0 ? "" : ` (keeping ${kept.length} other: ${kept.join(", ")})`;
}

function _hookLines(plan: InitPlan): string[] {
  if (plan.hooks === null) return [];
  const { file, change } = plan.hooks;
  const what = {
    create: "create it with the codemunch hooks",
    add: "add the codemunch hooks (keeping every other setting and hook)",
    replace: "update the codemunch hooks (keeping every other setting and hook)",
    unchanged: "hooks already set up, unchanged",
    error: `cannot change: ${change.reason}; add the hooks by hand (README, "Claude Code hooks")`,
  }[change.status];
  return [
    "",
    "Claude Code hooks (PreToolUse on Read|Grep|Glob: the cheaper codemunch call; PostToolUse on",
    "Edit|Write|MultiEdit: re-index the file):",
    `  ${file}`,
    `  → ${what}`,
  ];
}

function _thenLines(plan: InitPlan): string[] {
  if (plan.index.length === 0 && plan.policy.length === 0) return [];
  const lines = ["", "Then:"];
  for (const f of plan.index) lines.push(`  index ${f}`);
  for (const p of plan.policy) {
    if (p.status === "create") lines.push(`  create ${p.file} with the agent policy`);
    if (p.status === "append") lines.push(`  add the agent policy to ${p.file}`);
  }
  return lines;
}
