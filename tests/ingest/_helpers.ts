/** Shared helpers for the store, ingest and tool tests: temporary trees and stores. */
import { dirname, join } from "node:path";
import { parseSource } from "../../src/parser/mod.ts";
import type { FileParser } from "../../src/ingest/index_local.ts";
import { DEFAULT_INGEST_CONFIG, type IngestConfig } from "../../src/ingest/config.ts";
import { RepoWriter, Store } from "../../src/store/mod.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { DEFAULT_SETTINGS } from "../../src/server/config.ts";
import { decode } from "../../mod.ts";
import { DEFAULT_GITHUB_SETTINGS } from "../../src/ingest/github_config.ts";
import { RepoViews } from "../../src/query/view.ts";
import { NO_SUMMARIZER } from "../../src/summarize/config.ts";
import type { ToolContext } from "../../src/tools/context.ts";

/** Write files (text or bytes) under `root`, creating folders. */
export function writeTree(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [path, content] of Object.entries(files)) {
    const abs = join(root, path);
    Deno.mkdirSync(dirname(abs), { recursive: true });
    if (typeof content === "string") Deno.writeTextFileSync(abs, content);
    else Deno.writeFileSync(abs, content);
  }
}

/** A temporary project folder and a temporary index directory, removed by `dispose`. */
export function tempWorkspace(prefix = "codemunch-test-"): {
  root: string;
  indexDir: string;
  store: Store;
  dispose: () => void;
} {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix }));
  const root = join(base, "project");
  const indexDir = join(base, "index");
  Deno.mkdirSync(root);
  const store = new Store(indexDir);
  return {
    root,
    indexDir,
    store,
    dispose: () => {
      store.close();
      Deno.removeSync(base, { recursive: true });
    },
  };
}

/** The real parser, run in this thread (no workers: fast start for small test trees). */
export const inThreadParser: FileParser = { parse: (file, bytes) => parseSource(file, bytes) };

/** A tool runner over a workspace: real parser in this thread, real SQLite, default settings. */
export function workspaceRunner(ws: { root: string; store: Store }): ToolRunner {
  return new ToolRunner({
    store: ws.store,
    ingest: testConfig(),
    parser: inThreadParser,
    cwd: ws.root,
    settings: DEFAULT_SETTINGS,
  });
}

/**
 * A tool context over a workspace, as the runner gives tools: real parser in this thread, real
 * SQLite, its own read model (`views`), no AI summaries.
 */
export function workspaceContext(ws: { root: string; store: Store }): ToolContext {
  return {
    store: ws.store,
    ingest: testConfig(),
    parser: () => inThreadParser,
    cwd: ws.root,
    views: new RepoViews(ws.store),
    github: DEFAULT_GITHUB_SETTINGS,
    summarizer: NO_SUMMARIZER,
  };
}

/** Indexing settings for tests (defaults, no environment). */
export function testConfig(overrides: Partial<IngestConfig> = {}): IngestConfig {
  return { ...DEFAULT_INGEST_CONFIG, ...overrides };
}

/** A small Python module defining `names` as functions. */
export function pyModule(...names: string[]): string {
  return names.map((n) => `def ${n}(x):\n    """Doc of ${n}."""\n    return x\n`).join("\n");
}

/**
 * A workspace with `files`, indexed by a {@linkcode workspaceRunner}; `call` runs a tool on the
 * repo (JSON, decoded), `dispose` closes the runner and removes the workspace.
 */
export async function indexedWorkspace(files: Record<string, string>, prefix = "codemunch-test-") {
  const ws = tempWorkspace(prefix);
  writeTree(ws.root, files);
  const runner = workspaceRunner(ws);
  const r = await runner.call("index_folder", { path: ws.root, format: "json" });
  if (r.isError) throw new Error(`index_folder failed: ${r.text}`);
  const repo = (JSON.parse(r.text) as { repo: string }).repo;
  const call = async (tool: string, args: Record<string, unknown>) => {
    const out = await runner.call(tool, { repo, format: "json", ...args });
    return { ...out, body: decode(out.text) as Record<string, unknown> };
  };
  const dispose = async () => {
    await runner.close();
    ws.dispose();
  };
  return { ws, runner, repo, call, dispose };
}

/**
 * Write one repo's index at `dbPath` straight through `RepoWriter` (no walk): each file parsed
 * with its real grammar, stored under its path as its hash, then committed. For tests of the
 * store's and the ranking's arithmetic over a few hand-made symbols.
 */
export async function writeRepoIndex(
  dbPath: string,
  files: readonly (readonly [string, string])[],
  language: string,
): Promise<void> {
  const writer = await RepoWriter.open(dbPath);
  writer.setMeta({ repo: "o/r", owner: "o", name: "r", display_name: "r" });
  for (const [path, text] of files) {
    const bytes = new TextEncoder().encode(text);
    writer.putFile({
      path,
      language,
      content: bytes,
      hash: path,
      mtime_ms: 0,
      ctime_ms: 0,
      checked_ms: 0,
      summary: "",
      line_count: 3,
    }, await parseSource(path, bytes));
  }
  writer.commit();
}
