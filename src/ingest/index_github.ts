/**
 * Indexing a GitHub repository: parse the argument (`github_url.ts`), then the source-agnostic
 * pipeline (`pipeline.ts`) over a `GitHubSource`. A failed run leaves the previous index (or
 * none) as it was: the pipeline writes in one transaction and rolls it back on any error.
 */
import type { Store } from "../store/store.ts";
import type { IngestConfig } from "./config.ts";
import type { GitHubSettings } from "./github_config.ts";
import { type GitHubFetchStats, GitHubSource } from "./github.ts";
import { parseRepoUrl, webHostOf } from "./github_url.ts";
import { type IndexOutcome, indexSource } from "./pipeline.ts";
import type { FileParser, ProgressFn, SymbolSummarizer } from "./source.ts";

/** What to index and how. */
export interface IndexRepoRequest {
  /** `owner/repo` or a repository URL (see `github_url.ts`). */
  url: string;
  /** Branch, tag or commit; overrides a ref in the URL. @default the default branch */
  ref?: string;
  extraIgnorePatterns?: readonly string[];
  /** @default true */
  incremental?: boolean;
  onProgress?: ProgressFn;
  /** The AI summary tier; absent: docstring and signature summaries only. */
  summarizer?: SymbolSummarizer;
}

/** The outcome of an index run, with how the content was fetched. */
export interface IndexRepoOutcome extends IndexOutcome {
  /** The ref asked for (`""`: the default branch). */
  ref: string;
  fetch: GitHubFetchStats;
}

/** Index (or re-index) a GitHub repository into the store. */
export async function indexGitHubRepo(
  store: Store,
  config: IngestConfig,
  settings: GitHubSettings,
  parser: FileParser,
  request: IndexRepoRequest,
): Promise<IndexRepoOutcome> {
  const target = parseRepoUrl(request.url, webHostOf(settings.apiUrl));
  const ref = request.ref?.trim() || target.ref;
  const source = new GitHubSource(
    { owner: target.owner, name: target.name, ...(ref !== undefined ? { ref } : {}) },
    {
      settings,
      config,
      extraIgnorePatterns: [...config.extraIgnorePatterns, ...(request.extraIgnorePatterns ?? [])],
      spoolDir: store.indexDir,
    },
  );
  try {
    const outcome = await indexSource(store, config, parser, source, {
      ...(request.incremental !== undefined ? { incremental: request.incremental } : {}),
      ...(request.onProgress !== undefined ? { onProgress: request.onProgress } : {}),
      ...(request.summarizer !== undefined ? { summarizer: request.summarizer } : {}),
    });
    return { ...outcome, ref: ref ?? "", fetch: { ...source.stats } };
  } finally {
    source.dispose();
  }
}
