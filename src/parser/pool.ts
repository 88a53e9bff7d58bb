/** A pool of parser workers: parse many files in parallel without blocking the caller. */
import { Worker } from "node:worker_threads";
import type { ParseResult } from "./types.ts";
import type { ExtractLimits } from "./extract.ts";
import { decodeResult, type WireResult } from "./wire.ts";
import { languageForSource } from "./registry.ts";
import { textOnlyResult } from "./text_languages.ts";

/** Message to a worker. */
export interface WorkerRequest {
  id: number;
  file: string;
  /**
   * The file's bytes. An `ArrayBuffer`, not a `Uint8Array`: Deno's `node:worker_threads` turns a
   * received typed array into a `Buffer` at a cost of ~0.1 µs per byte (6.8 ms for 50 KB, ten
   * times the whole parse of many files), an `ArrayBuffer` is cloned as fast as by a web worker.
   */
  bytes: ArrayBuffer;
  language: string | undefined;
  limits: ExtractLimits;
}

/** Message to a worker: load these languages' grammars and queries now, answer nothing. */
export interface WorkerWarmRequest {
  warm: string[];
}

/** Message to a worker: answer with the heap figures of its isolate. */
export interface WorkerMemoryRequest {
  memory: number;
}

/** One worker's isolate: its V8 heap and the external (array buffer) bytes it holds. */
export interface WorkerMemory {
  heapTotal: number;
  heapUsed: number;
  external: number;
}

/** Message from a worker. */
export type WorkerResponse =
  | { id: number; result: WireResult | ParseResult }
  | { id: number; error: string }
  | { id: number; memory: WorkerMemory };

/** Options of `ParserPool`. */
export interface ParserPoolOptions {
  /**
   * Number of workers.
   * @default navigator.hardwareConcurrency
   */
  workers?: number;
  /**
   * Per-file limits applied in the workers.
   * @default {}
   */
  limits?: ExtractLimits;
  /**
   * A worker that parsed a file of at least this many bytes is replaced by a fresh one once it
   * is idle: tree-sitter's wasm heap grows to fit the largest file parsed and never shrinks, so
   * without this every worker keeps the memory of the biggest file it ever saw (a long-lived
   * server may want that back). `Infinity` keeps workers for the pool's lifetime.
   * @default Infinity
   */
  recycleAfterBytes?: number;
  /**
   * Milliseconds without a job after which the workers that parsed (or warmed) something are
   * stopped: each holds its tree-sitter wasm heap, grown to the largest file it parsed, and the
   * code V8 compiled for its grammars — on the Go standard library the two workers of a full
   * index hold ~185 MB resident that closing them gives back. The pool stays usable: the next
   * `parse()` starts workers again (and reloads the grammars it needs). `Infinity` never stops
   * them.
   * @default 30_000
   */
  idleStopMs?: number;
  /**
   * After an idle stop, start one fresh worker (no grammar loaded; ~16-27 MB) to take the next
   * job at once: creating a worker blocks the calling thread 0.07-0.5 s (Deno builds the
   * worker's runtime synchronously in `new Worker()`, even for an empty module), and a server
   * must stay responsive when a watched file changes after hours of idling.
   * @default true
   */
  keepSpare?: boolean;
}

interface _Job {
  id: number;
  file: string;
  bytes: Uint8Array;
  language: string | undefined;
  /** The language id the worker will use (`""` when unknown: any worker will do). */
  lang: string;
  symbolsOnly: boolean;
  /** False: no complexity measured (`ExtractLimits.complexity`). */
  complexity: boolean;
  resolve: (result: ParseResult) => void;
  reject: (error: Error) => void;
}

interface _Slot {
  worker: Worker;
  running: Map<number, _Job>;
  /** Set after a huge file: the worker takes no more jobs and stops once idle. */
  retiring: boolean;
  /** Languages this worker has parsed (or warmed): their grammars are loaded there. */
  languages: Set<string>;
  /** False for a fresh spare that has parsed and warmed nothing: an idle stop keeps it. */
  used: boolean;
}

/** Jobs kept in flight per worker, so a worker never waits for the next message. */
const _IN_FLIGHT = 2;
/** Only jobs up to this size are queued behind a running one. */
const _PIPELINE_MAX_BYTES = 64 * 1024;
/**
 * A language already loaded in one worker is loaded in another only when at least this many of
 * its files are queued. Loading a grammar costs the worker its compile time and memory — V8
 * compiling a large grammar's code peaks at 100-200 MB (C++, Bash) — so the odd header or script
 * of a Go repo goes to the one worker that has its grammar, while a repo's main languages still
 * spread over all workers.
 */
const _SPREAD_QUEUED = 4;
/** How deep into the queue the pump looks for a job some free worker may take. */
const _SCAN = 32;
/**
 * Default of `recycleAfterBytes`: never. Measured on the Go standard library (2 workers):
 * replacing workers after files of 256 KiB or more lowered the peak RSS of parsing alone from
 * ~415 to ~345 MB, but not that of a full index (581-615 MB before, 599-670 MB after, in the
 * same conditions), and cost ~12% more CPU (about 25 restarts, each reloading its grammars).
 */
const _RECYCLE_AFTER_BYTES = Infinity;
/**
 * Young generation of each worker's V8 heap, in MB. Left to itself V8 grows an isolate's young
 * generation to 64 MB (two 32 MB semi-spaces) once it has allocated enough, and keeps it: a
 * worker that parses thousands of files gets there, though it holds little more than one file's
 * results at a time. A `node:worker_threads` worker takes a limit (`resourceLimits`; a web
 * `Worker` takes none). Measured on the Go standard library (2 workers, full index): peak RSS
 * 571 -> 472-489 MB, the same CPU time (8 MB: the same peak, ~8% more CPU in scavenges).
 */
const _WORKER_YOUNG_GENERATION_MB = 16;
/** Default of `idleStopMs`: long enough for a burst of edits, short beside an idle session. */
const _IDLE_STOP_MS = 30_000;

/** The bytes of `view` as a whole `ArrayBuffer`: its own buffer when it spans all of it. */
function _arrayBuffer(view: Uint8Array): ArrayBuffer {
  const buffer = view.buffer;
  return buffer instanceof ArrayBuffer && view.byteOffset === 0 &&
      view.byteLength === buffer.byteLength
    ? buffer
    // A copy of the view's bytes alone: a node `Buffer`'s `slice()` is a view of its shared pool
    // (the git reader's inflated blobs are Buffers), whose `.buffer` holds other objects' bytes.
    : Uint8Array.prototype.slice.call(view).buffer;
}

/**
 * Queued jobs form a binary max-heap: largest file first (then first come), the longest-first
 * rule that keeps one big file from running alone at the end of a batch.
 */
function _before(a: _Job, b: _Job): boolean {
  const d = a.bytes.byteLength - b.bytes.byteLength;
  return d > 0 || (d === 0 && a.id < b.id);
}

function _heapPush(heap: _Job[], job: _Job): void {
  heap.push(job);
  for (let i = heap.length - 1; i > 0;) {
    const up = (i - 1) >> 1;
    if (!_before(heap[i]!, heap[up]!)) break;
    [heap[i], heap[up]] = [heap[up]!, heap[i]!];
    i = up;
  }
}

function _heapPop(heap: _Job[]): _Job | undefined {
  return _heapRemoveAt(heap, 0);
}

/** Remove and return the job at `index` of the heap, keeping the heap order. */
function _heapRemoveAt(heap: _Job[], index: number): _Job | undefined {
  const removed = heap[index];
  const last = heap.pop();
  if (index < heap.length && last !== undefined) {
    heap[index] = last;
    // The moved job may belong above its new place (when it came from another branch)…
    let i = index;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (!_before(heap[i]!, heap[up]!)) break;
      [heap[i], heap[up]] = [heap[up]!, heap[i]!];
      i = up;
    }
    // …or below it.
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < heap.length && _before(heap[l]!, heap[best]!)) best = l;
      if (r < heap.length && _before(heap[r]!, heap[best]!)) best = r;
      if (best === i) break;
      [heap[i], heap[best]] = [heap[best]!, heap[i]!];
      i = best;
    }
  }
  return removed;
}

/**
 * Parses files in a pool of worker threads (one per CPU by default). `parse()` may be called any
 * number of times concurrently: jobs queue, largest file first, and go to the least busy worker
 * (a busy worker gets at most one small job queued behind its current one); the bytes are copied
 * to the worker, so the caller keeps its buffer. Always `close()` the pool.
 *
 * @example Parse two files in parallel
 * ```ts
 * import { deepEqual as assertEquals } from "node:assert/strict";
 * import { ParserPool } from "./mod.ts";
 * const pool = new ParserPool({ workers: 2 });
 * const enc = new TextEncoder();
 * const results = await Promise.all([
 *   pool.parse("a.py", enc.encode("def a():\n    pass\n")),
 *   pool.parse("b.go", enc.encode("package b\n\nfunc B() {}\n")),
 * ]);
 * await pool.close();
 * assertEquals(results.map((r) => r.symbols[0]?.id), ["a.py::a#function", "b.go::B#function"]);
 * ```
 */
export class ParserPool {
  #slots: _Slot[] = [];
  #queue: _Job[] = [];
  /** Queued jobs per language id. */
  #queued = new Map<string, number>();
  #nextId = 1;
  #closed = false;
  #size: number;
  #limits: ExtractLimits;
  #recycleAfterBytes: number;
  /** Answers awaited from `memory()`, by request id. */
  #memoryWaiters = new Map<number, (m: WorkerMemory) => void>();
  #idleStopMs: number;
  #keepSpare: boolean;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  #idleStops = 0;

  constructor(options: ParserPoolOptions = {}) {
    const size = options.workers ?? navigator.hardwareConcurrency ?? 1;
    if (!Number.isInteger(size) || size < 1) {
      throw new RangeError(
        `Cannot create parser pool: workers must be a positive integer: ${size}`,
      );
    }
    const recycle = options.recycleAfterBytes ?? _RECYCLE_AFTER_BYTES;
    if (!(recycle > 0)) {
      throw new RangeError(
        `Cannot create parser pool: recycleAfterBytes must be a positive number: ${recycle}`,
      );
    }
    const idleStop = options.idleStopMs ?? _IDLE_STOP_MS;
    if (!(idleStop >= 0)) {
      throw new RangeError(
        `Cannot create parser pool: idleStopMs must be a number ≥ 0: ${idleStop}`,
      );
    }
    this.#size = size;
    this.#limits = options.limits ?? {};
    this.#recycleAfterBytes = recycle;
    this.#idleStopMs = idleStop;
    this.#keepSpare = options.keepSpare ?? true;
  }

  /** How many times idle workers were stopped (`idleStopMs`). */
  get idleStops(): number {
    return this.#idleStops;
  }

  /** Number of workers. */
  get size(): number {
    return this.#size;
  }

  /**
   * Parse one file in a worker; the language is found from the path unless given. With
   * `symbolsOnly`, the imports and calls are not extracted (`ExtractLimits.symbolsOnly`); with
   * `complexity: false`, no complexity is measured (`ExtractLimits.complexity`).
   */
  parse(
    file: string,
    bytes: Uint8Array,
    language?: string,
    options: { symbolsOnly?: boolean; complexity?: boolean } = {},
  ): Promise<ParseResult> {
    if (this.#closed) return Promise.reject(new Error("Cannot parse: the parser pool is closed"));
    return new Promise((resolve, reject) => {
      const lang = language ?? languageForSource(file, bytes)?.id ?? "";
      // A text-only file (SQL, plain text...) has nothing to parse: no worker needed.
      const text = lang === "" || language !== undefined
        ? textOnlyResult(file, language)
        : undefined;
      if (text !== undefined) return resolve(text);
      this.#disarmIdle();
      this.#queued.set(lang, (this.#queued.get(lang) ?? 0) + 1);
      _heapPush(this.#queue, {
        id: this.#nextId++,
        file,
        bytes,
        language,
        lang,
        symbolsOnly: options.symbolsOnly === true,
        complexity: options.complexity !== false,
        resolve,
        reject,
      });
      this.#pump();
    });
  }

  /** Number of workers running now (they start on demand, up to `size`). */
  get running(): number {
    return this.#slots.length;
  }

  /**
   * Start one worker now, if none is running, and have it load the grammars of `languages`
   * (ids; unknown ones are ignored) in the background: a caller that will soon parse a few files
   * overlaps the worker's start-up with its own work instead of waiting for it at the first
   * `parse()`. Does nothing once closed.
   */
  prewarm(languages: readonly string[] = []): void {
    if (this.#closed) return;
    const spare = this.#slots.length === 1 && !this.#slots[0]!.used ? this.#slots[0]! : undefined;
    if (this.#slots.length > 0 && spare === undefined) return;
    const warm: WorkerWarmRequest = { warm: [...languages] };
    const slot = spare ?? this.#spawn();
    for (const l of languages) slot.languages.add(l);
    if (languages.length > 0) slot.used = true;
    slot.worker.postMessage(warm);
    this.#armIdle();
  }

  /** The heap figures of each running worker's isolate (diagnostics, the memory benchmark). */
  memory(): Promise<WorkerMemory[]> {
    return Promise.all(this.#slots.map((slot) =>
      new Promise<WorkerMemory>((resolve) => {
        const id = this.#nextId++;
        this.#memoryWaiters.set(id, resolve);
        const request: WorkerMemoryRequest = { memory: id };
        slot.worker.postMessage(request);
      })
    ));
  }

  /**
   * Stop every worker now, the fresh spare too, unless a job is queued or running (then nothing
   * is stopped); returns how many were stopped. For a server at rest (no call for
   * `CODEMUNCH_IDLE_DROP_S`): each worker is an isolate of its own (an empty spare ~16-27 MB). The
   * pool stays usable: the next `parse()` starts workers again, holding the calling thread while
   * the first is built (0.07-0.5 s, see `keepSpare`), and its idle stop keeps a spare again.
   */
  rest(): number {
    if (this.#closed || this.#queue.length > 0) return 0;
    if (this.#slots.some((s) => s.running.size > 0)) return 0;
    this.#disarmIdle();
    const stopped = this.#slots;
    this.#slots = [];
    for (const slot of stopped) slot.worker.terminate();
    this.#answerMemoryWaiters();
    return stopped.length;
  }

  /** Stop all workers; jobs not finished yet are rejected. */
  close(): Promise<void> {
    this.#closed = true;
    this.#disarmIdle();
    this.#answerMemoryWaiters();
    const error = new Error("Cannot parse: the parser pool was closed");
    for (const job of this.#queue) job.reject(error);
    this.#queue = [];
    this.#queued.clear();
    for (const slot of this.#slots) {
      slot.worker.terminate();
      for (const job of slot.running.values()) job.reject(error);
      slot.running.clear();
    }
    this.#slots = [];
    return Promise.resolve();
  }

  /** Answer pending `memory()` requests of stopped workers (NaN: the figures are gone). */
  #answerMemoryWaiters(): void {
    for (const resolve of this.#memoryWaiters.values()) {
      resolve({ heapTotal: NaN, heapUsed: NaN, external: NaN });
    }
    this.#memoryWaiters.clear();
  }

  #spawn(): _Slot {
    const worker = new Worker(new URL("./worker.ts", import.meta.url), {
      resourceLimits: { maxYoungGenerationSizeMb: _WORKER_YOUNG_GENERATION_MB },
    });
    const slot: _Slot = {
      worker,
      running: new Map(),
      retiring: false,
      languages: new Set(),
      used: false,
    };
    worker.on("message", (data: WorkerResponse) => {
      if ("memory" in data) {
        this.#memoryWaiters.get(data.id)?.(data.memory);
        this.#memoryWaiters.delete(data.id);
        return;
      }
      const job = slot.running.get(data.id);
      if (job === undefined) return;
      slot.running.delete(data.id);
      if (job.bytes.byteLength >= this.#recycleAfterBytes) slot.retiring = true;
      if (slot.retiring && slot.running.size === 0) {
        // Its wasm heap grew to fit the huge file and never shrinks: replace the worker.
        worker.terminate();
        this.#slots = this.#slots.filter((s) => s !== slot);
      }
      if ("result" in data) job.resolve(decodeResult(data.result));
      else job.reject(new Error(`Cannot parse "${job.file}": ${data.error}`));
      this.#pump();
      this.#armIdle();
    });
    // A crashed worker (an uncaught error, or out of memory) fails its own jobs and is replaced;
    // the pool keeps going.
    const failed = (message: string) => {
      if (!this.#slots.includes(slot)) return;
      worker.terminate();
      this.#slots = this.#slots.filter((s) => s !== slot);
      for (const job of slot.running.values()) {
        job.reject(new Error(`Cannot parse "${job.file}": worker failed: ${message}`));
      }
      slot.running.clear();
      this.#pump();
      this.#armIdle();
    };
    worker.on("error", (error: Error) => failed(error.message));
    worker.on("exit", (code: number) => failed(`exited with code ${code}`));
    this.#slots.push(slot);
    return slot;
  }

  /** Start the idle countdown when nothing is queued or running (see `idleStopMs`). */
  #armIdle(): void {
    if (this.#closed || this.#idleTimer !== undefined || !Number.isFinite(this.#idleStopMs)) {
      return;
    }
    if (this.#queue.length > 0 || this.#slots.some((s) => s.running.size > 0)) return;
    if (!this.#slots.some((s) => s.used)) return;
    const timer = setTimeout(() => {
      this.#idleTimer = undefined;
      this.#stopIdle();
    }, this.#idleStopMs);
    // A pool waiting to stop its workers must not keep the process alive.
    Deno.unrefTimer(timer);
    this.#idleTimer = timer;
  }

  #disarmIdle(): void {
    if (this.#idleTimer === undefined) return;
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
  }

  /** Stop the workers that parsed or warmed something; keep (or start) one fresh spare. */
  #stopIdle(): void {
    if (this.#closed || this.#queue.length > 0) return;
    if (this.#slots.some((s) => s.running.size > 0)) return;
    const used = this.#slots.filter((s) => s.used);
    if (used.length === 0) return;
    this.#slots = this.#slots.filter((s) => !s.used);
    for (const slot of used) slot.worker.terminate();
    this.#answerMemoryWaiters();
    this.#idleStops++;
    if (this.#keepSpare && this.#slots.length === 0) this.#spawn();
  }

  #pump(): void {
    while (this.#queue.length > 0 && !this.#closed) {
      let index = -1;
      let slot: _Slot | undefined;
      for (let i = 0; i < Math.min(this.#queue.length, _SCAN) && slot === undefined; i++) {
        slot = this.#slotFor(this.#queue[i]!);
        index = i;
      }
      if (slot === undefined) return;
      const job = _heapRemoveAt(this.#queue, index)!;
      const left = (this.#queued.get(job.lang) ?? 1) - 1;
      if (left === 0) this.#queued.delete(job.lang);
      else this.#queued.set(job.lang, left);
      slot.running.set(job.id, job);
      slot.used = true;
      if (job.lang !== "") slot.languages.add(job.lang);
      const request: WorkerRequest = {
        id: job.id,
        file: job.file,
        bytes: _arrayBuffer(job.bytes),
        // The language found here (a `.h` by its content too), so the worker need not look again.
        language: job.language ?? (job.lang === "" ? undefined : job.lang),
        limits: job.symbolsOnly || !job.complexity
          ? { ...this.#limits, symbolsOnly: job.symbolsOnly, complexity: job.complexity }
          : this.#limits,
      };
      slot.worker.postMessage(request);
    }
  }

  /**
   * The worker to hand `job` to now (starting one if the pool may grow), or undefined when it
   * must wait: the least busy worker, preferring one that has the job's language loaded. A busy
   * worker only gets a small job queued behind its current one (it hides the message round trip);
   * a large job waits for an idle worker so the tail of a batch stays balanced. A language some
   * worker already has goes to another only when enough of its files are queued
   * (`_SPREAD_QUEUED`).
   */
  #slotFor(job: _Job): _Slot | undefined {
    const fits = (s: _Slot) =>
      s.running.size === 0 ||
      (s.running.size < _IN_FLIGHT && job.bytes.byteLength <= _PIPELINE_MAX_BYTES);
    const has = (s: _Slot) => job.lang === "" || s.languages.has(job.lang);
    let loaded = false;
    let best: _Slot | undefined;
    for (const s of this.#slots) {
      if (s.retiring) continue;
      if (has(s)) loaded = true;
      if (
        best === undefined || s.running.size < best.running.size ||
        (s.running.size === best.running.size && has(s) && !has(best))
      ) best = s;
    }
    const spread = !loaded || (this.#queued.get(job.lang) ?? 0) >= _SPREAD_QUEUED;
    if (!spread) {
      // Only a worker that has the language loaded may take it.
      let home: _Slot | undefined;
      for (const s of this.#slots) {
        if (!s.retiring && has(s) && (home === undefined || s.running.size < home.running.size)) {
          home = s;
        }
      }
      return home !== undefined && fits(home) ? home : undefined;
    }
    if ((best === undefined || best.running.size > 0) && this.#slots.length < this.#size) {
      return this.#spawn();
    }
    return best !== undefined && fits(best) ? best : undefined;
  }
}
