/**
 * The read model: one immutable {@linkcode RepoView} per repo and index state, shared by every
 * tool. A view owns the derived data of that state (file maps, symbol lists, name indexes, graphs,
 * centrality), each built lazily the first time a tool asks for it and never rebuilt for the same
 * state. When the index changes (a re-index, a watch batch, another process writing the database)
 * the next {@linkcode RepoViews.view} call sees a new state and hands out a fresh view; the old one
 * is dropped with everything it built.
 *
 * Derived data is declared as a {@linkcode Facet}: a named, typed builder defined next to the code
 * that uses it (`src/query/files.ts`, `src/query/graph.ts`, ...). Adding one needs no change here.
 */
import type { RepoIndex } from "../store/repo_index.ts";
import type { Store } from "../store/store.ts";
import type { HistorySource } from "../parser/git/history.ts";

/** A piece of derived data of a repo's index state, built at most once per view. */
export interface Facet<T> {
  /** What it is, for diagnostics. */
  readonly name: string;
  /** Build it from the view (it may ask the view for other facets). */
  readonly build: (view: RepoView) => T;
  /**
   * When a view whose index differs from the previous view's by a few re-indexed files (a watch
   * batch, `index_file`, a stale file re-indexed by a read) may keep the previous value instead
   * of building it again: `same_paths` — when no file was added or removed (data about the paths
   * and file ids alone, then exactly the same); `small_change` — always (a ranking prior from the
   * whole repo, valid for any symbol, that a small change barely moves). Never for what an
   * answer lists.
   */
  readonly carry?: "same_paths" | "small_change";
  /**
   * For such a view when no file was added or removed: the new value from the previous view's
   * and the re-indexed paths (`change.paths`), exactly what {@linkcode build} would give, at a
   * cost that follows the change rather than the repo. Run on first use, like a build.
   */
  update?(view: RepoView, previous: T, change: SmallChange): T;
}

/** Options of {@linkcode facet}. */
export interface FacetOptions<T = unknown> {
  /** See {@linkcode Facet.carry}. @default never carried */
  carry?: "same_paths" | "small_change";
  /** See {@linkcode Facet.update}. @default built again */
  update?: (view: RepoView, previous: T, change: SmallChange) => T;
}

/** A small change between two index states (see {@linkcode RepoViews.smallChange}). */
export interface SmallChange {
  /** Whether files were added or removed (not only changed). */
  pathsChanged: boolean;
  /** The repo-relative paths whose indexed content changed (added and removed ones too). */
  paths: readonly string[];
}

/** Two small changes in a row as one: the paths of both, files added or removed by either. */
export function joinChanges(first: SmallChange, then: SmallChange): SmallChange {
  return {
    pathsChanged: first.pathsChanged || then.pathsChanged,
    paths: [...new Set([...first.paths, ...then.paths])],
  };
}

/**
 * Declare a facet.
 *
 * @example Usage
 * ```ts
 * import { facet } from "./view.ts";
 * const FILE_COUNT = facet("file-count", (view) => view.index.fileCount());
 * ```
 */
export function facet<T>(
  name: string,
  build: (view: RepoView) => T,
  options: FacetOptions<T> = {},
): Facet<T> {
  return {
    name,
    build,
    ...(options.carry !== undefined ? { carry: options.carry } : {}),
    ...(options.update !== undefined ? { update: options.update } : {}),
  };
}

/**
 * Most successive small changes a carried facet goes through before it is built again (a prior
 * that drifts no further than that many batches from the index).
 */
export const MAX_CARRIED_CHANGES = 20;

/** The read model of one repo at one index state. */
export class RepoView {
  /** The repo id (`owner/name` or `local/<name>-<hash>`). */
  readonly repo: string;
  /** The store's read index of the repo (SQL reads). */
  readonly index: RepoIndex;
  /** Identity of the index state this view reflects. */
  readonly state: string;
  /** The current git `HEAD` of an indexed folder, `""` when unknown (see {@linkcode RepoViewsOptions}). */
  readonly gitHead: (root: string) => string;
  /** The git history of an indexed folder, or why there is none (see {@linkcode RepoViewsOptions}). */
  readonly history: HistorySource;
  /** Small changes since its carried facets were built (0: none carried). */
  readonly carriedChanges: number;
  readonly #memo = new Map<Facet<unknown>, unknown>();
  readonly #building = new Set<Facet<unknown>>();
  /** Previous views' values of facets with an `update`, and the change since (see `get`). */
  readonly #toUpdate = new Map<Facet<unknown>, { value: unknown; change: SmallChange }>();

  constructor(
    repo: string,
    index: RepoIndex,
    state: string,
    gitHead: (root: string) => string,
    history: HistorySource = _NO_HISTORY,
    previous?: { view: RepoView; change: SmallChange },
  ) {
    this.repo = repo;
    this.index = index;
    this.state = state;
    this.gitHead = gitHead;
    this.history = history;
    let carried = 0;
    const prev = previous?.view;
    if (prev !== undefined && !previous!.change.pathsChanged) {
      const change = previous!.change;
      for (const [f, value] of prev.#memo) {
        if (f.update !== undefined && f.carry === undefined) {
          this.#toUpdate.set(f, { value, change });
        }
      }
      // What the previous view had not updated yet, it hands on with both changes' paths.
      for (const [f, older] of prev.#toUpdate) {
        if (!this.#toUpdate.has(f)) {
          this.#toUpdate.set(f, { value: older.value, change: joinChanges(older.change, change) });
        }
      }
    }
    if (prev !== undefined && prev.carriedChanges < MAX_CARRIED_CHANGES) {
      for (const [f, value] of prev.#memo) {
        if (f.carry === "small_change") {
          this.#memo.set(f, value);
          carried = prev.carriedChanges + 1;
        } else if (f.carry === "same_paths" && !previous!.change.pathsChanged) {
          // Exactly the same data: no drift to count.
          this.#memo.set(f, value);
        }
      }
    }
    this.carriedChanges = carried;
  }

  /** The facet's value for this state, built on first use. */
  get<T>(f: Facet<T>): T {
    if (this.#memo.has(f)) return this.#memo.get(f) as T;
    if (this.#building.has(f)) {
      throw new Error(`Facet "${f.name}" depends on itself`);
    }
    this.#building.add(f);
    try {
      const pending = this.#toUpdate.get(f);
      this.#toUpdate.delete(f);
      const value = pending !== undefined && f.update !== undefined
        ? f.update(this, pending.value as T, pending.change)
        : f.build(this);
      this.#memo.set(f, value);
      return value;
    } finally {
      this.#building.delete(f);
    }
  }

  /** Whether the facet has been built already (for benchmarks and tests). */
  has(f: Facet<unknown>): boolean {
    return this.#memo.has(f);
  }

  /** The facets built so far, in the order they were built (benchmarks and diagnostics). */
  builtFacets(): Facet<unknown>[] {
    return [...this.#memo.keys()];
  }
}

/** Options of {@linkcode RepoViews}. */
export interface RepoViewsOptions {
  /**
   * Reads the current git `HEAD` commit of an indexed folder (`""` when unknown), for the
   * `stale_index` freshness. The read model reads the index, not the folder's git metadata: the
   * composition root hands in the indexer's reader (`src/ingest/git_head.ts`).
   * @default a reader that knows no head (no file is ever `stale_index`)
   */
  gitHead?: (root: string) => string;
  /**
   * Opens the git history of an indexed folder (the change-analysis tools). The read model does
   * not read git data itself: the composition root hands in the reader (`src/ingest/git/`).
   * @default a source that has no history
   */
  history?: HistorySource;
  /**
   * Milliseconds a repo's view may go unused before it is dropped with everything it built (the
   * next call builds what it needs again, from SQLite): a server that sits idle for hours gives
   * back the derived data of the repos it read — on the Go standard library ~45 MB of heap and
   * typed arrays after the first queries of a session (`deno task bench memory --breakdown`
   * names each facet's share and its build time). `Infinity` keeps views.
   * @default 300_000
   */
  idleDropMs?: number;
}

/** Default of {@linkcode RepoViewsOptions.idleDropMs}: five minutes. */
export const IDLE_DROP_MS = 300_000;

const _NO_HISTORY: HistorySource = () => "this server reads no git history";

/**
 * The views of every repo a server reads, one per repo, replaced when its index state changes.
 * Built once per server (no module-level state).
 */
export class RepoViews {
  readonly #store: Store;
  readonly #gitHead: (root: string) => string;
  readonly #history: HistorySource;
  readonly #views = new Map<string, RepoView>();
  /** Per repo: the index states before and after a small change of this process. */
  readonly #smallChanges = new Map<
    string,
    { before: string; after: string; change: SmallChange }
  >();
  /** Index states stat'ed in the current synchronous stretch (dropped at the next microtask). */
  #statMemo: Map<string, string> | null = null;
  readonly #idleDropMs: number;
  /** When each repo's view was last handed out (`performance.now()`). */
  readonly #lastUse = new Map<string, number>();
  #sweep: ReturnType<typeof setTimeout> | undefined;
  #idleDrops = 0;

  constructor(store: Store, options: RepoViewsOptions = {}) {
    this.#store = store;
    this.#gitHead = options.gitHead ?? (() => "");
    this.#history = options.history ?? _NO_HISTORY;
    const idleDrop = options.idleDropMs ?? IDLE_DROP_MS;
    if (!(idleDrop > 0)) {
      throw new RangeError(`Cannot create the read model: idleDropMs must be > 0: ${idleDrop}`);
    }
    this.#idleDropMs = idleDrop;
  }

  /** How many views were dropped for going unused (`idleDropMs`). */
  get idleDrops(): number {
    return this.#idleDrops;
  }

  /** The current view of a repo whose index is open (`repo` is a resolved id). */
  view(repo: string, index: RepoIndex): RepoView {
    this.#lastUse.set(repo, performance.now());
    this.#armSweep(this.#idleDropMs);
    const state = this.#stateOf(index.dbPath);
    const hit = this.#views.get(repo);
    if (hit !== undefined && hit.state === state && hit.index === index) return hit;
    // Facets that may be carried are, when nothing but the noted small change came between.
    const small = this.#smallChanges.get(repo);
    this.#smallChanges.delete(repo);
    const previous = hit !== undefined && hit.index === index && small?.after === state &&
        small.before === hit.state
      ? { view: hit, change: small.change }
      : undefined;
    const view = new RepoView(repo, index, state, this.#gitHead, this.#history, previous);
    this.#views.set(repo, view);
    return view;
  }

  /**
   * Note that this process just re-indexed a few files of a repo, taking its index from state
   * `before` (a {@linkcode dbState}) to the state it has now: the next view, when it is of that
   * state and the current one of `before`, keeps the current view's carried facets (see
   * {@linkcode Facet.carry}).
   */
  smallChange(repo: string, dbPath: string, before: string, change: SmallChange): void {
    if (!this.#views.has(repo)) return;
    // Small changes in a row with no view in between are one small change.
    const last = this.#smallChanges.get(repo);
    const chained = last !== undefined && last.after === before;
    this.#smallChanges.set(repo, {
      before: chained ? last.before : before,
      after: dbState(dbPath),
      change: chained ? joinChanges(last.change, change) : change,
    });
  }

  /** Resolve a repo identifier through the store and return its current view. */
  open(identifier: string): RepoView {
    const repo = this.#store.resolveRepo(identifier);
    return this.view(repo, this.#store.repo(repo));
  }

  /** Forget a repo's view (after its index was deleted). */
  drop(repo: string): void {
    this.#views.delete(repo);
    this.#lastUse.delete(repo);
  }

  /** How many repos have a view now (benchmarks and tests). */
  get size(): number {
    return this.#views.size;
  }

  /**
   * Drop every view with everything it built, used or not (a server gone quiet: see the runner's
   * rest); the next call on a repo builds what it needs again. Counted in {@linkcode idleDrops}.
   * The caller collects the garbage. Returns how many views were dropped.
   */
  dropAll(): number {
    const dropped = this.#views.size;
    this.#views.clear();
    this.#lastUse.clear();
    this.#smallChanges.clear();
    this.#idleDrops += dropped;
    return dropped;
  }

  /** Check for unused views in `ms` (one timer at a time; it never keeps the process alive). */
  #armSweep(ms: number): void {
    if (this.#sweep !== undefined || !Number.isFinite(this.#idleDropMs)) return;
    const timer = setTimeout(() => {
      this.#sweep = undefined;
      this.#dropUnused();
    }, ms);
    Deno.unrefTimer(timer);
    this.#sweep = timer;
  }

  /** Drop the views unused for `idleDropMs`; check again when the next one would be due. */
  #dropUnused(): void {
    const now = performance.now();
    let next = Infinity;
    let dropped = 0;
    for (const [repo, used] of this.#lastUse) {
      const due = used + this.#idleDropMs;
      if (due > now) {
        next = Math.min(next, due - now);
        continue;
      }
      this.#lastUse.delete(repo);
      this.#smallChanges.delete(repo);
      if (this.#views.delete(repo)) dropped++;
    }
    this.#idleDrops += dropped;
    // An idle process allocates nothing, so V8 would not collect what the dropped views held
    // (nor give the pages back) for hours: collect it now, when the launcher's V8 flags expose
    // `gc` (`SERVER_V8_FLAGS`; ~20-60 ms for a few hundred MB of heap, in idle time).
    if (dropped > 0) (globalThis as { gc?: () => void }).gc?.();
    if (next < Infinity) this.#armSweep(next);
  }

  /**
   * The index state of a database, stat'ed once per synchronous stretch of a call (a handler
   * asks for several facets in a row): the memo is dropped at the next microtask, so an index
   * written in between is always seen.
   */
  #stateOf(path: string): string {
    if (this.#statMemo === null) {
      this.#statMemo = new Map();
      queueMicrotask(() => this.#statMemo = null);
    }
    let state = this.#statMemo.get(path);
    if (state === undefined) this.#statMemo.set(path, state = dbState(path));
    return state;
  }
}

/** Identity of a database's current state: inode, size and mtime of the file and its WAL. */
export function dbState(path: string): string {
  const stat = (p: string) => {
    try {
      const s = Deno.statSync(p);
      return `${s.ino}:${s.size}:${s.mtime?.getTime()}`;
    } catch {
      return "-";
    }
  };
  return `${stat(path)}/${stat(path + "-wal")}`;
}
