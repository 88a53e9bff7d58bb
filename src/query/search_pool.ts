/**
 * The workers that run searches (`search_text`'s matcher, `search_ast`'s parser and checks), as
 * one bounded pool: at most {@linkcode POOL_SIZE} run at once, whatever the load, so the main
 * thread keeps answering (`ping`, other tools) and memory stays flat. Before it, every search
 * started workers of its own: 20 concurrent `search_ast` calls ran 80 workers (255-371 threads,
 * 1.7 GB), `ping` went unanswered for 17-33 s and every call ran out of time (issue 25).
 *
 * A search asks for a worker and waits its turn in one queue (first come, first served) for at
 * most `waitMs`; a search still waiting then fails with `server_busy`, which says so and what to
 * do. Idle workers are kept for the next searches of the same kind (until unused for
 * {@linkcode setIdleCloseMs}) and never keep the process alive. A worker is terminated instead of
 * returned when its search was cut (a regex that never returned, a parse past its budget).
 *
 * The workers are started and terminated by a spawner thread (`search_spawner.ts`), each talking
 * to this thread over a port of its own: `new Worker()` holds the thread that calls it while the
 * new worker's runtime is built (0.1-0.4 s each, seconds on a loaded machine), and on this thread
 * that left `ping` unanswered whenever a search needed a new worker (issue 25: a 4.2 s ping at
 * load 17 with 20 `search_ast` scans). Only the spawner itself is started from here, once, and
 * closed with the last idle worker.
 */
import { EventEmitter } from "node:events";
import { MessageChannel, type MessagePort, Worker } from "node:worker_threads";
import { ToolError } from "../errors.ts";
import type { SpawnerReply, SpawnerRequest } from "./search_spawner.ts";

/** The kinds of worker, by their module. */
export type SearchWorkerKind = "text" | "ast";

const _MODULES: Record<SearchWorkerKind, URL> = {
  text: new URL("./text_search_worker.ts", import.meta.url),
  ast: new URL("./ast_worker.ts", import.meta.url),
};

/** Workers running at once: one per core, at least 2, at most 4. */
export const POOL_SIZE = Math.max(2, Math.min(4, navigator.hardwareConcurrency ?? 2));

/** Longest wait for a worker to load, in ms. */
const _START_MS = 30_000;

/**
 * A search worker as the pool lends it: `postMessage` and the `message` event go over its own
 * port; `error` when it failed (emitted only to a listener: an idle worker that fails is
 * dropped).
 */
export class SearchWorker extends EventEmitter {
  readonly #id: number;
  readonly #port: MessagePort;
  #terminated = false;

  constructor(id: number, port: MessagePort) {
    super();
    this.#id = id;
    this.#port = port;
    port.on("message", (m: unknown) => this.emit("message", m));
  }

  postMessage(message: unknown): void {
    this.#port.postMessage(message);
  }

  /** Keep the process alive while it works (a search is running). */
  ref(): void {
    this.#port.ref();
  }

  /** Let the process end while it is idle. */
  unref(): void {
    this.#port.unref();
  }

  /** Stop it (the spawner terminates the thread, a runaway regex included). */
  terminate(): void {
    if (this.#terminated) return;
    this.#terminated = true;
    _live.delete(this.#id);
    _spawner?.worker.postMessage({ op: "terminate", id: this.#id } satisfies SpawnerRequest);
    this.#port.close();
  }

  /** Its thread failed (or could not start): tell the search using it, else drop it. */
  failed(error: Error): void {
    if (this.#terminated) return;
    if (this.listenerCount("error") > 0) this.emit("error", error);
    else {
      for (const kind of ["text", "ast"] as const) {
        _idle[kind] = _idle[kind].filter((w) => w !== this);
      }
      _idleSince.delete(this);
    }
    this.terminate();
  }
}

/** A worker lent to one search. */
export interface SearchLease {
  readonly worker: SearchWorker;
  /** Give the worker back: kept for the next search, or terminated (`keep` false). */
  release(keep: boolean): void;
}

interface _Waiter {
  kind: SearchWorkerKind;
  resolve: (lease: SearchLease) => void;
  reject: (e: unknown) => void;
  timer: ReturnType<typeof setTimeout>;
}

let _running = 0;
const _idle: Record<SearchWorkerKind, SearchWorker[]> = { text: [], ast: [] };
const _queue: _Waiter[] = [];
/** When each idle worker was given back (`performance.now()`). */
const _idleSince = new Map<SearchWorker, number>();
/** See {@linkcode setIdleCloseMs}. */
let _idleCloseMs = 300_000;
let _idleTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Idle workers unused for this long are terminated: each holds its isolate, the database it last
 * searched (memory-mapped, with its page cache) and its compiled matchers. The next search starts
 * a worker again. The server sets it from `CODEMUNCH_IDLE_DROP_S` (plus its settle delay: a quiet
 * server closes them itself when it rests, after dropping its read models; see `runner.ts`).
 */
export function setIdleCloseMs(ms: number): void {
  if (!(ms > 0)) throw new RangeError(`idle close delay must be > 0: ${ms}`);
  _idleCloseMs = ms;
}

/** Terminate the idle workers unused for `_idleCloseMs`; check again when the next is due. */
function _closeUnused(): void {
  _idleTimer = undefined;
  const now = performance.now();
  let next = Infinity;
  for (const kind of ["text", "ast"] as const) {
    _idle[kind] = _idle[kind].filter((w) => {
      const due = (_idleSince.get(w) ?? now) + _idleCloseMs;
      if (due > now) {
        next = Math.min(next, due - now);
        return true;
      }
      _idleSince.delete(w);
      w.terminate();
      return false;
    });
  }
  if (next < Infinity) _armIdleClose(next);
  else _stopSpawnerIfUnused();
}

function _armIdleClose(ms: number): void {
  if (_idleTimer !== undefined) return;
  _idleTimer = setTimeout(_closeUnused, ms);
  // Waiting to close idle workers must not keep a finished process (or test) running.
  Deno.unrefTimer(_idleTimer);
}

/**
 * A worker of `kind` for one search, once one of the pool's places is free; fails with
 * `server_busy` after `waitMs` in the queue.
 */
export function acquireWorker(kind: SearchWorkerKind, waitMs: number): Promise<SearchLease> {
  if (_running < POOL_SIZE && _queue.length === 0) return _lend(kind);
  return new Promise<SearchLease>((resolve, reject) => {
    const waiter: _Waiter = {
      kind,
      resolve,
      reject,
      timer: setTimeout(() => {
        const at = _queue.indexOf(waiter);
        if (at !== -1) _queue.splice(at, 1);
        reject(
          new ToolError(
            "server_busy",
            `The server is busy: ${_running} searches are running and ${_queue.length} more are waiting. Try again in a few seconds, or narrow the search (file_pattern, language)`,
          ),
        );
      }, waitMs),
    };
    _queue.push(waiter);
  });
}

/** A worker of `kind` only if a place is free now (extra workers for one large scan), else null. */
export function tryAcquireWorker(kind: SearchWorkerKind): Promise<SearchLease> | null {
  return _running < POOL_SIZE && _queue.length === 0 ? _lend(kind) : null;
}

/** Searches running and waiting (for tests and diagnostics). */
export function poolLoad(): { running: number; waiting: number; idle: number } {
  return { running: _running, waiting: _queue.length, idle: _idle.text.length + _idle.ast.length };
}

/** Terminate the idle workers (tests, shutdown); running ones finish their searches. */
export function closeIdleWorkers(): void {
  for (const kind of ["text", "ast"] as const) {
    for (const w of _idle[kind].splice(0)) w.terminate();
  }
  _idleSince.clear();
  _stopSpawnerIfUnused();
}

/** Take a place and a worker (an idle one, else a new one). */
async function _lend(kind: SearchWorkerKind): Promise<SearchLease> {
  _running++;
  let worker: SearchWorker;
  try {
    const idle = _idle[kind].pop();
    if (idle !== undefined) _idleSince.delete(idle);
    worker = idle ?? await _spawn(kind);
  } catch (e) {
    _free();
    throw e;
  }
  worker.ref();
  let released = false;
  return {
    worker,
    release: (keep) => {
      if (released) return;
      released = true;
      // Idle workers are kept per kind (a new worker's module loading holds the main thread
      // for 0.2-0.4 s: searches of both kinds taking turns must not start new ones each time).
      if (keep && _idle[kind].length < POOL_SIZE) {
        // An idle worker must not keep a finished process (or test) running.
        worker.unref();
        _idle[kind].push(worker);
        _idleSince.set(worker, performance.now());
        _armIdleClose(_idleCloseMs);
      } else {
        worker.terminate();
        // The spawner is closed when unused for the idle delay, not between the cut searches
        // of one burst (starting it holds this thread).
        _armIdleClose(_idleCloseMs);
      }
      _free();
    },
  };
}

/** A place is free: the first waiter gets it. */
function _free(): void {
  _running--;
  const next = _queue.shift();
  if (next === undefined) return;
  clearTimeout(next.timer);
  _lend(next.kind).then(next.resolve, next.reject);
}

/**
 * Spawns run one at a time: starting a worker holds the main thread for 0.1-0.4 s, and a burst
 * of cut searches replacing their workers at once stacked those into a second without answers.
 */
let _spawning: Promise<unknown> = Promise.resolve();

/** A new worker, once it has loaded, after the spawns before it (see `_spawning`). */
function _spawn(kind: SearchWorkerKind): Promise<SearchWorker> {
  const next = _spawning.then(() => new Promise((r) => setTimeout(r, 0))).then(() =>
    _spawnNow(kind)
  );
  _spawning = next.catch(() => {});
  return next;
}

/** The spawner thread and what it was asked to start, while it runs. */
let _spawner: { worker: Worker; started: Promise<void> } | undefined;
/** The workers started and not terminated, by id. */
const _live = new Map<number, SearchWorker>();
let _nextWorkerId = 1;

/** The spawner, started when the first worker is wanted (this thread waits for it once). */
function _spawnerNow(): { worker: Worker; started: Promise<void> } {
  if (_spawner !== undefined) return _spawner;
  const worker = new Worker(new URL("./search_spawner.ts", import.meta.url));
  worker.unref();
  const started = new Promise<void>((resolve, reject) => {
    worker.once("message", () => resolve());
    worker.once("error", reject);
  });
  started.catch(() => {});
  const spawner = { worker, started };
  worker.on("message", (m: SpawnerReply) => {
    if (m.op === "error") _live.get(m.id)?.failed(new Error(m.message));
  });
  const lost = (e: unknown) => {
    if (_spawner !== spawner) return;
    _spawner = undefined;
    const error = new Error(`the search spawner stopped: ${e instanceof Error ? e.message : e}`);
    for (const w of [..._live.values()]) w.failed(error);
  };
  worker.on("error", lost);
  worker.on("exit", lost);
  _spawner = spawner;
  return spawner;
}

/** Close the spawner once no worker is running or idle (an idle process holds no thread). */
function _stopSpawnerIfUnused(): void {
  if (_spawner === undefined || _running > 0 || _live.size > 0) return;
  const { worker } = _spawner;
  _spawner = undefined;
  void worker.terminate();
}

/** A new worker, once it has loaded (its first message): a search's budget starts after that. */
async function _spawnNow(kind: SearchWorkerKind): Promise<SearchWorker> {
  const spawner = _spawnerNow();
  // Waiting for the spawner keeps the process alive (it is unreferenced otherwise); the new
  // worker's port does once it exists.
  spawner.worker.ref();
  try {
    await spawner.started;
  } finally {
    spawner.worker.unref();
  }
  const { port1, port2 } = new MessageChannel();
  const id = _nextWorkerId++;
  const worker = new SearchWorker(id, port1);
  _live.set(id, worker);
  spawner.worker.postMessage(
    { op: "spawn", id, url: _MODULES[kind].href, port: port2 } satisfies SpawnerRequest,
    [port2],
  );
  return await new Promise<SearchWorker>((resolve, reject) => {
    const timer = setTimeout(() => {
      worker.off("error", onError);
      worker.terminate();
      reject(new Error(`the ${kind} search worker did not start`));
    }, _START_MS);
    const onError = (e: unknown) => {
      clearTimeout(timer);
      worker.terminate();
      reject(e instanceof Error ? e : new Error(String(e)));
    };
    worker.once("message", () => {
      clearTimeout(timer);
      worker.off("error", onError);
      resolve(worker);
    });
    worker.once("error", onError);
  });
}
