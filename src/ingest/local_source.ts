/**
 * A local folder as an index source: the folder walk (`walk.ts`) selects the files; a file whose
 * size, mtime and ctime match what was stored (and whose mtime is not so recent that a
 * same-millisecond edit could hide) is not even read; every other file is read from disk.
 */
import { basename, join } from "node:path";
import { permissionError } from "../errors.ts";
import { localRepoId } from "../store/paths.ts";
import type { StoredFileState } from "../store/repo_writer.ts";
import type { SelectionResult } from "./selection.ts";
import type { DiscoveryContext, IndexSource, SourceMeta } from "./source.ts";
import { type WalkedFile, walkFolder } from "./walk.ts";
import { readGitHead } from "./git_head.ts";
import { languageOf } from "./language_of.ts";
import { readFileInside, type UnsafeRead } from "./safe_read.ts";
import {
  FOLDER_OPTIONS_KEY,
  type FolderIndexOptions,
  folderOptionsRecord,
} from "./folder_options.ts";

/** How to walk a folder. */
export interface LocalFolderOptions {
  maxFileBytes: number;
  maxFiles: number;
  /** Every extra pattern: the configured ones and the folder's own. */
  extraIgnorePatterns: readonly string[];
  followSymlinks: boolean;
  /**
   * The folder's own options as its caller gave them, recorded with the index (meta key
   * `folder_options`) so that a later re-index of some of its files — by any server, or its
   * watcher — applies the same rules.
   */
  recorded?: FolderIndexOptions;
}

/** Files of a local folder (an absolute, real path). */
export class LocalFolderSource implements IndexSource<WalkedFile> {
  readonly repo: string;
  readonly label: string;
  /** The folder (absolute, real). */
  readonly root: string;
  protected options: LocalFolderOptions;

  constructor(root: string, options: LocalFolderOptions) {
    this.root = root;
    this.options = options;
    this.repo = localRepoId(root);
    this.label = root;
  }

  discover(_context: DiscoveryContext): Promise<SelectionResult<WalkedFile>> {
    return Promise.resolve(walkFolder(this.root, {
      languageOf,
      maxFileBytes: this.options.maxFileBytes,
      maxFiles: this.options.maxFiles,
      extraIgnorePatterns: this.options.extraIgnorePatterns,
      followSymlinks: this.options.followSymlinks,
    }));
  }

  isUnchanged(f: WalkedFile, s: StoredFileState): boolean {
    return s.size === f.size && s.mtime_ms === f.mtime_ms && s.ctime_ms === f.ctime_ms &&
      f.mtime_ms < s.checked_ms - 2000;
  }

  load(): Promise<void> {
    return Promise.resolve();
  }

  read(f: WalkedFile): Uint8Array | UnsafeRead | null {
    try {
      // Open, then verify what was opened: a file swapped for a symlink since the walk is
      // refused, never read through (safe_read.ts).
      return readFileInside(f.absolute, this.root, {
        maxBytes: this.options.maxFileBytes,
        followSymlinks: this.options.followSymlinks,
      });
    } catch (e) {
      const denied = permissionError(e, f.absolute);
      if (denied !== null) throw denied;
      return null;
    }
  }

  times(f: WalkedFile): { mtime_ms: number; ctime_ms: number } {
    return { mtime_ms: f.mtime_ms, ctime_ms: f.ctime_ms };
  }

  readOther(path: string): string | undefined {
    try {
      const read = readFileInside(join(this.root, path), this.root, {
        maxBytes: this.options.maxFileBytes,
      });
      return typeof read === "string" ? undefined : new TextDecoder().decode(read);
    } catch {
      return undefined;
    }
  }

  closingWarnings(selected: readonly WalkedFile[]): string[] {
    if (selected.length >= 500 && !_exists(join(this.root, ".gitignore"))) {
      return [
        `No .gitignore at the folder root and ${selected.length} files found: add one to keep build output and dependencies out of the index`,
      ];
    }
    return [];
  }

  meta(): SourceMeta {
    return {
      owner: "local",
      name: this.repo.slice("local/".length),
      display_name: basename(this.root),
      source_root: this.root,
      git_head: readGitHead(this.root),
      extra: { [FOLDER_OPTIONS_KEY]: folderOptionsRecord(this.options.recorded ?? {}) },
    };
  }
}

function _exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}
