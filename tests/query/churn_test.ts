/**
 * `churn.ts`: how often a file changed in a window — `fileCommits` (following renames, as `git log
 * --follow --since`) and `churnByFile` (every file at once, as `git log --since --name-only`
 * counts them, renames not followed) — over a real repository made with the git CLI, checked
 * against git itself and against counts written by hand.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { GitRepository } from "../../src/ingest/git/repository.ts";
import { DEFAULT_HISTORY_LIMITS } from "../../src/ingest/git/limits.ts";
import { churnByFile, fileCommits } from "../../src/query/churn.ts";
import { commit, git, newRepo, write } from "../history/_repo.ts";

/** Commit times: T + 1000, 2000, 3000, 4000 (git wants a plausible date). */
const T = 1_700_000_000;

/** a.txt edited three times, b.txt renamed to c.txt (content kept) then edited. */
function history(): { dir: string; ids: string[] } {
  const dir = newRepo();
  const ids: string[] = [];
  write(dir, { "a.txt": "a1\n", "b.txt": "b1\nsame\nsame\nsame\n" });
  ids.push(commit(dir, "add", T + 1000));
  write(dir, { "a.txt": "a2\n" });
  ids.push(commit(dir, "edit a", T + 2000));
  git(dir, ["mv", "b.txt", "c.txt"]);
  write(dir, { "a.txt": "a3\n" });
  ids.push(commit(dir, "rename b, edit a", T + 3000));
  write(dir, { "c.txt": "b2\nsame\nsame\nsame\n" });
  ids.push(commit(dir, "edit c", T + 4000));
  return { dir, ids };
}

function open(dir: string): GitRepository {
  const repo = GitRepository.open(dir, null, DEFAULT_HISTORY_LIMITS);
  if (typeof repo === "string") throw new Error(repo);
  return repo;
}

Deno.test("churnByFile: commits per path in the window, renames not followed", () => {
  const { dir, ids } = history();
  try {
    const repo = open(dir);
    const head = ids[3]!;
    const window = churnByFile(repo, head, T + 1500);
    equal(window.commits, 3);
    deepStrictEqual(Object.fromEntries([...window.counts].sort()), {
      "a.txt": 2,
      "b.txt": 1,
      "c.txt": 2,
    });
    const everything = churnByFile(repo, head, T);
    deepStrictEqual(Object.fromEntries([...everything.counts].sort()), {
      "a.txt": 3,
      "b.txt": 2,
      "c.txt": 2,
    });
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("fileCommits: a file's commits newest first, through its rename, as git log --follow", () => {
  const { dir, ids } = history();
  try {
    const repo = open(dir);
    const head = ids[3]!;
    const ours = (path: string, since: number) =>
      fileCommits(repo, head, path, since).commits.map((c) => c.id);
    const theirs = (path: string, since: number) =>
      git(dir, ["log", "--follow", `--since=@${since}`, "--format=%H", "--", path]).trim().split(
        "\n",
      ).filter((l) => l !== "");
    deepStrictEqual(ours("a.txt", T), [ids[2], ids[1], ids[0]]);
    deepStrictEqual(ours("a.txt", T), theirs("a.txt", T));
    deepStrictEqual(ours("a.txt", T + 2500), [ids[2]]);
    deepStrictEqual(ours("c.txt", T), theirs("c.txt", T));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
