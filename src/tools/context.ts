/**
 * What every tool shares: the context a handler runs in, the output it returns to the server (the
 * response plus what the envelope needs: raw bytes for `tokens_saved`, extra `_meta`), and the
 * lookups that fail with a helpful `ToolError` (unknown repo with the indexed ones, file not in
 * the index with the closest paths). Derived data lives in the query layer (`src/query/`).
 */
import type { Store } from "../store/store.ts";
import type { FileEntry, RepoIndex } from "../store/repo_index.ts";
import type { IngestConfig } from "../ingest/config.ts";
import type { GitHubSettings } from "../ingest/github_config.ts";
import type { SummarizerSettings } from "../summarize/config.ts";
import type { EmbeddingProvider } from "../embed/mod.ts";
import type { FileParser, ProgressFn } from "../ingest/index_local.ts";
import { DetailedToolError, ToolError } from "../errors.ts";
import type { RepoView, RepoViews } from "../query/view.ts";
import { closestPaths } from "../query/names.ts";
import { PATHS } from "../query/files.ts";
import type { WatchReport } from "./get_watch_status.ts";

/** What a tool handler needs; built once per server (no module-level state). */
export interface ToolContext {
  store: Store;
  /** Indexing settings. */
  ingest: IngestConfig;
  /** The long-lived parser for index runs (created on first use). */
  parser: () => FileParser;
  /** Base for relative folder paths. */
  cwd: string;
  /** Progress of the current index run, when the caller asked for it. */
  onProgress?: ProgressFn;
  /** The read model: one view per repo and index state, shared by every tool. */
  views: RepoViews;
  /** How `index_repo` talks to GitHub. */
  github: GitHubSettings;
  /** The AI summary tier of the index tools. */
  summarizer: SummarizerSettings;
  /**
   * The embedding provider of semantic search (created on first use; throws
   * `no_embedding_provider` saying how to configure one); absent: none.
   */
  embedder?: () => EmbeddingProvider;
  /**
   * Whether served file text has its secrets redacted by position (the server's redaction
   * setting). @default true
   */
  redact?: boolean;
  /** What the server's watch mode follows and how (get_watch_status); absent: watch mode off. */
  watchReport?: () => WatchReport;
  /**
   * Tell the server a folder was just indexed (watch mode follows it); resolves to a warning
   * when it cannot be watched, else null.
   */
  folderIndexed?: (root: string) => Promise<string | null>;
  /** Whether MCP clients are served a tool (its profile, `disabled_tools`); absent: every tool. */
  serves?: (name: string) => boolean;
}

/**
 * What a tool returns to the server; `R` and `M` are the response and `_meta` types its
 * declaration derives (define.ts).
 */
export interface ToolOutput<
  R extends object = Record<string, unknown>,
  M extends object = Record<string, unknown>,
> {
  /** The response object (API.md), without `_meta`. */
  response: R;
  /** Bytes an agent would have read without the tool (for `tokens_saved`); 0 when not a read. */
  rawBytes?: number;
  /** Repo id the call was about. */
  repo?: string;
  /** Tool-specific `_meta` fields (`truncated`, `hint`, `files_searched`, …). */
  meta?: M;
  /** Arguments accepted but ignored or changed, one sentence each (`_meta.warnings`). */
  warnings?: string[];
}

/** The server's embedding provider; `no_embedding_provider` (saying how to set one) when none. */
export function embedder(ctx: ToolContext): EmbeddingProvider {
  if (ctx.embedder === undefined) {
    throw new ToolError("no_embedding_provider", "This server has no embedding provider");
  }
  return ctx.embedder();
}

/** Most repo ids listed in a `repo_not_found` error. */
const _MAX_LISTED_REPOS = 10;

/**
 * Open a repo's current view by identifier. An unknown repo fails with `repo_not_found` and,
 * when few repos are indexed, their ids; an ambiguous bare name with `repo_ambiguous` and the
 * candidates.
 */
export function openRepo(
  ctx: ToolContext,
  identifier: string,
): { repo: string; index: RepoIndex; view: RepoView } {
  try {
    const repo = ctx.store.resolveRepo(identifier);
    const index = ctx.store.repo(repo);
    return { repo, index, view: ctx.views.view(repo, index) };
  } catch (e) {
    if (!(e instanceof ToolError) || e instanceof DetailedToolError) throw e;
    if (e.code === "repo_not_found") {
      // The same view of what is indexed as list_repos: readable indexes, and unreadable ones
      // named apart with their fix.
      const listed = ctx.store.listRepos();
      const repos = listed.repos.map((m) => m.repo);
      const broken = listed.unreadable.map((u) => u.repo);
      const unreadable = broken.length === 0
        ? ""
        : `. Unreadable indexes (run index_folder on their folders to rebuild them): ${
          broken.slice(0, _MAX_LISTED_REPOS).join(", ")
        }`;
      const extra = broken.length === 0 ? {} : { unreadable: broken.slice(0, _MAX_LISTED_REPOS) };
      if (repos.length === 0) {
        throw new DetailedToolError(
          e.code,
          `${e.message}. No repository is indexed yet: run index_folder with a folder path first${unreadable}`,
          { repos: [], ...extra },
        );
      }
      if (repos.length <= _MAX_LISTED_REPOS) {
        throw new DetailedToolError(
          e.code,
          `${e.message}. Indexed: ${repos.join(", ")}${unreadable}`,
          {
            repos,
            ...extra,
          },
        );
      }
    }
    throw e;
  }
}

/**
 * The file at `path` exactly as indexed; otherwise `file_not_found` with up to 5 indexed paths
 * that look closest (same file name first, then by edit distance).
 */
export function requireFile(view: RepoView, path: string): FileEntry {
  const entry = view.index.file(path);
  if (entry !== undefined) return entry;
  const closest = closestPaths(view.get(PATHS), path, 5);
  throw new DetailedToolError(
    "file_not_found",
    `File not found in the index of ${view.repo}: ${path}. Paths are repo-relative with "/" as in get_file_tree${
      closest.length > 0 ? `; did you mean ${closest.join(", ")}?` : ""
    }`,
    { closest },
  );
}
