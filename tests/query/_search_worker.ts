/** Drive a search worker module as the pool does, over a real port, for the worker unit tests. */
import { MessageChannel, type MessagePort, Worker } from "node:worker_threads";

/** A worker started from `url` directly (it answers on its parent port). */
export function startWorker(url: URL): { worker: Worker; next: () => Promise<unknown> } {
  const worker = new Worker(url);
  return { worker, next: _queue((f) => worker.on("message", f)) };
}

/** Messages in arrival order: `next()` resolves with the next one. */
export function _queue(on: (f: (m: unknown) => void) => void): () => Promise<unknown> {
  const got: unknown[] = [];
  const waiting: ((m: unknown) => void)[] = [];
  on((m) => {
    const w = waiting.shift();
    if (w !== undefined) w(m);
    else got.push(m);
  });
  return () => got.length > 0 ? Promise.resolve(got.shift()) : new Promise((r) => waiting.push(r));
}

/** A port pair: `port` to hand over, `next()` for what comes back on the other end. */
export function channel(): { port: MessagePort; local: MessagePort; next: () => Promise<unknown> } {
  const { port1, port2 } = new MessageChannel();
  return { port: port2, local: port1, next: _queue((f) => port1.on("message", f)) };
}
