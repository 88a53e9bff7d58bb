/**
 * One watched folder: where its changes come from (a watcher in a worker with a heartbeat, or
 * polling), and what becomes of them (coalesced into a set of paths, debounced, re-indexed as
 * one batch at a time). A stalled watcher is restarted, at most `maxRestarts` times in
 * {@linkcode _RESTART_WINDOW_MS}, each restart followed by one incremental folder index (the
 * changes it missed); past that, or when no watcher can start, the folder is polled.
 */
import { relative, sep } from "node:path";
import { isSkippedDir } from "../ingest/filters.ts";
import { localRepoId } from "../store/paths.ts";
import { type FolderEvent, WorkerEvents } from "./watch_events.ts";
import { FolderPoller, type IndexedFiles } from "./watch_poll.ts";
import type { WatchBatch, WatchSettings } from "./watch_settings.ts";

/** What a folder needs from the watch manager. */
export interface WatchHost {
  readonly settings: WatchSettings;
  /** The index directory (its own writes are never re-indexed). */
  readonly indexDir: string;
  log(message: string): void;
  /** Run one batch (one at a time per folder). */
  runBatch(w: FolderWatch, paths: string[], reason: string | null): Promise<WatchBatch>;
  /** Whether the folder's git HEAD differs from the commit its index records. */
  headMoved(repo: string, root: string): boolean;
  /** The indexed files of a repo now (for polling). */
  indexedFiles(repo: string): IndexedFiles;
  /** The folder is gone or cannot be followed: stop watching it. */
  stop(root: string, why: string): void;
}

/** How a folder's changes are followed now. */
export type WatchState = "starting" | "running" | "restarted" | "stalled" | "polling";

/** Restarts counted for the fallback to polling happen within this window, in ms. */
const _RESTART_WINDOW_MS = 10 * 60_000;

/** How long a query waits for the watcher's sync beat before it counts as stalled, in ms. */
const _BARRIER_MS = 250;

/** One watched folder (see the module doc). */
export class FolderWatch {
  readonly root: string;
  readonly repo: string;
  /** `indexed`: found indexed when the server started; `indexed_here`: indexed by this server. */
  readonly origin: "indexed" | "indexed_here";
  readonly startedAt = new Date();
  state: WatchState = "starting";
  /** Why the folder is polled, or why the watcher was last restarted. */
  reason: string | undefined;
  readonly #host: WatchHost;
  readonly #beatDir: string;
  #events: WorkerEvents | null = null;
  #started: Promise<void> | undefined;
  #poller: FolderPoller | null = null;
  readonly #restartsAt: number[] = [];
  restarts = 0;
  #pending = new Set<string>();
  #folderReason: string | null = null;
  #gitTouched = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #firstEventAt = 0;
  #running: Promise<void> | null = null;
  /** A debounce ended while a batch ran: drain again when it ends. */
  #again = false;
  #closed = false;
  /** The last batch, and how many ran and failed. */
  lastBatch: WatchBatch | undefined;
  batches = 0;
  failedBatches = 0;

  constructor(
    host: WatchHost,
    root: string,
    origin: "indexed" | "indexed_here",
    beatDir: string,
  ) {
    this.#host = host;
    this.root = root;
    this.repo = localRepoId(root);
    this.origin = origin;
    this.#beatDir = beatDir;
  }

  /** Whether events wait for their batch, or a batch is running. */
  get busy(): boolean {
    return this.busyWithWork() || this.#running !== null;
  }

  /** Changed paths waiting for their batch. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Whether a batch is running now. */
  get batchRunning(): boolean {
    return this.#running !== null;
  }

  /** When the watcher last proved it reports (ms ago), undefined without a heartbeat. */
  get lastHeartbeatMsAgo(): number | undefined {
    const at = this.#events?.lastBeatAt ?? 0;
    return at === 0 ? undefined : Math.round(performance.now() - at);
  }

  /** Sweeps done while polling. */
  get pollSweeps(): number {
    return this.#poller?.sweeps ?? 0;
  }

  /**
   * Start following the folder: resolves once its watcher reports (or polling started). A
   * folder found indexed at start-up is then indexed incrementally once (what changed while no
   * server watched it).
   */
  start(): Promise<void> {
    return this.#started ??= this.#start();
  }

  async #start(): Promise<void> {
    if (this.#host.settings.poll) {
      this.#startPolling("CODEMUNCH_WATCH=poll");
    } else {
      await this.#startEvents();
    }
    if (this.origin === "indexed" && !this.#closed) this.#markFolder("start");
  }

  async #startEvents(): Promise<void> {
    const events = new WorkerEvents(this.root, this.#beatDir, this.#host.settings, {
      event: (e) => this.#take(e),
      stalled: (why) => this.#stalled(why),
    });
    this.#events = events;
    try {
      await events.start();
      if (this.#closed || this.#events !== events) return;
      this.state = this.restarts === 0 ? "running" : "restarted";
    } catch (e) {
      if (this.#events !== events) return;
      events.close();
      this.#events = null;
      this.#startPolling(`no watcher could start: ${e instanceof Error ? e.message : e}`);
    }
  }

  #stalled(why: string): void {
    const events = this.#events;
    if (this.#closed || events === null) return;
    events.close();
    this.#events = null;
    this.state = "stalled";
    this.reason = why;
    const now = performance.now();
    this.#restartsAt.push(now);
    while (this.#restartsAt.length > 0 && now - this.#restartsAt[0]! > _RESTART_WINDOW_MS) {
      this.#restartsAt.shift();
    }
    const max = this.#host.settings.maxRestarts;
    if (this.#restartsAt.length > max) {
      this.#startPolling(`the watcher stalled ${max + 1} times in 10 minutes (last: ${why})`);
      this.#markFolder("polling");
      return;
    }
    this.restarts++;
    this.#host.log(
      `codemunch: warning: the watcher of ${this.root} stalled (${why}); restarted it (${this.#restartsAt.length} of ${max} restarts in 10 minutes before polling)`,
    );
    // What changed while it was stalled is found by one incremental folder index.
    this.#startEvents().then(() => this.#markFolder("restart"));
  }

  #startPolling(why: string): void {
    if (this.#closed) return;
    this.state = "polling";
    this.reason = why;
    this.#host.log(
      `codemunch: warning: polling ${this.root} every ${this.#host.settings.pollMs} ms instead of watching it: ${why}`,
    );
    this.#poller = new FolderPoller(
      this.root,
      () => this.#host.indexedFiles(this.repo),
      (paths) => {
        for (const p of paths) this.#pending.add(p);
        this.#schedule();
      },
      this.#host.settings.pollMs,
    );
    this.#poller.start();
  }

  /** The next batch is one incremental folder index (for `reason`). */
  #markFolder(reason: string): void {
    if (this.#closed) return;
    this.#folderReason ??= reason;
    this.#schedule();
  }

  #take(event: FolderEvent): void {
    if (this.#closed) return;
    if (event.flag === "rescan") this.#folderReason ??= "rescan";
    for (const p of event.paths) this.#takePath(p);
  }

  #takePath(p: string): void {
    // The index itself may live inside the folder: its writes are not code changes.
    const indexDir = this.#host.indexDir;
    if (p === indexDir || p.startsWith(indexDir + sep)) return;
    if (p === this.root) {
      this.#schedule();
      return;
    }
    const rel = relative(this.root, p).split(sep).join("/");
    if (rel.startsWith("../") || rel === "..") return;
    if (rel.startsWith(".git/")) {
      if (/^\.git\/(HEAD|packed-refs|refs\/)/.test(rel)) {
        this.#gitTouched = true;
        this.#schedule();
      }
      return;
    }
    const parts = rel.split("/");
    // Changes inside skipped directories (dependencies, build output) never reach the index.
    if (parts.slice(0, -1).some(isSkippedDir)) return;
    if (parts[parts.length - 1] === ".gitignore") this.#folderReason ??= "gitignore";
    this.#pending.add(rel);
    this.#schedule();
  }

  #schedule(): void {
    const now = performance.now();
    if (this.#timer === undefined) this.#firstEventAt = now;
    clearTimeout(this.#timer);
    const s = this.#host.settings;
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
      const paths = [...this.#pending];
      this.#pending.clear();
      let reason = this.#folderReason;
      this.#folderReason = null;
      if (this.#gitTouched) {
        this.#gitTouched = false;
        if (reason === null && this.#host.headMoved(this.repo, this.root)) reason = "git_head";
      }
      if (reason === null && paths.length === 0) continue;
      const batch = await this.#host.runBatch(this, paths, reason);
      this.lastBatch = batch;
      this.batches++;
      if (batch.error !== undefined) this.failedBatches++;
    }
  }

  /** Work is waiting (not counting a running batch). */
  busyWithWork(): boolean {
    return this.#pending.size > 0 || this.#folderReason !== null || this.#gitTouched;
  }

  /**
   * Bring the index up to date with what the folder's watcher has seen up to now: wait until
   * every change made before this call is reported (the watcher's sync beat), then run the
   * waiting batch at once (no debounce); resolves when it is done or at `deadline`. A sync
   * beat not seen in time counts as a stall (the watcher is restarted). A polled folder has no
   * sync beat: it is swept now instead, so an edit made just before the call (a new name in a
   * file no answer lists yet) is not left to the next periodic sweep.
   */
  async catchUp(deadline: number): Promise<void> {
    if (this.state === "starting") await _until(this.start(), deadline);
    if (this.state === "polling" && this.#poller !== null) {
      await _until(this.#poller.sweepSoon(), deadline);
    }
    const events = this.#events;
    if (events !== null && (this.state === "running" || this.state === "restarted")) {
      const synced = await events.barrier(Math.min(_BARRIER_MS, deadline - performance.now()));
      if (synced === "timeout" && this.#events === events) {
        this.#stalled(`its sync beat was not reported within ${_BARRIER_MS} ms`);
      }
    }
    while (!this.#closed && this.busy && performance.now() < deadline) {
      if (this.#timer !== undefined) {
        clearTimeout(this.#timer);
        this.#timer = undefined;
        this.#flush();
      }
      const running = this.#running;
      if (running === null) break;
      await _until(running, deadline);
    }
  }

  /** Stop following the folder; waits for a running batch. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#events?.close();
    this.#events = null;
    this.#poller?.close();
    await this.#running;
  }
}

/** Wait for `p`, at most until `deadline` (a performance.now() time). */
async function _until(p: Promise<unknown>, deadline: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    p.catch(() => {}),
    new Promise((r) => timer = setTimeout(r, Math.max(0, deadline - performance.now()))),
  ]);
  clearTimeout(timer);
}
