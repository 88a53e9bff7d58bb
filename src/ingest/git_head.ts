/** The `HEAD` commit of a git checkout, read from `.git` directly (no `git` subprocess). */
import { join } from "node:path";

/** The commit id `HEAD` points to, or `""` when `root` is not a git checkout we can read. */
export function readGitHead(root: string): string {
  try {
    let gitDir = join(root, ".git");
    const info = Deno.statSync(gitDir);
    if (info.isFile) {
      // A worktree or submodule: ".git" is a file "gitdir: <path>".
      const m = /^gitdir:\s*(.+)\s*$/m.exec(Deno.readTextFileSync(gitDir));
      if (m === null) return "";
      gitDir = join(root, m[1]!.trim());
    }
    const head = Deno.readTextFileSync(join(gitDir, "HEAD")).trim();
    if (/^[0-9a-f]{40,64}$/.test(head)) return head;
    const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
    if (ref === undefined || ref.includes("..")) return "";
    try {
      return Deno.readTextFileSync(join(gitDir, ref)).trim();
    } catch {
      const packed = Deno.readTextFileSync(join(gitDir, "packed-refs"));
      for (const line of packed.split("\n")) {
        const [sha, name] = line.split(" ");
        if (name === ref && sha !== undefined) return sha;
      }
      return "";
    }
  } catch {
    return "";
  }
}
