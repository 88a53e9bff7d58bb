/**
 * Watch mode: indexed folders follow the code by themselves. A server watches every indexed
 * local folder inside its allowed roots from the start (most recently indexed first, at most
 * `maxFolders`; a log line names how many more it does not watch), and every folder it indexes.
 * Each folder's changes come from a watcher in a worker of its own, proven alive by a heartbeat
 * (`watch_events.ts`), or from polling when no watcher can be trusted (`watch_poll.ts`); they
 * are coalesced, debounced and re-indexed one batch at a time (`folder_watch.ts`,
 * `watch_batch.ts`). Settings: `watch_settings.ts`.
 *
 * Batches of one folder run one at a time, and every write to a repo's index takes its turn in
 * the store's per-repo write queue; reads never wait for either — except that a read tool first
 * lets the folder's watcher catch up (`catchUp`: what it has seen is indexed before the read).
 * When the folder disappears (seen by an event or by the check every second) the watch ends
 * with a logged warning.
 */
import { join } from "node:path";
import type { ToolContext } from "../tools/context.ts";
import type { WatchedFolderReport, WatchReport } from "../tools/get_watch_status.ts";
import { readGitHead } from "../ingest/git_head.ts";
import { isInside } from "../ingest/walk.ts";
import { localRepoId, repoSlug } from "../store/paths.ts";
import { FILES } from "../query/files.ts";
import { prewarm as prewarmSymbolSearch } from "../tools/search_symbols.ts";
import { FolderWatch, type WatchHost } from "./folder_watch.ts";
import { folderExists, runWatchBatch } from "./watch_batch.ts";
import type { IndexedFiles } from "./watch_poll.ts";
import type { WatchBatch, WatchSettings } from "./watch_settings.ts";

export {
  DEFAULT_WATCH_SETTINGS,
  type WatchBatch,
  type WatchSettings,
  watchSettingsFromEnv,
} from "./watch_settings.ts";

/** How often watched folders are checked for existence, in ms. */
const _LIVENESS_MS = 1000;

/**
 * The watched folders of one server. The runner tells it about every folder index; it re-indexes
 * what changes. `onBatch` hears about each batch (tests, benchmarks, logs).
 */
export class WatchManager implements WatchHost {
  readonly settings: WatchSettings;
  readonly #ctx: ToolContext;
  readonly #log: (message: string) => void;
  readonly #folders = new Map<string, FolderWatch>();
  /** Indexed folders not watched, and why. */
  readonly #notWatched = new Map<string, string>();
  #listeners = new Set<(batch: WatchBatch) => void>();
  #closed = false;
  /** Checks that watched folders still exist (a removed root may send no event at all). */
  #liveness: ReturnType<typeof setInterval> | undefined;

  /** Prepares the next search of a repo whose index a batch changed (the runner's, when quiet). */
  readonly #changed: (repo: string) => void;

  constructor(
    ctx: ToolContext,
    settings: WatchSettings,
    log: (message: string) => void,
    changed?: (repo: string) => void,
  ) {
    this.#ctx = ctx;
    this.settings = settings;
    this.#log = log;
    this.#changed = changed ?? ((repo) => {
      setTimeout(() => {
        try {
          prewarmSymbolSearch(ctx, repo);
        } catch { /* the next query reports it */ }
      }, 0);
    });
  }

  /** The index directory (its own writes are never re-indexed). */
  get indexDir(): string {
    return this.#ctx.store.indexDir;
  }

  /** Folders watched now. */
  get folders(): string[] {
    return [...this.#folders.keys()].sort();
  }

  /** Log a line (the server's diagnostics). */
  log(message: string): void {
    this.#log(message);
  }

  /** Listen to batches; returns the function that stops listening. */
  onBatch(listener: (batch: WatchBatch) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Watch a folder (an absolute real path with an index); resolves once its changes are
   * followed (its watcher reports, or polling started), with a warning when it is not watched.
   */
  async watch(root: string, origin: "indexed" | "indexed_here" = "indexed_here"): Promise<
    string | null
  > {
    if (this.#closed || !this.settings.enabled) return null;
    const known = this.#folders.get(root);
    if (known !== undefined) {
      // Being started already (by the start-up watch): resolve when it is followed.
      await known.start();
      return null;
    }
    if (this.#folders.size >= this.settings.maxFolders) {
      const warning =
        `Not watching ${root}: this server already watches ${this.settings.maxFolders} folders (CODEMUNCH_WATCH_MAX_FOLDERS); its files are still re-indexed when a query reads them`;
      this.#notWatched.set(root, `over the limit of ${this.settings.maxFolders} folders`);
      if (origin === "indexed_here") this.#log(`codemunch: ${warning}`);
      return warning;
    }
    this.#notWatched.delete(root);
    const beatDir = join(this.indexDir, ".watch", repoSlug(localRepoId(root)));
    const w = new FolderWatch(this, root, origin, beatDir);
    this.#folders.set(root, w);
    this.#startLiveness();
    await w.start();
    return null;
  }

  /**
   * Watch every indexed local folder inside `allowedRoots` (null: any), most recently indexed
   * first, up to the folder limit; logs what it watches and how many it leaves out.
   */
  async watchIndexed(allowedRoots: readonly string[] | null): Promise<void> {
    if (this.#closed || !this.settings.enabled) return;
    const local = this.#ctx.store.listRepos().repos.filter((m) => m.source_root !== "")
      .sort((a, b) => a.indexed_at < b.indexed_at ? 1 : a.indexed_at > b.indexed_at ? -1 : 0);
    const candidates: string[] = [];
    for (const m of local) {
      const root = m.source_root;
      if (this.#folders.has(root)) continue;
      if (allowedRoots !== null && !allowedRoots.some((r) => isInside(r, root))) {
        this.#notWatched.set(root, "outside the allowed roots (CODEMUNCH_ALLOWED_ROOTS)");
      } else if (!folderExists(root)) this.#notWatched.set(root, "the folder is missing");
      else candidates.push(root);
    }
    const room = Math.max(0, this.settings.maxFolders - this.#folders.size);
    const watched = candidates.slice(0, room);
    for (const root of candidates.slice(room)) {
      this.#notWatched.set(root, `over the limit of ${this.settings.maxFolders} folders`);
    }
    if (watched.length > 0) {
      this.#log(`codemunch: watching ${watched.length} indexed folder(s): ${watched.join(", ")}`);
    }
    if (candidates.length > room) {
      this.#log(
        `codemunch: warning: not watching ${
          candidates.length - room
        } more indexed folder(s): the limit is ${this.settings.maxFolders} (CODEMUNCH_WATCH_MAX_FOLDERS); their files are still re-indexed when a query reads them`,
      );
    }
    await Promise.all(watched.map((root) => this.watch(root, "indexed")));
  }

  #startLiveness(): void {
    if (this.#liveness !== undefined) return;
    this.#liveness = setInterval(() => {
      for (const r of [...this.#folders.keys()]) {
        if (!folderExists(r)) this.stop(r, "the folder was removed");
      }
    }, _LIVENESS_MS);
    Deno.unrefTimer(this.#liveness as unknown as number);
  }

  /** Stop watching a folder, logging why. */
  stop(root: string, why: string): void {
    const w = this.#folders.get(root);
    if (w === undefined) return;
    this.#folders.delete(root);
    this.#notWatched.set(root, `stopped: ${why}`);
    this.#log(`codemunch: warning: stopped watching ${root}: ${why}`);
    w.close().catch(() => {});
  }

  /** Resolves once no watched folder has events waiting or a batch running. */
  async settled(): Promise<void> {
    for (;;) {
      const busy = [...this.#folders.values()].some((w) => w.busy);
      if (!busy) return;
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /**
   * Index now what the watcher of `root` has seen up to now (see `FolderWatch.catchUp`);
   * resolves when that is done or after `waitMs`, at once for a folder not watched.
   */
  async catchUp(root: string, waitMs: number): Promise<void> {
    await this.#folders.get(root)?.catchUp(performance.now() + waitMs);
  }

  /** Whether the git HEAD of a folder differs from the commit its index records. */
  headMoved(repo: string, root: string): boolean {
    try {
      const head = readGitHead(root);
      return head !== "" && head !== (this.#ctx.store.repo(repo).metaValue("git_head") ?? "");
    } catch {
      return false;
    }
  }

  /** The indexed files of a repo now. */
  indexedFiles(repo: string): IndexedFiles {
    return this.#ctx.views.open(repo).get(FILES);
  }

  /** Run one batch of a folder (called by its watcher, one at a time). */
  async runBatch(w: FolderWatch, paths: string[], reason: string | null): Promise<WatchBatch> {
    if (!folderExists(w.root)) {
      this.stop(w.root, "the folder was removed");
      return await runWatchBatch(this.#ctx, w, [], null, 0);
    }
    const batch = await runWatchBatch(this.#ctx, w, paths, reason, this.settings.maxBatchFiles);
    if (batch.error !== undefined) {
      this.#log(`codemunch: watch ${w.root}: a batch failed: ${batch.error}`);
      if (!folderExists(w.root)) this.stop(w.root, "the folder was removed");
      else if (batch.error.startsWith("repo_not_found")) {
        this.stop(w.root, "its index was deleted (index_folder indexes and watches it again)");
      }
    } else if (batch.mode === "folder") {
      this.#log(
        `codemunch: watch ${w.root}: ${batch.reason} → one incremental index (${batch.added} new, ${batch.changed} changed, ${batch.deleted} deleted)`,
      );
    }
    if (batch.error === undefined && batch.added + batch.changed + batch.deleted > 0) {
      // Rebuild the repo's symbol ranking for the new index before the next query needs it.
      this.#changed(w.repo);
    }
    for (const l of this.#listeners) {
      try {
        l(batch);
      } catch { /* a listener's failure is its own */ }
    }
    return batch;
  }

  /** What is watched and how (get_watch_status). */
  report(): WatchReport {
    const s = this.settings;
    return {
      mode: s.poll ? "poll" : "watch",
      limits: {
        max_folders: s.maxFolders,
        debounce_ms: s.debounceMs,
        max_batch_files: s.maxBatchFiles,
        poll_ms: s.pollMs,
        heartbeat_ms: s.heartbeatMs,
        stall_ms: s.stallMs,
        max_restarts: s.maxRestarts,
      },
      folders: [...this.#folders.values()].map(_folderReport),
      not_watched: [...this.#notWatched].map(([source_root, reason]) => ({ source_root, reason })),
    };
  }

  /** Stop every watcher (waits for running batches). */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#liveness);
    const all = [...this.#folders.values()];
    this.#folders.clear();
    await Promise.all(all.map((w) => w.close()));
  }
}

function _folderReport(w: FolderWatch): WatchedFolderReport {
  const b = w.lastBatch;
  return {
    source_root: w.root,
    repo: w.repo,
    origin: w.origin,
    state: w.state,
    reason: w.reason ?? null,
    restarts: w.restarts,
    started_at: w.startedAt.toISOString(),
    last_heartbeat_ms_ago: w.lastHeartbeatMsAgo ?? null,
    poll_sweeps: w.pollSweeps,
    pending_changes: w.pendingCount,
    batch_running: w.batchRunning,
    batches: w.batches,
    failed_batches: w.failedBatches,
    last_batch_at: b?.finished_at ?? null,
    last_batch_mode: b === undefined ? null : b.reason !== undefined ? b.reason : b.mode,
    last_batch_files: b === undefined ? null : b.added + b.changed + b.deleted,
    last_batch_ms: b === undefined ? null : Math.round(b.duration_ms),
    last_batch_error: b?.error ?? null,
  };
}
