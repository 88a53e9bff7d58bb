/**
 * Polling, for a folder whose watcher cannot be trusted (it stalled again and again, or could
 * not start: the inotify limit, a file system without change events such as a network mount):
 * every `periodMs`, stat every indexed file against the index (size and mtime) and every known
 * directory against its last mtime (a file added or removed changes its directory's mtime; only
 * then is the directory listed). What changed goes to the same batches as watcher events.
 *
 * A sweep yields to other work every {@linkcode _SLICE} stats, so a query never waits behind a
 * whole sweep; special files (FIFOs, sockets, devices) are never opened, only stat'ed.
 */
import { join } from "node:path";
import { isSkippedDir } from "../ingest/filters.ts";

/** The indexed files a sweep compares with the disk. */
export type IndexedFiles = ReadonlyMap<string, { size: number; mtime_ms: number }>;

/** Stats between two yields of a sweep. */
const _SLICE = 256;

/** Periodic stat sweeps of one folder (see the module doc). */
export class FolderPoller {
  readonly #root: string;
  readonly #files: () => IndexedFiles;
  readonly #changed: (paths: string[]) => void;
  readonly #periodMs: number;
  /** Directory (repo-relative, "" for the root) → its mtime when last seen. */
  readonly #dirs = new Map<string, number>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  /** The sweep a read started and the one queued behind it (see `sweepSoon`). */
  #running: Promise<void> | null = null;
  #queued: Promise<void> | null = null;
  /** Sweeps done, and when the last one ended (performance.now()). */
  sweeps = 0;
  lastSweepAt = 0;

  constructor(
    root: string,
    files: () => IndexedFiles,
    changed: (paths: string[]) => void,
    periodMs: number,
  ) {
    this.#root = root;
    this.#files = files;
    this.#changed = changed;
    this.#periodMs = periodMs;
  }

  /**
   * Start sweeping. The directories' mtimes are taken now (a file added later changes one), the
   * first sweep follows at once.
   */
  start(): void {
    const dirs = new Set<string>([""]);
    for (const path of this.#files().keys()) _addAncestors(dirs, path);
    for (const dir of dirs) {
      const stat = _stat(join(this.#root, dir));
      if (stat?.isDirectory) this.#dirs.set(dir, _mtime(stat));
    }
    this.#schedule(0);
  }

  /** Stop sweeping. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
  }

  #schedule(ms: number): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => {
      this.sweep().catch(() => {/* the next sweep tries again */}).finally(() =>
        this.#schedule(this.#periodMs)
      );
    }, ms);
    Deno.unrefTimer(this.#timer as unknown as number);
  }

  /**
   * A sweep that starts after this call (what a read waits for): reads arriving while one runs
   * share the single sweep queued behind it, so N concurrent reads cost at most two sweeps.
   */
  sweepSoon(): Promise<void> {
    if (this.#running === null) return this.#track(this.sweep());
    this.#queued ??= this.#running.then(() => {
      this.#queued = null;
      return this.#track(this.sweep());
    });
    return this.#queued;
  }

  #track(sweep: Promise<void>): Promise<void> {
    const done = sweep.finally(() => {
      if (this.#running === done) this.#running = null;
    });
    this.#running = done;
    return done;
  }

  /** One sweep; reports the changed paths (files, and directories new since the last sweep). */
  async sweep(): Promise<void> {
    const files = this.#files();
    const changed: string[] = [];
    let n = 0;
    const tick = async () => {
      if (++n % _SLICE === 0) await new Promise((r) => setTimeout(r, 0));
    };
    const dirs = new Set<string>([""]);
    for (const [path, entry] of files) {
      await tick();
      if (this.#closed) return;
      _addAncestors(dirs, path);
      const stat = _stat(join(this.#root, path));
      if (stat === null || stat.size !== entry.size || _mtime(stat) !== entry.mtime_ms) {
        changed.push(path);
      }
    }
    for (const dir of [...dirs, ...this.#dirs.keys()]) {
      await tick();
      if (this.#closed) return;
      this.#checkDir(dir, files, changed);
    }
    this.sweeps++;
    this.lastSweepAt = performance.now();
    if (changed.length > 0) this.#changed([...new Set(changed)]);
  }

  /** A directory whose mtime moved: its entries the index does not know are changes. */
  #checkDir(dir: string, files: IndexedFiles, changed: string[]): void {
    const stat = _stat(join(this.#root, dir));
    if (stat === null || !stat.isDirectory) {
      if (this.#dirs.delete(dir)) changed.push(dir);
      return;
    }
    const before = this.#dirs.get(dir);
    this.#dirs.set(dir, _mtime(stat));
    if (before === undefined || before === _mtime(stat)) return;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(join(this.#root, dir))];
    } catch {
      return;
    }
    for (const e of entries) {
      const rel = dir === "" ? e.name : `${dir}/${e.name}`;
      if (e.isDirectory) {
        if (!isSkippedDir(e.name) && !this.#dirs.has(rel)) {
          this.#dirs.set(rel, 0);
          changed.push(rel);
        }
      } else if ((e.isFile || e.isSymlink) && !files.has(rel)) changed.push(rel);
    }
  }
}

/** Every directory above a repo-relative path (a new folder changes its parent's mtime). */
function _addAncestors(dirs: Set<string>, path: string): void {
  for (let at = path.lastIndexOf("/"); at > 0; at = path.lastIndexOf("/", at - 1)) {
    const dir = path.slice(0, at);
    if (dirs.has(dir)) return;
    dirs.add(dir);
  }
}

function _stat(path: string): Deno.FileInfo | null {
  try {
    return Deno.statSync(path);
  } catch {
    return null;
  }
}

function _mtime(s: Deno.FileInfo): number {
  return s.mtime?.getTime() ?? 0;
}
