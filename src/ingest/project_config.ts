/**
 * A project's own settings: `<folder>/.jcodemunch.jsonc`, the reference's per-project config file
 * (JSON with comments), whose keys override the server's for that folder. codemunch reads the
 * keys it has a setting for:
 *
 * | Key | Effect |
 * |---|---|
 * | `disabled_tools` | tools that refuse to answer about this repo (`tool_disabled`) |
 * | `extra_ignore_patterns` | gitignore-style patterns added to the server's when indexing it |
 * | `max_folder_files` | a lower file limit for this folder (never above the server's) |
 *
 * The folder is someone's checkout: the file is read like any file of it (a regular file inside
 * the folder, at most {@linkcode MAX_PROJECT_CONFIG_BYTES}; no FIFO, no symlink out), and it can
 * only narrow what the server does (more ignored files, fewer files, fewer tools). A file that
 * cannot be read or parsed, or a key of the wrong type, is named in a warning and ignored, as the
 * reference does; other keys are ignored.
 *
 * @module
 */
import { join } from "node:path";
import type { IngestConfig } from "./config.ts";
import { stripJsonc } from "./jsonc.ts";
import { readFileInside } from "./safe_read.ts";

/** The file name, in the folder's root. */
export const PROJECT_CONFIG_FILE = ".jcodemunch.jsonc";

/** Largest project config read, in bytes. */
export const MAX_PROJECT_CONFIG_BYTES = 256 * 1024;

/** What a folder's `.jcodemunch.jsonc` sets (empty lists when it sets nothing). */
export interface ProjectConfig {
  disabledTools: readonly string[];
  extraIgnorePatterns: readonly string[];
  maxFolderFiles?: number;
  /** Why the file or a key of it was ignored, one sentence each. */
  warnings: readonly string[];
}

const _NONE: ProjectConfig = { disabledTools: [], extraIgnorePatterns: [], warnings: [] };

/** The last read per folder, by the file's size and mtime (a call stats the file, no more). */
const _cache = new Map<string, { stamp: string; config: ProjectConfig }>();

/** The settings of the folder indexed at `root` (none when it has no such file). */
export function readProjectConfig(root: string): ProjectConfig {
  if (root === "") return _NONE;
  const path = join(root, PROJECT_CONFIG_FILE);
  let stamp: string;
  try {
    const info = Deno.lstatSync(path);
    stamp = `${info.size}:${info.mtime?.getTime() ?? 0}:${info.isFile}`;
  } catch {
    _cache.delete(root);
    return _NONE;
  }
  const cached = _cache.get(root);
  if (cached?.stamp === stamp) return cached.config;
  const config = _read(path, root);
  _cache.set(root, { stamp, config });
  return config;
}

function _read(path: string, root: string): ProjectConfig {
  const ignored = (why: string): ProjectConfig => ({
    ..._NONE,
    warnings: [`${path} was ignored: ${why}`],
  });
  const bytes = readFileInside(path, root, { maxBytes: MAX_PROJECT_CONFIG_BYTES });
  if (typeof bytes === "string") {
    return ignored(
      bytes === "too_large"
        ? `it is over ${MAX_PROJECT_CONFIG_BYTES} bytes`
        : `it is not a regular file of the folder (${bytes})`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripJsonc(new TextDecoder().decode(bytes).replace(/^\uFEFF/, "")));
  } catch (e) {
    return ignored(`it is not JSON with comments (${(e as Error).message})`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return ignored("it is not a JSON object");
  }
  return _keys(parsed as Record<string, unknown>, path);
}

function _keys(raw: Record<string, unknown>, path: string): ProjectConfig {
  const warnings: string[] = [];
  const names = (key: string): string[] => {
    const v = raw[key];
    if (v === undefined) return [];
    if (Array.isArray(v) && v.every((x) => typeof x === "string")) {
      return v.map((x) => x.trim()).filter((x) => x !== "");
    }
    warnings.push(`${key} in ${path} was ignored: expected a list of strings`);
    return [];
  };
  const config: ProjectConfig = {
    disabledTools: names("disabled_tools"),
    extraIgnorePatterns: names("extra_ignore_patterns"),
    warnings,
  };
  const max = raw.max_folder_files;
  if (max !== undefined) {
    if (typeof max === "number" && Number.isInteger(max) && max > 0) {
      return { ...config, maxFolderFiles: max };
    }
    warnings.push(`max_folder_files in ${path} was ignored: expected a positive whole number`);
  }
  return config;
}

/** The indexing settings for the folder at `root`: the server's, narrowed by its project file. */
export function projectIngestConfig(
  config: IngestConfig,
  root: string,
): { config: IngestConfig; warnings: readonly string[] } {
  const project = readProjectConfig(root);
  if (project === _NONE) return { config, warnings: [] };
  const maxFiles = Math.min(config.maxFiles, project.maxFolderFiles ?? config.maxFiles);
  // Say where a lower file limit comes from (the cap's own warning names the variable).
  const lowered = maxFiles < config.maxFiles
    ? [
      `max_folder_files in ${
        join(root, PROJECT_CONFIG_FILE)
      } limits this folder to ${maxFiles} files`,
    ]
    : [];
  return {
    config: {
      ...config,
      extraIgnorePatterns: [...config.extraIgnorePatterns, ...project.extraIgnorePatterns],
      maxFiles,
    },
    warnings: [...project.warnings, ...lowered],
  };
}
