/**
 * The change-analysis tools on a real repository, against git: get_changed_symbols lists the
 * symbols whose lines `git diff -U0` touches, in json and compact output; provenance lists
 * `git log -L`'s commits; the working tree is what you changed.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { git, indexedRepo, sampleRepo, write } from "./_repo.ts";

/** Files and new-side line spans `git diff -U0` shows (deletions as the line after). */
function gitTouched(dir: string, a: string, b: string): Map<string, [number, number][]> {
  const out = new Map<string, [number, number][]>();
  let file = "";
  for (const line of git(dir, ["diff", "-U0", "--no-renames", a, b]).split("\n")) {
    if (line.startsWith("+++ ")) file = line.replace(/^\+\+\+ (b\/)?/, "");
    const m = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (m !== null) {
      const s = Number(m[1]);
      const n = m[2] === undefined ? 1 : Number(m[2]);
      out.set(file, [...out.get(file) ?? [], n === 0 ? [s + 1, s + 1] : [s, s + n - 1]]);
    }
  }
  return out;
}

Deno.test("change-analysis tools agree with git on a real history", async (t) => {
  const dir = sampleRepo();
  const { runner, call, close } = await indexedRepo(dir);
  try {
    await t.step("modified symbols are those whose lines git diff touches", async () => {
      for (
        const [a, b] of [["HEAD~1", "HEAD"], ["HEAD~3", "HEAD~2"], ["HEAD~4", "HEAD~3"]] as const
      ) {
        const r = await call("get_changed_symbols", { since_sha: a, until_sha: b });
        const touched = gitTouched(
          dir,
          git(dir, ["rev-parse", a]).trim(),
          git(dir, ["rev-parse", b]).trim(),
        );
        for (
          const s of r.changed_symbols as {
            file: string;
            line: number;
            end_line: number;
            change_type: string;
          }[]
        ) {
          if (s.change_type !== "modified") continue;
          ok(
            (touched.get(s.file) ?? []).some(([x, y]) => x <= s.end_line && y >= s.line),
            `${a}..${b} ${JSON.stringify(s)}`,
          );
        }
        ok(
          (r.changed_symbols as unknown[]).length + (r.added_symbols as unknown[]).length > 0 ||
            touched.size === 0,
        );
      }
    });
    await t.step("a rename of a function is reported as one", async () => {
      const r = await call("get_changed_symbols", { since_sha: "HEAD~4", until_sha: "HEAD~3" });
      deepEqual(
        (r.changed_symbols as { name: string; change_type: string; previous_name?: string }[]).map((
          s,
        ) => [s.name, s.change_type, s.previous_name]),
        [["times", "renamed", "mul"]],
      );
    });
    await t.step("a body-only edit and a signature change are told apart", async () => {
      const body = await call("get_changed_symbols", { since_sha: "HEAD~1", until_sha: "HEAD" });
      deepEqual(
        (body.changed_symbols as { name: string; signature_changed: boolean }[]).map((
          s,
        ) => [s.name, s.signature_changed]),
        [["add", false]],
      );
      const sig = await call(
        "get_changed_symbols",
        { since_sha: "side~1", until_sha: "side" },
        "compact",
      );
      ok(
        (sig.changed_symbols as { name: string; signature_changed: boolean }[]).some((s) =>
          s.name === "greet" && s.signature_changed
        ),
      );
    });
    await t.step("the working tree against HEAD is what you changed", async () => {
      write(dir, {
        "src/math.ts": git(dir, ["show", "HEAD:src/math.ts"]).replace("a * b", "a * b * 1"),
      });
      await runner.call("index_file", { path: `${dir}/src/math.ts` });
      const r = await call("get_changed_symbols", {});
      equal(r.to_sha, "worktree");
      deepEqual(
        (r.changed_symbols as { name: string; changed_lines: string }[]).map((
          s,
        ) => [s.name, s.changed_lines]),
        [["times", "7"]],
      );
    });
    await t.step(
      "provenance lists git log -L's commits, newest first, with the origin",
      async () => {
        const r = await call("get_symbol_provenance", { symbol: "greet" }, "compact");
        const lineage = r.lineage as { sha: string; introduced: boolean }[];
        deepEqual(
          lineage.map((c) => c.sha),
          git(dir, ["log", "-L1,3:src/greeting.ts", "--no-patch", "--format=%H"]).trim().split(
            "\n",
          ),
        );
        equal((r.origin as { subject: string }).subject, "Add math and util");
      },
    );
    await t.step("a symbol diff is a unified diff of its source", async () => {
      const r = await call("get_symbol_diff", {
        symbol: "add",
        from_ref: "HEAD~5",
        to_ref: "HEAD",
      });
      equal(r.status, "modified");
      match(
        r.diff as string,
        /^--- src\/math\.ts@[0-9a-f]{12}\n\+\+\+ src\/math\.ts@[0-9a-f]{12}\n@@ -1,3 \+1,4 @@\n/,
      );
    });
    await t.step(
      "a removed symbol's diff is its whole source removed, an added one's added",
      async () => {
        const source = "function mul(a: number, b: number): number {\n  return a * b;\n}";
        for (const format of ["json", "compact"]) {
          const removed = await call("get_symbol_diff", {
            symbol: "src/math.ts::mul#function",
            from_ref: "HEAD~5",
            to_ref: "HEAD",
          }, format);
          equal(removed.status, "removed");
          equal(removed.lines_removed, 3);
          equal(removed.lines_added, 0);
          equal(
            (removed.diff as string).split("\n").slice(2).join("\n"),
            `@@ -5,3 +0,0 @@\n${source.split("\n").map((l) => `-${l}`).join("\n")}\n`,
          );
        }
        const added = await call("get_symbol_diff", {
          symbol: "src/math.ts::times#function",
          from_ref: "HEAD~5",
          to_ref: "HEAD",
        });
        equal(added.status, "added");
        equal(added.lines_added, 3);
        match(added.diff as string, /\n@@ -0,0 \+6,3 @@\n\+function times\(/);
        // An id in neither revision is the index's error, with its hints.
        const out = await runner.call("get_symbol_diff", {
          repo: (await call("list_repos", {}) as { repos: { repo: string }[] }).repos[0]!.repo,
          symbol: "src/math.ts::nothing#function",
          from_ref: "HEAD~5",
          to_ref: "HEAD",
        }, { format: "json" });
        equal(out.isError, true);
        match(out.text, /symbol_not_found/);
      },
    );
    await t.step("churn counts the file's commits in the window", async () => {
      const r = await call("get_churn_rate", { target: "src/math.ts", days: 36500 });
      equal(
        r.commits,
        git(dir, ["log", "--format=%H", "--", "src/math.ts"]).trim().split("\n").length,
      );
    });
  } finally {
    await close();
  }
});
