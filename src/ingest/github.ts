/**
 * A GitHub repository as an index source (API.md §1.1, §4.6, with the differences below).
 *
 * 1. `GET /repos/{o}/{r}/commits/{ref}` (`Accept: application/vnd.github.sha`): the commit the
 *    index will reflect. When it is the stored `git_head` and the selection settings are the
 *    same, nothing else is fetched ("No changes detected").
 * 2. `GET /repos/{o}/{r}/git/trees/{commit}?recursive=1`: every path with its blob SHA, mode
 *    (symlinks, submodules) and size (when GitHub truncates a huge listing, one non-recursive
 *    listing per folder instead).
 * 3. `.gitignore` files (every level) and the manifests import resolution reads: from the
 *    tarball on a first index, else from the stored index's copy when their blob SHA is the
 *    same, else one blob each.
 * 4. The selection rules of a local folder (`tree_walk.ts`): the same commit selects the same
 *    files through `index_repo` and `index_folder`.
 * 5. Content: a stored file whose git blob SHA (computed from the stored bytes) equals the tree's
 *    is unchanged and not fetched. The rest comes from `GET /repos/{o}/{r}/tarball/{commit}`
 *    on a first index or when many files changed, else from `GET .../git/blobs/{sha}` (raw),
 *    a few in parallel. Every tarball file is checked against the tree's blob SHA (an
 *    `export-ignore`d or `export-subst`ed file is fetched as a blob instead), so no file is
 *    silently dropped or altered; any download failure fails the run and the transaction is
 *    rolled back.
 *
 * The index records the commit SHA as `git_head` (the reference records the tree SHA).
 *
 * Bounded (issue 25): every answer read into memory is capped (`maxResponseBytes`; a blob at its
 * listed size), a tree listing or tarball at `maxEntries` entries, the tarball at
 * `maxArchiveBytes` downloaded and `maxUnpackedBytes` decompressed. The tarball is read as it
 * arrives: each file the tree lists is hashed while it streams and written to a spool file in
 * the index directory (`spool.ts`), so memory does not grow with the archive and the event loop
 * is free between chunks. Tree paths that could not come from git (absolute, `..`, NUL, empty
 * segments) are refused as the local walk refuses them.
 */
import { createHash } from "node:crypto";
import { ToolError } from "../errors.ts";
import { RESOLVER_MANIFESTS } from "../parser/resolve.ts";
import type { StoredFileState } from "../store/repo_writer.ts";
import type { IngestConfig } from "./config.ts";
import type { GitHubSettings } from "./github_config.ts";
import { GitHubHttp } from "./github_http.ts";
import type { RepoRef } from "./github_url.ts";
import { languageOf } from "./language_of.ts";
import { MAX_IGNORE_FILE_BYTES, type SelectionResult } from "./selection.ts";
import type { DiscoveryContext, IndexSource, SourceMeta } from "./source.ts";
import { streamTarGz, type TarEntry, type TarEntrySink } from "./tar.ts";
import { ContentSpool } from "./spool.ts";
import { type TreeEntry, type TreeFile, walkTree } from "./tree_walk.ts";

/** How the content of a run was fetched, for the response and tests. */
export interface GitHubFetchStats {
  /** `none` (nothing needed), `blobs`, `tarball`, or `tarball+blobs`. */
  method: string;
  /** HTTP requests sent, retries and redirects included. */
  requests: number;
  /** Files whose content was downloaded (tarball files used, plus blobs). */
  files_downloaded: number;
  /** Bytes of the tarball, when one was downloaded. */
  tarball_bytes: number;
}

/** What the source needs besides the repository. */
export interface GitHubSourceOptions {
  settings: GitHubSettings;
  config: IngestConfig;
  extraIgnorePatterns: readonly string[];
  /** Where downloaded contents are spooled (the index directory). */
  spoolDir: string;
}

/** Most bytes of a `.gitignore` or manifest read (a larger one is skipped, with a warning). */
export const MAX_SIDE_FILE_BYTES = MAX_IGNORE_FILE_BYTES;

interface _SideFile {
  sha: string;
  text: string;
}

const _SIDE_FILES_KEY = "github_side_files";
const _SELECTION_KEY = "github_selection";
const _REF_KEY = "github_ref";
const _BINARY_KEY = "github_binary_blobs";
const _BLOBS_KEY = "github_blob_shas";

/** Files of one commit of a GitHub repository. */
export class GitHubSource implements IndexSource<TreeFile> {
  readonly repo: string;
  readonly label: string;
  readonly stats: GitHubFetchStats = {
    method: "none",
    requests: 0,
    files_downloaded: 0,
    tarball_bytes: 0,
  };
  readonly #ref: RepoRef;
  readonly #options: GitHubSourceOptions;
  #http: GitHubHttp | null = null;
  #commit = "";
  #selectionKey = "";
  #entries: TreeEntry[] = [];
  #treeTruncated = false;
  /** The tree's files by path (after discovery). */
  #treeFiles = new Map<string, TreeEntry>();
  /** Tarball contents verified against the tree, on disk (null until a tarball is read). */
  #archive: ContentSpool | null = null;
  /** Blob contents to index, by path (verified against the tree). */
  readonly #contents = new Map<string, Uint8Array>();
  readonly #warnings: string[] = [];
  readonly #sideFiles = new Map<string, _SideFile>();
  /** Files skipped as binary by content, path to blob SHA: before this run, and in it. */
  #priorBinary: Record<string, string> = {};
  readonly #binary = new Map<string, string>();
  /** Blob SHAs of the stored files, as recorded by the previous run (path to SHA). */
  #priorBlobs: Record<string, string> = {};
  /** The selected files of this run (their blob SHAs are recorded with the index). */
  #selected: readonly TreeFile[] = [];

  constructor(ref: RepoRef, options: GitHubSourceOptions) {
    this.#ref = ref;
    this.#options = options;
    this.repo = `${ref.owner}/${ref.name}`;
    this.label = `${this.repo}${ref.ref !== undefined ? `@${ref.ref}` : ""}`;
  }

  /** The commit SHA the run indexed (after discovery). */
  get commit(): string {
    return this.#commit;
  }

  #api(context: DiscoveryContext): GitHubHttp {
    return this.#http ??= new GitHubHttp(this.#options.settings, (m) => context.note(m));
  }

  async discover(context: DiscoveryContext): Promise<SelectionResult<TreeFile> | "unchanged"> {
    const http = this.#api(context);
    try {
      this.#commit = await this.#resolveCommit(http);
      this.#selectionKey = this.#selectionFingerprint();
      if (
        context.incremental && context.prior.git_head === this.#commit &&
        context.priorMetaValue(_SELECTION_KEY) === this.#selectionKey
      ) {
        return "unchanged";
      }
      await this.#readTree(http, context);
      await this.#readSideFiles(http, context);
      if (context.incremental) {
        this.#priorBinary = _jsonRecord(context.priorMetaValue(_BINARY_KEY));
        this.#priorBlobs = _jsonRecord(context.priorMetaValue(_BLOBS_KEY));
      }
    } finally {
      this.stats.requests = http.requests;
    }
    const c = this.#options.config;
    const selection = walkTree(this.#entries, (path) => this.#sideFiles.get(path)?.text, {
      languageOf,
      maxFileBytes: c.maxFileBytes,
      maxFiles: c.maxFiles,
      extraIgnorePatterns: this.#options.extraIgnorePatterns,
    });
    this.#selected = selection.files;
    return selection;
  }

  /**
   * Unchanged when the blob SHA recorded with the stored file (written in the same transaction
   * as its content) is the tree's; without a record, the stored bytes are hashed.
   */
  isUnchanged(
    f: TreeFile,
    _stored: StoredFileState,
    storedBytes: () => Uint8Array | undefined,
  ): boolean {
    const recorded = this.#priorBlobs[f.path];
    if (recorded !== undefined) return recorded === f.sha;
    const bytes = storedBytes();
    return bytes !== undefined && gitBlobSha(bytes) === f.sha;
  }

  knownBinary(f: TreeFile): boolean {
    return this.#priorBinary[f.path] === f.sha;
  }

  noteBinary(f: TreeFile): void {
    this.#binary.set(f.path, f.sha);
  }

  async load(files: readonly TreeFile[], context: DiscoveryContext): Promise<void> {
    const http = this.#api(context);
    try {
      if (files.length === 0) return;
      if (this.#archive === null && files.length > this.#options.settings.blobLimit) {
        await this.#downloadTarball(http, context);
      }
      const missing: TreeFile[] = [];
      for (const f of files) {
        // A spooled file was checked against its tree SHA as it streamed in.
        if (this.#archive?.has(f.path) === true && this.#treeFiles.get(f.path)?.sha === f.sha) {
          this.stats.files_downloaded++;
        } else {
          missing.push(f);
        }
      }
      if (missing.length > 0) {
        this.stats.method = this.#archive === null ? "blobs" : "tarball+blobs";
        await this.#fetchBlobs(http, context, missing);
      }
    } finally {
      this.stats.requests = http.requests;
    }
  }

  read(f: TreeFile): Uint8Array | null {
    const bytes = this.#contents.get(f.path) ?? this.#archive?.read(f.path);
    if (bytes === undefined) {
      // load() fetched every file it was given: a missing one is a bug, never a silent drop.
      throw new Error(`Content of ${f.path} was not downloaded`);
    }
    this.#contents.delete(f.path);
    return bytes;
  }

  times(): { mtime_ms: number; ctime_ms: number } {
    return { mtime_ms: 0, ctime_ms: 0 };
  }

  readOther(path: string): string | undefined {
    return this.#sideFiles.get(path)?.text;
  }

  closingWarnings(): string[] {
    return [
      ...(this.#treeTruncated
        ? [
          "GitHub truncated the recursive tree listing of this repository (too many entries): it was listed one folder at a time instead",
        ]
        : []),
      ...this.#warnings,
    ];
  }

  /** Remove the spooled contents (the run is over, or failed). */
  dispose(): void {
    this.#archive?.close();
    this.#archive = null;
  }

  meta(): SourceMeta {
    return {
      owner: this.#ref.owner,
      name: this.#ref.name,
      display_name: this.#ref.name,
      source_root: "",
      git_head: this.#commit,
      extra: {
        [_SELECTION_KEY]: this.#selectionKey,
        [_SIDE_FILES_KEY]: Object.fromEntries(this.#sideFiles),
        [_REF_KEY]: this.#ref.ref ?? "",
        [_BINARY_KEY]: Object.fromEntries(this.#binary),
        // Every stored file's content was checked against (or is unchanged from) its blob SHA.
        [_BLOBS_KEY]: Object.fromEntries(
          this.#selected.filter((f) => !this.#binary.has(f.path)).map((f) => [f.path, f.sha]),
        ),
      },
    };
  }

  async #resolveCommit(http: GitHubHttp): Promise<string> {
    const ref = this.#ref.ref ?? "HEAD";
    const r = await http.get(
      `/repos/${this.repo}/commits/${encodeURIComponent(ref)}`,
      {
        accept: "application/vnd.github.sha",
        what: `the repository ${this.repo}${this.#ref.ref !== undefined ? ` at ${ref}` : ""}`,
        passStatuses: [409, 422],
      },
    );
    if (r.status === 409) {
      throw new ToolError("no_source_files", `No source files found: ${this.repo} is empty`);
    }
    if (r.status === 422) {
      throw new ToolError(
        "ref_not_found",
        `No commit found for ref "${ref}" in ${this.repo}: pass a branch, tag or commit SHA that exists`,
      );
    }
    const text = new TextDecoder().decode(r.body).trim();
    if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(text)) {
      throw new ToolError(
        "github_error",
        `GitHub did not return a commit SHA for ${this.repo}@${ref}: check GITHUB_API_URL (${this.#options.settings.apiUrl})`,
      );
    }
    return text;
  }

  async #readTree(http: GitHubHttp, context: DiscoveryContext): Promise<void> {
    type _Tree = { truncated?: boolean; tree?: _RawEntry[] };
    const { data } = await http.json<_Tree>(
      `/repos/${this.repo}/git/trees/${this.#commit}?recursive=1`,
      {
        what: `the file tree of ${this.repo}@${this.#commit.slice(0, 12)}`,
        limitName: "CODEMUNCH_GITHUB_MAX_RESPONSE_BYTES",
      },
    );
    if (data.truncated === true || !Array.isArray(data.tree)) {
      // Too many entries for one listing: list the trees one directory at a time.
      this.#treeTruncated = true;
      this.#entries = await this.#readTreeByDirectory(http, context);
    } else {
      this.#checkEntryCount(data.tree.length);
      this.#entries = this.#safeEntries(data.tree);
    }
    this.#treeFiles = new Map(
      this.#entries.filter((e) => e.type === "file").map((e) => [e.path, e]),
    );
    if (!context.incremental) await this.#downloadTarball(http, context);
  }

  /** The whole tree from non-recursive listings, folder level by level, a few at a time. */
  async #readTreeByDirectory(http: GitHubHttp, context: DiscoveryContext): Promise<TreeEntry[]> {
    type _Tree = { truncated?: boolean; tree?: _RawEntry[] };
    const out: TreeEntry[] = [];
    let level: { sha: string; prefix: string }[] = [{ sha: this.#commit, prefix: "" }];
    let listed = 0;
    while (level.length > 0) {
      const next: { sha: string; prefix: string }[] = [];
      await _eachLimited(level, this.#options.settings.concurrency, async (dir) => {
        const { data } = await http.json<_Tree>(`/repos/${this.repo}/git/trees/${dir.sha}`, {
          what: `the folder "${dir.prefix || "/"}" of ${this.repo}`,
        });
        if (data.truncated === true || !Array.isArray(data.tree)) {
          throw new ToolError(
            "github_error",
            `GitHub truncated the listing of the folder "${
              dir.prefix || "/"
            }" of ${this.repo}: it has too many entries to index`,
          );
        }
        this.#checkEntryCount(out.length + data.tree.length);
        for (const e of this.#safeEntries(data.tree, dir.prefix)) {
          out.push(e);
          if (e.type === "dir") next.push({ sha: e.sha, prefix: e.path + "/" });
        }
        context.note(`listed ${++listed} folders of ${this.repo}`);
      });
      level = next;
    }
    return out;
  }

  /** Fail when a listing has more entries than the settings allow. */
  #checkEntryCount(n: number): void {
    const max = this.#options.settings.maxEntries;
    if (n > max) {
      throw new ToolError(
        "github_too_large",
        `The file tree of ${this.repo} has more than ${max} entries: raise CODEMUNCH_GITHUB_MAX_ENTRIES to index it`,
      );
    }
  }

  /** Tree entries with a path git could have written; the others are counted in a warning. */
  #safeEntries(raw: readonly _RawEntry[], prefix = ""): TreeEntry[] {
    const out: TreeEntry[] = [];
    const refused: string[] = [];
    for (const r of raw) {
      if (typeof r.path !== "string" || !isSafeRepoPath(r.path)) {
        refused.push(JSON.stringify(String(r.path)).slice(0, 80));
        continue;
      }
      out.push(_treeEntry({ ...r, path: prefix + r.path }));
    }
    if (refused.length > 0) {
      this.#warnings.push(
        `Refused ${refused.length} tree entries whose path is not a relative path inside the repository (e.g. ${
          refused[0]
        })`,
      );
    }
    return out;
  }

  /** `.gitignore` files and resolver manifests: from the tarball, the stored copy, or a blob. */
  async #readSideFiles(http: GitHubHttp, context: DiscoveryContext): Promise<void> {
    let prior: Record<string, _SideFile> = {};
    try {
      prior = JSON.parse(context.priorMetaValue(_SIDE_FILES_KEY) ?? "{}");
    } catch { /* no usable copy: fetch them */ }
    const wanted = this.#entries.filter((e) => e.type === "file" && _isSideFile(e.path));
    const toFetch: TreeFile[] = [];
    for (const e of wanted) {
      if (e.size > MAX_SIDE_FILE_BYTES) {
        this.#warnings.push(
          `Skipped ${e.path}: ${e.size} bytes is over the ${MAX_SIDE_FILE_BYTES}-byte limit for ignore files and manifests (its rules are not applied)`,
        );
        continue;
      }
      if (this.#sideFiles.get(e.path)?.sha === e.sha) continue; // from the tarball
      if (prior[e.path]?.sha === e.sha) {
        this.#sideFiles.set(e.path, prior[e.path]!);
      } else {
        toFetch.push({ path: e.path, language: "", size: e.size, sha: e.sha });
      }
    }
    if (toFetch.length === 0) return;
    const fetched = await this.#download(http, context, toFetch);
    for (const f of toFetch) {
      this.#sideFiles.set(f.path, {
        sha: f.sha,
        text: new TextDecoder().decode(fetched.get(f.path)),
      });
    }
  }

  /**
   * Read the tarball as it arrives: each file the tree lists (with the same size) that could be
   * indexed is hashed while it streams and spooled to disk when its SHA is the tree's; ignore
   * files and manifests are kept as text. Everything else streams past.
   */
  async #downloadTarball(http: GitHubHttp, context: DiscoveryContext): Promise<void> {
    if (this.#archive !== null) return;
    const what = `the tarball of ${this.repo}@${this.#commit.slice(0, 12)}`;
    context.note(`downloading ${what}`);
    const settings = this.#options.settings;
    const spool = this.#archive = ContentSpool.create(this.#options.spoolDir);
    this.stats.method = "tarball";
    try {
      await http.stream(`/repos/${this.repo}/tarball/${this.#commit}`, {
        accept: "application/vnd.github+json",
        what,
        maxBytes: settings.maxArchiveBytes,
        limitName: "CODEMUNCH_GITHUB_MAX_ARCHIVE_BYTES",
      }, async ({ stream }) => {
        let downloaded = 0;
        const counted = stream.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              downloaded += chunk.length;
              controller.enqueue(chunk);
            },
          }),
        );
        try {
          await streamTarGz(counted, (e) => this.#tarEntry(e, spool), {
            maxUnpackedBytes: settings.maxUnpackedBytes,
            maxEntries: settings.maxEntries,
          });
        } finally {
          this.stats.tarball_bytes = downloaded;
        }
      });
    } catch (e) {
      if (e instanceof ToolError) throw e;
      if (e instanceof RangeError) {
        throw new ToolError(
          "github_too_large",
          `Cannot index ${this.repo} from its tarball: ${e.message} (raise CODEMUNCH_GITHUB_MAX_UNPACKED_BYTES or CODEMUNCH_GITHUB_MAX_ENTRIES to allow more)`,
        );
      }
      throw new ToolError(
        "github_error",
        `Cannot read the tarball of ${this.repo}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }

  /** Where one tarball entry's bytes go: the spool, the side files, or nowhere. */
  #tarEntry(entry: TarEntry, spool: ContentSpool): TarEntrySink | null {
    const rel = _stripTop(entry.path);
    const listed = this.#treeFiles.get(rel);
    // Only what the tree lists, at its size: an export-subst'ed or extra file is not used.
    if (listed === undefined || listed.size !== entry.size) return null;
    const hash = createHash("sha1").update(`blob ${entry.size}\0`);
    if (_isSideFile(rel)) {
      if (entry.size > MAX_SIDE_FILE_BYTES) return null;
      const parts: Uint8Array[] = [];
      return {
        data: (chunk) => {
          hash.update(chunk);
          parts.push(chunk.slice());
        },
        end: () => {
          if (hash.digest("hex") !== listed.sha) return;
          const text = new TextDecoder().decode(_concat(parts, entry.size));
          this.#sideFiles.set(rel, { sha: listed.sha, text });
        },
      };
    }
    if (entry.size > this.#options.config.maxFileBytes || languageOf(rel) === undefined) {
      return null;
    }
    const out = spool.append(rel);
    return {
      data: (chunk) => {
        hash.update(chunk);
        out.data(chunk);
      },
      end: () => out.end(hash.digest("hex") === listed.sha),
    };
  }

  async #fetchBlobs(
    http: GitHubHttp,
    context: DiscoveryContext,
    files: readonly TreeFile[],
  ): Promise<void> {
    const fetched = await this.#download(http, context, files);
    for (const f of files) {
      this.#contents.set(f.path, fetched.get(f.path)!);
      this.stats.files_downloaded++;
    }
  }

  /** Blobs by SHA, a few at a time; each checked against its SHA. Any failure fails all. */
  async #download(
    http: GitHubHttp,
    context: DiscoveryContext,
    files: readonly TreeFile[],
  ): Promise<Map<string, Uint8Array>> {
    const out = new Map<string, Uint8Array>();
    let done = 0;
    await _eachLimited(files, this.#options.settings.concurrency, async (f) => {
      const r = await http.get(`/repos/${this.repo}/git/blobs/${f.sha}`, {
        accept: "application/vnd.github.raw+json",
        what: `${f.path} (blob ${f.sha.slice(0, 12)}) of ${this.repo}`,
        // The tree gave its size: more bytes cannot be this blob.
        maxBytes: f.size,
      });
      if (gitBlobSha(r.body) !== f.sha) {
        throw new ToolError(
          "github_error",
          `GitHub sent content for ${f.path} of ${this.repo} that does not match its blob SHA ${f.sha}: try again`,
        );
      }
      out.set(f.path, r.body);
      done++;
      context.note(`downloaded ${done}/${files.length}: ${f.path}`);
    });
    return out;
  }

  /** What decides the selection besides the commit: a change re-selects files. */
  #selectionFingerprint(): string {
    const c = this.#options.config;
    return createHash("sha1").update(JSON.stringify([
      c.maxFiles,
      c.maxFileBytes,
      this.#options.extraIgnorePatterns,
    ])).digest("hex");
  }
}

/**
 * Run `fn` over `items`, at most `limit` at a time. The first failure is thrown once every
 * started call has settled (no request is left running behind a failed run); no new call starts
 * after a failure.
 */
async function _eachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (next < items.length && failure === null) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
}

/** A tree entry as the GitHub API lists it. */
interface _RawEntry {
  path: string;
  mode: string;
  type: string;
  sha: string;
  size?: number;
}

function _treeEntry(e: _RawEntry): TreeEntry {
  return {
    path: e.path,
    type: e.type === "tree"
      ? "dir"
      : e.type === "commit"
      ? "submodule"
      : e.mode === "120000"
      ? "symlink"
      : "file",
    size: e.size ?? 0,
    sha: e.sha,
  };
}

/**
 * The git blob SHA-1 of some bytes (`git hash-object`).
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { gitBlobSha } from "./github.ts";
 * equal(gitBlobSha(new TextEncoder().encode("hello\n")), "ce013625030ba8dba906f756967f9e9ca394464a");
 * ```
 */
export function gitBlobSha(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

const _MANIFESTS = new Set(RESOLVER_MANIFESTS);

/** A JSON object of strings stored in meta, or {} when absent or unreadable. */
function _jsonRecord(text: string | undefined): Record<string, string> {
  try {
    const v = JSON.parse(text ?? "{}") as unknown;
    return v !== null && typeof v === "object" && !Array.isArray(v)
      ? v as Record<string, string>
      : {};
  } catch {
    return {};
  }
}

function _isSideFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name === ".gitignore" || _MANIFESTS.has(name);
}

/**
 * Whether a tree path is one git could have written: relative, no `.` or `..` segment, no empty
 * segment, no NUL (a hostile API could list `../../x.py` or `/tmp/x.py`).
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { isSafeRepoPath } from "./github.ts";
 * equal(isSafeRepoPath("src/a.py"), true);
 * equal(isSafeRepoPath("a/../../y.py"), false);
 * equal(isSafeRepoPath("/tmp/x.py"), false);
 * ```
 */
export function isSafeRepoPath(path: string): boolean {
  if (path === "" || path.includes("\0") || path.startsWith("/")) return false;
  return path.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}

function _concat(parts: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A path without the archive's top folder (`owner-repo-<sha>/`). */
function _stripTop(path: string): string {
  const slash = path.indexOf("/");
  return slash === -1 ? "" : path.slice(slash + 1);
}
