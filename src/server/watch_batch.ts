/**
 * One watch batch: the changed paths of a folder re-indexed through the one pipeline, or — for a
 * mass change, a `.gitignore`, a moved git HEAD, lost events, a restarted watcher — one
 * incremental folder index (never a full rebuild). A directory moved in stands for the files
 * under it (no event names them); a vanished directory for the indexed files that were under it.
 * Special files (FIFOs, sockets, devices) are never opened.
 */
import { join } from "node:path";
import { isSkippedDir } from "../ingest/filters.ts";
import { PATHS } from "../query/files.ts";
import type { ToolContext } from "../tools/context.ts";
import { reindexFiles, reindexFolder } from "../tools/reindex.ts";
import type { WatchBatch } from "./watch_settings.ts";

/** The folder a batch is about. */
export interface BatchFolder {
  root: string;
  repo: string;
}

/** Run one batch of a folder: `reason` null re-indexes `paths`, else one folder index. */
export async function runWatchBatch(
  ctx: ToolContext,
  w: BatchFolder,
  paths: readonly string[],
  reason: string | null,
  maxBatchFiles: number,
): Promise<WatchBatch> {
  const t0 = performance.now();
  const batch: WatchBatch = {
    root: w.root,
    repo: w.repo,
    mode: "files",
    paths: paths.length,
    added: 0,
    changed: 0,
    deleted: 0,
    finished_at: "",
    duration_ms: 0,
  };
  try {
    const expanded = reason === null ? _expand(ctx, w, paths, maxBatchFiles) : [];
    if (reason === null && expanded.length > maxBatchFiles) reason = "mass_change";
    if (reason !== null) {
      batch.mode = "folder";
      batch.reason = reason;
      const o = await reindexFolder(ctx, w.root);
      Object.assign(batch, { added: o.new, changed: o.changed, deleted: o.deleted });
    } else if (expanded.length > 0) {
      const o = await reindexFiles(ctx, w.root, expanded);
      Object.assign(batch, { added: o.added, changed: o.changed, deleted: o.deleted });
    }
  } catch (e) {
    batch.error = e instanceof Error ? e.message : String(e);
    const code = (e as { code?: string }).code;
    if (code !== undefined) batch.error = `${code}: ${batch.error}`;
  }
  batch.duration_ms = performance.now() - t0;
  batch.finished_at = new Date().toISOString();
  return batch;
}

/**
 * The files behind the changed paths: a directory stands for the files under it (created or
 * moved in whole: no event names its files) and a vanished directory for the indexed files
 * that were under it.
 */
function _expand(
  ctx: ToolContext,
  w: BatchFolder,
  paths: readonly string[],
  maxBatchFiles: number,
): string[] {
  const out = new Set<string>();
  let indexed: string[] | null = null;
  for (const rel of paths) {
    let info: Deno.FileInfo | null = null;
    try {
      info = Deno.lstatSync(join(w.root, rel));
    } catch { /* gone */ }
    if (info?.isDirectory) {
      if (!isSkippedDir(rel.slice(rel.lastIndexOf("/") + 1))) {
        _filesUnder(w.root, rel, out, maxBatchFiles + 1);
      }
    } else out.add(rel); // a special file is judged by lstat alone (path_rules.ts), never opened
    if (info === null || info.isDirectory) {
      // The indexed files under a directory that moved away or was replaced.
      try {
        indexed ??= ctx.views.open(w.repo).get(PATHS);
      } catch {
        indexed = [];
      }
      const prefix = rel + "/";
      for (const p of indexed) if (p.startsWith(prefix)) out.add(p);
    }
    if (out.size > maxBatchFiles) break;
  }
  return [...out];
}

/** Regular files and symlinks under a directory (skipped directories left out), up to `limit`. */
function _filesUnder(root: string, rel: string, out: Set<string>, limit: number): void {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(join(root, rel))];
  } catch {
    return;
  }
  for (const e of entries) {
    if (out.size >= limit) return;
    const child = `${rel}/${e.name}`;
    if (e.isDirectory) {
      if (!isSkippedDir(e.name)) _filesUnder(root, child, out, limit);
    } else if (e.isFile || e.isSymlink) out.add(child);
  }
}

/** Whether a folder is still there. */
export function folderExists(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}
