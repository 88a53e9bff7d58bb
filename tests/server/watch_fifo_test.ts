/**
 * Issue 25 item 6: a FIFO appearing in a watched folder blocks `Deno.watchFs` (its event thread
 * opens the FIFO and waits for a writer): nothing after it was ever indexed, and nothing was
 * logged. Now the watcher's heartbeat goes unreported, the watcher is restarted (in a new
 * worker) and the changes it missed are indexed; after too many stalls the folder is polled.
 * Each test is in this file alone: before the fix a blocked watcher also froze every later
 * `Deno.watchFs` call of the process.
 */
import { equal, match } from "node:assert/strict";
import { closeSync, constants, openSync } from "node:fs";
import { join } from "node:path";
import { writeTree } from "../ingest/_helpers.ts";
import { eventually, watched } from "./_watch.ts";

/** Make a FIFO (the `mkfifo` command, as a user or a tool would). */
async function mkfifo(path: string): Promise<void> {
  const out = await new Deno.Command("mkfifo", { args: [path] }).output();
  equal(out.success, true, new TextDecoder().decode(out.stderr));
}

/**
 * Let a watcher thread that waits on the FIFO go (a non-blocking open for writing succeeds only
 * when a reader waits): the test process can then end whatever happened.
 */
function releaseFifo(path: string): void {
  for (let i = 0; i < 10; i++) {
    try {
      closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch { /* no reader waits */ }
  }
}

async function watchStatus(runner: { call(n: string, a: unknown): Promise<{ text: string }> }) {
  const r = await runner.call("get_watch_status", { format: "json" });
  return JSON.parse(r.text) as { repos: Record<string, unknown>[] } & Record<string, unknown>;
}

Deno.test("watch: a FIFO in the folder stalls the watcher; it is restarted and misses nothing", async () => {
  const w = await watched({ "a.py": "def before_fifo():\n    pass\n" }, {
    heartbeatMs: 100,
    stallMs: 800,
  });
  const fifo = join(w.ws.root, "control.pipe");
  try {
    await mkfifo(fifo);
    writeTree(w.ws.root, { "b.py": "def after_fifo():\n    pass\n" });
    // Only the watcher can find a new file: its heartbeat (or a query's sync beat) finds the
    // stall, and the restart's folder index finds what the blocked watcher never reported.
    await w.until("after_fifo", ["b.py"]);
    await eventually(async () => {
      const s = await watchStatus(w.runner);
      return (s.repos[0]!.restarts as number) >= 1 && s.repos[0]!.last_batch_mode === "restart";
    }, "a restart and its folder index");
    const row = (await watchStatus(w.runner)).repos[0]!;
    equal(row.watch, "restarted");
    match(String(row.watch_reason), /not reported within/);
    match(w.logs.join("\n"), /warning: the watcher of .* stalled .*restarted it/);
    // The restarted watcher reports later edits (the FIFO sees no more events of its own).
    writeTree(w.ws.root, { "c.py": "def later_still():\n    pass\n" });
    await w.until("later_still", ["c.py"]);
  } finally {
    releaseFifo(fifo);
    await w.dispose();
  }
});
