/// <reference lib="deno.worker" />
/**
 * Parser worker: receives `{ id, file, bytes, language?, limits? }`, answers `{ id, result }` or
 * `{ id, error }`. Grammars load lazily, once per worker.
 */
import { parseSource } from "./parse.ts";
import type { WorkerRequest, WorkerResponse } from "./pool.ts";

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const { id, file, bytes, language, limits } = event.data;
  let response: WorkerResponse;
  try {
    response = { id, result: await parseSource(file, bytes, language, limits) };
  } catch (e) {
    response = { id, error: e instanceof Error ? e.message : String(e) };
  }
  self.postMessage(response);
};
