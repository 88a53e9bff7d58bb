/**
 * File events of one folder from a watcher that cannot hang the server: `Deno.watchFs` runs in
 * a worker of its own (`watch_worker.ts`), and a heartbeat proves it still reports.
 *
 * Why: `Deno.watchFs` keeps one watcher per isolate, and its event thread opens every changed
 * path; a FIFO in the folder blocks that open until someone writes to it. From then on no event
 * is delivered (nothing is logged either), and a new `Deno.watchFs` in the same isolate waits
 * for the blocked thread forever. In a worker, the blocked watcher ends with the worker.
 *
 * The heartbeat: every `heartbeatMs` the server creates a file named by a sequence number in
 * the folder's beat directory (under the index directory, which the server may write), watched
 * by the same watcher as the folder. A kernel queue is ordered, so once beat `n` is reported,
 * every change made before beat `n` was written has been reported too: that is also how a query
 * waits for the watcher to catch up ({@linkcode WorkerEvents.barrier}). A beat not reported
 * within `stallMs` means the watcher stalled: the owner is told, and restarts it or falls back
 * to polling.
 */
import { join } from "node:path";
import type { WatchWorkerMessage } from "./watch_worker.ts";

/** A file-system event, as the worker reports it. */
export interface FolderEvent {
  kind: string;
  paths: string[];
  flag?: string;
}

/** What the owner hears. */
export interface WorkerEventsHandlers {
  /** An event under the folder (beats are not passed on). */
  event(e: FolderEvent): void;
  /** The watcher stopped reporting or failed; the owner decides what comes next. */
  stalled(why: string): void;
}

/** Heartbeat timing. */
export interface HeartbeatSettings {
  /** How often a beat is written, in ms. */
  heartbeatMs: number;
  /** How long a beat may take to be reported before the watcher counts as stalled, in ms. */
  stallMs: number;
}

/** A folder's watcher in a worker, with its heartbeat (see the module doc). */
export class WorkerEvents {
  readonly #root: string;
  #beatDir: string;
  readonly #settings: HeartbeatSettings;
  readonly #handlers: WorkerEventsHandlers;
  #worker: Worker | null = null;
  /** Last beat written, last beat reported. */
  #written = 0;
  #seen = 0;
  /** When each beat not reported yet was written (performance.now()). */
  readonly #writtenAt = new Map<number, number>();
  readonly #waiters: { seq: number; resolve: (seen: boolean) => void }[] = [];
  #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;
  /** When the last beat was reported (performance.now()), 0 before the first. */
  lastBeatAt = 0;
  /** Whether beats can be written (the index directory is writable): else no stall detection. */
  heartbeat = false;

  constructor(
    root: string,
    beatDir: string,
    settings: HeartbeatSettings,
    handlers: WorkerEventsHandlers,
  ) {
    this.#root = root;
    this.#beatDir = beatDir;
    this.#settings = settings;
    this.#handlers = handlers;
  }

  /** Start the worker; resolves once it watches, rejects with why it cannot. */
  start(): Promise<void> {
    try {
      Deno.mkdirSync(this.#beatDir, { recursive: true });
      // Events name real paths.
      this.#beatDir = Deno.realPathSync(this.#beatDir);
      _clearBeats(this.#beatDir);
    } catch { /* no beats: the watcher runs without a heartbeat */ }
    const worker = new Worker(new URL("./watch_worker.ts", import.meta.url).href, {
      type: "module",
    });
    this.#worker = worker;
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      worker.onmessage = (m: MessageEvent<WatchWorkerMessage>) => {
        const msg = m.data;
        if (msg.type === "event") this.#take(msg);
        else if (msg.type === "ready") {
          ready = true;
          this.#startHeartbeat();
          resolve();
        } else {
          const why = msg.type === "failed" ? msg.message : "the watcher ended";
          if (!ready) reject(new Error(why));
          else if (!this.#closed) this.#handlers.stalled(why);
        }
      };
      worker.onerror = (e) => {
        e.preventDefault();
        if (!ready) reject(new Error(e.message));
        else if (!this.#closed) this.#handlers.stalled(`the watcher's worker failed: ${e.message}`);
      };
      worker.postMessage({ paths: [this.#root, this.#beatDir] });
    });
  }

  /**
   * Resolves `seen` once every change made before this call has been reported (a beat written
   * now is seen), `timeout` after `timeoutMs` (the watcher may be stalled), `unavailable` at once
   * when there is no heartbeat.
   */
  barrier(timeoutMs: number): Promise<"seen" | "timeout" | "unavailable"> {
    if (this.#closed || this.#worker === null || !this.heartbeat) {
      return Promise.resolve("unavailable");
    }
    const seq = this.#beat();
    if (seq === 0) return Promise.resolve("unavailable");
    return new Promise((resolve) => {
      const started = performance.now();
      const timer = setTimeout(() => {
        // A timer that fired late means this thread was busy: the beat's report may be queued
        // behind it. Give queued reports one turn before deciding.
        const late = performance.now() - started > 2 * timeoutMs;
        setTimeout(() => {
          const i = this.#waiters.indexOf(waiter);
          if (i < 0) return;
          this.#waiters.splice(i, 1);
          resolve(late ? "unavailable" : "timeout");
        }, 0);
      }, timeoutMs);
      const waiter = {
        seq,
        resolve: (seen: boolean) => {
          clearTimeout(timer);
          resolve(seen ? "seen" : "unavailable");
        },
      };
      this.#waiters.push(waiter);
    });
  }

  /** Stop the worker (a blocked watcher thread ends with it) and the heartbeat. */
  close(): void {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#worker?.terminate();
    this.#worker = null;
    for (const w of this.#waiters.splice(0)) w.resolve(false);
    _clearBeats(this.#beatDir);
  }

  #startHeartbeat(): void {
    this.heartbeat = this.#beat() !== 0;
    if (!this.heartbeat) return;
    let lastTick = performance.now();
    this.#timer = setInterval(() => {
      const now = performance.now();
      const blocked = now - lastTick > 2 * this.#settings.heartbeatMs;
      lastTick = now;
      if (blocked) {
        // This thread was busy (a long index or query): the beats' reports may be waiting in its
        // queue. Judge them from now on, not from when they were written.
        for (const seq of this.#writtenAt.keys()) this.#writtenAt.set(seq, now);
      } else if (now - Math.min(...this.#writtenAt.values()) > this.#settings.stallMs) {
        // Let reports already queued be handled first, then decide.
        setTimeout(() => this.#checkStall(), 0);
        return;
      }
      this.#beat();
    }, this.#settings.heartbeatMs);
    Deno.unrefTimer(this.#timer as unknown as number);
  }

  #checkStall(): void {
    if (this.#closed) return;
    if (performance.now() - Math.min(...this.#writtenAt.values()) <= this.#settings.stallMs) return;
    this.#handlers.stalled(
      `a heartbeat was not reported within ${this.#settings.stallMs} ms (a FIFO or another special file in the folder can block Deno.watchFs)`,
    );
  }

  /** Write the next beat; its number, or 0 when it could not be written. */
  #beat(): number {
    const seq = this.#written + 1;
    try {
      Deno.writeFileSync(join(this.#beatDir, String(seq)), new Uint8Array(0));
    } catch {
      return 0;
    }
    this.#written = seq;
    this.#writtenAt.set(seq, performance.now());
    return seq;
  }

  #take(e: FolderEvent): void {
    let beat = 0;
    for (const p of e.paths) {
      if (p.startsWith(this.#beatDir + "/")) {
        const n = Number(p.slice(this.#beatDir.length + 1));
        if (Number.isInteger(n)) beat = Math.max(beat, n);
      }
    }
    if (beat === 0) {
      if (!e.paths.some((p) => p === this.#beatDir)) this.#handlers.event(e);
      return;
    }
    if (beat <= this.#seen) return;
    for (let n = this.#seen + 1; n <= beat; n++) {
      this.#writtenAt.delete(n);
      try {
        Deno.removeSync(join(this.#beatDir, String(n)));
      } catch { /* already gone */ }
    }
    this.#seen = beat;
    this.lastBeatAt = performance.now();
    for (let i = this.#waiters.length - 1; i >= 0; i--) {
      const w = this.#waiters[i]!;
      if (w.seq <= beat) {
        this.#waiters.splice(i, 1);
        w.resolve(true);
      }
    }
  }
}

/** Remove the beat files a previous watcher left (its numbers restart at 1). */
function _clearBeats(dir: string): void {
  try {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isFile && /^\d+$/.test(e.name)) Deno.removeSync(join(dir, e.name));
    }
  } catch { /* nothing to clear */ }
}
