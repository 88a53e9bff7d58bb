/**
 * Indexing settings from the environment, with generous defaults for real monorepos.
 *
 * | Variable | Default | Meaning |
 * |---|---|---|
 * | `JCODEMUNCH_MAX_FOLDER_FILES` | 100000 | most files indexed from one folder |
 * | `JCODEMUNCH_MAX_FILE_SIZE` | 512000 | largest file indexed, in bytes (500 KB) |
 * | `JCODEMUNCH_EXTRA_IGNORE_PATTERNS` | — | gitignore patterns (comma-separated or JSON list) |
 * | `CODEMUNCH_ALLOWED_ROOTS` | the start folder | folders that may be indexed (path list; see allowed_roots.ts) |
 * | `CODEMUNCH_INDEX_WAIT_MS` | 30000 | how long a second indexer waits before `index_busy` |
 */
import { allowedRoots } from "./allowed_roots.ts";

/** Settings for walking and indexing a folder. */
export interface IngestConfig {
  /** @default 100000 */
  maxFiles: number;
  /** @default 512000 */
  maxFileBytes: number;
  /** Gitignore-style patterns applied to every folder, relative to its root. */
  extraIgnorePatterns: string[];
  /** Absolute folders that may be indexed; null allows any folder Deno lets us read. */
  allowedRoots: string[] | null;
  /** @default 30000 */
  indexWaitMs: number;
  /**
   * The home folder, for a leading `~` in the paths the tools take (`HOME`, else `USERPROFILE`).
   * @default none (a `~` stays as it is)
   */
  home?: string;
}

/** A `~` expansion by a home folder (none: the path as it is). */
export function homeExpander(home: string | undefined): (name: string) => string | undefined {
  return (name) => name === "HOME" ? home : undefined;
}

/** The defaults, without looking at the environment. */
export const DEFAULT_INGEST_CONFIG: IngestConfig = {
  maxFiles: 100_000,
  maxFileBytes: 500 * 1024,
  extraIgnorePatterns: [],
  allowedRoots: null,
  indexWaitMs: 30_000,
};

/**
 * Read the settings from environment variables (see the module doc for names). The allowed
 * roots follow {@linkcode allowedRoots}: unset means `cwd` (none when `cwd` is a filesystem root
 * or the home directory).
 */
export function ingestConfigFromEnv(
  env: (name: string) => string | undefined,
  cwd: string,
): IngestConfig {
  const int = (name: string, fallback: number) => {
    const v = env(name);
    if (v === undefined || v.trim() === "") return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) {
      throw new RangeError(`Invalid ${name}: expected a positive integer, got "${v}"`);
    }
    return n;
  };
  const home = env("HOME") || env("USERPROFILE");
  return {
    maxFiles: int("JCODEMUNCH_MAX_FOLDER_FILES", DEFAULT_INGEST_CONFIG.maxFiles),
    maxFileBytes: int("JCODEMUNCH_MAX_FILE_SIZE", DEFAULT_INGEST_CONFIG.maxFileBytes),
    extraIgnorePatterns: parsePatternList(env("JCODEMUNCH_EXTRA_IGNORE_PATTERNS")),
    allowedRoots: allowedRoots(env, cwd).roots,
    indexWaitMs: int("CODEMUNCH_INDEX_WAIT_MS", DEFAULT_INGEST_CONFIG.indexWaitMs),
    ...(home ? { home } : {}),
  };
}

/** A pattern list given as a JSON array or as comma-separated text. */
export function parsePatternList(text: string | undefined): string[] {
  if (text === undefined || text.trim() === "") return [];
  const t = text.trim();
  if (t.startsWith("[")) {
    const parsed = JSON.parse(t) as unknown;
    if (Array.isArray(parsed)) return parsed.map(String).filter((p) => p !== "");
  }
  return t.split(",").map((p) => p.trim()).filter((p) => p !== "");
}
