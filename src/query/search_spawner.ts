/**
 * The search pool's spawner thread (`search_pool.ts`): it starts and terminates the search
 * workers, so that the main thread never does. `new Worker()` builds the new worker's runtime
 * while the calling thread waits (0.1-0.4 s, more on a loaded machine): on the main thread that
 * left `ping` unanswered; here it holds only this thread, which has nothing else to do. Each
 * worker gets the port the main thread sent with the request and talks to the main thread over
 * it directly (nothing passes through here).
 *
 * In: `{ op: "spawn", id, url, port }` (the port transferred), `{ op: "terminate", id }`.
 * Out: `{ op: "error", id, message }` when a worker failed (it is terminated), `{ op: "ready" }`
 * once loaded.
 *
 * @module
 */
import { type MessagePort, parentPort, Worker } from "node:worker_threads";

/** A request of the pool. */
export type SpawnerRequest =
  | { op: "spawn"; id: number; url: string; port: MessagePort }
  | { op: "terminate"; id: number };

/** A message to the pool. */
export type SpawnerReply = { op: "ready" } | { op: "error"; id: number; message: string };

const _workers = new Map<number, Worker>();

function _failed(id: number, e: unknown): void {
  _workers.get(id)?.terminate();
  _workers.delete(id);
  const message = e instanceof Error ? e.message : String(e);
  parentPort!.postMessage({ op: "error", id, message } satisfies SpawnerReply);
}

parentPort?.on("message", (m: SpawnerRequest) => {
  if (m.op === "terminate") {
    const w = _workers.get(m.id);
    _workers.delete(m.id);
    void w?.terminate();
    return;
  }
  try {
    const w = new Worker(
      new URL(m.url),
      {
        workerData: { port: m.port },
        transferList: [m.port as unknown as Transferable],
      } as ConstructorParameters<typeof Worker>[1],
    );
    _workers.set(m.id, w);
    w.on("error", (e: unknown) => _failed(m.id, e));
  } catch (e) {
    _failed(m.id, e);
  }
});
parentPort?.postMessage({ op: "ready" } satisfies SpawnerReply);
