/**
 * The options a folder was indexed with that a later re-index of some of its files must reuse
 * (its own extra ignore patterns, the symlink rule), recorded with the index under the meta key
 * `folder_options`: any server, its watcher and `index_file` then apply the rules the folder
 * index applied. Import-free, so the server can read it without loading the indexer.
 */

/** The options of a folder index that a re-index of some of its files must reuse. */
export interface FolderIndexOptions {
  extraIgnorePatterns?: readonly string[];
  followSymlinks?: boolean;
}

/** The meta key the options are recorded under. */
export const FOLDER_OPTIONS_KEY = "folder_options";

/** The stored form of `options` (what the meta key holds, as JSON). */
export function folderOptionsRecord(
  options: FolderIndexOptions,
): { extra_ignore_patterns: string[]; follow_symlinks: boolean } {
  return {
    extra_ignore_patterns: [...(options.extraIgnorePatterns ?? [])],
    follow_symlinks: options.followSymlinks ?? false,
  };
}

/**
 * The options recorded with a folder's index, `{}` when none are (an index from before they were
 * recorded: the defaults apply).
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { recordedFolderOptions } from "./folder_options.ts";
 * deepEqual(recordedFolderOptions('{"extra_ignore_patterns":["gen/"],"follow_symlinks":true}'), {
 *   extraIgnorePatterns: ["gen/"],
 *   followSymlinks: true,
 * });
 * deepEqual(recordedFolderOptions(undefined), {});
 * ```
 */
export function recordedFolderOptions(value: string | undefined): FolderIndexOptions {
  if (value === undefined) return {};
  try {
    const v = JSON.parse(value) as { extra_ignore_patterns?: unknown; follow_symlinks?: unknown };
    const out: FolderIndexOptions = {};
    if (Array.isArray(v.extra_ignore_patterns)) {
      out.extraIgnorePatterns = v.extra_ignore_patterns.map(String);
    }
    if (typeof v.follow_symlinks === "boolean") out.followSymlinks = v.follow_symlinks;
    return out;
  } catch {
    return {};
  }
}
