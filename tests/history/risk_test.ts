/**
 * Complexity, hotspots and the risk of a change on a real repository: the stored metrics of a
 * function, hotspots whose churn is `git log --no-merges`' count for the file, and a branch's risk
 * profile (its base where it branched from main, its changed symbols' dependents and tests).
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { commit, git, indexedRepo, newRepo, write } from "./_repo.ts";

const ROUTE = `export function route(method: string, path: string): number {
  if (method === "GET" && path === "/") return 1;
  else if (method === "POST") {
    for (const part of path.split("/")) {
      if (part === "") continue;
    }
    return 2;
  }
  return path ? 3 : 4;
}

export function helper(x: number): number {
  return x + 1;
}
`;

/** A project with a history: lib.ts changed often, then a branch that changes route(). */
function riskRepo(): string {
  const dir = newRepo();
  const t = Math.floor(Date.now() / 1000) - 30 * 86400;
  write(dir, {
    "src/lib.ts": ROUTE,
    "src/app.ts":
      'import { route } from "./lib.ts";\nimport { extra } from "./extra.ts";\n\nexport function main(): number {\n  return route("GET", "/") + extra();\n}\n',
    "src/extra.ts": "export function extra(): number {\n  return 0;\n}\n",
    "test/lib_test.ts":
      'import { helper } from "../src/lib.ts";\n\nexport function testHelper(): void {\n  helper(1);\n}\n',
  });
  commit(dir, "Add the router", t);
  for (let i = 1; i <= 4; i++) {
    write(dir, { "src/lib.ts": ROUTE.replace("x + 1", `x + ${i + 1}`) });
    commit(dir, `Tune helper ${i}`, t + i * 3600);
  }
  git(dir, ["checkout", "-q", "-b", "feature"]);
  write(dir, {
    "src/lib.ts": ROUTE.replace("x + 1", "x + 5").replace(
      "route(method: string, path: string)",
      "route(method: string, path: string, strict = false)",
    ),
    "src/extra.ts":
      "export function extra(): number {\n  return 0;\n}\n\nexport function more(a: number): number {\n  return a > 0 ? a : -a;\n}\n",
  });
  commit(dir, "Strict routes", t + 10 * 3600);
  return dir;
}

Deno.test("complexity, hotspots and risk of a change on a real history", async (t) => {
  const dir = riskRepo();
  const { runner, call, close } = await indexedRepo(dir);
  try {
    await t.step("a function's stored complexity, in json and compact", async () => {
      for (const format of ["json", "compact"]) {
        const r = await call("get_symbol_complexity", { symbol_id: "route" }, format);
        // 1 + if + && + else if + for + if + ?: (the default value `strict = false` on this branch).
        deepEqual(
          [r.cyclomatic, r.max_nesting, r.param_count, r.lines, r.assessment, r.measured],
          [8, 3, 3, 10, "medium", true],
        );
      }
    });
    await t.step("a symbol that is no function says why it has no metrics", async () => {
      write(dir, { "src/consts.ts": "export const LIMIT = 3;\n" });
      await runner.call("index_file", { path: `${dir}/src/consts.ts` });
      const r = await call("get_symbol_complexity", { symbol_id: "LIMIT" });
      equal(r.measured, false);
      equal(r.cyclomatic, null);
      match(r.note as string, /Only functions and methods are measured; this is a constant/);
      Deno.removeSync(`${dir}/src/consts.ts`);
    });
    await t.step("hotspots: complexity × ln(1 + the file's commits in the window)", async () => {
      const r = await call("get_hotspots", { days: 365, min_complexity: 1 });
      const rows = r.hotspots as { name: string; churn: number; hotspot_score: number }[];
      const commits =
        git(dir, ["log", "--no-merges", "--since=365 days ago", "--format=%H", "--", "src/lib.ts"])
          .trim().split("\n").length;
      equal(rows[0]!.name, "route");
      equal(rows[0]!.churn, commits);
      equal(rows[0]!.hotspot_score, Math.round(8 * Math.log1p(commits) * 10000) / 10000);
      equal(r.git_available, true);
      equal(r.churn_measurable, true);
    });
    await t.step("the risk of a branch against where it branched from main", async () => {
      const r = await call("get_pr_risk_profile", { days: 365 });
      equal(r.from_sha, git(dir, ["merge-base", "main", "feature"]).trim());
      equal(r.base, "where it branched from main");
      const hottest = r.hottest_symbols as {
        name: string;
        change_type: string;
        signature_changed: boolean;
        dependents: number;
        tested: boolean | null;
      }[];
      const route = hottest.find((s) => s.name === "route")!;
      deepEqual([route.change_type, route.signature_changed, route.tested], [
        "modified",
        true,
        true,
      ]);
      ok(route.dependents >= 1, "app.ts depends on route");
      deepEqual((r.untested_symbols as { name: string }[]).map((s) => s.name), ["more"]);
      const signals = r.signals as { signal: string; contribution: number }[];
      deepEqual(signals.map((s) => s.signal), [
        "blast_radius",
        "complexity",
        "test_gap",
        "churn",
        "volume",
      ]);
      equal(
        r.risk_score,
        Math.round(signals.reduce((sum, s) => sum + s.contribution, 0) * 10000) / 10000,
      );
      ok(
        (r.reasons as string[]).some((x) => /changed signature/.test(x)),
        JSON.stringify(r.reasons),
      );
    });
    await t.step("on main itself, the risk of the uncommitted edits", async () => {
      git(dir, ["checkout", "-q", "main"]);
      write(dir, { "src/extra.ts": "export function extra(): number {\n  return 1;\n}\n" });
      await runner.call("index_folder", { path: dir });
      const r = await call("get_pr_risk_profile", {}, "compact");
      equal(r.to_sha, "worktree");
      deepEqual((r.hottest_symbols as { name: string }[]).map((s) => s.name), ["extra"]);
    });
  } finally {
    await close();
  }
});

Deno.test("without history: hotspots by complexity alone, risk says what to do", async () => {
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "codemunch-nogit-" }));
  write(dir, { "a.py": "def f(a):\n    if a:\n        return 1\n    return 2\n" });
  const { runner, repo, close } = await indexedRepo(dir);
  try {
    const hot = JSON.parse((await runner.call("get_hotspots", { repo }, { format: "json" })).text);
    equal(hot.git_available, false);
    deepEqual(
      hot.hotspots.map((h: { name: string; hotspot_score: number }) => [h.name, h.hotspot_score]),
      [["f", 0]],
    );
    match(hot.note, /Ranked by complexity alone/);
    const risk = await runner.call("get_pr_risk_profile", { repo }, { format: "json" });
    equal(risk.isError, true);
    equal(JSON.parse(risk.text).code, "history_unavailable");
  } finally {
    await close();
  }
});
