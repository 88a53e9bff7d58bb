/**
 * The priors of every file of a repo (`priors.ts` says what they weigh), decided once per index
 * state from what the index holds — paths, languages, the first bytes of each file — not from the
 * path alone:
 *
 * - **role**: `fileRole` of the path, or `vendor` for a file inside a copied package
 *   ({@linkcode vendoredFolders}) or whose header comment says it is vendored
 *   ({@linkcode hasVendoringHeader});
 * - **content**: code, document or data, from the file's language;
 * - **family**: translated copies of one document (`docs/en/index.md`, `docs/zh/index.md`, …)
 *   share a family key ({@linkcode translationFamilies}); a ranking keeps the best of a family.
 */
import { FILES, PATHS_BY_ID } from "./files.ts";
import {
  CONTENT_WEIGHT,
  type ContentKind,
  contentOf,
  type FileRole,
  fileRole,
  ROLE_WEIGHT,
} from "./priors.ts";
import { facet, type RepoView } from "./view.ts";

/** What ranking knows about one file. */
export interface FilePrior {
  role: FileRole;
  content: ContentKind;
  /** The translation family key of a translated document, else null. */
  family: string | null;
}

/** Bytes of each file read for a vendoring header. */
export const HEADER_BYTES = 1024;

/** The priors of a repo's files, by file id and by path. */
export interface FilePriors {
  byId(fileId: number): FilePrior;
  byPath(path: string): FilePrior;
  /** Role × content weight of a file for a query that asks for no content kind (memoised). */
  weightById(fileId: number): number;
}

const _SOURCE: FilePrior = { role: "source", content: "code", family: null };

/** Every file's prior, built once per index state (in the search prewarm). */
export const FILE_PRIORS = facet("file-priors", _buildPriors, {
  // Files re-indexed, none added or removed: their priors again (a header may have changed).
  update: (view, previous, change): FilePriors => {
    const old = _STATE.get(previous);
    if (old === undefined) return _buildPriors(view);
    const files = view.get(FILES);
    const entries = change.paths.map((path) => files.get(path));
    // A file that changed content kind may change the translation families: built again.
    const sameKinds = entries.every((f) =>
      f !== undefined && contentOf(f.language) === old.byPath.get(f.path)?.content
    );
    if (!sameKinds) return _buildPriors(view);
    const code = entries.filter((f) => contentOf(f!.language) === "code");
    const heads = view.index.fileHeads(
      HEADER_BYTES,
      [...new Set(code.map((f) => f!.language))],
      code.map((f) => f!.path),
    );
    const byPath = new Map(old.byPath);
    for (const f of entries) {
      byPath.set(
        f!.path,
        _prior(f!.path, f!.language, heads.get(f!.path), old.vendored, old.families),
      );
    }
    return _priors(view, byPath, old.vendored, old.families);
  },
});

function _buildPriors(view: RepoView): FilePriors {
  const files = view.get(FILES);
  const paths = [...files.keys()];
  const vendored = vendoredFolders(paths);
  const families = translationFamilies(
    paths.filter((p) => contentOf(files.get(p)!.language) === "document"),
  );
  const codeLanguages = [...new Set([...files.values()].map((f) => f.language))]
    .filter((l) => contentOf(l) === "code");
  const heads = view.index.fileHeads(HEADER_BYTES, codeLanguages);
  const byPath = new Map<string, FilePrior>();
  for (const [path, f] of files) {
    byPath.set(path, _prior(path, f.language, heads.get(path), vendored, families));
  }
  return _priors(view, byPath, vendored, families);
}

/** What an update of a {@linkcode FilePriors} starts from. */
interface _PriorsState {
  byPath: ReadonlyMap<string, FilePrior>;
  vendored: ReadonlySet<string>;
  families: ReadonlyMap<string, string>;
}

const _STATE = new WeakMap<FilePriors, _PriorsState>();

/** One file's prior. */
function _prior(
  path: string,
  language: string,
  head: string | undefined,
  vendored: ReadonlySet<string>,
  families: ReadonlyMap<string, string>,
): FilePrior {
  const content = contentOf(language);
  let role = fileRole(path, content);
  if (role !== "vendor" && (_inFolder(path, vendored) || hasVendoringHeader(head))) {
    role = "vendor";
  }
  return { role, content, family: families.get(path) ?? null };
}

/** The priors of a view from every file's. */
function _priors(
  view: RepoView,
  byPath: Map<string, FilePrior>,
  vendored: ReadonlySet<string>,
  families: ReadonlyMap<string, string>,
): FilePriors {
  const ids = view.get(PATHS_BY_ID);
  const byId = (fileId: number) => byPath.get(ids.get(fileId) ?? "") ?? _SOURCE;
  const weights = new Map<number, number>();
  const priors: FilePriors = {
    byId,
    byPath: (path) => byPath.get(path) ?? { ..._SOURCE, role: fileRole(path) },
    weightById: (fileId) => {
      let w = weights.get(fileId);
      if (w === undefined) {
        const p = byId(fileId);
        weights.set(fileId, w = ROLE_WEIGHT[p.role] * CONTENT_WEIGHT[p.content]);
      }
      return w;
    },
  };
  _STATE.set(priors, { byPath, vendored, families });
  return priors;
}

function _inFolder(path: string, folders: ReadonlySet<string>): boolean {
  if (folders.size === 0) return false;
  for (let i = path.indexOf("/"); i !== -1; i = path.indexOf("/", i + 1)) {
    if (folders.has(path.slice(0, i))) return true;
  }
  return false;
}

const _LICENSE = /^(?:licen[cs]e|copying|unlicense)(?:[._-][\w.-]*)?$/i;

/**
 * Folders that hold a copy of another project's package, by its layout:
 * - `packages/` inside a Python package (`requests/packages/urllib3/`: a package whose
 *   subpackage holds other packages);
 * - a folder with a license file of its own inside a folder that holds code of its own (a copied
 *   library sits inside the project's source; a monorepo's `packages/x/LICENSE` sits in a folder
 *   of folders).
 *
 * @example Usage
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { vendoredFolders } from "./file_priors.ts";
 * deepEqual([...vendoredFolders([
 *   "requests/__init__.py", "requests/packages/urllib3/poolmanager.py",
 *   "lib/core.js", "lib/tinyqueue/LICENSE", "lib/tinyqueue/index.js",
 *   "packages/app/LICENSE", "packages/app/index.js",
 * ])].sort(), ["lib/tinyqueue", "requests/packages"]);
 * ```
 */
export function vendoredFolders(paths: readonly string[]): Set<string> {
  const filesIn = new Map<string, string[]>();
  for (const p of paths) {
    const slash = p.lastIndexOf("/");
    const dir = slash < 0 ? "" : p.slice(0, slash);
    let list = filesIn.get(dir);
    if (list === undefined) filesIn.set(dir, list = []);
    list.push(p.slice(slash + 1));
  }
  const hasCode = (dir: string) =>
    (filesIn.get(dir) ?? []).some((f) =>
      /\.\w+$/.test(f) && !_LICENSE.test(f) && !/\.(?:md|txt|rst)$/i.test(f)
    );
  const out = new Set<string>();
  for (const [dir, names] of filesIn) {
    if (dir === "") continue;
    const slash = dir.lastIndexOf("/");
    const parent = slash < 0 ? "" : dir.slice(0, slash);
    if (names.some((n) => _LICENSE.test(n)) && parent !== "" && hasCode(parent)) out.add(dir);
    // `<pkg>/packages/<name>/…` with `<pkg>/__init__.py`.
    const segments = dir.split("/");
    const at = segments.indexOf("packages");
    if (at > 0 && (filesIn.get(segments.slice(0, at).join("/")) ?? []).includes("__init__.py")) {
      out.add(segments.slice(0, at + 1).join("/"));
    }
  }
  return out;
}

/**
 * Whether a file's first bytes say it is vendored: a comment line of its leading comment block
 * (before the first line of code) naming it a vendored copy (`# Vendored from …`, `// This file
 * is vendored …`). A note that code was "copied from" or "ported from" elsewhere does not count:
 * projects port code into their own source and keep it.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { hasVendoringHeader } from "./file_priors.ts";
 * equal(hasVendoringHeader("# -*- coding: utf-8 -*-\n# Vendored from six 1.16.0\nimport sys\n"), true);
 * equal(hasVendoringHeader("// Ported from Goji's middleware\npackage middleware\n"), false);
 * equal(hasVendoringHeader("package x\n// vendored from y\n"), false);
 * ```
 */
export function hasVendoringHeader(head: string | undefined): boolean {
  if (head === undefined) return false;
  for (const line of head.split("\n").slice(0, 40)) {
    const t = line.trim();
    if (t === "") continue;
    if (!/^(?:#|\/\/|\/\*|\*|--|;|"""|''')/.test(t)) return false; // the first line of code
    if (_VENDORED.test(t)) return true;
  }
  return false;
}

const _VENDORED =
  /\b(?:vendored|vendorized)\s+(?:from|copy|version|by|in|into)\b|\bthis (?:file|module|package|code) (?:is|was) (?:vendored|vendorized)\b/i;

/** A folder name that reads as a locale (`en`, `zh`, `pt-BR`, `zh-hant`). */
const _LOCALE = /^[a-z]{2,3}(?:[-_][a-z0-9]{2,8})?$/i;

/** Least locale folders side by side that make translations. */
const _MIN_LOCALES = 3;

/**
 * The translation family of each translated document: a path segment is a locale when its
 * folder has at least {@linkcode _MIN_LOCALES} sibling folders that read as locales, and files
 * whose paths differ only in that segment are one family (key: the path with the locale as `*`).
 * Only documents are passed: two-letter code folders (`io/`, `os/`) are no locales.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { translationFamilies } from "./file_priors.ts";
 * const f = translationFamilies(["docs/en/a.md", "docs/zh/a.md", "docs/es/a.md", "docs/en/b.md"]);
 * equal(f.get("docs/zh/a.md"), "docs/*\/a.md");
 * equal(f.get("docs/en/b.md"), undefined);
 * ```
 */
export function translationFamilies(documents: readonly string[]): Map<string, string> {
  const locales = new Map<string, Set<string>>();
  for (const p of documents) {
    const segments = p.split("/");
    for (let i = 0; i < segments.length - 1; i++) {
      if (!_LOCALE.test(segments[i]!)) continue;
      const parent = segments.slice(0, i).join("/");
      let set = locales.get(parent);
      if (set === undefined) locales.set(parent, set = new Set());
      set.add(segments[i]!);
    }
  }
  const keyOf = new Map<string, string>();
  const members = new Map<string, number>();
  for (const p of documents) {
    const segments = p.split("/");
    for (let i = 0; i < segments.length - 1; i++) {
      if (!_LOCALE.test(segments[i]!)) continue;
      if ((locales.get(segments.slice(0, i).join("/"))?.size ?? 0) < _MIN_LOCALES) continue;
      const key = [...segments.slice(0, i), "*", ...segments.slice(i + 1)].join("/");
      keyOf.set(p, key);
      members.set(key, (members.get(key) ?? 0) + 1);
      break;
    }
  }
  for (const [p, key] of keyOf) if (members.get(key)! < 2) keyOf.delete(p);
  return keyOf;
}
