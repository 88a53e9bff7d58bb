/**
 * The index directory: one SQLite database per repo (`<slug>.db`), the shared savings counter,
 * repo identifier resolution (API.md §0.3), and deletion of an index.
 */
import { join } from "node:path";
import { DetailedToolError, ToolError } from "../errors.ts";
import {
  beginImmediate,
  databaseFileProblem,
  type DatabaseSync,
  isBusyError,
  openDatabase,
  rollbackQuietly,
  unusableDatabase,
} from "./sqlite.ts";
import { repoIdFromSlug, repoSlug } from "./paths.ts";
import { RepoIndex, type RepoMeta } from "./repo_index.ts";
import { RepoWriter, type WriterOptions } from "./repo_writer.ts";
import { SavingsCounter } from "./savings.ts";

function _hasMeta(db: DatabaseSync): boolean {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'meta'").get();
  return table !== undefined &&
    db.prepare("SELECT 1 FROM meta WHERE key = 'repo'").get() !== undefined;
}

/** A repo found in the index directory whose database cannot be read by this build. */
export interface UnreadableIndex {
  repo: string;
  error: string;
}

/** The index directory and the repos in it. */
export class Store {
  /** Absolute path of the index directory. */
  readonly indexDir: string;
  /** Running totals of tokens saved, shared by all repos. */
  readonly savings: SavingsCounter;
  #open = new Map<string, { index: RepoIndex; ino: number | null; mtime: number }>();
  #metaCache = new Map<string, { key: string; meta: RepoMeta | UnreadableIndex }>();
  /** {@linkcode sourceRoots}' answers by repo, with the state they were read at (null: none). */
  #rootCache = new Map<string, { key: string; root: string | null }>();
  /** Per repo, the turn of the last writer asked for in this process (see `writer`). */
  #writeTurns = new Map<string, Promise<void>>();

  /** A store over `indexDir` (created lazily, on the first write). */
  constructor(indexDir: string) {
    this.indexDir = indexDir;
    this.savings = new SavingsCounter(indexDir);
  }

  /** Path of a repo's database file (whether or not it exists). */
  dbPath(repo: string): string {
    return join(this.indexDir, repoSlug(repo) + ".db");
  }

  /** Whether an index exists for this exact repo id. */
  has(repo: string): boolean {
    try {
      return Deno.statSync(this.dbPath(repo)).isFile;
    } catch {
      return false;
    }
  }

  /** Repo ids of every index in the directory, sorted. */
  repoIds(): string[] {
    const ids: string[] = [];
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(this.indexDir)];
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return [];
      throw e;
    }
    for (const e of entries) {
      if (!e.isFile || !e.name.endsWith(".db")) continue;
      const repo = repoIdFromSlug(e.name.slice(0, -3));
      if (repo !== null && repo.includes("/")) ids.push(repo);
    }
    return ids.sort();
  }

  /**
   * Facts of every indexed repo, sorted by repo id; indexes this build cannot read (another
   * schema version) are returned separately so that callers can report them.
   */
  listRepos(): { repos: RepoMeta[]; unreadable: UnreadableIndex[] } {
    const repos: RepoMeta[] = [];
    const unreadable: UnreadableIndex[] = [];
    for (const repo of this.repoIds()) {
      const meta = this.#meta(repo);
      if (!("error" in meta)) repos.push(meta);
      // A first index that is still running (or failed) has no completed index to list.
      else if (meta.error !== "no completed index yet" && !/^No index in /.test(meta.error)) {
        unreadable.push(meta);
      }
    }
    return { repos, unreadable };
  }

  /**
   * Every readable index's repo id and folder (`source_root`; "" for a GitHub repo), without the
   * row counts {@linkcode listRepos} gives: what finding the repo of a path needs (a count of the
   * symbols of a large index takes tens of ms, and every write changes it).
   */
  sourceRoots(): { repo: string; source_root: string }[] {
    const out: { repo: string; source_root: string }[] = [];
    for (const repo of this.repoIds()) {
      const key = this.#stateKey(repo);
      let cached = this.#rootCache.get(repo);
      if (cached === undefined || cached.key !== key || key === "") {
        let root: string | null = null;
        try {
          const index = RepoIndex.open(this.dbPath(repo));
          try {
            // No repo yet: a first index still running (or failed), not listed.
            const id = index.metaValue("repo");
            root = id === undefined || id === "" ? null : index.metaValue("source_root") ?? "";
          } finally {
            index.close();
          }
        } catch { /* unreadable: listed by listRepos */ }
        this.#rootCache.set(repo, cached = { key, root });
      }
      if (cached.root !== null) out.push({ repo, source_root: cached.root });
    }
    return out;
  }

  /** The state of a repo's database files (inode, mtimes, sizes), "" when unknown. */
  #stateKey(repo: string): string {
    const path = this.dbPath(repo);
    try {
      const st = Deno.statSync(path);
      let walSt: Deno.FileInfo | null = null;
      try {
        walSt = Deno.statSync(path + "-wal");
      } catch { /* no WAL: the database file is complete */ }
      return `${st.ino}:${st.mtime?.getTime()}:${st.size}:${walSt?.mtime?.getTime()}:${walSt?.size}`;
    } catch {
      return "";
    }
  }

  #meta(repo: string): RepoMeta | UnreadableIndex {
    const path = this.dbPath(repo);
    const key = this.#stateKey(repo);
    const cached = this.#metaCache.get(repo);
    if (cached !== undefined && cached.key === key && key !== "") return cached.meta;
    let meta: RepoMeta | UnreadableIndex;
    try {
      const index = RepoIndex.open(path);
      try {
        meta = index.meta();
      } finally {
        index.close();
      }
      if (meta.repo === "") {
        meta = { repo, error: "index has no metadata (an interrupted first index)" };
      }
    } catch (e) {
      meta = { repo, error: e instanceof Error ? e.message : String(e) };
    }
    this.#metaCache.set(repo, { key, meta });
    return meta;
  }

  /**
   * Resolve a repo identifier (API.md §0.3): `owner/name` is taken as is (and must be indexed);
   * a bare name is matched against the name part and the display name of every index.
   * Throws `ToolError` `repo_not_found` or `repo_ambiguous`.
   */
  resolveRepo(identifier: string): string {
    const id = identifier.trim();
    if (id === "") throw new ToolError("invalid_argument", 'Argument "repo" must not be empty');
    if (id.includes("/")) {
      if (!this.has(id)) {
        throw new ToolError(
          "repo_not_found",
          `Repository not indexed: ${id}. Run index_folder (or index_repo) first, or list_repos to see what is indexed`,
        );
      }
      return id;
    }
    const hits = new Set<string>();
    for (const repo of this.repoIds()) {
      const name = repo.slice(repo.indexOf("/") + 1);
      if (name === id) {
        hits.add(repo);
        continue;
      }
      const meta = this.#meta(repo);
      if (!("error" in meta) && meta.display_name === id) hits.add(repo);
      // An unreadable index has no stored name: the one list_repos shows is its id's
      // (`local/<name>-<hash>`).
      else if ("error" in meta && /^(.+)-[0-9a-f]{8}$/.exec(name)?.[1] === id) hits.add(repo);
    }
    if (hits.size === 0) {
      throw new ToolError(
        "repo_not_found",
        `Repository not found: ${id}. Use list_repos to see indexed repositories`,
      );
    }
    if (hits.size > 1) {
      const candidates = [...hits].sort();
      throw new DetailedToolError(
        "repo_ambiguous",
        `Ambiguous repository name: ${id}. Use one of: ${candidates.join(", ")}`,
        { candidates },
      );
    }
    return [...hits][0]!;
  }

  /**
   * The read index of a repo (resolving the identifier first). Connections are cached and
   * reopened when the database file was replaced; callers must not close the returned index.
   */
  repo(identifier: string): RepoIndex {
    const repo = this.resolveRepo(identifier);
    const path = this.dbPath(repo);
    let ino: number | null = null;
    let mtime = 0;
    try {
      const st = Deno.statSync(path);
      ino = st.ino;
      mtime = st.birthtime?.getTime() ?? 0;
    } catch {
      throw new ToolError("repo_not_found", `Repository not indexed: ${repo}`);
    }
    const cached = this.#open.get(repo);
    if (cached !== undefined && cached.ino === ino && cached.mtime === mtime) return cached.index;
    cached?.index.close();
    const index = RepoIndex.open(path);
    this.#open.set(repo, { index, ino, mtime });
    return index;
  }

  /**
   * Open a repo's index for one re-index (see {@linkcode RepoWriter}). Writers of one repo in this
   * process take turns in the order they asked (an index_folder call, an index_file call, a watch
   * batch), without polling SQLite's lock; readers are never held up. `waitMs` bounds the whole
   * wait (the queue and another process's lock) before `index_busy`. An index file that cannot
   * be used — not a database, damaged, truncated, not a file, or written by a newer schema — is
   * discarded and rebuilt, with a warning saying so: a bad file never makes indexing fail for good.
   */
  async writer(repo: string, options: WriterOptions = {}): Promise<RepoWriter> {
    const started = Date.now();
    const waitMs = options.waitMs ?? 30_000;
    const previous = this.#writeTurns.get(repo) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((done) => release = done);
    const turn = previous.then(() => mine);
    this.#writeTurns.set(repo, turn);
    turn.then(() => {
      if (this.#writeTurns.get(repo) === turn) this.#writeTurns.delete(repo);
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ready = await Promise.race([
      previous.then(() => true),
      new Promise<boolean>((done) => timer = setTimeout(() => done(false), waitMs)),
    ]);
    clearTimeout(timer);
    if (!ready) {
      release();
      throw new ToolError(
        "index_busy",
        `The index of ${repo} is being written by another call of this server; try again when it finishes`,
      );
    }
    try {
      return await this.#openWriter(repo, {
        ...options,
        waitMs: Math.max(0, waitMs - (Date.now() - started)),
        onClose: release,
      });
    } catch (e) {
      release();
      throw e;
    }
  }

  /**
   * Remember that a read or a write met damage in a repo's index (a marker file beside it, so
   * another process knows too): the next writer checks the whole file and rebuilds it when the
   * check fails. Damage inside a valid file (random pages, a scribble) is otherwise found only
   * by the statements that touch it, and an incremental run may touch none.
   */
  markDamaged(repo: string, problem: string): void {
    try {
      Deno.writeTextFileSync(
        this.dbPath(repo) + _DAMAGED,
        `${new Date().toISOString()} ${problem}\n`,
      );
    } catch { /* the index directory is gone or read-only: nothing to remember it in */ }
  }

  /**
   * When damage was reported (see {@linkcode markDamaged}): the file's first problem by
   * `PRAGMA quick_check` (every page), or null when it passes. The marker goes either way.
   */
  #reportedDamage(repo: string): string | null {
    const path = this.dbPath(repo);
    if (!_exists(path + _DAMAGED)) return null;
    this.#forget(repo);
    let problem: string | null;
    try {
      const db = openDatabase(path);
      try {
        const rows = db.prepare("PRAGMA quick_check(1)").all() as { quick_check: string }[];
        const first = rows[0]?.quick_check ?? "no answer";
        problem = first === "ok" ? null : `damaged: ${first}`;
      } finally {
        db.close();
      }
    } catch (e) {
      problem = unusableDatabase(e) ?? null;
    }
    _removeQuietly(path + _DAMAGED);
    return problem;
  }

  /** Open the writer, discarding an unusable index file (see {@linkcode writer}). */
  async #openWriter(repo: string, options: WriterOptions): Promise<RepoWriter> {
    const path = this.dbPath(repo);
    let problem = databaseFileProblem(path) ?? this.#reportedDamage(repo);
    for (let attempt = 0; problem === null; attempt++) {
      try {
        return await RepoWriter.open(path, options);
      } catch (e) {
        // Busy at open (not at the write lock, which waits): this process's own reader may
        // hold a file that was truncated or replaced under it. Close it and try once more.
        if (isBusyError(e) && attempt === 0) {
          this.#forget(repo);
          continue;
        }
        problem = unusableDatabase(e) ??
          (e instanceof ToolError && e.code === "index_incompatible" ? e.message : null);
        if (problem === null) throw e;
      }
    }
    this.#forget(repo);
    _removeIndexFiles(path);
    const writer = await RepoWriter.open(path, options);
    writer.schemaWarning =
      `The index at "${path}" could not be used (${problem}); it was discarded and rebuilt`;
    return writer;
  }

  /** Drop the cached connection and facts of a repo (its file is about to go). */
  #forget(repo: string): void {
    this.#open.get(repo)?.index.close();
    this.#open.delete(repo);
    this.#metaCache.delete(repo);
    this.#rootCache.delete(repo);
  }

  /**
   * Delete a repo's index (database, WAL and shared-memory files). Waits for a running writer
   * to finish first. Returns false when there was no index.
   */
  async deleteRepo(repo: string, waitMs = 30_000, onlyIfEmpty = false): Promise<boolean> {
    const path = this.dbPath(repo);
    if (!this.has(repo)) return false;
    this.#forget(repo);
    // An unusable file holds no index to protect from a writer: remove it as it is.
    let db: DatabaseSync;
    try {
      if (databaseFileProblem(path) !== null) throw new Error("file is not a database");
      db = openDatabase(path);
      db.prepare("SELECT count(*) FROM sqlite_master").get();
    } catch (e) {
      if (unusableDatabase(e) === null) throw e;
      if (onlyIfEmpty) return false;
      _removeIndexFiles(path);
      return true;
    }
    try {
      if (!(await beginImmediate(db, waitMs))) {
        throw new ToolError(
          "index_busy",
          `The index of ${repo} is being written by another process; try again when it finishes`,
        );
      }
      if (onlyIfEmpty && _hasMeta(db)) return false;
      for (const suffix of ["", "-wal", "-shm"]) {
        try {
          Deno.removeSync(path + suffix);
        } catch (e) {
          if (!(e instanceof Deno.errors.NotFound)) throw e;
        }
      }
    } finally {
      rollbackQuietly(db);
      db.close();
      // Closing may recreate nothing, but be sure no stray sidecar files remain.
      for (const suffix of ["-wal", "-shm"]) {
        try {
          Deno.removeSync(path + suffix);
        } catch { /* already gone */ }
      }
    }
    return true;
  }

  /** Remove a database left without any completed index (a failed first index). */
  async deleteIfEmpty(repo: string): Promise<void> {
    try {
      await this.deleteRepo(repo, 0, true);
    } catch {
      // Busy: another indexer is writing it, so it will not stay empty.
    }
  }

  /** Give back the page caches of every cached read connection (see `RepoIndex.releaseMemory`). */
  releaseMemory(): void {
    for (const { index } of this.#open.values()) index.releaseMemory();
  }

  /** Close every cached connection. */
  close(): void {
    for (const { index } of this.#open.values()) index.close();
    this.#open.clear();
    this.savings.close();
  }
}

/** Remove an index file (a directory in its place too) and its WAL and shared-memory files. */
/** The suffix of the marker file that says a repo's index met damage. */
const _DAMAGED = ".damaged";

function _exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

function _removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch { /* already gone */ }
}

function _removeIndexFiles(path: string): void {
  _removeQuietly(path + _DAMAGED);
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      Deno.removeSync(path + suffix, { recursive: true });
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
  }
}
