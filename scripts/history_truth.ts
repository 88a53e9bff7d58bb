/**
 * What the `git` CLI says about a history, as the truth the history benchmark and tests compare
 * our in-process reader with: the symbols whose lines `git diff` touches between two commits, and
 * the commits `git log -L` lists for a range of lines. Git runs with the user's and the system's
 * configuration off (no pager, no external diff, no textconv), on repositories we made or trust.
 */
import { parseSource } from "../src/parser/parse.ts";
import type { SymbolRecord } from "../src/parser/types.ts";

const _decoder = new TextDecoder();

/** Run git in `dir`; its stdout (bytes). Throws with its stderr when it fails. */
export function gitBytes(dir: string, args: readonly string[]): Uint8Array {
  const out = new Deno.Command("git", {
    args: ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", ...args],
    cwd: dir,
    env: { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_PAGER: "cat" },
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${_decoder.decode(out.stderr).trim()}`);
  }
  return out.stdout;
}

/** Run git in `dir`; its stdout as text. */
export function gitText(dir: string, args: readonly string[]): string {
  return _decoder.decode(gitBytes(dir, args));
}

/** One file of `git diff -M -U0`: its paths and its hunks. */
export interface GitFileDiff {
  oldPath: string | null;
  newPath: string | null;
  /** `[oldStart, oldCount, newStart, newCount]` as in the `@@` lines. */
  hunks: [number, number, number, number][];
}

/** The files and hunks of `git diff -M -U0 a b` (binary files have no hunks). */
export function gitDiffHunks(dir: string, a: string, b: string, prefix = ""): GitFileDiff[] {
  const text = gitText(dir, [
    "diff",
    "-M",
    "-U0",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    a,
    b,
    "--",
    prefix === "" ? "." : prefix,
  ]);
  const files: GitFileDiff[] = [];
  let current: GitFileDiff | null = null;
  for (const line of text.split("\n")) {
    if (line.startsWith("diff --git ")) {
      current = { oldPath: null, newPath: null, hunks: [] };
      files.push(current);
    } else if (current !== null && line.startsWith("--- ")) {
      current.oldPath = line === "--- /dev/null" ? null : line.slice(6);
    } else if (current !== null && line.startsWith("+++ ")) {
      current.newPath = line === "+++ /dev/null" ? null : line.slice(6);
    } else if (current !== null && line.startsWith("@@ ")) {
      const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (m !== null) {
        current.hunks.push([
          Number(m[1]),
          m[2] === undefined ? 1 : Number(m[2]),
          Number(m[3]),
          m[4] === undefined ? 1 : Number(m[4]),
        ]);
      }
    }
  }
  return files;
}

/** Whether a side of a hunk touches lines `[start, end]` (a pure insertion/deletion: strictly inside). */
function _touches(start: number, count: number, line: number, end: number): boolean {
  if (count === 0) return start >= line && start < end;
  return start <= end && start + count - 1 >= line;
}

async function _symbolsAt(dir: string, rev: string, path: string): Promise<SymbolRecord[]> {
  const bytes = gitBytes(dir, ["cat-file", "blob", `${rev}:${path}`]);
  return (await parseSource(path, bytes)).symbols;
}

/**
 * The symbols whose lines `git diff -M -U0 a b` touches, parsed with our extractor on each side:
 * `new:<id>` for a symbol of the new version a hunk touches, `old:<id>` for one of the old
 * version. Paths are relative to `prefix` (the indexed folder inside the repository, `""` or
 * ending in `/`).
 */
export async function gitTouchedSymbols(
  dir: string,
  a: string,
  b: string,
  prefix = "",
): Promise<Set<string>> {
  const out = new Set<string>();
  for (const f of gitDiffHunks(dir, a, b, prefix)) {
    if (f.hunks.length === 0) continue;
    const sides: [string, string | null, number][] = [["old", f.oldPath, 0], ["new", f.newPath, 2]];
    for (const [side, path, at] of sides) {
      if (path === null || !path.startsWith(prefix)) continue;
      const rel = path.slice(prefix.length);
      for (const s of await _symbolsAt(dir, side === "old" ? a : b, path)) {
        const hit = f.hunks.some((h) => _touches(h[at]!, h[at + 1]!, s.line, s.end_line));
        if (hit) out.add(`${side}:${s.id.replace(path, rel)}`);
      }
    }
  }
  return out;
}

/** The commits `git log -L start,end:path` lists from `head`, in its order. */
export function gitLineLog(
  dir: string,
  head: string,
  path: string,
  start: number,
  end: number,
): string[] {
  const text = gitText(dir, [
    "log",
    `-L${start},${end}:${path}`,
    "--format=%H",
    "--no-patch",
    head,
  ]);
  return text.split("\n").filter((l) => /^[0-9a-f]{40}$/.test(l));
}
