/**
 * The file watcher of one folder, in a worker of its own (see `watch_events.ts` for why): it
 * runs `Deno.watchFs` on the paths it is given and posts every event to the server.
 *
 * `Deno.watchFs` keeps one watcher per isolate whose event thread opens each changed path to
 * compare it with the watched ones; a FIFO blocks that open until a writer comes, and with it
 * every later event and any new `Deno.watchFs` call of the same isolate. In a worker, a blocked
 * watcher is ended by terminating the worker, and a new worker starts a new one.
 *
 * In: {@linkcode WatchWorkerRequest} (once). Out: {@linkcode WatchWorkerMessage}s.
 */

/** What to watch (recursively). */
export interface WatchWorkerRequest {
  paths: string[];
}

/** What the worker tells the server. */
export type WatchWorkerMessage =
  | { type: "ready" }
  | { type: "event"; kind: string; paths: string[]; flag?: string }
  | { type: "failed"; message: string }
  | { type: "ended" };

/** The worker's global scope (a Deno worker). */
interface _WorkerScope {
  postMessage(message: WatchWorkerMessage): void;
  onmessage: ((event: MessageEvent<WatchWorkerRequest>) => void) | null;
}

const scope = globalThis as unknown as _WorkerScope;

scope.onmessage = (event) => {
  scope.onmessage = null;
  void _watch(event.data.paths);
};

async function _watch(paths: string[]): Promise<void> {
  let watcher: Deno.FsWatcher;
  try {
    watcher = Deno.watchFs(paths, { recursive: true });
  } catch (e) {
    scope.postMessage({ type: "failed", message: e instanceof Error ? e.message : String(e) });
    return;
  }
  scope.postMessage({ type: "ready" });
  try {
    for await (const e of watcher) {
      // Reads of files are no changes (and the most frequent event of all).
      if (e.kind === "access") continue;
      scope.postMessage({
        type: "event",
        kind: e.kind,
        paths: e.paths,
        ...(e.flag !== undefined ? { flag: e.flag } : {}),
      });
    }
    scope.postMessage({ type: "ended" });
  } catch (e) {
    scope.postMessage({ type: "failed", message: e instanceof Error ? e.message : String(e) });
  }
}
