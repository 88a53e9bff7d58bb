/**
 * One health summary of a repo (src/query/repo_health.ts) over a small package indexed for real:
 * each figure from the analysis it summarises, the follow-up ids in their order, and hotspots by
 * complexity alone without churn, by complexity and churn with it.
 */
import { deepEqual, equal } from "node:assert/strict";
import { repoHealth } from "../../src/query/repo_health.ts";
import { indexedView } from "./_fixture.ts";
import { GRAPH_PROJECT } from "./_graph_project.ts";

const _FILES = {
  ...GRAPH_PROJECT,
  "pkg/branchy.py": "def branchy(x):\n    if x == 1:\n        return 1\n    if x == 2:\n" +
    "        return 2\n    return 0\n",
  // A cycle: c1 imports c2, c2 imports c1.
  "pkg/c1.py": "from pkg.c2 import two\n\n\ndef one():\n    return two()\n",
  "pkg/c2.py":
    "from pkg.c1 import one\n\n\ndef two():\n    return 2\n\n\ndef again():\n    return one()\n",
  "pkg/_private.py": "def _orphan():\n    return 0\n",
  "tests/test_a.py": "from pkg.a import run\n\n\ndef test_run():\n    assert run()\n",
};

Deno.test("repo_health: the figures and follow-ups of a small package", async () => {
  const { view, close } = await indexedView(_FILES);
  try {
    const h = repoHealth(view, null);
    equal(h.files, Object.keys(_FILES).length);
    equal(h.functions, 11);
    equal(h.highComplexity, 0);
    // Cyclomatic 3 for branchy, 1 for each of the others.
    equal(h.avgComplexity, Math.round(13 / 11 * 100) / 100);
    // Tested: run, and what it reaches (helper, step).
    deepEqual(h.untested.map((u) => u.id).sort(), [
      "pkg/_private.py::_orphan#function",
      "pkg/b.py::main#function",
      "pkg/branchy.py::branchy#function",
      "pkg/c1.py::one#function",
      "pkg/c2.py::again#function",
      "pkg/c2.py::two#function",
      "pkg/util.py::unused#function",
    ]);
    equal(h.untestedWeighed, 10);
    for (let i = 1; i < h.untested.length; i++) {
      equal(h.untested[i - 1]!.score >= h.untested[i]!.score, true, "most important first");
    }
    deepEqual(h.cycles.map((c) => [...c.files].sort()), [["pkg/c1.py", "pkg/c2.py"]]);
    equal(h.dead.every((d) => d.confidence >= 0.8), true);
    // A private function nothing mentions is dead; a public one may be used outside the repo.
    deepEqual(h.dead.map((d) => d.symbol.id), ["pkg/_private.py::_orphan#function"]);
    equal(h.deadCandidates >= h.dead.length, true);
    // No source module is unstable (I > 0.7) with a dependent: b.py, the least stable, is 0.67.
    deepEqual(h.unstable.map((m) => [m.module, m.instability]), []);
    deepEqual(h.hotspots.map((s) => [s.id, s.cyclomatic, s.churn, s.score]), [
      ["pkg/branchy.py::branchy#function", 3, 0, 0],
    ]);
  } finally {
    await close();
  }
});

Deno.test("repo_health: hotspots weigh complexity with a window's churn", async () => {
  const { view, close } = await indexedView(_FILES);
  try {
    const churn = new Map([["pkg/branchy.py", 3], ["pkg/a.py", 9]]);
    const h = repoHealth(view, churn);
    deepEqual(h.hotspots.map((s) => [s.id, s.churn]), [["pkg/branchy.py::branchy#function", 3]]);
    equal(h.hotspots[0]!.score > 0, true);
    // Everything else is the same as without churn.
    const { hotspots: _a, ...rest } = h;
    const { hotspots: _b, ...without } = repoHealth(view, null);
    deepEqual(rest, without);
  } finally {
    await close();
  }
});
