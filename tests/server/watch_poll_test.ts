/**
 * Polling: a folder whose watcher keeps stalling (here: no restart allowed) or a server told to
 * poll (`CODEMUNCH_WATCH=poll`, for file systems without change events) is swept by stat, and
 * edits, new files, new folders and deletions still reach search_symbols.
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
import { closeSync, constants, openSync } from "node:fs";
import { join } from "node:path";
import { writeTree } from "../ingest/_helpers.ts";
import { FolderPoller } from "../../src/server/watch_poll.ts";
import { eventually, watched } from "./_watch.ts";

Deno.test("watch: CODEMUNCH_WATCH=poll follows edits, new files and folders, and deletions", async () => {
  const w = await watched({ "pkg/a.py": "def first_name():\n    pass\n" }, {
    poll: true,
    pollMs: 100,
  });
  try {
    const status = JSON.parse((await w.runner.call("get_watch_status", { format: "json" })).text);
    equal(status.repos[0].watch, "polling");
    match(String(status.repos[0].watch_reason), /CODEMUNCH_WATCH=poll/);
    writeTree(w.ws.root, { "pkg/new.py": "def brand_new():\n    pass\n" });
    await w.until("brand_new", ["pkg/new.py"]);
    writeTree(w.ws.root, { "pkg/deeper/d.py": "def in_new_folder():\n    pass\n" });
    await w.until("in_new_folder", ["pkg/deeper/d.py"]);
    Deno.removeSync(join(w.ws.root, "pkg/new.py"));
    await w.until("brand_new", []);
  } finally {
    await w.dispose();
  }
});

Deno.test("watch: a watcher that stalls past its restarts falls back to polling", async () => {
  const w = await watched({ "a.py": "def before():\n    pass\n" }, {
    heartbeatMs: 100,
    stallMs: 600,
    maxRestarts: 0,
    pollMs: 100,
  });
  const fifo = join(w.ws.root, "p.fifo");
  try {
    const out = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    equal(out.success, true);
    await eventually(async () => {
      const s = JSON.parse((await w.runner.call("get_watch_status", { format: "json" })).text);
      return s.repos[0].watch === "polling" && s.any_polling === true;
    }, "the fallback to polling");
    match(w.logs.join("\n"), /polling .* instead of watching it: the watcher stalled 1 times/);
    writeTree(w.ws.root, { "b.py": "def while_polling():\n    pass\n" });
    await w.until("while_polling", ["b.py"]);
    deepStrictEqual(await w.search("before"), ["a.py"]);
  } finally {
    for (let i = 0; i < 10; i++) {
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch { /* no reader waits */ }
    }
    await w.dispose();
  }
});

Deno.test("watch: a search on a polled folder sees an edit made just before it, without waiting for the next sweep", async () => {
  // A period far longer than the test: only the sweep at start and the ones a read asks for run.
  const w = await watched({ "pkg/a.py": "def first_name():\n    pass\n" }, {
    poll: true,
    pollMs: 600_000,
  });
  try {
    await eventually(async () => {
      const s = JSON.parse((await w.runner.call("get_watch_status", { format: "json" })).text);
      return s.repos[0].watch === "polling";
    }, "polling");
    // An edit in place (the directory's mtime does not move) and a new file.
    Deno.writeTextFileSync(
      join(w.ws.root, "pkg/a.py"),
      "def first_name():\n    pass\n\ndef added_in_place():\n    pass\n",
    );
    writeTree(w.ws.root, { "pkg/b.py": "def added_file():\n    pass\n" });
    deepStrictEqual(await w.search("added_in_place"), ["pkg/a.py"]);
    deepStrictEqual(await w.search("added_file"), ["pkg/b.py"]);
  } finally {
    await w.dispose();
  }
});

Deno.test("watch: reads arriving during a sweep share one sweep queued behind it", async () => {
  const root = Deno.makeTempDirSync({ prefix: "codemunch-sweep-" });
  try {
    Deno.writeTextFileSync(join(root, "a.py"), "x = 1\n");
    const files = new Map([["a.py", { size: 6, mtime_ms: 0 }]]);
    const poller = new FolderPoller(root, () => files, () => {}, 600_000);
    await Promise.all(Array.from({ length: 10 }, () => poller.sweepSoon()));
    equal(poller.sweeps, 2, "the first read's sweep, and one shared by the nine after it");
    await poller.sweepSoon();
    equal(poller.sweeps, 3, "a read after they ended gets a sweep of its own");
    poller.close();
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
