/**
 * Revisions to commit ids, as `git rev-parse` reads them for the forms an agent types: a full or
 * abbreviated id, `HEAD`, a branch, tag or remote branch name (loose refs, then `packed-refs`), a
 * full ref name, symbolic refs, annotated tags peeled to their commit, and `~N` / `^N` suffixes.
 * A ref name is checked before it becomes a path: no `..`, no control characters, no leading
 * `/` or `-`; reading stays inside the git directories.
 */
import { join } from "node:path";
import { ToolError } from "../../errors.ts";
import { parseCommit, parseTag } from "../../parser/git/objects.ts";
import type { GitLocation } from "./git_dir.ts";
import { readGitText } from "./git_dir.ts";
import { METADATA_CAPS } from "./limits.ts";
import type { ObjectStore } from "./object_store.ts";

const _NAME = /^(?!-)(?!\/)(?!.*\.\.)(?!.*\/\/)(?!.*\.lock(?:\/|$))[A-Za-z0-9._\/+@-]{1,250}$/;

/** Reads refs of one repository. */
export class Refs {
  readonly #loc: GitLocation;
  readonly #objects: ObjectStore;
  #packed: Map<string, string> | null = null;

  constructor(loc: GitLocation, objects: ObjectStore) {
    this.#loc = loc;
    this.#objects = objects;
  }

  /** The id a ref name points to (following symbolic refs), or null when it does not exist. */
  ref(name: string, depth = 0): string | null {
    if (depth > 5) {
      throw new ToolError("git_ref_invalid", `The ref ${name} is a loop of symbolic refs`);
    }
    if (name !== "HEAD" && !_NAME.test(name)) return null;
    // HEAD and the refs of a worktree live in its own git directory; the rest is shared.
    const own = name === "HEAD" || name.startsWith("refs/bisect/") ||
      name.startsWith("refs/worktree/");
    const dir = own ? this.#loc.gitDir : this.#loc.commonDir;
    // A ref path that is a folder (`refs/heads`) is no ref; anything else not a regular file (a
    // FIFO, a device, a link out) is refused by the confined read.
    let isFolder = false;
    try {
      isFolder = Deno.lstatSync(join(dir, name)).isDirectory;
    } catch { /* absent: packed-refs */ }
    const text = isFolder ? null : readGitText(join(dir, name), dir, METADATA_CAPS.small);
    if (text !== null) {
      const t = text.trim();
      const sym = /^ref:\s*(\S+)$/.exec(t);
      if (sym !== null) return this.ref(sym[1]!, depth + 1);
      if (/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(t)) return t;
      throw new ToolError(
        "git_ref_invalid",
        `The ref ${name} holds "${t.slice(0, 80)}", not an object id`,
      );
    }
    return this.#packedRefs().get(name) ?? null;
  }

  /** Every ref name under a prefix (`refs/heads/`), loose and packed, with its id. */
  list(prefix: string): Map<string, string> {
    const out = new Map<string, string>();
    for (const [n, id] of this.#packedRefs()) if (n.startsWith(prefix)) out.set(n, id);
    const walk = (rel: string, depth: number) => {
      if (depth > 8) return;
      let entries: Deno.DirEntry[];
      try {
        entries = [...Deno.readDirSync(join(this.#loc.commonDir, rel))];
      } catch {
        return;
      }
      for (const e of entries) {
        const name = `${rel}/${e.name}`;
        if (e.isDirectory) walk(name, depth + 1);
        else if (e.isFile) {
          const id = this.ref(name);
          if (id !== null) out.set(name, id);
        }
      }
    };
    walk(prefix.replace(/\/$/, ""), 0);
    return out;
  }

  #packedRefs(): Map<string, string> {
    if (this.#packed !== null) return this.#packed;
    const map = new Map<string, string>();
    const text = readGitText(
      join(this.#loc.commonDir, "packed-refs"),
      this.#loc.commonDir,
      METADATA_CAPS.packedRefs,
    ) ?? "";
    for (const line of text.split("\n")) {
      if (line.startsWith("#") || line.startsWith("^")) continue;
      const sp = line.indexOf(" ");
      if (sp === -1) continue;
      map.set(line.slice(sp + 1).trim(), line.slice(0, sp));
    }
    this.#packed = map;
    return map;
  }

  /**
   * The commit a revision names. Fails with `git_ref_not_found` (saying which forms are read)
   * or `git_ref_ambiguous` (an abbreviated id with several matches).
   */
  resolveCommit(rev: string): string {
    const text = rev.trim();
    const m = /^(.*?)((?:[~^]\d*)*)$/.exec(text)!;
    let id = this.#base(m[1]!, text);
    for (const step of m[2]!.match(/[~^]\d*/g) ?? []) {
      const n = step.length > 1 ? Number(step.slice(1)) : 1;
      if (step[0] === "~") {
        for (let i = 0; i < n; i++) id = this.#parent(id, 1, text);
      } else if (n > 0) {
        id = this.#parent(id, n, text);
      }
    }
    return id;
  }

  #parent(id: string, n: number, rev: string): string {
    const c = parseCommit(id, this.#objects.readTyped(id, "commit"));
    const p = c.parents[n - 1];
    if (p === undefined) {
      throw new ToolError(
        "git_ref_not_found",
        `The revision ${rev} does not exist: commit ${
          id.slice(0, 12)
        } has ${c.parents.length} parent(s)`,
      );
    }
    return p;
  }

  #base(name: string, rev: string): string {
    const candidates = name === "" || name === "@" ? ["HEAD"] : [
      name,
      `refs/${name}`,
      `refs/tags/${name}`,
      `refs/heads/${name}`,
      `refs/remotes/${name}`,
      `refs/remotes/${name}/HEAD`,
    ];
    for (const c of candidates) {
      const id = this.ref(c);
      if (id !== null) return this.#peel(id, rev);
    }
    if (/^[0-9a-f]{4,64}$/i.test(name)) {
      const hex = name.toLowerCase();
      if ((hex.length === 40 || hex.length === 64) && this.#objects.has(hex)) {
        return this.#peel(hex, rev);
      }
      const found = this.#objects.withPrefix(hex, 2);
      if (found.length === 1) return this.#peel(found[0]!, rev);
      if (found.length > 1) {
        throw new ToolError(
          "git_ref_ambiguous",
          `The abbreviated id ${name} matches several objects: give more hex digits`,
        );
      }
    }
    throw new ToolError(
      "git_ref_not_found",
      `The revision ${rev} was not found in ${this.#loc.workTree}: give a commit id (4+ hex digits), HEAD, a branch, tag or remote branch name, optionally with ~N or ^N`,
    );
  }

  /** A tag peeled to the commit it names. */
  #peel(id: string, rev: string): string {
    for (let i = 0; i < 10; i++) {
      const o = this.#objects.read(id);
      if (o.type === "commit") return id;
      if (o.type !== "tag") {
        throw new ToolError(
          "git_ref_not_found",
          `The revision ${rev} names a ${o.type}, not a commit`,
        );
      }
      id = parseTag(o.data).object;
    }
    throw new ToolError("git_ref_invalid", `The tag ${rev} is a chain of more than 10 tags`);
  }
}
