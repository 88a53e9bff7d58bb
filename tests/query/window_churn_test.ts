/**
 * Churn of a window (src/query/window_churn.ts) over a real git checkout made with commits at
 * times relative to now: only the window's commits count, merges count for no file, and a folder
 * without history gives no counts and the reason.
 */
import { deepEqual, equal, match } from "node:assert/strict";
import { windowChurn } from "../../src/query/window_churn.ts";
import { commit, git, newRepo, write } from "../history/_repo.ts";
import { indexedCheckout } from "./_fixture.ts";

const _DAY = 86_400;

Deno.test("window_churn: commits of the last days per file", async () => {
  const now = Math.floor(Date.now() / 1000);
  const dir = newRepo();
  write(dir, { "a.py": "def f():\n    return 0\n", "b.py": "def g():\n    return 0\n" });
  commit(dir, "Old start", now - 100 * _DAY);
  write(dir, { "a.py": "def f():\n    return 1\n" });
  commit(dir, "Touch a", now - 5 * _DAY);
  git(dir, ["checkout", "-q", "-b", "side"]);
  write(dir, { "b.py": "def g():\n    return 1\n" });
  commit(dir, "Touch b on a branch", now - 4 * _DAY);
  git(dir, ["checkout", "-q", "main"]);
  write(dir, { "a.py": "def f():\n    return 2\n" });
  commit(dir, "Touch a again", now - 3 * _DAY);
  git(dir, ["merge", "-q", "--no-ff", "-m", "Merge side", "side"], {
    GIT_AUTHOR_DATE: `${now - 2 * _DAY} +0000`,
    GIT_COMMITTER_DATE: `${now - 2 * _DAY} +0000`,
  });
  const { view, close } = await indexedCheckout(dir);
  try {
    const week = windowChurn(view, 7);
    equal(week.note, undefined);
    deepEqual(Object.fromEntries(week.counts!), { "a.py": 2, "b.py": 1 });
    const year = windowChurn(view, 365);
    // The root commit adds both files: one more each.
    deepEqual(Object.fromEntries(year.counts!), { "a.py": 3, "b.py": 2 });
    deepEqual(Object.fromEntries(windowChurn(view, 1).counts!), {});
  } finally {
    await close();
  }
});

Deno.test("window_churn: no history, no counts, and why", async () => {
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "codemunch-nogit-" }));
  write(dir, { "a.py": "def f():\n    return 1\n" });
  const { view, close } = await indexedCheckout(dir);
  try {
    const churn = windowChurn(view, 30);
    equal(churn.counts, null);
    match(churn.note!, /^No churn: /);
  } finally {
    await close();
  }
});
