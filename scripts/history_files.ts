/**
 * Changed files and line ranges of a commit range, ours against `git diff -M`: the file pairs
 * (status and paths, renames paired) of our tree diff against `git diff -M --name-status`, and
 * the `-U0` hunks of our line diff of each changed text file against git's `@@` lines. The
 * history benchmark runs it on the same 50 ranges as the changed symbols.
 */
import type { GitRepository } from "../src/ingest/git/repository.ts";
import { diffLines, splitLines } from "../src/parser/git/line_diff.ts";
import { entryKind } from "../src/parser/git/objects.ts";
import { gitDiffHunks, gitText } from "./history_truth.ts";

const _decoder = new TextDecoder();

/** Agreement on one range. */
export interface FileAgreement {
  /** File pairs each side found, and those both found. */
  ours: number;
  git: number;
  sameFiles: boolean;
  /** Text files whose hunks were compared, and those identical. */
  compared: number;
  sameHunks: number;
  /** A few disagreements, for reading. */
  examples: string[];
}

/** `status old new` of each file of `git diff -M --name-status a b`. */
function _gitFiles(dir: string, a: string, b: string): Set<string> {
  const fields = gitText(dir, ["diff", "-M", "--name-status", "-z", a, b]).split("\0");
  const out = new Set<string>();
  for (let i = 0; i + 1 < fields.length;) {
    const status = fields[i++]!;
    if (status === "") break;
    const first = fields[i++]!;
    const letter = status[0]!;
    if (letter === "R" || letter === "C") out.add(`R ${first} ${fields[i++]!}`);
    else if (letter === "A") out.add(`A - ${first}`);
    else if (letter === "D") out.add(`D ${first} -`);
    else out.add(`M ${first} ${first}`);
  }
  return out;
}

function _text(repo: GitRepository, id: string): string | null {
  if (id === "") return "";
  let bytes: Uint8Array;
  try {
    bytes = repo.read(id, "blob");
  } catch {
    return null; // over the size setting: no line diff
  }
  return bytes.includes(0) ? null : _decoder.decode(bytes);
}

/** Our file pairs and hunks of `a..b` against git's. */
export function fileAgreement(repo: GitRepository, dir: string, a: string, b: string) {
  const changes = repo.diffTrees(
    repo.folderTree(repo.resolveCommit(a)),
    repo.folderTree(repo.resolveCommit(b)),
  );
  const ours = new Set<string>();
  for (const f of changes) {
    const letter = f.status === "renamed" ? "R" : f.oldId === "" ? "A" : f.newId === "" ? "D" : "M";
    ours.add(`${letter} ${f.oldId === "" ? "-" : f.oldPath} ${f.newId === "" ? "-" : f.path}`);
  }
  const truth = _gitFiles(dir, a, b);
  const examples = [
    ...[...ours].filter((k) => !truth.has(k)).map((k) => `ours ${k}`),
    ...[...truth].filter((k) => !ours.has(k)).map((k) => `git ${k}`),
  ];
  const gitHunks = new Map<string, string>();
  for (const f of gitDiffHunks(dir, a, b)) {
    gitHunks.set(f.newPath ?? f.oldPath ?? "", JSON.stringify(f.hunks));
  }
  let compared = 0;
  let sameHunks = 0;
  for (const f of changes) {
    if (f.oldMode.startsWith("160") || f.newMode.startsWith("160")) continue;
    if ((f.newId !== "" && entryKind(f.newMode) !== "file") || f.oldId === f.newId) continue;
    const before = _text(repo, f.oldId);
    const after = _text(repo, f.newId);
    if (before === null || after === null) continue;
    const hunks = diffLines(splitLines(before), splitLines(after)).map((
      h,
    ) => [h.oldStart, h.oldCount, h.newStart, h.newCount]);
    compared++;
    const theirs = gitHunks.get(f.newId === "" ? f.oldPath : f.path) ?? "[]";
    if (JSON.stringify(hunks) === theirs) sameHunks++;
    else if (examples.length < 5) examples.push(`hunks of ${f.path}`);
  }
  return {
    ours: ours.size,
    git: truth.size,
    sameFiles: examples.filter((e) => !e.startsWith("hunks")).length === 0,
    compared,
    sameHunks,
    examples,
  } satisfies FileAgreement;
}
