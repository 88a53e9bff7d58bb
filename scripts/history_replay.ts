/**
 * A long real history for the history benchmark: a repository's first-parent commits replayed
 * one changed file at a time (each commit of the source becomes one commit per file it changed,
 * with its author, date and subject), in a new repository that borrows the source's objects
 * (`objects/info/alternates`) and is written by `git fast-import`. Every state of every file is
 * a real one; the history is several times longer than the source's (this repository's ~550
 * commits make ~5,000).
 */
import { join } from "node:path";
import { gitBytes, gitText } from "./history_truth.ts";

/** The replayed repository and what it holds. */
export interface ReplayedHistory {
  dir: string;
  commits: number;
  /** The path with the most commits, and their number. */
  busiest: { path: string; commits: number };
}

/** One source commit's file changes: `[mode, blob, path]`, a `null` blob for a deletion. */
type _Change = [string, string | null, string];

function _changes(src: string, parent: string | null, commit: string): _Change[] {
  const args = parent === null
    ? ["diff-tree", "-r", "--no-renames", "--root", "-z", commit]
    : ["diff-tree", "-r", "--no-renames", "-z", parent, commit];
  const fields = new TextDecoder().decode(gitBytes(src, args)).split("\0");
  const out: _Change[] = [];
  // -z: ":<old mode> <new mode> <old blob> <new blob> <status>\0<path>\0" per file.
  for (let i = 0; i + 1 < fields.length; i++) {
    const head = fields[i]!;
    if (!head.startsWith(":")) continue;
    const [, newMode, , newBlob, status] = head.slice(1).split(" ");
    const path = fields[++i]!;
    if (newMode === "160000") continue;
    out.push(status === "D" ? [newMode!, null, path] : [newMode!, newBlob!, path]);
  }
  return out;
}

/** Replay `src`'s first-parent history into a new repository at `dest` (made empty first). */
export async function replayHistory(
  src: string,
  dest: string,
  maxCommits = 100_000,
): Promise<ReplayedHistory> {
  Deno.mkdirSync(dest, { recursive: true });
  gitText(dest, ["init", "-q", "-b", "main"]);
  const srcObjects = gitText(src, ["rev-parse", "--path-format=absolute", "--git-common-dir"])
    .trim();
  Deno.writeTextFileSync(
    join(dest, ".git", "objects", "info", "alternates"),
    `${join(srcObjects, "objects")}\n`,
  );
  const log = gitText(src, [
    "log",
    "--first-parent",
    "--reverse",
    "--format=%H%x00%P%x00%an%x00%ae%x00%at%x00%s",
  ])
    .split("\n").filter((l) => l !== "");
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  const emit = (text: string) => chunks.push(encoder.encode(text));
  const perPath = new Map<string, number>();
  let commits = 0;
  let mark = 0;
  for (const line of log) {
    const [id, parents, name, email, time, subject] = line.split("\0");
    const parent = parents === "" ? null : parents!.split(" ")[0]!;
    for (const [mode, blob, path] of _changes(src, parent, id!)) {
      if (commits >= maxCommits) break;
      const message = `${subject} (${path})\n`;
      const bytes = encoder.encode(message);
      emit(`commit refs/heads/main\nmark :${++mark}\n`);
      emit(`author ${name} <${email}> ${time} +0000\ncommitter ${name} <${email}> ${time} +0000\n`);
      emit(`data ${bytes.length}\n`);
      chunks.push(bytes);
      if (mark > 1) emit(`from :${mark - 1}\n`);
      emit(blob === null ? `D ${path}\n` : `M ${mode} ${blob} ${path}\n`);
      emit("\n");
      perPath.set(path, (perPath.get(path) ?? 0) + 1);
      commits++;
    }
  }
  const input = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    input.set(c, at);
    at += c.length;
  }
  const child = new Deno.Command("git", {
    args: ["fast-import", "--quiet"],
    cwd: dest,
    env: { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(input);
  await writer.close();
  const status = await child.output();
  if (!status.success) {
    throw new Error(`git fast-import: ${new TextDecoder().decode(status.stderr).trim()}`);
  }
  gitText(dest, ["reset", "-q", "--hard", "main"]);
  const busiest = [...perPath].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
  return { dir: dest, commits, busiest: { path: busiest[0], commits: busiest[1] } };
}
