/**
 * The history of an indexed folder (src/query/history.ts): a real git checkout gives its history,
 * a plain folder fails with `history_unavailable` saying why, and a bad revision names the
 * argument it came from.
 */
import { equal, throws } from "node:assert/strict";
import { ToolError } from "../../src/errors.ts";
import { historyOf, historyOrReason, resolveRev } from "../../src/query/history.ts";
import { commit, git, newRepo, write } from "../history/_repo.ts";
import { indexedCheckout } from "./_fixture.ts";

Deno.test("history: a git checkout's history, its revisions resolved", async () => {
  const dir = newRepo();
  write(dir, { "a.py": "def f():\n    return 1\n" });
  const first = commit(dir, "Add f", 1_700_000_000);
  write(dir, { "a.py": "def f():\n    return 2\n" });
  const second = commit(dir, "Change f", 1_700_000_100);
  git(dir, ["tag", "v1", first]);
  const { view, close } = await indexedCheckout(dir);
  try {
    const reason = historyOrReason(view);
    equal(typeof reason, "object");
    const history = historyOf(view, "get_churn_rate");
    equal(resolveRev(history, "HEAD", "since_sha"), second);
    equal(resolveRev(history, "v1", "since_sha"), first);
    equal(resolveRev(history, "HEAD~1", "since_sha"), first);
    throws(
      () => resolveRev(history, "no-such-branch", "since_sha"),
      (e) =>
        e instanceof ToolError && e.code.startsWith("git_ref") && /^since_sha: /.test(e.message),
    );
  } finally {
    await close();
  }
});

Deno.test("history: a folder that is no git checkout has none, and says so", async () => {
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "codemunch-nogit-" }));
  write(dir, { "a.py": "def f():\n    return 1\n" });
  const { view, repo, close } = await indexedCheckout(dir);
  try {
    const reason = historyOrReason(view);
    equal(typeof reason, "string");
    throws(
      () => historyOf(view, "get_churn_rate"),
      (e) =>
        e instanceof ToolError && e.code === "history_unavailable" &&
        e.message.startsWith(
          `get_churn_rate needs git history, and none can be read for ${repo}: `,
        ) &&
        e.message.includes(reason as string) && /Index a git checkout/.test(e.message),
    );
  } finally {
    await close();
  }
});
