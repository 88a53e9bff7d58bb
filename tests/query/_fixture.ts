/**
 * A folder of `fixtures/` copied into a temporary workspace and indexed through the real tools
 * (`index_folder`), for the query tests that run tools over it.
 */
import { equal } from "node:assert/strict";
import { cpSync } from "node:fs";
import { join } from "node:path";
import type { ToolRunner } from "../../src/server/runner.ts";
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
