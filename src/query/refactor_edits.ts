/**
 * Edits of a refactoring plan as an agent applies them: a range of one file (1-based lines,
 * 1-based columns in code points, end exclusive; every position refers to the file before any
 * edit of the plan) with the text there now and the text to put in its place. An insertion has an
 * empty range; `create` makes a file that does not exist yet with `new` as its whole text.
 * Apply a file's edits from the last to the first (or by offsets computed before editing).
 */
import type { RenameSite } from "./rename_sites.ts";

/** What an edit does. */
export type EditKind = "replace" | "insert" | "delete" | "create";

/** One edit. */
export interface PlanEdit {
  file: string;
  line: number;
  col: number;
  endLine: number;
  endCol: number;
  kind: EditKind;
  /** The text the range holds now (checked before applying). */
  old: string;
  /** The text to put there. */
  new: string;
  /** Why: the rename site's role, or the move's step. */
  reason: string;
  /** certain, likely or check (a string holding the name: confirm by hand). */
  certainty: "certain" | "likely" | "check";
}

/** Whether a site is changed by a rename plan. */
export function editedSite(s: RenameSite): s is RenameSite & { certainty: PlanEdit["certainty"] } {
  return s.certainty === "certain" || s.certainty === "likely" || s.certainty === "check";
}

/** The edits renaming every site the plan changes. */
export function renameEdits(sites: readonly RenameSite[], oldName: string, newName: string) {
  return sites.filter(editedSite).map((s): PlanEdit => ({
    file: s.file,
    line: s.line,
    col: s.col,
    endLine: s.line,
    endCol: s.endCol,
    kind: "replace",
    old: oldName,
    new: newName,
    reason: s.role,
    certainty: s.certainty,
  }));
}

/** Edits read back from a plan's `edits` rows (as an agent or a test reads the answer). */
export function editsFromRows(rows: readonly Record<string, unknown>[]): PlanEdit[] {
  return rows.map((e) => ({
    file: String(e.file),
    line: Number(e.line),
    col: Number(e.col),
    endLine: Number(e.end_line),
    endCol: Number(e.end_col),
    kind: e.kind as EditKind,
    old: String(e.old),
    new: String(e.new),
    reason: String(e.reason),
    certainty: e.certainty as PlanEdit["certainty"],
  }));
}

/**
 * Apply edits to texts by path (for tests and the benchmark: what an agent does). Every edit's
 * `old` must be what its range holds; returns the new texts of the files edited.
 */
export function applyEdits(
  edits: readonly PlanEdit[],
  read: (path: string) => string | undefined,
): Map<string, string> {
  const byFile = new Map<string, PlanEdit[]>();
  for (const e of edits) {
    const list = byFile.get(e.file);
    if (list === undefined) byFile.set(e.file, [e]);
    else list.push(e);
  }
  const out = new Map<string, string>();
  for (const [file, list] of byFile) {
    const created = list.find((e) => e.kind === "create");
    if (created !== undefined) {
      out.set(file, created.new);
      continue;
    }
    const text = read(file);
    if (text === undefined) throw new Error(`Cannot apply edits to ${file}: no such file`);
    const starts = [0];
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    const offset = (line: number, col: number): number => {
      if (line > starts.length) return text.length;
      const lineStart = starts[line - 1]!;
      const points = [...text.slice(lineStart, starts[line] ?? text.length)];
      return lineStart + points.slice(0, col - 1).join("").length;
    };
    const ranges = list.map((e) => ({
      e,
      from: offset(e.line, e.col),
      to: offset(e.endLine, e.endCol),
    }))
      .sort((a, b) => b.from - a.from || b.to - a.to);
    let result = text;
    let floor = Infinity;
    for (const { e, from, to } of ranges) {
      if (to > floor) throw new Error(`Overlapping edits in ${file} at line ${e.line}`);
      const held = result.slice(from, to);
      if (held !== e.old) {
        throw new Error(
          `Edit at ${file}:${e.line}:${e.col} expected ${JSON.stringify(e.old)}, found ${
            JSON.stringify(held)
          }`,
        );
      }
      result = result.slice(0, from) + e.new + result.slice(to);
      floor = from;
    }
    out.set(file, result);
  }
  return out;
}
