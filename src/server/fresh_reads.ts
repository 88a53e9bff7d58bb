/**
 * Fresh reads: no read tool answers from a file that changed on disk since it was indexed, with
 * or without a watcher (a watcher can fail, hit the inotify limit, or see nothing on a network
 * file system). Around each call of a read-only tool on a local repo:
 *
 * 1. before it runs, the repo's watcher (when there is one) is brought up to date: every change
 *    made before the call is reported (its sync beat), and the changes not indexed yet are
 *    indexed now, without waiting for the debounce (bounded). Tools that answer only from the
 *    files their arguments name skip this step: step 2 covers them;
 * 2. the files its arguments name (a file path, a symbol id's file) are stat'ed against the index
 *    and re-indexed when they changed (or were written since the index) — before the run, so that
 *    a symbol just added is found at the first try;
 * 3. after it runs, the files its answer comes from (every `file` / `file_path` of the response)
 *    are stat'ed the same way — at most 256, a few microseconds each — and the ones whose size or
 *    mtime changed are re-indexed through the one pipeline, then the tool runs once more on the
 *    new index.
 *
 * A watch batch that lands while the tool runs makes it answer again from the new index. A
 * re-index that fails leaves the answer as it was (its `_freshness` marks say what is stale),
 * with a warning.
 */
import { ToolError } from "../errors.ts";
import type { Tool, ToolContext, ToolOutput } from "../tools/mod.ts";
import { filesChangedOnDisk, MAX_CHECKED_FILES, META } from "../query/files.ts";
import type { RepoView } from "../query/view.ts";
import { reindexFiles } from "../tools/reindex.ts";

/** What a fresh read waits for before the tool runs. */
export interface FreshReadWatcher {
  /**
   * Resolve once the changes this folder's watcher has seen (up to now) are in the index, or
   * after `waitMs`; immediately for a folder it does not watch.
   */
  catchUp(root: string, waitMs: number): Promise<void>;
}

/** Longest a read waits for the watcher to index what it has seen, in ms. */
const _CATCH_UP_MS = 2000;

/**
 * Tools whose answer comes only from the files their arguments name (a file path, a symbol
 * id's file): the stat check of those files is all they need, so they do not wait for the
 * watcher's sync beat. Every other read may answer from any file of the repo (a search, a
 * graph) and first lets the watcher catch up. (A field of the tool declaration once `defineTool`
 * lands.)
 */
const _FILE_SCOPED = new Set([
  "get_symbol_source",
  "get_symbol",
  "get_symbols",
  "get_file_outline",
  "get_file_content",
]);

/** Error codes after which a tool runs again when the index changed while it ran. */
const _RETRY_CODES = new Set(["file_not_found", "symbol_not_found"]);

/** Runs read tools on the current files (see the module doc). */
export class FreshReads {
  readonly #watcher: FreshReadWatcher | null;
  readonly #log: (message: string) => void;

  constructor(watcher: FreshReadWatcher | null, log: (message: string) => void) {
    this.#watcher = watcher;
    this.#log = log;
  }

  /** Run `tool` so that its answer comes from the files as they are on disk now. */
  async run(tool: Tool, ctx: ToolContext, args: Record<string, unknown>): Promise<ToolOutput> {
    const a = args;
    if (tool.annotations.readOnlyHint !== true || typeof a.repo !== "string") {
      return await tool.run(ctx, args);
    }
    const view = _localView(ctx, a.repo);
    if (view === null) return await tool.run(ctx, args);
    const root = view.get(META).source_root;
    if (!_FILE_SCOPED.has(tool.name)) await this.#watcher?.catchUp(root, _CATCH_UP_MS);
    // The files the arguments name are checked before the run (a symbol added to a file is then
    // found at the first try, not after a `symbol_not_found` and its suggestions).
    const named = argumentFiles(a);
    const early = filesChangedOnDisk(_current(ctx, view), named);
    const warnings: string[] = [];
    const reindexed = early.length > 0 && await this.#reindex(ctx, root, early, warnings)
      ? early.length
      : 0;
    // The index state the tool is about to answer from.
    const before = _current(ctx, view).state;
    let out: ToolOutput;
    try {
      out = await tool.run(ctx, args);
    } catch (e) {
      // Another writer (a watch batch) changed the index while the tool ran: try once more.
      if (!(e instanceof ToolError) || !_RETRY_CODES.has(e.code)) throw e;
      if (_current(ctx, view).state === before) throw e;
      return _withFacts(await tool.run(ctx, args), reindexed, warnings);
    }
    const now = _current(ctx, view);
    const stale = filesChangedOnDisk(now, answerFiles(out.response));
    if (stale.length === 0) {
      // The index changed while the tool ran (a watch batch): answer from the new one.
      const last = now.state === before ? out : await tool.run(ctx, args);
      return _withFacts(last, reindexed, warnings);
    }
    if (!(await this.#reindex(ctx, root, stale, warnings))) {
      return _withFacts(out, reindexed, warnings);
    }
    return _withFacts(await tool.run(ctx, args), reindexed + stale.length, warnings);
  }

  /** Re-index stale files; false (with a warning added to `warnings`) if that failed. */
  async #reindex(
    ctx: ToolContext,
    root: string,
    stale: readonly string[],
    warnings: string[],
  ): Promise<boolean> {
    try {
      await reindexFiles(ctx, root, stale);
      return true;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.#log(
        `codemunch: could not re-index ${stale.length} changed file(s) of ${root}: ${message}`,
      );
      warnings.push(
        `${stale.length} file(s) of this answer changed on disk and could not be re-indexed (${message}); their _freshness says so`,
      );
      return false;
    }
  }
}

/** The answer, with how many files were re-indexed for it and why some could not be. */
function _withFacts(out: ToolOutput, reindexed: number, warnings: string[]): ToolOutput {
  if (reindexed === 0 && warnings.length === 0) return out;
  return {
    ...out,
    ...(reindexed > 0 ? { meta: { ...out.meta, reindexed_files: reindexed } } : {}),
    ...(warnings.length > 0 ? { warnings: [...(out.warnings ?? []), ...warnings] } : {}),
  };
}

/** The current view of a local repo (null for a remote or unknown one: the tool reports it). */
function _localView(ctx: ToolContext, repo: string): RepoView | null {
  try {
    const view = ctx.views.open(repo);
    return view.get(META).source_root === "" ? null : view;
  } catch {
    return null;
  }
}

/** The view of the repo's index now (the tool's run may have been answered from an older one). */
function _current(ctx: ToolContext, view: RepoView): RepoView {
  return ctx.views.view(view.repo, view.index);
}

/** Repo-relative paths the arguments name: file arguments, and the file part of symbol ids. */
export function argumentFiles(args: Record<string, unknown>): string[] {
  const out: string[] = [];
  const add = (v: unknown, fromId: boolean) => {
    for (const item of Array.isArray(v) ? v : [v]) {
      if (typeof item !== "string") continue;
      const at = fromId ? item.indexOf("::") : -1;
      if (!fromId) out.push(item);
      else if (at > 0) out.push(item.slice(0, at));
    }
  };
  add(args.file_path, false);
  add(args.file_paths, false);
  add(args.file, false);
  add(args.symbol_id, true);
  add(args.symbol_ids, true);
  return out;
}

/**
 * Repo-relative paths a response's entries come from: every string under a `file` or
 * `file_path` key, at any depth (at most {@linkcode MAX_CHECKED_FILES} distinct ones).
 */
export function answerFiles(response: unknown): string[] {
  const out = new Set<string>();
  const stack: unknown[] = [response];
  let visited = 0;
  while (stack.length > 0 && out.size < MAX_CHECKED_FILES && visited++ < 50_000) {
    const v = stack.pop();
    if (v === null || typeof v !== "object") continue;
    if (Array.isArray(v)) {
      for (const item of v) if (item !== null && typeof item === "object") stack.push(item);
      continue;
    }
    for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
      if ((k === "file" || k === "file_path") && typeof child === "string") out.add(child);
      else if (child !== null && typeof child === "object") stack.push(child);
    }
  }
  return [...out];
}
