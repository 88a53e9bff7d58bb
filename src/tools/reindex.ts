/**
 * Re-indexing what changed in an indexed folder — some of its files, or the folder
 * incrementally — the way the index tools do it: the one pipeline, the folder's recorded
 * options (extra ignore patterns, symlink rule), and the AI summary tier when it is configured,
 * so that a file re-indexed by `index_file`, by the watcher or because a query found it stale
 * keeps the summaries a folder index would give it.
 */
import type { IndexFilesOutcome } from "../ingest/index_files.ts";
import type { IndexOutcome, ProgressFn } from "../ingest/index_local.ts";
import { FOLDER_OPTIONS_KEY, recordedFolderOptions } from "../ingest/folder_options.ts";
import { localRepoId } from "../store/paths.ts";
import { dbState } from "../query/view.ts";
import type { ToolContext } from "./context.ts";
import { summarizedRun } from "./index_run.ts";

/** How to re-index. */
export interface ReindexOptions {
  /** Use the AI summary tier when one is configured. @default true */
  useAiSummaries?: boolean;
  onProgress?: ProgressFn;
}

/** A re-index's outcome, with what the AI tier did (absent when it was off or stored nothing). */
export type Reindexed<O> = O & { ai_summaries?: Record<string, unknown> };

/** Re-index these files (absolute or relative to `root`) of the folder indexed at `root`. */
export async function reindexFiles(
  ctx: ToolContext,
  root: string,
  paths: readonly string[],
  options: ReindexOptions = {},
): Promise<Reindexed<IndexFilesOutcome>> {
  const { indexLocalFiles } = await import("../ingest/index_files.ts");
  const repo = localRepoId(root);
  const dbPath = ctx.store.dbPath(repo);
  const before = dbState(dbPath);
  const run = await summarizedRun(
    ctx.summarizer,
    ctx.store.indexDir,
    options.useAiSummaries,
    (summarizer) =>
      indexLocalFiles(ctx.store, ctx.ingest, ctx.parser(), {
        root,
        paths,
        ...(summarizer !== undefined ? { summarizer } : {}),
        ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
      }),
    (o) => o.added + o.changed > 0,
  );
  const o = run.outcome;
  // A few files changed: the read model may keep its ranking priors (query/view.ts).
  if (o.added + o.changed + o.deleted > 0) {
    ctx.views.smallChange(repo, dbPath, before, {
      pathsChanged: o.added + o.deleted > 0,
      paths: o.files.filter((f) => f.change !== "unchanged" && f.change !== "missing")
        .map((f) => f.path),
    });
  }
  return _withReport(run.outcome, run.aiSummaries);
}

/** Index the folder at `root` again, incrementally, with the options it was indexed with. */
export async function reindexFolder(
  ctx: ToolContext,
  root: string,
  options: ReindexOptions = {},
): Promise<Reindexed<IndexOutcome>> {
  const { indexLocalFolder } = await import("../ingest/index_local.ts");
  const recorded = recordedFolderOptions(
    ctx.store.repo(localRepoId(root)).metaValue(FOLDER_OPTIONS_KEY),
  );
  const run = await summarizedRun(
    ctx.summarizer,
    ctx.store.indexDir,
    options.useAiSummaries,
    (summarizer) =>
      indexLocalFolder(ctx.store, ctx.ingest, ctx.parser(), {
        path: root,
        incremental: true,
        ...recorded,
        ...(summarizer !== undefined ? { summarizer } : {}),
        ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
      }),
    (o) => o.mode !== "unchanged",
  );
  return _withReport(run.outcome, run.aiSummaries);
}

function _withReport<O extends object>(
  outcome: O,
  report: Record<string, unknown> | undefined,
): Reindexed<O> {
  return report === undefined ? outcome : { ...outcome, ai_summaries: report };
}
