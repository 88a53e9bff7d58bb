/**
 * The channel a search worker answers on: the port the pool gave it (`search_pool.ts` starts
 * search workers from a spawner thread and talks to each over a port of its own), or the parent
 * when it was started directly. Null outside a worker.
 *
 * @module
 */
import { type MessagePort, parentPort, workerData } from "node:worker_threads";

/** The port of this search worker, or null when this module is not loaded in a worker. */
export function searchPort(): MessagePort | null {
  const given = (workerData as { port?: MessagePort } | null | undefined)?.port;
  return given ?? parentPort;
}
