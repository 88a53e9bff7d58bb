/**
 * Watch-mode settings, from the environment, and the record of one batch.
 *
 * | Variable | Default | Meaning |
 * |---|---|---|
 * | `CODEMUNCH_WATCH` | on | `0` (or `off`, `false`, `no`) turns watch mode off; `poll` polls every folder instead of watching it (file systems without change events, such as network mounts) |
 * | `CODEMUNCH_WATCH_DEBOUNCE_MS` | 100 | quiet time after the last event before a batch |
 * | `CODEMUNCH_WATCH_MAX_FOLDERS` | 32 | most folders watched at once by one server |
 * | `CODEMUNCH_WATCH_BATCH_FILES` | 1000 | most paths re-indexed one by one in a batch |
 * | `CODEMUNCH_WATCH_POLL_MS` | 3000 | time between two stat sweeps of a polled folder |
 * | `CODEMUNCH_WATCH_HEARTBEAT_MS` | 2000 | time between two heartbeats of a watcher |
 * | `CODEMUNCH_WATCH_STALL_MS` | 6000 | a heartbeat not reported this long means the watcher stalled |
 */
import { envInteger } from "./config.ts";

/** Watch-mode settings. */
export interface WatchSettings {
  /** @default true */
  enabled: boolean;
  /** Poll every folder instead of watching it. @default false */
  poll: boolean;
  /**
   * Watch every indexed local folder inside the allowed roots when the server starts (not
   * only the folders it indexes). @default true
   */
  watchIndexed: boolean;
  /** Quiet time after the last event before a batch runs, in ms. @default 100 */
  debounceMs: number;
  /** Longest a change waits for its batch while events keep coming, in ms. @default 2000 */
  maxDelayMs: number;
  /** Most folders watched at once. @default 32 */
  maxFolders: number;
  /** Most changed paths re-indexed one by one; more fall back to a folder index. @default 1000 */
  maxBatchFiles: number;
  /** Time between two stat sweeps of a polled folder, in ms. @default 3000 */
  pollMs: number;
  /** Time between two heartbeats, in ms. @default 2000 */
  heartbeatMs: number;
  /** A heartbeat not reported within this many ms means the watcher stalled. @default 6000 */
  stallMs: number;
  /** Restarts of a stalled watcher within 10 minutes before the folder is polled. @default 3 */
  maxRestarts: number;
}

/** The defaults, without looking at the environment. */
export const DEFAULT_WATCH_SETTINGS: WatchSettings = {
  enabled: true,
  poll: false,
  watchIndexed: true,
  debounceMs: 100,
  maxDelayMs: 2000,
  maxFolders: 32,
  maxBatchFiles: 1000,
  pollMs: 3000,
  heartbeatMs: 2000,
  stallMs: 6000,
  maxRestarts: 3,
};

/** Read the watch settings from the environment (see the module doc); bad values throw. */
export function watchSettingsFromEnv(
  env: (name: string) => string | undefined,
): WatchSettings {
  const int = (name: string, fallback: number, min: number) => envInteger(env, name, fallback, min);
  const flag = env("CODEMUNCH_WATCH")?.trim();
  const d = DEFAULT_WATCH_SETTINGS;
  return {
    enabled: flag === undefined || !/^(0|off|false|no)$/i.test(flag),
    poll: flag !== undefined && /^poll$/i.test(flag),
    watchIndexed: d.watchIndexed,
    debounceMs: int("CODEMUNCH_WATCH_DEBOUNCE_MS", d.debounceMs, 0),
    maxDelayMs: d.maxDelayMs,
    maxFolders: int("CODEMUNCH_WATCH_MAX_FOLDERS", d.maxFolders, 1),
    maxBatchFiles: int("CODEMUNCH_WATCH_BATCH_FILES", d.maxBatchFiles, 1),
    pollMs: int("CODEMUNCH_WATCH_POLL_MS", d.pollMs, 100),
    heartbeatMs: int("CODEMUNCH_WATCH_HEARTBEAT_MS", d.heartbeatMs, 50),
    stallMs: int("CODEMUNCH_WATCH_STALL_MS", d.stallMs, 100),
    maxRestarts: d.maxRestarts,
  };
}

/** What one batch did. */
export interface WatchBatch {
  root: string;
  repo: string;
  /** `files`: the changed paths one by one; `folder`: one incremental folder index. */
  mode: "files" | "folder";
  /**
   * Why a folder index ran instead (`mass_change`, `gitignore`, `git_head`, `rescan`, `start`:
   * changes made while no server watched, `restart`: missed while the watcher was stalled,
   * `polling`: before the first sweep).
   */
  reason?: string;
  /** Changed paths the events named (after coalescing). */
  paths: number;
  added: number;
  changed: number;
  deleted: number;
  /** When it ended (ISO 8601). */
  finished_at: string;
  duration_ms: number;
  /** Set when the batch failed (the next event retries). */
  error?: string;
}
