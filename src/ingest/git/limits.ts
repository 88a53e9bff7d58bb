/**
 * The bounds of every history read, as settings (environment variables read once by the entry
 * point, defaults generous for real repositories):
 *
 * | Variable | Default | Meaning |
 * |---|---|---|
 * | `CODEMUNCH_HISTORY_MAX_OBJECT_BYTES` | 16 MB | largest object (blob, tree, commit) inflated |
 * | `CODEMUNCH_HISTORY_MAX_COMMITS` | 20000 | most commits one walk visits |
 * | `CODEMUNCH_HISTORY_MAX_FILES` | 2000 | most changed files one diff reads |
 *
 * Metadata files have fixed caps: `HEAD`, refs and pointer files 4 KB, `packed-refs` and
 * `shallow` 64 MB, the index (`.git/index`) 256 MB, a pack index 1 GB.
 */

/** The bounds of history reads. */
export interface HistoryLimits {
  /** Largest inflated object, in bytes; a larger one is an error naming it. @default 16 MiB */
  maxObjectBytes: number;
  /** Most commits one walk (log, provenance, churn) visits. @default 20000 */
  maxCommits: number;
  /** Most changed files one diff reads the content of. @default 2000 */
  maxFiles: number;
  /** Longest delta chain followed. @default 10000 */
  maxDeltaDepth: number;
  /** Bytes of inflated objects kept between reads. @default 64 MiB */
  cacheBytes: number;
}

/** The defaults. */
export const DEFAULT_HISTORY_LIMITS: HistoryLimits = {
  maxObjectBytes: 16 * 1024 * 1024,
  maxCommits: 20_000,
  maxFiles: 2000,
  maxDeltaDepth: 10_000,
  cacheBytes: 64 * 1024 * 1024,
};

/** Fixed caps of metadata files, in bytes. */
export const METADATA_CAPS = {
  small: 4096,
  packedRefs: 64 * 1024 * 1024,
  index: 256 * 1024 * 1024,
  packIndex: 1024 * 1024 * 1024,
  pack: Number.MAX_SAFE_INTEGER,
  /** Most bytes of one pack's windows kept in memory (read in 64 KiB windows as needed). */
  packInMemory: 128 * 1024 * 1024,
} as const;

/** The limits from the environment (see the module doc). */
export function historyLimitsFromEnv(
  env: (name: string) => string | undefined,
): HistoryLimits {
  const int = (name: string, fallback: number) => {
    const v = env(name);
    if (v === undefined || v.trim() === "") return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) {
      throw new RangeError(`Invalid ${name}: expected a positive integer, got "${v}"`);
    }
    return n;
  };
  return {
    ...DEFAULT_HISTORY_LIMITS,
    maxObjectBytes: int(
      "CODEMUNCH_HISTORY_MAX_OBJECT_BYTES",
      DEFAULT_HISTORY_LIMITS.maxObjectBytes,
    ),
    maxCommits: int("CODEMUNCH_HISTORY_MAX_COMMITS", DEFAULT_HISTORY_LIMITS.maxCommits),
    maxFiles: int("CODEMUNCH_HISTORY_MAX_FILES", DEFAULT_HISTORY_LIMITS.maxFiles),
  };
}
