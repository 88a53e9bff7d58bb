/**
 * Where indexes live and what they are called: the index directory, repo identifiers
 * (API.md §4.4) and the file-name slug of a repo, which — unlike the reference's — cannot collide.
 */
import { createHash } from "node:crypto";
import { basename } from "node:path";

export { defaultIndexDir, expandHome } from "./index_dir.ts";

/**
 * The repo id of a local folder: `local/<basename>-<first 8 hex of SHA-1 of the absolute path>`.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { localRepoId } from "./paths.ts";
 * equal(localRepoId("/home/me/app"), "local/app-fae53059");
 * ```
 */
export function localRepoId(absolutePath: string): string {
  const hash = createHash("sha1").update(absolutePath).digest("hex").slice(0, 8);
  return `local/${basename(absolutePath) || "root"}-${hash}`;
}

/**
 * The file-name slug of a repo id. Letters, digits, `.` and `-` are kept; every other byte
 * (including `_` and the `/` between owner and name) becomes `_` plus two hex digits, and so does
 * a leading `.`. The mapping is injective — `a-b/c` and `a/b-c` get different slugs — and
 * reversible with {@linkcode repoIdFromSlug}.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { repoSlug } from "./paths.ts";
 * equal(repoSlug("local/app-1a2b3c4d"), "local_2fapp-1a2b3c4d");
 * equal(repoSlug("a-b/c") === repoSlug("a/b-c"), false);
 * ```
 */
export function repoSlug(repo: string): string {
  let out = "";
  const bytes = new TextEncoder().encode(repo);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    const keep = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) ||
      b === 0x2d || (b === 0x2e && i > 0);
    out += keep ? String.fromCharCode(b) : "_" + b.toString(16).padStart(2, "0");
  }
  return out;
}

/** The repo id a slug was made from, or null when the text is not a slug. */
export function repoIdFromSlug(slug: string): string | null {
  const bytes: number[] = [];
  for (let i = 0; i < slug.length; i++) {
    const ch = slug[i]!;
    if (ch === "_") {
      const hex = slug.slice(i + 1, i + 3);
      if (!/^[0-9a-f]{2}$/.test(hex)) return null;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (/[A-Za-z0-9.-]/.test(ch)) {
      bytes.push(ch.charCodeAt(0));
    } else {
      return null;
    }
  }
  try {
    const repo = new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(bytes));
    return repoSlug(repo) === slug ? repo : null;
  } catch {
    return null;
  }
}
