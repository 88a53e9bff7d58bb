/**
 * Watch mode: folders indexed in this server's life follow the code by themselves. Each watched
 * folder has one `Deno.watchFs` watcher; its events are coalesced into a set of changed paths and
 * debounced (`debounceMs` of quiet, at most `maxDelayMs` after the first event), then re-indexed
 * as one batch (`indexLocalFiles`: the walk's filters, one transaction). What a batch cannot do
 * path by path falls back to one incremental folder index — never a full rebuild:
 *
 * - more than `maxBatchFiles` changed paths (a mass change: a checkout, a code generator);
 * - a `.gitignore` changed (the filters of many files may have changed);
 * - git `HEAD` moved (a branch switch or a commit: the index records the commit);
 * - the watcher reported lost events (`rescan`).
 *
 * Batches of one folder run one at a time, and every write to a repo's index takes its turn in
 * the store's per-repo write queue; reads never wait for either. A query that arrives after a
 * batch committed sees the new code; before that, `_freshness` reports the edited file as
 * `edited_uncommitted` (its mtime differs from the indexed one). When the folder disappears (seen by
 * an event or by the check every second) the watch ends with a logged warning.
 *
 * | Variable | Default | Meaning |
 * |---|---|---|
 * | `CODEMUNCH_WATCH` | on | `0` (or `off`, `false`, `no`) turns watch mode off |
 * | `CODEMUNCH_WATCH_DEBOUNCE_MS` | 100 | quiet time after the last event before a batch |
 * | `CODEMUNCH_WATCH_MAX_FOLDERS` | 32 | most folders watched at once by one server |
 * | `CODEMUNCH_WATCH_BATCH_FILES` | 1000 | most paths re-indexed one by one in a batch |
 */
import { join, relative, sep } from "node:path";
import type { ToolContext } from "../tools/context.ts";
import { isSkippedDir } from "../ingest/filters.ts";
import { envInteger } from "./config.ts";
import { readGitHead } from "../ingest/git_head.ts";
import { localRepoId } from "../store/paths.ts";
import { PATHS } from "../query/files.ts";
import { prewarm as prewarmSymbolSearch } from "../tools/search_symbols.ts";
import { reindexFiles, reindexFolder } from "../tools/reindex.ts";

/** Watch-mode settings. */
export interface WatchSettings {
  /** @default true */
  enabled: boolean;
  /** Quiet time after the last event before a batch runs, in ms. @default 100 */
  debounceMs: number;
  /** Longest a change waits for its batch while events keep coming, in ms. @default 2000 */
  maxDelayMs: number;
  /** Most folders watched at once. @default 32 */
  maxFolders: number;
  /** Most changed paths re-indexed one by one; more fall back to a folder index. @default 1000 */
  maxBatchFiles: number;
}

/** The defaults, without looking at the environment. */
export const DEFAULT_WATCH_SETTINGS: WatchSettings = {
  enabled: true,
  debounceMs: 100,
  maxDelayMs: 2000,
  maxFolders: 32,
  maxBatchFiles: 1000,
};

/** Read the watch settings from the environment (see the module doc); bad values throw. */
export function watchSettingsFromEnv(
  env: (name: string) => string | undefined = (n) => Deno.env.get(n),
): WatchSettings {
  const int = (name: string, fallback: number, min: number) => envInteger(env, name, fallback, min);
  const flag = env("CODEMUNCH_WATCH")?.trim();
  return {
    enabled: flag === undefined || !/^(0|off|false|no)$/i.test(flag),
    debounceMs: int("CODEMUNCH_WATCH_DEBOUNCE_MS", DEFAULT_WATCH_SETTINGS.debounceMs, 0),
    maxDelayMs: DEFAULT_WATCH_SETTINGS.maxDelayMs,
    maxFolders: int("CODEMUNCH_WATCH_MAX_FOLDERS", DEFAULT_WATCH_SETTINGS.maxFolders, 1),
    maxBatchFiles: int("CODEMUNCH_WATCH_BATCH_FILES", DEFAULT_WATCH_SETTINGS.maxBatchFiles, 1),
  };
}

/** How often watched folders are checked for existence, in ms. */
const _LIVENESS_MS = 1000;

/** What one batch did. */
export interface WatchBatch {
  root: string;
  repo: string;
  /** `files`: the changed paths one by one; `folder`: one incremental folder index. */
  mode: "files" | "folder";
  /** Why a folder index ran instead (`mass_change`, `gitignore`, `git_head`, `rescan`). */
  reason?: string;
  /** Changed paths the events named (after coalescing). */
  paths: number;
  added: number;
  changed: number;
  deleted: number;
  duration_ms: number;
  /** Set when the batch failed (the next event retries). */
  error?: string;
}

/** One watched folder. */
class _FolderWatch {
  readonly root: string;
  readonly repo: string;
  readonly #manager: WatchManager;
  readonly #fs: Deno.FsWatcher;
  #pending = new Set<string>();
  #folderReason: string | null = null;
  #gitTouched = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #firstEventAt = 0;
  #running: Promise<void> | null = null;
  /** A debounce ended while a batch ran: drain again when it ends. */
  #again = false;
  #closed = false;
  readonly loop: Promise<void>;

  constructor(manager: WatchManager, root: string) {
    this.#manager = manager;
    this.root = root;
    this.repo = localRepoId(root);
    this.#fs = Deno.watchFs(root, { recursive: true });
    this.loop = this.#listen();
  }

  /** Whether events wait for their batch, or a batch is running. */
  get busy(): boolean {
    return this.#pending.size > 0 || this.#folderReason !== null || this.#gitTouched ||
      this.#running !== null;
  }

  async #listen(): Promise<void> {
    try {
      for await (const event of this.#fs) {
        if (this.#closed) break;
        this.#take(event);
      }
    } catch (e) {
      if (!this.#closed) {
        this.#manager.stop(this.root, `the watcher failed: ${e instanceof Error ? e.message : e}`);
      }
      return;
    }
    if (!this.#closed) this.#manager.stop(this.root, "the watcher ended");
  }

  #take(event: Deno.FsEvent): void {
    if (event.kind === "access") return;
    if (event.flag === "rescan") this.#folderReason ??= "rescan";
    for (const p of event.paths) {
      // The index itself may live inside the folder: its writes are not code changes.
      const indexDir = this.#manager.indexDir;
      if (p === indexDir || p.startsWith(indexDir + sep)) continue;
      if (p === this.root) {
        this.#schedule();
        continue;
      }
      const rel = relative(this.root, p).split(sep).join("/");
      if (rel.startsWith("../") || rel === "..") continue;
      if (rel.startsWith(".git/")) {
        if (/^\.git\/(HEAD|packed-refs|refs\/)/.test(rel)) {
          this.#gitTouched = true;
          this.#schedule();
        }
        continue;
      }
      const parts = rel.split("/");
      // Changes inside skipped directories (dependencies, build output) never reach the index.
      if (parts.slice(0, -1).some(isSkippedDir)) continue;
      if (parts[parts.length - 1] === ".gitignore") this.#folderReason ??= "gitignore";
      this.#pending.add(rel);
      this.#schedule();
    }
  }

  #schedule(): void {
    const now = performance.now();
    if (this.#timer === undefined) this.#firstEventAt = now;
    clearTimeout(this.#timer);
    const s = this.#manager.settings;
    const wait = Math.max(0, Math.min(s.debounceMs, this.#firstEventAt + s.maxDelayMs - now));
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#flush();
    }, wait);
  }

  #flush(): void {
    if (this.#closed) return;
    if (this.#running !== null) {
      this.#again = true;
      return;
    }
    this.#running = this.#drain().finally(() => {
      this.#running = null;
      if (this.#again) {
        this.#again = false;
        this.#flush();
      }
    });
  }

  async #drain(): Promise<void> {
    while (!this.#closed && this.#timer === undefined && this.busyWithWork()) {
      if (!_exists(this.root)) {
        this.#manager.stop(this.root, "the folder was removed");
        return;
      }
      const paths = [...this.#pending];
      this.#pending.clear();
      let reason = this.#folderReason;
      this.#folderReason = null;
      if (this.#gitTouched) {
        this.#gitTouched = false;
        if (reason === null && this.#manager.headMoved(this.repo, this.root)) reason = "git_head";
      }
      if (reason === null && paths.length === 0) continue;
      await this.#manager.runBatch(this, paths, reason);
    }
  }

  /** Run the waiting work now (no debounce); resolves when no work waits or runs. */
  async catchUp(deadline: number): Promise<void> {
    while (!this.#closed && this.busy && performance.now() < deadline) {
      if (this.#timer !== undefined) {
        clearTimeout(this.#timer);
        this.#timer = undefined;
        this.#flush();
      }
      const running = this.#running;
      if (running === null) break;
      await Promise.race([
        running,
        new Promise((r) => setTimeout(r, Math.max(0, deadline - performance.now()))),
      ]);
    }
  }

  /** Work is waiting (not counting a running batch). */
  busyWithWork(): boolean {
    return this.#pending.size > 0 || this.#folderReason !== null || this.#gitTouched;
  }

  /** Stop watching; waits for a running batch. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    try {
      this.#fs.close();
    } catch { /* already closed */ }
    await this.#running;
    await this.loop;
  }
}

/**
 * The watched folders of one server. The runner tells it about every folder index; it re-indexes
 * what changes. `onBatch` hears about each batch (tests, benchmarks, logs).
 */
export class WatchManager {
  readonly settings: WatchSettings;
  readonly #ctx: ToolContext;
  readonly #log: (message: string) => void;
  readonly #folders = new Map<string, _FolderWatch>();
  #listeners = new Set<(batch: WatchBatch) => void>();
  #closed = false;
  /** Checks that watched folders still exist (a removed root may send no event at all). */
  #liveness: ReturnType<typeof setInterval> | undefined;

  constructor(ctx: ToolContext, settings: WatchSettings, log: (message: string) => void) {
    this.#ctx = ctx;
    this.settings = settings;
    this.#log = log;
  }

  /** The index directory (its own writes are never re-indexed). */
  get indexDir(): string {
    return this.#ctx.store.indexDir;
  }

  /** Folders watched now. */
  get folders(): string[] {
    return [...this.#folders.keys()].sort();
  }

  /** Listen to batches; returns the function that stops listening. */
  onBatch(listener: (batch: WatchBatch) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Watch a folder (an absolute real path that was just indexed; its index records the options
   * batches re-index it with). Returns a warning when the folder cannot be watched.
   */
  watch(root: string): string | null {
    if (this.#closed || !this.settings.enabled) return null;
    if (this.#folders.has(root)) return null;
    if (this.#folders.size >= this.settings.maxFolders) {
      const warning =
        `Not watching ${root}: this server already watches ${this.settings.maxFolders} folders (CODEMUNCH_WATCH_MAX_FOLDERS); call index_folder again after edits`;
      this.#log(`codemunch: ${warning}`);
      return warning;
    }
    try {
      this.#folders.set(root, new _FolderWatch(this, root));
      if (this.#liveness === undefined) {
        this.#liveness = setInterval(() => {
          for (const r of [...this.#folders.keys()]) {
            if (!_exists(r)) this.stop(r, "the folder was removed");
          }
        }, _LIVENESS_MS);
        Deno.unrefTimer(this.#liveness as unknown as number);
      }
    } catch (e) {
      const warning = `Not watching ${root}: ${e instanceof Error ? e.message : e}`;
      this.#log(`codemunch: ${warning}`);
      return warning;
    }
    return null;
  }

  /** Stop watching a folder, logging why. */
  stop(root: string, why: string): void {
    const w = this.#folders.get(root);
    if (w === undefined) return;
    this.#folders.delete(root);
    this.#log(`codemunch: warning: stopped watching ${root}: ${why}`);
    w.close().catch(() => {});
  }

  /**
   * Index now what the watcher of `root` has seen and not indexed yet (without waiting for the
   * debounce); resolves when that is done or after `waitMs`, at once for a folder not watched.
   */
  async catchUp(root: string, waitMs: number): Promise<void> {
    await this.#folders.get(root)?.catchUp(performance.now() + waitMs);
  }

  /** Resolves once no watched folder has events waiting or a batch running. */
  async settled(): Promise<void> {
    for (;;) {
      const busy = [...this.#folders.values()].some((w) => w.busy);
      if (!busy) return;
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Whether the git HEAD of a folder differs from the commit its index records. */
  headMoved(repo: string, root: string): boolean {
    try {
      const head = readGitHead(root);
      return head !== "" && head !== this.#ctx.store.repo(repo).meta().git_head;
    } catch {
      return false;
    }
  }

  /** Run one batch of a folder (called by its watcher, one at a time). */
  async runBatch(w: _FolderWatch, paths: string[], reason: string | null): Promise<void> {
    const t0 = performance.now();
    const batch: WatchBatch = {
      root: w.root,
      repo: w.repo,
      mode: "files",
      paths: paths.length,
      added: 0,
      changed: 0,
      deleted: 0,
      duration_ms: 0,
    };
    try {
      const expanded = reason === null ? this.#expand(w, paths) : [];
      if (reason === null && expanded.length > this.settings.maxBatchFiles) reason = "mass_change";
      if (reason !== null) {
        batch.mode = "folder";
        batch.reason = reason;
        const o = await reindexFolder(this.#ctx, w.root);
        batch.added = o.new;
        batch.changed = o.changed;
        batch.deleted = o.deleted;
        this.#log(
          `codemunch: watch ${w.root}: ${reason} → one incremental index (${o.new} new, ${o.changed} changed, ${o.deleted} deleted)`,
        );
      } else if (expanded.length > 0) {
        const o = await reindexFiles(this.#ctx, w.root, expanded);
        batch.added = o.added;
        batch.changed = o.changed;
        batch.deleted = o.deleted;
      }
    } catch (e) {
      batch.error = e instanceof Error ? e.message : String(e);
      this.#log(`codemunch: watch ${w.root}: a batch failed: ${batch.error}`);
      if (!_exists(w.root)) this.stop(w.root, "the folder was removed");
      else if ((e as { code?: string }).code === "repo_not_found") {
        this.stop(w.root, "its index was deleted (index_folder indexes and watches it again)");
      }
    }
    batch.duration_ms = performance.now() - t0;
    if (batch.error === undefined && batch.added + batch.changed + batch.deleted > 0) {
      // Rebuild the repo's symbol ranking for the new index now, not in the next query.
      setTimeout(() => {
        try {
          prewarmSymbolSearch(this.#ctx, w.repo);
        } catch { /* the next query reports it */ }
      }, 0);
    }
    for (const l of this.#listeners) {
      try {
        l(batch);
      } catch { /* a listener's failure is its own */ }
    }
  }

  /**
   * The files behind the changed paths: a directory stands for the files under it (created or
   * moved in whole: no event names its files) and a vanished directory for the indexed files
   * that were under it.
   */
  #expand(w: _FolderWatch, paths: readonly string[]): string[] {
    const out = new Set<string>();
    let indexed: string[] | null = null;
    for (const rel of paths) {
      let info: Deno.FileInfo | null = null;
      try {
        info = Deno.lstatSync(join(w.root, rel));
      } catch { /* gone */ }
      if (info?.isDirectory) {
        if (!isSkippedDir(rel.slice(rel.lastIndexOf("/") + 1))) {
          _filesUnder(w.root, rel, out, this.settings.maxBatchFiles + 1);
        }
      } else out.add(rel);
      if (info === null || info.isDirectory) {
        // The indexed files under a directory that moved away or was replaced.
        try {
          indexed ??= this.#ctx.views.open(w.repo).get(PATHS);
        } catch {
          indexed = [];
        }
        const prefix = rel + "/";
        for (const p of indexed) if (p.startsWith(prefix)) out.add(p);
      }
      if (out.size > this.settings.maxBatchFiles) break;
    }
    return [...out];
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
    } else out.add(child);
  }
}

function _exists(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}
