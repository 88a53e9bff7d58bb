/** MCP progress notifications for a tool call, shared by both servers (stdio.ts, server.ts). */
import type { ProgressFn } from "../ingest/index_local.ts";

/** The `params` of a `notifications/progress` message. */
export interface ProgressParams {
  progressToken: string | number;
  progress: number;
  total: number;
  message: string;
}

/** Least time between two progress notifications of one call (the last one always goes), ms. */
const _INTERVAL_MS = 100;

/**
 * A progress callback for the call with `token` that hands `notify` at most one notification per
 * 100 ms, plus the final one (done = total).
 */
export function throttledProgress(
  token: string | number,
  notify: (params: ProgressParams) => void,
): ProgressFn {
  let last = 0;
  return (done, total, path) => {
    const now = performance.now();
    if (done !== total && now - last < _INTERVAL_MS) return;
    last = now;
    notify({ progressToken: token, progress: done, total, message: path });
  };
}
