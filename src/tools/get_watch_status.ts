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

/** Tool name. */
export const name = "get_watch_status";

/** Tool description shown to agents. */
export const description =
  "Report what this server keeps fresh: every locally indexed repo with whether its index matches the folder on disk (index_freshness, changed_files), and how it is followed — watched (running, restarted after a stall), polled, or not watched and why — with pending changes, whether a re-index is running, the last batch and the limits. Call it when you suspect answers miss recent edits.";

/** Input schema (no arguments). */
export const inputSchema = z.object({});

/** Annotations for MCP clients. */
export const annotations = { readOnlyHint: true, openWorldHint: false } as const;

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

/** One row per locally indexed repo, sorted by repo id; flags and limits besides. */
export function handler(ctx: ToolContext, _args: Record<string, never> = {}): ToolOutput {
  const report = ctx.watchReport?.() ?? WATCH_OFF;
  const watched = new Map(report.folders.map((f) => [f.source_root, f]));
  const notWatched = new Map(report.not_watched.map((n) => [n.source_root, n.reason]));
  const rows = ctx.store.listRepos().repos.filter((m) => m.source_root !== "").map((m) =>
    _row(ctx, m.repo, m.source_root, m.indexed_at, watched, notWatched, report.mode)
  );
  const response: Record<string, unknown> = {
    watch_mode: report.mode,
    repo_count: rows.length,
    watched_count: rows.filter((r) => r.watch !== "not_watched").length,
    any_stale: rows.some((r) => r.index_freshness === "stale"),
    any_freshness_unknown: rows.some((r) => r.index_freshness === "unknown"),
    any_in_progress: rows.some((r) => r.reindex_in_progress === true),
    any_failing: rows.some((r) => (r.failed_batches as number) > 0),
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
): Record<string, unknown> {
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
): { exists: boolean; state: string; changed: number | null; headMoved: boolean | null } {
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
