/**
 * A folder of `fixtures/` (or a tree written by the test) copied into a temporary workspace and
 * indexed through the real tools (`index_folder`), for the query tests that run tools or read the
 * repo view over it.
 */
import { equal } from "node:assert/strict";
import { cpSync } from "node:fs";
import { join } from "node:path";
import type { SymbolRecord } from "../../src/parser/types.ts";
import { SYMBOLS } from "../../src/query/symbols.ts";
import { type RepoView, RepoViews } from "../../src/query/view.ts";
import type { ToolRunner } from "../../src/server/runner.ts";
import { historySource } from "../../src/ingest/git/history.ts";
import { DEFAULT_HISTORY_LIMITS } from "../../src/ingest/git/limits.ts";
import { Store } from "../../src/store/store.ts";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";

/** An indexed copy of a fixture folder; `close` stops the runner and removes the workspace. */
export interface IndexedFixture {
  ws: ReturnType<typeof tempWorkspace>;
  runner: ToolRunner;
  repo: string;
  close(): Promise<void>;
}

/** Copy `fixtures/<name>` (plus `extra` files) into a new workspace and index it. */
export async function indexedFixture(
  name: string,
  extra: Record<string, string> = {},
): Promise<IndexedFixture> {
  const ws = tempWorkspace(`codemunch-${name}-`);
  cpSync(join(import.meta.dirname!, "..", "..", "fixtures", name), ws.root, { recursive: true });
  writeTree(ws.root, extra);
  const runner = workspaceRunner(ws);
  const close = async () => {
    await runner.close();
    ws.dispose();
  };
  try {
    const indexed = await runner.call("index_folder", { path: ws.root, format: "json" });
    equal(indexed.isError, false, indexed.text);
    return { ws, runner, repo: JSON.parse(indexed.text).repo as string, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** A tree of `files` indexed in a temporary workspace, read through its repo view. */
export interface IndexedView {
  view: RepoView;
  /** The views the `view` came from (open the repo again to see a re-index). */
  views: RepoViews;
  ws: ReturnType<typeof tempWorkspace>;
  runner: ToolRunner;
  repo: string;
  /** The symbol with this id (fails when there is none). */
  symbol(id: string): SymbolRecord;
  close(): Promise<void>;
}

/** Index `files` (path → text) in a new workspace and open its repo view. */
export async function indexedView(files: Record<string, string>): Promise<IndexedView> {
  const ws = tempWorkspace("codemunch-view-");
  writeTree(ws.root, files);
  const runner = workspaceRunner(ws);
  const close = async () => {
    await runner.close();
    ws.dispose();
  };
  try {
    const r = await runner.call("index_folder", { path: ws.root, format: "json" });
    equal(r.isError, false, r.text);
    const repo = (JSON.parse(r.text) as { repo: string }).repo;
    const views = new RepoViews(ws.store);
    const view = views.open(repo);
    const symbol = (id: string) => {
      const s = view.get(SYMBOLS).byId(id);
      if (s === undefined) throw new Error(`no symbol ${id}`);
      return s;
    };
    return { view, views, ws, runner, repo, symbol, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * A folder (a git checkout made by the test) indexed in a temporary store, read through a repo
 * view that reads its git history as the server's does; `close` removes the folder and the store.
 */
export async function indexedCheckout(dir: string): Promise<Omit<IndexedView, "ws">> {
  const storeDir = Deno.makeTempDirSync({ prefix: "codemunch-checkout-" });
  const store = new Store(storeDir);
  const runner = workspaceRunner({ root: dir, store });
  const close = async () => {
    await runner.close();
    store.close();
    Deno.removeSync(storeDir, { recursive: true });
    Deno.removeSync(dir, { recursive: true });
  };
  try {
    const r = await runner.call("index_folder", { path: dir, format: "json" });
    equal(r.isError, false, r.text);
    const repo = (JSON.parse(r.text) as { repo: string }).repo;
    const views = new RepoViews(store, { history: historySource(null, DEFAULT_HISTORY_LIMITS) });
    const view = views.open(repo);
    const symbol = (id: string) => {
      const s = view.get(SYMBOLS).byId(id);
      if (s === undefined) throw new Error(`no symbol ${id}`);
      return s;
    };
    return { view, views, runner, repo, symbol, close };
  } catch (e) {
    await close();
    throw e;
  }
}
