/**
 * `codemunch init [folder...]`: show the plan, ask (or take `--yes`), then write the client
 * configs, index the folders and add the agent policy (see init.ts).
 *
 * @module
 */
import { createRunner, type Environment } from "../server/compose.ts";
import { type Invocation, UsageError } from "./args.ts";
import { InitError, type InitPlan, parseClients, planInit } from "./init.ts";
import { applyInit } from "./init_apply.ts";
import { describePlan } from "./init_describe.ts";
import { claudeMcpAdd } from "./server_entry.ts";
import { indexSummary, progressReporter, stderrSink } from "./progress.ts";

/** Run `init`. */
export async function initCommand(inv: Invocation, environment: Environment): Promise<number> {
  let plan: InitPlan;
  try {
    plan = planInit({
      os: environment.os,
      env: (n) => environment.env(n),
      cwd: environment.cwd,
      execPath: environment.execPath,
      checkout: environment.checkout,
      ...(inv.positional.length > 0 ? { folders: inv.positional } : {}),
      ...(inv.flags.has("client") ? { clients: parseClients(inv.flags.get("client")!) } : {}),
      index: !inv.flags.has("no-index"),
      policy: !inv.flags.has("no-policy"),
      hooks: inv.flags.has("hooks"),
    });
  } catch (e) {
    if (e instanceof InitError) throw new UsageError(e.message);
    throw e;
  }
  console.log(describePlan(plan, environment.os).join("\n"));
  console.log(`\nClaude Code by hand: ${claudeMcpAdd(plan, environment.os)}`);
  const pending = plan.changes.some((c) => c.text !== undefined) || plan.index.length > 0 ||
    plan.policy.some((p) => p.status !== "unchanged") || plan.hooks?.change.text !== undefined;
  if (inv.flags.has("dry-run")) {
    console.log("\nDry run: nothing was written.");
    return 0;
  }
  if (!pending) {
    console.log("\nNothing to do: everything is already set up.");
    return 0;
  }
  if (!inv.flags.has("yes") && !_confirmed(environment)) return 1;
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const indexFolder = plan.index.length === 0 ? null : _indexer(plan, environment);
  const result = await applyInit(plan, stamp, indexFolder);
  console.log("\n" + result.lines.join("\n"));
  return result.failed > 0 ? 1 : 0;
}

/** Ask before writing; without a terminal, say how to apply. */
function _confirmed(environment: Environment): boolean {
  if (!environment.interactive) {
    console.log("\nNothing was written: run again with --yes to apply (or --dry-run).");
    return false;
  }
  if (!confirm("\nApply these changes?")) {
    console.log("Nothing was written.");
    return false;
  }
  return true;
}

/** Index a folder of the plan (allowed: the plan's folders), with a progress bar. */
function _indexer(plan: InitPlan, environment: Environment) {
  return async (folder: string): Promise<string> => {
    const { runner } = createRunner(environment, { allowedRoots: plan.roots });
    const progress = progressReporter(stderrSink());
    const started = performance.now();
    try {
      const r = await runner.call("index_folder", { path: folder }, {
        format: "json",
        onProgress: progress.onProgress,
      });
      progress.end();
      const body = JSON.parse(r.text) as Record<string, unknown>;
      if (r.isError) throw new Error(r.error?.messageFor("command") ?? String(body.error));
      return indexSummary(body, performance.now() - started);
    } finally {
      await runner.close();
    }
  };
}
