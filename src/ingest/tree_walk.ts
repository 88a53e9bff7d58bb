/**
 * The walk of a tree that is not on disk (a GitHub tree listing or an archive's entries) with the
 * same selection rules as a local folder (`selection.ts`), so that the same commit selects the
 * same files wherever it comes from. Symlinks are never followed (as a local walk by default);
 * submodules have no content in the tree and are reported.
 */
import {
  FileSelection,
  type GitignoreMatcher,
  gitignoreMatcher,
  type SelectionOptions,
  type SelectionResult,
} from "./selection.ts";

/** One entry of a tree, as git lists it. */
export interface TreeEntry {
  /** Repo-relative POSIX path. */
  path: string;
  /** `file` (a blob that is not a symlink), `dir`, `symlink`, or `submodule`. */
  type: "file" | "dir" | "symlink" | "submodule";
  /** Size in bytes (files). */
  size: number;
  /** Git object id (blob SHA for files). */
  sha: string;
}

/** A file the tree walk accepted. */
export interface TreeFile {
  path: string;
  language: string;
  size: number;
  /** Git blob SHA. */
  sha: string;
}

interface _Dir {
  dirs: Map<string, _Dir>;
  entries: TreeEntry[];
}

/**
 * Walk a tree listing. `gitignoreText` gives the text of the `.gitignore` at a repo-relative
 * path (undefined when it could not be read, which is counted as unreadable).
 */
export function walkTree(
  entries: readonly TreeEntry[],
  gitignoreText: (path: string) => string | undefined,
  options: SelectionOptions,
): SelectionResult<TreeFile> {
  const selection = new FileSelection(options);
  const root: _Dir = { dirs: new Map(), entries: [] };
  const dirOf = (path: string): _Dir => {
    let d = root;
    if (path === "") return d;
    for (const part of path.split("/")) {
      let next = d.dirs.get(part);
      if (next === undefined) {
        next = { dirs: new Map(), entries: [] };
        d.dirs.set(part, next);
      }
      d = next;
    }
    return d;
  };
  for (const e of entries) {
    const slash = e.path.lastIndexOf("/");
    const parent = dirOf(slash === -1 ? "" : e.path.slice(0, slash));
    if (e.type === "dir") dirOf(e.path);
    else parent.entries.push(e);
  }
  const files: TreeFile[] = [];

  const visit = (dir: _Dir, relDir: string, inherited: readonly GitignoreMatcher[]) => {
    const named = [
      ...dir.entries.map((e) => ({ name: _name(e.path), entry: e as TreeEntry | undefined })),
      ...[...dir.dirs.keys()].map((name) => ({ name, entry: undefined })),
    ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    let matchers = inherited;
    const ignoreFile = dir.entries.find((e) => e.type === "file" && _name(e.path) === ".gitignore");
    if (ignoreFile !== undefined) {
      const text = gitignoreText(ignoreFile.path);
      if (text === undefined) selection.skipCounts.unreadable++;
      else matchers = [...inherited, gitignoreMatcher(relDir, text)];
    }
    for (const { name, entry } of named) {
      const rel = relDir === "" ? name : `${relDir}/${name}`;
      if (entry === undefined) {
        if (selection.acceptDir(rel, name, matchers)) visit(dir.dirs.get(name)!, rel, matchers);
        continue;
      }
      if (entry.type === "symlink") {
        selection.skipCounts.symlink++;
        continue;
      }
      if (entry.type === "submodule") {
        selection.note(
          "submodule",
          `Skipped submodule (its files are in another repository): ${rel}`,
        );
        continue;
      }
      const language = selection.acceptFileName(rel, name, matchers);
      if (language === undefined) continue;
      if (!selection.acceptSize(rel, entry.size)) continue;
      files.push({ path: rel, language, size: entry.size, sha: entry.sha });
    }
  };
  visit(root, "", []);
  return selection.finish(files);
}

function _name(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
