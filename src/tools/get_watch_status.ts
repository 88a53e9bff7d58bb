/**
 * `get_watch_status` (the reference's tool): every locally indexed repo, whether its index is
 * current with the folder on disk (measured: git HEAD and the indexed files' size and mtime),
 * and how this server follows it — watched (running, restarted after a stall, stalled), polled,
 * or not watched and why — with pending changes, the last batch and the limits.
 */
import { z } from "zod";
import { filesChangedOnDisk, META, PATHS } from "../query/files.ts";
import { readGitHead } from "../ingest/git_head.ts";
import type { ToolContext, ToolOutput } from "./context.ts";
import { defineTool, type ResponseOf, type RowOf, rows } from "./define.ts";

/** Most indexed files stat'ed per repo to count the changed ones. */
const _MAX_SWEEP = 20_000;

/** How the server follows one folder (from the watch manager). */
export interface WatchedFolderReport {
  source_root: string;
  repo: string;
  /** `indexed`: found indexed at start-up; `indexed_here`: indexed by this server. */
  origin: "indexed" | "indexed_here";
  /** `starting`, `running`, `restarted` (running after a stall), `stalled`, `polling`. */
  state: string;
  /** Why it is polled, or why its watcher was last restarted. */
  reason: string | null;
  restarts: number;
  started_at: string;
  last_heartbeat_ms_ago: number | null;
  poll_sweeps: number;
  pending_changes: number;
  batch_running: boolean;
  batches: number;
  failed_batches: number;
  last_batch_at: string | null;
  /** `files`, or why it was a folder index (`start`, `restart`, `git_head`, …). */
  last_batch_mode: string | null;
  last_batch_files: number | null;
  last_batch_ms: number | null;
  last_batch_error: string | null;
}

/** What the server's watch mode reports. */
export interface WatchReport {
  /** `watch` (events, polling as a fallback), `poll` (CODEMUNCH_WATCH=poll), `off`. */
  mode: "watch" | "poll" | "off";
  limits: Record<string, number>;
  folders: WatchedFolderReport[];
  /** Indexed folders the server does not follow, and why. */
  not_watched: { source_root: string; reason: string }[];
}

/** The report of a server without watch mode. */
export const WATCH_OFF: WatchReport = { mode: "off", limits: {}, folders: [], not_watched: [] };

const _limit = (what: string) => z.number().int().optional().describe(`Watch mode: ${what}`);
const _int = (what: string) => z.number().int().describe(what);
const _maybe = (what: string) => z.string().nullable().describe(what);

const _fields = {
  watch_mode: z.enum(["watch", "poll", "off"]).describe(
    "watch (events, polling as a fallback), poll (CODEMUNCH_WATCH=poll) or off",
  ),
  repo_count: _int("Locally indexed repos"),
  watched_count: _int("Of them, followed (watched or polled)"),
  any_stale: z.boolean().describe("Some index does not match its folder"),
  any_freshness_unknown: z.boolean().describe("Some folder or index could not be read"),
  any_in_progress: z.boolean().describe("A re-index is running"),
  any_failing: z.boolean().describe("Some re-index batch failed"),
  any_polling: z.boolean().describe("Some folder is polled instead of watched"),
  limit_max_folders: _limit("most folders watched (CODEMUNCH_WATCH_MAX_FOLDERS)"),
  limit_debounce_ms: _limit("debounce of a batch, ms"),
  limit_max_batch_files: _limit("most files of one batch before a folder index"),
  limit_poll_ms: _limit("poll interval, ms"),
  limit_heartbeat_ms: _limit("watcher heartbeat, ms"),
  limit_stall_ms: _limit("silence after which a watcher counts as stalled, ms"),
  limit_max_restarts: _limit("restarts before a folder is polled"),
  repos: rows({
    repo: z.string().describe("Repo id"),
    source_root: z.string().describe("Its folder"),
    indexed_at: z.string().describe("When it was indexed"),
    exists: z.boolean().describe("Whether the folder exists"),
    index_freshness: z.enum(["fresh", "stale", "unknown"]).describe("Measured on disk"),
    changed_files: z.number().int().nullable().describe("Indexed files changed on disk"),
    head_moved: z.boolean().nullable().describe("Whether git HEAD moved since indexing"),
    watch: z.string().describe("running, restarted, stalled, polling, starting or not_watched"),
    watch_reason: _maybe("Why it is polled, restarted or not watched"),
    origin: z.string().nullable().describe("indexed (found at start-up) or indexed_here"),
    restarts: _int("Watcher restarts"),
    watched_since: _maybe("When watching started"),
    last_heartbeat_ms_ago: z.number().nullable().describe("Age of the last heartbeat"),
    poll_sweeps: _int("Stat sweeps when polled"),
    pending_changes: _int("Changes seen, not yet indexed"),
    reindex_in_progress: z.boolean().describe("A batch is running"),
    batches: _int("Batches run"),
    failed_batches: _int("Batches that failed"),
    last_batch_at: _maybe("When the last batch ran"),
    last_batch_mode: _maybe("files, or why it was a folder index"),
    last_batch_files: z.number().int().nullable().describe("Files of the last batch"),
    last_batch_ms: z.number().nullable().describe("Its duration"),
    last_batch_error: _maybe("Why it failed"),
  }).describe("One row per locally indexed repo, sorted by repo id"),
};

type _Response = ResponseOf<typeof _fields>;
type _Row = RowOf<typeof _fields.repos>;

/** One row per locally indexed repo, sorted by repo id; flags and limits besides. */
export function handler(
  ctx: ToolContext,
  _args: Record<string, never> = {},
): ToolOutput<_Response> {
  const report = ctx.watchReport?.() ?? WATCH_OFF;
  const watched = new Map(report.folders.map((f) => [f.source_root, f]));
  const notWatched = new Map(report.not_watched.map((n) => [n.source_root, n.reason]));
  const rows = ctx.store.listRepos().repos.filter((m) => m.source_root !== "").map((m) =>
    _row(ctx, m.repo, m.source_root, m.indexed_at, watched, notWatched, report.mode)
  );
  const response: _Response = {
    watch_mode: report.mode,
    repo_count: rows.length,
    watched_count: rows.filter((r) => r.watch !== "not_watched").length,
    any_stale: rows.some((r) => r.index_freshness === "stale"),
    any_freshness_unknown: rows.some((r) => r.index_freshness === "unknown"),
    any_in_progress: rows.some((r) => r.reindex_in_progress === true),
    any_failing: rows.some((r) => r.failed_batches > 0),
    any_polling: rows.some((r) => r.watch === "polling"),
    ...Object.fromEntries(Object.entries(report.limits).map(([k, v]) => [`limit_${k}`, v])),
    repos: rows,
  };
  return { response };
}

function _row(
  ctx: ToolContext,
  repo: string,
  root: string,
  indexedAt: string,
  watched: ReadonlyMap<string, WatchedFolderReport>,
  notWatched: ReadonlyMap<string, string>,
  mode: WatchReport["mode"],
): _Row {
  const f = watched.get(root);
  const freshness = _freshness(ctx, repo, root);
  return {
    repo,
    source_root: root,
    indexed_at: indexedAt,
    exists: freshness.exists,
    index_freshness: freshness.state,
    changed_files: freshness.changed,
    head_moved: freshness.headMoved,
    watch: f?.state ?? "not_watched",
    watch_reason: f?.reason ??
      (f === undefined
        ? notWatched.get(root) ?? (mode === "off" ? "watch mode is off (CODEMUNCH_WATCH=0)" : null)
        : null),
    origin: f?.origin ?? null,
    restarts: f?.restarts ?? 0,
    watched_since: f?.started_at ?? null,
    last_heartbeat_ms_ago: f?.last_heartbeat_ms_ago ?? null,
    poll_sweeps: f?.poll_sweeps ?? 0,
    pending_changes: f?.pending_changes ?? 0,
    reindex_in_progress: f?.batch_running ?? false,
    batches: f?.batches ?? 0,
    failed_batches: f?.failed_batches ?? 0,
    last_batch_at: f?.last_batch_at ?? null,
    last_batch_mode: f?.last_batch_mode ?? null,
    last_batch_files: f?.last_batch_files ?? null,
    last_batch_ms: f?.last_batch_ms ?? null,
    last_batch_error: f?.last_batch_error ?? null,
  };
}

/**
 * Whether the index matches the folder, measured: `stale` when git HEAD moved or an indexed
 * file's size or mtime changed (counted, up to {@linkcode _MAX_SWEEP} files stat'ed), `fresh`
 * when neither, `unknown` when the folder or the index cannot be read.
 */
function _freshness(
  ctx: ToolContext,
  repo: string,
  root: string,
): {
  exists: boolean;
  state: "fresh" | "stale" | "unknown";
  changed: number | null;
  headMoved: boolean | null;
} {
  let exists = false;
  try {
    exists = Deno.statSync(root).isDirectory;
  } catch { /* gone or unreadable */ }
  if (!exists) return { exists, state: "unknown", changed: null, headMoved: null };
  try {
    const view = ctx.views.open(repo);
    const indexedHead = view.get(META).git_head;
    const head = indexedHead === "" ? "" : readGitHead(root);
    const headMoved = head !== "" && head !== indexedHead;
    const changed = filesChangedOnDisk(view, view.get(PATHS), _MAX_SWEEP).length;
    return { exists, state: headMoved || changed > 0 ? "stale" : "fresh", changed, headMoved };
  } catch {
    return { exists, state: "unknown", changed: null, headMoved: null };
  }
}

/** The declaration. */
export const tool = defineTool({
  name: "get_watch_status",
  title: "Watch status",
  summary:
    "what this server keeps fresh: each local repo's index freshness (measured on disk), watcher state (running, restarted, polling), pending changes, last batch, limits",
  description:
    "Report what this server keeps fresh: each locally indexed repo, whether its index matches the folder (index_freshness, changed_files), and how it is followed (watched, polled or not, and why), with pending changes and the last batch. Call it when answers seem to miss recent edits.",
  repo: "none",
  args: {},
  output: { fields: _fields },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: (ctx) => handler(ctx),
});
