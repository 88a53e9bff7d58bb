/// <reference lib="deno.worker" />
/**
 * Parser worker: receives `{ id, file, bytes, language?, limits? }`, answers `{ id, result }` (in
 * the compact form of `wire.ts`) or `{ id, error }`. Grammars load lazily, once per worker, or
 * ahead of use on `{ warm: [ids] }` (no answer; a grammar that fails to load is reported by the
 * first parse that needs it).
 */
import { parseSource } from "./parse.ts";
import { languageById } from "./registry.ts";
import { loadLanguage } from "./loader.ts";
import type { WorkerRequest, WorkerResponse, WorkerWarmRequest } from "./pool.ts";
import { encodeResult } from "./wire.ts";

const _EMPTY = new Uint8Array(0);

self.onmessage = async (event: MessageEvent<WorkerRequest | WorkerWarmRequest>) => {
  if ("warm" in event.data) {
    for (const id of event.data.warm) {
      const spec = languageById(id);
      if (spec === undefined) continue;
      await loadLanguage(spec).catch(() => {});
      // One parse of an empty file: V8 compiles wasm functions on their first call, so the
      // parser's and the grammar's code is ready before the first real file comes.
      await parseSource("", _EMPTY, id).catch(() => {});
    }
    return;
  }
  const { id, file, bytes, language, limits } = event.data;
  let response: WorkerResponse;
  try {
    response = { id, result: encodeResult(await parseSource(file, bytes, language, limits)) };
  } catch (e) {
    response = { id, error: e instanceof Error ? e.message : String(e) };
  }
  self.postMessage(response);
};
