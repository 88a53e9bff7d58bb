/**
 * A hostile `.git` pointer cannot freeze or bloat the server (issue 25, high 3), and
 * resolve_repo answers nothing about paths outside the allowed roots (minor 12). Over a real MCP
 * stdio client with the launcher's narrow permissions: a worktree whose `commondir` is a FIFO or
 * `/dev/zero`, and a sparse 3 GB `.git` file, are answered at once ("not indexed") while `ping`
 * keeps answering; `/proc/self/cwd` and a folder outside the roots are refused.
 */
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { call, connect } from "../e2e/_server.ts";
import { FREEZE_MS, longestPing } from "./_limited_server.ts";

function _mkfifo(path: string): void {
  const r = new Deno.Command("mkfifo", { args: [path] }).outputSync();
  if (!r.success) throw new Error(new TextDecoder().decode(r.stderr));
}

/** A promise that rejects after `ms` (a freeze). */
function _deadline(ms: number, what: string): Promise<never> {
  return new Promise((_, reject) => {
    const t = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    Deno.unrefTimer(t);
  });
}

Deno.test("resolve_repo: hostile .git pointers answer at once, paths outside the roots are refused", async (t) => {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "codemunch-gitptr-" }));
  const allowed = join(base, "allowed");
  const main = join(allowed, "main");
  Deno.mkdirSync(join(main, ".git", "worktrees", "fifo"), { recursive: true });
  Deno.mkdirSync(join(main, ".git", "worktrees", "zero"), { recursive: true });
  Deno.writeTextFileSync(join(main, "a.py"), "def a():\n    return 1\n");
  _mkfifo(join(main, ".git", "worktrees", "fifo", "commondir"));
  Deno.symlinkSync("/dev/zero", join(main, ".git", "worktrees", "zero", "commondir"));
  const worktree = (name: string, pointer: string) => {
    const dir = join(allowed, name);
    Deno.mkdirSync(dir, { recursive: true });
    Deno.writeTextFileSync(join(dir, ".git"), pointer);
    Deno.writeTextFileSync(join(dir, "b.py"), "x = 1\n");
    return dir;
  };
  const fifoWt = worktree("wt-fifo", `gitdir: ${join(main, ".git", "worktrees", "fifo")}\n`);
  const zeroWt = worktree("wt-zero", `gitdir: ${join(main, ".git", "worktrees", "zero")}\n`);
  const localFifo = worktree("wt-local", "gitdir: gd\n");
  Deno.mkdirSync(join(localFifo, "gd"));
  _mkfifo(join(localFifo, "gd", "commondir"));
  const sparse = join(allowed, "wt-sparse");
  Deno.mkdirSync(sparse);
  Deno.writeTextFileSync(join(sparse, "c.py"), "y = 2\n");
  const f = Deno.openSync(join(sparse, ".git"), { create: true, write: true });
  f.truncateSync(3 * 1024 * 1024 * 1024);
  f.close();
  const outside = join(base, "outside");
  Deno.mkdirSync(join(outside, ".git"), { recursive: true });

  const server = await connect(allowed, join(base, "index"));
  try {
    const indexed = await call(server.client, "index_folder", { path: main, format: "json" });
    equal(indexed.isError, false, indexed.text);
    // An unreadable commondir falls back to the usual layout (<main>/.git/worktrees/<name>):
    // those two resolve through the indexed main checkout; the others are not indexed.
    const cases = [
      ["FIFO commondir", fifoWt, true],
      ["/dev/zero commondir", zeroWt, true],
      ["FIFO commondir beside the pointer", localFifo, false],
      ["sparse 3 GB .git file", sparse, false],
    ] as const;
    for (const [name, dir, viaMain] of cases) {
      await t.step(name, async () => {
        const answer = call(server.client, "resolve_repo", {
          path: join(dir, "b.py"),
          format: "json",
        });
        const ping = await longestPing(server.client, answer);
        const r = await Promise.race([answer, _deadline(10_000, "resolve_repo")]);
        equal(r.isError, false, r.text);
        equal((r.body as { indexed: boolean }).indexed, viaMain, r.text);
        ok(ping < FREEZE_MS, `ping took ${ping} ms`);
      });
    }
    await t.step("/proc/self/cwd and a folder outside the roots are refused", async () => {
      for (const path of ["/proc/self/cwd", join(outside, "x.py"), outside, "/etc"]) {
        const r = await call(server.client, "resolve_repo", { path, format: "json" });
        equal(r.isError, true, r.text);
        match(r.text, /path_outside_allowed_roots/);
        ok(!r.text.includes("suggested_folder"), r.text);
        ok(!r.text.includes(allowed + '"'), r.text);
      }
    });
    await t.step("an indexed folder still resolves", async () => {
      const r = await call(server.client, "resolve_repo", {
        path: join(main, "a.py"),
        format: "json",
      });
      equal(r.isError, false, r.text);
      equal((r.body as { indexed: boolean }).indexed, true, r.text);
    });
  } finally {
    await server.close();
    Deno.removeSync(base, { recursive: true });
  }
});
