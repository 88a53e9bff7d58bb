/**
 * Parser worker (a `node:worker_threads` worker, see `pool.ts`): receives
 * `{ id, file, bytes, language?, limits? }` (bytes as an `ArrayBuffer`), answers `{ id, result }`
 * (in the compact form of `wire.ts`) or `{ id, error }`. Grammars load lazily, once per worker, or
 * ahead of use on `{ warm: [ids] }` (no answer; a grammar that fails to load is reported by the
 * first parse that needs it), and `{ memory: id }` with its isolate's heap figures (`{ id, memory }`).
 */
import { parseSource } from "./parse.ts";
import { languageById } from "./registry.ts";
import { loadLanguage } from "./loader.ts";
import { isGrammarSpec } from "./language_spec.ts";
import type {
  WorkerMemoryRequest,
  WorkerRequest,
  WorkerResponse,
  WorkerWarmRequest,
} from "./pool.ts";
import { encodeResult } from "./wire.ts";
import { parentPort } from "node:worker_threads";

const _EMPTY = new Uint8Array(0);

// `parentPort` is null only when this module is loaded outside a worker: nothing to answer then.
parentPort?.on("message", async (
  data: WorkerRequest | WorkerWarmRequest | WorkerMemoryRequest,
) => {
  if ("memory" in data) {
    const { heapTotal, heapUsed, external } = Deno.memoryUsage();
    parentPort!.postMessage({ id: data.memory, memory: { heapTotal, heapUsed, external } });
    return;
  }
  if ("warm" in data) {
    for (const id of data.warm) {
      const spec = languageById(id);
      if (spec === undefined) continue;
      if (isGrammarSpec(spec)) await loadLanguage(spec).catch(() => {});
      // One parse of an empty file: V8 compiles wasm functions on their first call, so the
      // parser's and the grammar's code is ready before the first real file comes.
      await parseSource("", _EMPTY, id).catch(() => {});
    }
    return;
  }
  const { id, file, bytes, language, limits } = data;
  let response: WorkerResponse;
  try {
    const source = new Uint8Array(bytes);
    response = { id, result: encodeResult(await parseSource(file, source, language, limits)) };
  } catch (e) {
    response = { id, error: e instanceof Error ? e.message : String(e) };
  }
  parentPort!.postMessage(response);
});
