/**
 * Carrying out the plan of `codemunch init`: each changed file backed up then replaced whole
 * (written next to it, then renamed), the folders indexed, the agent policy added; a failure is
 * reported and the rest goes on.
 *
 * @module
 */
import { DENO_IO, type InitIo, type InitPlan, POLICY } from "./init.ts";
import { pathsOf } from "./server_entry.ts";

/** What {@linkcode applyInit} did. */
export interface InitResult {
  lines: string[];
  /** Files written. */
  written: string[];
  /** Backups made. */
  backups: string[];
  failed: number;
}

/**
 * Carry out a plan: back up and write each changed config file (and Claude Code's settings for
 * `--hooks`), index the folders, add the policy. `stamp` names the backups
 * (`<file>.codemunch-backup-<stamp>`).
 */
export async function applyInit(
  plan: InitPlan,
  stamp: string,
  indexFolder: ((folder: string) => Promise<string>) | null,
  io: InitIo = DENO_IO,
): Promise<InitResult> {
  const result: InitResult = { lines: [], written: [], backups: [], failed: 0 };
  const write = _writer(plan, stamp, io, result);
  for (const c of plan.changes) {
    if (c.text === undefined) continue;
    write(c.client.file, c.text, c.client.name, c.status === "replace" ? "updated" : "added");
  }
  if (plan.hooks?.change.text !== undefined) {
    const verb = plan.hooks.change.status === "replace" ? "updated" : "added";
    write(plan.hooks.file, plan.hooks.change.text, "Claude Code hooks", verb);
  }
  for (const folder of plan.index) {
    if (indexFolder === null) break;
    try {
      result.lines.push(`✓ ${await indexFolder(folder)}`);
    } catch (e) {
      result.failed++;
      result.lines.push(`✗ indexing ${folder} failed: ${(e as Error).message}`);
    }
  }
  _applyPolicy(plan, io, result);
  const configured = plan.changes.filter((c) => c.text !== undefined || c.status === "unchanged");
  if (configured.length > 0) {
    result.lines.push(
      "",
      `Restart ${
        configured.map((c) => c.client.name).join(", ")
      } to load the server, then ask: "Use codemunch to find where <something> is handled".`,
    );
  }
  return result;
}

/** Write one file after a backup of the old one; the line says what happened. */
function _writer(plan: InitPlan, stamp: string, io: InitIo, result: InitResult) {
  const { dirname } = pathsOf(plan.os);
  return (file: string, text: string, what: string, verb: string) => {
    try {
      io.mkdirp(dirname(file));
      if (io.exists(file)) {
        const backup = `${file}.codemunch-backup-${stamp}`;
        io.copy(file, backup);
        result.backups.push(backup);
        result.lines.push(`✓ ${what}: ${verb} codemunch in ${file} (backup: ${backup})`);
      } else {
        result.lines.push(`✓ ${what}: created ${file}`);
      }
      io.writeText(file, text);
      result.written.push(file);
    } catch (e) {
      result.failed++;
      result.lines.push(`✗ ${what}: cannot write ${file}: ${(e as Error).message}`);
    }
  };
}

function _applyPolicy(plan: InitPlan, io: InitIo, result: InitResult): void {
  for (const p of plan.policy) {
    if (p.status === "unchanged") continue;
    try {
      const before = io.readText(p.file);
      const text = before === null ? POLICY : `${before.replace(/\n*$/, "\n\n")}${POLICY}`;
      io.writeText(p.file, text);
      result.written.push(p.file);
      result.lines.push(`✓ agent policy ${before === null ? "written to" : "added to"} ${p.file}`);
    } catch (e) {
      result.failed++;
      result.lines.push(`✗ cannot write ${p.file}: ${(e as Error).message}`);
    }
  }
}
