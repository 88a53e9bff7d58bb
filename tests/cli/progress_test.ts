/** The CLI's indexing progress (src/cli/progress.ts): a bar on a terminal, plain lines elsewhere. */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import {
  indexSummary,
  progressBar,
  progressReporter,
  type ProgressSink,
} from "../../src/cli/progress.ts";

function fakeSink(terminal: boolean): ProgressSink & { out: string[]; clock: { t: number } } {
  const out: string[] = [];
  const clock = { t: 0 };
  return { terminal, columns: 60, out, clock, write: (s) => void out.push(s), now: () => clock.t };
}

Deno.test("progress bar: files, symbols, rate, ETA, cut to the terminal width", () => {
  const s = { done: 250, total: 1000, symbols: 12345, elapsedMs: 5000, path: "src/deep/file.ts" };
  equal(
    progressBar(s, 200),
    "[#####...............]  250/1000 files  12,345 symbols  50 files/s  ETA 15s  src/deep/file.ts",
  );
  const cut = progressBar(s, 40);
  equal(cut.length, 40);
  ok(cut.endsWith("…"));
  match(progressBar({ ...s, done: 1, elapsedMs: 0 }, 200), /0\.0 files\/s {2}ETA \?/);
  match(progressBar({ ...s, done: 10, elapsedMs: 1000, total: 1000 }, 200), /ETA 1m39s/);
});

Deno.test("progress during the final write: the counts, then what it is writing", () => {
  const s = {
    done: 500,
    total: 500,
    symbols: 3400,
    elapsedMs: 9000,
    path: "writing the search indexes",
  };
  equal(
    progressBar(s, 200),
    "[####################]  500/500 files  3,400 symbols  writing the search indexes",
  );
  const sink = fakeSink(false);
  const r = progressReporter(sink, 1000);
  sink.clock.t = 100;
  r.onProgress(500, 500, "last.py", 3400);
  sink.clock.t = 1500;
  r.onProgress(500, 500, "writing the search indexes", 3400);
  deepEqual(sink.out, ["indexing: 500/500 files, 3,400 symbols, 2s: writing the search indexes\n"]);
});

Deno.test("progress on a terminal redraws one line, at most 10 times a second, and clears it", () => {
  const sink = fakeSink(true);
  const r = progressReporter(sink);
  r.onProgress(1, 3, "a.ts", 5);
  sink.clock.t = 50;
  r.onProgress(2, 3, "b.ts", 9); // too soon: skipped
  sink.clock.t = 80;
  r.onProgress(3, 3, "c.ts", 12); // the last file is always drawn
  r.end();
  equal(sink.out.length, 3);
  ok(sink.out.slice(0, 2).every((s) => s.startsWith("\r\x1b[2K[")));
  match(sink.out[1]!, /3\/3 files {2}12 symbols/);
  equal(sink.out[2], "\r\x1b[2K");
});

Deno.test("progress off a terminal: plain lines every few seconds, none for a short run", () => {
  const sink = fakeSink(false);
  const r = progressReporter(sink, 1000);
  for (let i = 1; i <= 30; i++) {
    sink.clock.t = i * 100;
    r.onProgress(i, 30, `f${i}.py`, i * 2);
  }
  r.end();
  deepEqual(sink.out, [
    "indexing: 11/30 files, 22 symbols, 1s\n",
    "indexing: 21/30 files, 42 symbols, 2s\n",
  ]);
  ok(sink.out.every((s) => !s.includes("\r")));
  const short = fakeSink(false);
  const q = progressReporter(short, 1000);
  q.onProgress(1, 1, "a.py", 1);
  q.end();
  deepEqual(short.out, []);
});

Deno.test("index summary: full and incremental", () => {
  equal(
    indexSummary({ repo: "local/a", file_count: 3, symbol_count: 40 }, 1500),
    "Indexed local/a: 3 files, 40 symbols in 1.5 s (2 files/s)",
  );
  equal(
    indexSummary({ repo: "local/a", file_count: 1, symbol_count: 1 }, 2500),
    "Indexed local/a: 1 file, 1 symbol in 2.5 s (0.4 files/s)",
  );
  equal(
    indexSummary({ repo: "local/a", changed: 0, new: 0, deleted: 0 }, 100),
    "local/a is up to date (no changes, 0.1 s)",
  );
});

/** `script` (util-linux) gives the command a real terminal. */
const hasScript = Deno.build.os === "linux" &&
  (() => {
    try {
      return new Deno.Command("script", { args: ["--version"], stdout: "null", stderr: "null" })
        .outputSync().success;
    } catch {
      return false;
    }
  })();

Deno.test({
  name: hasScript
    ? "index on a real terminal draws the bar, then prints the summary"
    : "index on a real terminal — SKIPPED: util-linux `script` is not available",
  ignore: !hasScript,
  fn: async () => {
    const { CHECKOUT, tempProject } = await import("../e2e/_server.ts");
    const { join } = await import("node:path");
    const p = tempProject("codemunch-pty-");
    try {
      const command = [Deno.execPath(), "run", "-A", join(CHECKOUT, "main.ts"), "index", "."]
        .map((w) => `'${w}'`).join(" ");
      const out = await new Deno.Command("script", {
        args: ["-qec", command, "/dev/null"],
        cwd: p.root,
        env: { CODE_INDEX_PATH: p.indexDir, CODEMUNCH_ALLOWED_ROOTS: p.root },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      // The terminal's control sequences, made visible: \r and ESC[2K (erase the line).
      const text = new TextDecoder().decode(out.stdout).replaceAll("\r", "<CR>")
        .replaceAll("\x1b[2K", "<EL>");
      equal(out.code, 0, text);
      match(text, /<CR><EL>\[#*\.*\] +\d+\/\d+ files +[\d,]+ symbols +[\d.]+ files\/s +ETA /);
      match(text, /<CR><EL>Indexed local\/project-[0-9a-f]+: \d+ files, [\d,]+ symbols in /);
    } finally {
      p.dispose();
    }
  },
});
