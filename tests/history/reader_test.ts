/**
 * The in-process history reader against git itself, on real repositories made in the test:
 * revisions, walks, tree diffs with renames, line logs (`git log -L`), the working tree (`git
 * diff HEAD`), packed and loose objects.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { GitRepository } from "../../src/ingest/git/repository.ts";
import { DEFAULT_HISTORY_LIMITS } from "../../src/ingest/git/limits.ts";
import { commit, git, newRepo, sampleRepo, write } from "./_repo.ts";

function open(dir: string): GitRepository {
  const repo = GitRepository.open(dir, null, DEFAULT_HISTORY_LIMITS);
  if (typeof repo === "string") throw new Error(repo);
  return repo;
}

Deno.test("the history reader agrees with git on a real repository", async (t) => {
  const dir = sampleRepo();
  const repo = open(dir);
  try {
    await t.step("revisions resolve as git rev-parse resolves them", () => {
      for (const rev of ["HEAD", "main", "side", "HEAD~1", "HEAD~2^2", "HEAD^1~1"]) {
        equal(repo.resolveCommit(rev), git(dir, ["rev-parse", rev]).trim(), rev);
      }
      const id = git(dir, ["rev-parse", "HEAD~3"]).trim();
      equal(repo.resolveCommit(id.slice(0, 7)), id);
    });
    await t.step("a walk lists git log's commits in its order", () => {
      const ours = repo.walk(repo.resolveCommit("HEAD")).commits.map((c) => c.id);
      deepEqual(ours, git(dir, ["log", "--format=%H"]).trim().split("\n"));
    });
    await t.step("a tree diff finds git's changed files and the rename", () => {
      const a = repo.resolveCommit("HEAD~3");
      const b = repo.resolveCommit("HEAD");
      const ours = repo.diffTrees(repo.folderTree(a), repo.folderTree(b))
        .map((c) =>
          `${c.status[0]!.toUpperCase()} ${
            c.oldPath === c.path ? c.path : `${c.oldPath} ${c.path}`
          }`
        )
        .sort();
      const theirs = git(dir, ["diff", "-M", "--name-status", a, b]).trim().split("\n")
        .map((l) => l.replace(/^R\d+/, "R").replace(/\t/g, " ")).sort();
      deepEqual(ours, theirs);
    });
    await t.step("a commit's paths are git diff-tree's against its first parent, kept", () => {
      for (const c of repo.walk(repo.resolveCommit("HEAD")).commits) {
        const args = c.parents.length === 0
          ? ["diff-tree", "--root", "--no-renames", "--name-only", "-r", c.id]
          : ["diff", "--no-renames", "--name-only", c.parents[0]!, c.id];
        const theirs = git(dir, args).trim().split("\n").filter((l) => l !== "" && l !== c.id);
        const ours = repo.commitPaths(c.id);
        deepEqual([...ours].sort(), theirs.sort(), c.id);
        equal(repo.commitPaths(c.id), ours);
      }
    });
    await t.step("a line log finds git log -L's commits, through the file's rename", () => {
      for (
        const [path, s, e] of [["src/math.ts", 1, 4], ["src/math.ts", 6, 8], [
          "src/greeting.ts",
          1,
          3,
        ]] as const
      ) {
        const ours = repo.lineLog(repo.resolveCommit("HEAD"), path, s, e, 100).entries.map((x) =>
          x.commit.id
        );
        const theirs = git(dir, ["log", `-L${s},${e}:${path}`, "--no-patch", "--format=%H"]).trim()
          .split("\n");
        deepEqual(ours, theirs, `${path}:${s}-${e}`);
      }
    });
    await t.step("the working tree against HEAD is git diff HEAD's", () => {
      write(dir, { "src/math.ts": "export const X = 1;\n", "src/new.ts": "export const Y = 2;\n" });
      git(dir, ["add", "src/new.ts"]);
      Deno.removeSync(join(dir, "src/greeting.ts"));
      const ours = repo.worktreeDiff(repo.resolveCommit("HEAD"), []).changes.map((c) =>
        `${c.status[0]!.toUpperCase()} ${c.path}`
      ).sort();
      const theirs = git(dir, ["diff", "HEAD", "--name-status", "--no-renames"]).trim().split("\n")
        .map((l) => l.replace("\t", " ")).sort();
      deepEqual(ours, theirs);
    });
  } finally {
    repo.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a worktree and a shallow clone are read", async (t) => {
  const dir = sampleRepo();
  const wt = `${dir}-wt`;
  const shallow = `${dir}-shallow`;
  try {
    await t.step("a linked worktree reads its own HEAD and the shared objects", () => {
      git(dir, ["worktree", "add", "-q", wt, "side"]);
      const repo = open(Deno.realPathSync(wt));
      equal(repo.resolveCommit("HEAD"), git(dir, ["rev-parse", "side"]).trim());
      ok(repo.location.commonDir.endsWith("/.git"));
      repo.close();
    });
    await t.step("a shallow clone stops at its boundary and says so", () => {
      git(dir, ["clone", "-q", "--depth", "2", `file://${dir}`, shallow]);
      const repo = open(Deno.realPathSync(shallow));
      ok(repo.isShallow);
      const walk = repo.walk(repo.resolveCommit("HEAD"));
      ok(walk.reachedShallow);
      deepEqual(
        walk.commits.map((c) => c.id),
        git(shallow, ["log", "--format=%H"]).trim().split("\n"),
      );
      repo.close();
    });
  } finally {
    for (const d of [dir, wt, shallow]) {
      try {
        Deno.removeSync(d, { recursive: true });
      } catch { /* not made */ }
    }
  }
});

Deno.test("a line log lists a merged branch's commits as git log -L does (graph order)", () => {
  // A branch and main both edit one function, their commits interleaved by date, then a merge:
  // by date the two lines of history mix; git log -L (topological order) shows the branch whole.
  const dir = newRepo();
  const body = (lines: string[]) =>
    `export function f(): number {\n${lines.join("")}  return 0;\n}\n`;
  const main = ["  const a = 1;\n", "  const b = 2;\n", "  const c = 3;\n"];
  write(dir, { "f.ts": body(main) });
  commit(dir, "f", 1_700_000_000);
  git(dir, ["checkout", "-q", "-b", "side"]);
  let t = 1_700_000_000;
  const side = [...main];
  const ours = [...main];
  for (let i = 0; i < 3; i++) {
    git(dir, ["checkout", "-q", "side"]);
    side[2] = `  const c = ${30 + i};\n`;
    write(dir, { "f.ts": body(side) });
    commit(dir, `side ${i}`, t += 100);
    git(dir, ["checkout", "-q", "main"]);
    ours[0] = `  const a = ${10 + i};\n`;
    write(dir, { "f.ts": body(ours) });
    commit(dir, `main ${i}`, t += 100);
  }
  git(dir, ["merge", "-q", "--no-ff", "-m", "merge side", "side"], {
    GIT_AUTHOR_DATE: `${t + 100} +0000`,
    GIT_COMMITTER_DATE: `${t + 100} +0000`,
  });
  const repo = open(dir);
  try {
    const got = repo.lineLog(repo.resolveCommit("HEAD"), "f.ts", 1, 6, 100).entries.map((x) =>
      x.commit.id
    );
    const want = git(dir, ["log", "-L1,6:f.ts", "--no-patch", "--format=%H"]).trim().split("\n");
    equal(want.length, 8); // the merge too: its lines differ from each parent's
    deepEqual(got, want);
  } finally {
    repo.close();
  }
  Deno.removeSync(dir, { recursive: true });
});
