/**
 * The parse-only ceiling of the index benchmark: web-tree-sitter parsing a given list of files
 * with nothing else, one parser per thread in `threads` worker threads (the cores of the
 * machine), so its wall time is what a perfectly overlapped index could reach and its CPU time
 * what parsing alone costs. The work per file is bench_parse's ceiling (`_ceilingRun`): decode
 * the bytes (`SourceText`) and parse, the tree deleted at once; each thread loads its grammars
 * and parses the first ~2 MB three times before the clock starts (V8 tiers up the wasm code), and
 * file reading is not timed (all bytes are read first, into one shared buffer).
 *
 * Files are handed out largest first from a shared counter (the pool's longest-first order), so
 * no thread is left alone with a big file at the end.
 *
 * Loaded as the main module of a worker, this file is the worker.
 */
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { cpuUsage } from "node:process";
import { join } from "node:path";
import { Parser } from "web-tree-sitter";
import { languageById } from "../src/parser/registry.ts";
import { loadLanguage } from "../src/parser/loader.ts";
import { SourceText } from "../src/parser/source_text.ts";

/** One file of the ceiling run: its path under the root and the language the index gave it. */
export interface CeilingFile {
  path: string;
  language: string;
}

/** What one ceiling run measured. */
export interface CeilingResult {
  wall_ms: number;
  /** CPU seconds (user + system, every thread) of the timed section. */
  cpu_s: number;
  files: number;
  bytes: number;
  threads: number;
}

interface _WorkerInput {
  bytes: SharedArrayBuffer;
  /** Start offset of file i in `bytes` (and one past the end of the last). */
  offsets: number[];
  languages: string[];
  /** Files in the order they are handed out (largest first). */
  order: number[];
  counter: SharedArrayBuffer;
}

/** Parse `files` (under `root`) in `threads` threads; reading the files is not timed. */
export async function measureCeiling(
  root: string,
  files: readonly CeilingFile[],
  threads: number,
): Promise<CeilingResult> {
  const contents = await Promise.all(files.map((f) => Deno.readFile(join(root, f.path))));
  const offsets = [0];
  for (const c of contents) offsets.push(offsets.at(-1)! + c.length);
  const bytes = new SharedArrayBuffer(offsets.at(-1)!);
  const view = new Uint8Array(bytes);
  contents.forEach((c, i) => view.set(c, offsets[i]!));
  const order = [...files.keys()].sort((a, b) => contents[b]!.length - contents[a]!.length);
  const input: _WorkerInput = {
    bytes,
    offsets,
    languages: files.map((f) => f.language),
    order,
    counter: new SharedArrayBuffer(4),
  };
  const workers = Array.from(
    { length: threads },
    () => new Worker(new URL(import.meta.url), { workerData: input }),
  );
  try {
    const next = (w: Worker) =>
      new Promise<string>((resolve, reject) => {
        w.once("message", resolve);
        w.once("error", reject);
      });
    await Promise.all(workers.map(next)); // each has loaded its grammars and warmed up
    const cpu0 = cpuUsage();
    const t0 = performance.now();
    const done = workers.map(next);
    for (const w of workers) w.postMessage("go");
    await Promise.all(done);
    const wall = performance.now() - t0;
    const cpu = cpuUsage(cpu0);
    return {
      wall_ms: wall,
      cpu_s: (cpu.user + cpu.system) / 1e6,
      files: files.length,
      bytes: view.length,
      threads,
    };
  } finally {
    for (const w of workers) w.terminate();
  }
}

async function _worker(input: _WorkerInput): Promise<void> {
  const shared = new Uint8Array(input.bytes);
  const fileBytes = (i: number) => shared.slice(input.offsets[i]!, input.offsets[i + 1]!);
  const parsers = new Map<string, Parser>();
  for (const id of new Set(input.languages)) {
    const spec = languageById(id);
    if (spec === undefined || spec.extractor !== undefined) continue;
    const language = (await loadLanguage(spec)).parser.language; // initialises web-tree-sitter
    const p = new Parser();
    p.setLanguage(language);
    parsers.set(id, p);
  }
  const parse = (i: number) => {
    const source = new SourceText(fileBytes(i));
    parsers.get(input.languages[i]!)?.parse(source.text)?.delete();
  };
  const warm: number[] = [];
  for (let i = 0, total = 0; i < input.languages.length && total < 2_000_000; i++) {
    warm.push(i);
    total += input.offsets[i + 1]! - input.offsets[i]!;
  }
  for (let round = 0; round < 3; round++) for (const i of warm) parse(i);
  const counter = new Int32Array(input.counter);
  parentPort!.once("message", () => {
    for (;;) {
      const k = Atomics.add(counter, 0, 1);
      if (k >= input.order.length) break;
      parse(input.order[k]!);
    }
    parentPort!.postMessage("done");
  });
  parentPort!.postMessage("ready");
}

if (!isMainThread && parentPort !== null) await _worker(workerData as _WorkerInput);
