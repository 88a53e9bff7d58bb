/**
 * A symbol's history: the commits that changed its lines, newest first, following the file
 * through renames as `git log -L` does, each with its author, date, subject and a change
 * category read from the subject; the last one introduced the symbol. The symbol's lines are
 * the indexed ones; when the working tree differs from `HEAD`, they are first carried over to
 * `HEAD`'s numbering (an uncommitted symbol has no history yet).
 */
import type { CommitRecord } from "../parser/git/objects.ts";
import { isoDate, subjectOf } from "../parser/git/objects.ts";
import type { GitHistory, LineLogResult } from "../parser/git/history.ts";
import { diffLines, splitLines } from "../parser/git/line_diff.ts";
import type { SymbolRecord } from "../parser/types.ts";
import type { RepoView } from "./view.ts";

/** Change categories by the first match on a commit subject (case-insensitive). */
const _CATEGORIES: [string, RegExp][] = [
  ["revert", /^revert\b/i],
  ["rename", /\brenam(e|es|ed|ing)\b|\bmov(e|es|ed|ing)\b/i],
  ["bugfix", /\bfix(es|ed|ing)?\b|\bbugs?\b|\bpatch\b|\bhotfix\b|\bresolves?\b|\bregression\b/i],
  ["perf", /\bperf(ormance)?\b|\boptimi[sz]\w*|\bfaster\b|\bspeed\w*/i],
  ["refactor", /\brefactor\w*|\bclean ?up\b|\bsimplif\w*|\bextract\w*|\breorgani[sz]\w*/i],
  ["test", /\btests?\b|\bspecs?\b|\bcoverage\b/i],
  ["docs", /\bdocs?\b|\breadme\b|\bchangelog\b|\bcomments?\b|\bdocument\w*/i],
  ["config", /\bconfig\w*|\bci\b|\bdeps?\b|\bbump\w*|\bupgrade\w*|\brelease\b|\bversion\b/i],
  [
    "feature",
    /\badd(s|ed|ing)?\b|\bfeat(ure)?s?\b|\bimplement\w*|\bintroduc\w*|\bnew\b|\bsupport\w*/i,
  ],
];

/** The category of a commit subject (`evolution` when nothing matches). */
export function commitCategory(subject: string): string {
  for (const [name, re] of _CATEGORIES) if (re.test(subject)) return name;
  return "evolution";
}

/** A commit as the tools show it. */
export interface CommitRow {
  sha: string;
  author: string;
  email: string;
  date: string;
  subject: string;
  category: string;
}

/** A commit's row. */
export function commitRow(c: CommitRecord, category?: string): CommitRow {
  const subject = subjectOf(c.message);
  return {
    sha: c.id,
    author: c.author.name,
    email: c.author.email,
    date: isoDate(c.author),
    subject,
    category: category ?? commitCategory(subject),
  };
}

/** Where a symbol's lines are at `HEAD`: the range, or null when the symbol is not committed. */
export function committedRange(
  view: RepoView,
  history: GitHistory,
  head: string,
  symbol: SymbolRecord,
): [number, number] | null {
  const committed = history.fileAt(head, symbol.file);
  if (committed === null) return null;
  const indexed = view.index.fileText(symbol.file);
  const headText = new TextDecoder().decode(committed);
  if (indexed === undefined || indexed === headText) return [symbol.line, symbol.end_line];
  // Carry the indexed lines back to HEAD's numbering, as a line log carries them to a parent.
  const hunks = diffLines(splitLines(headText), splitLines(indexed));
  let offset = 0;
  let start = -1;
  let end = -1;
  for (const h of hunks) {
    const ns = h.newCount === 0 ? h.newStart + 1 : h.newStart;
    if (start === -1 && symbol.line < ns) start = symbol.line + offset;
    if (end === -1 && symbol.end_line < ns) end = symbol.end_line + offset;
    if (start === -1 && symbol.line < ns + h.newCount) {
      start = h.oldCount === 0 ? h.oldStart + 1 : h.oldStart;
    }
    if (end === -1 && symbol.end_line < ns + h.newCount) {
      end = h.oldStart + Math.max(0, h.oldCount - 1);
    }
    offset = h.oldStart + h.oldCount - (h.newStart + h.newCount);
  }
  if (start === -1) start = symbol.line + offset;
  if (end === -1) end = symbol.end_line + offset;
  return end >= start ? [start, end] : null;
}

/** The line log of a symbol from `head`, or null when it is not committed yet. */
export function symbolLineLog(
  view: RepoView,
  history: GitHistory,
  head: string,
  symbol: SymbolRecord,
  max: number,
): { range: [number, number]; log: LineLogResult } | null {
  const range = committedRange(view, history, head, symbol);
  if (range === null) return null;
  return { range, log: history.lineLog(head, symbol.file, range[0], range[1], max) };
}
