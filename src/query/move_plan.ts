/**
 * The edit plan of moving a top-level definition to another file: its lines (with the comments
 * and decorators above it) cut from its file and written at the end of the new one, with the
 * imports its body needs; every import of it pointed at the new file (an import of it alone gets
 * the new specifier, an import of several names loses it and a new import line follows); its old
 * file importing it back when it still uses it. A language is planned when its semantics have an
 * import writer (`LanguageSemantics.importWriter`: how its import lines are written); a language
 * whose unit is a package folder moves within it. Uses through the old module's name (`mod.name`)
 * are listed to change by hand.
 */
import { ToolError } from "../errors.ts";
import type { ImportWriter } from "../parser/language_spec.ts";
import type { SymbolRecord } from "../parser/types.ts";
import type { StoredImport } from "../store/repo_index.ts";
import { semanticsOf } from "../parser/semantics/mod.ts";
import { dirOf, IMPORT_GRAPH } from "./import_graph.ts";
import { boundModule, importLine, importSpecifier, importWriterOf } from "./import_text.ts";
import { definitionSpan } from "./mentions.ts";
import type { PlanEdit } from "./refactor_edits.ts";
import type { RenameSites } from "./rename_sites.ts";
import { SYMBOLS } from "./symbols.ts";
import { unitKey } from "./units.ts";
import type { RepoView } from "./view.ts";

/** A planned move. */
export interface MovePlan {
  edits: PlanEdit[];
  /** Sites to change by hand, with why. */
  manual: { file: string; line: number; text: string; reason: string }[];
  /** Whether the new file exists already. */
  newFileExists: boolean;
}

/** Plan moving `symbol` (its rename sites found) to `newFile`. */
export function planMove(
  view: RepoView,
  symbol: SymbolRecord,
  found: RenameSites,
  newFile: string,
): MovePlan {
  const writer = _writerFor(symbol, newFile);
  if (symbol.parent !== null) {
    throw new ToolError(
      "invalid_argument",
      `Only top-level definitions can be moved; ${symbol.qualified_name} is a member of ${symbol.parent}: move its owner`,
    );
  }
  if (newFile === symbol.file) {
    throw new ToolError("invalid_argument", "new_file is the symbol's own file");
  }
  const text = view.index.fileText(symbol.file) ?? "";
  const lines = text.split("\n");
  const [first, last] = definitionSpan(lines, symbol);
  const body = lines.slice(first - 1, last).join("\n");
  const target = view.index.fileText(newFile);
  // A unit of several files (a Go package folder) sees its own names: no import changes.
  const oneUnit = unitKey(newFile, symbol.language) === unitKey(symbol.file, symbol.language);
  if (semanticsOf(symbol.language).unit === "package_folder" && !oneUnit) {
    throw new ToolError(
      "invalid_argument",
      `A ${symbol.language} definition moves within its package folder only (another folder is another package): pick a new_file in ` +
        (dirOf(symbol.file) || "the root folder"),
    );
  }
  const edits: PlanEdit[] = [];
  const manual: MovePlan["manual"] = [];
  // 1. Cut it (and one blank line after it) from its file.
  const cutTo = lines[last] === "" && last < lines.length - 1 ? last + 1 : last;
  edits.push({
    file: symbol.file,
    line: first,
    col: 1,
    endLine: cutTo + 1,
    endCol: 1,
    kind: "delete",
    old: lines.slice(first - 1, cutTo).join("\n") + "\n",
    new: "",
    reason: "move: cut the definition",
    certainty: "certain",
  });
  // 2. Write it into the new file with the imports it needs.
  const needed = _neededImports(view, symbol, body, newFile, writer, oneUnit);
  edits.push(_append(newFile, target, needed, body, writer, writer.header?.(text) ?? ""));
  // 3. Point every import of it at the new file.
  const graph = view.get(IMPORT_GRAPH);
  for (const s of found.sites) {
    if ((s.role !== "import" && s.role !== "re_export") || s.certainty !== "certain") continue;
    const imp = (graph.importsOf.get(s.file) ?? []).find((i) => i.line === s.line);
    const retarget = imp === undefined
      ? null
      : _retarget(view, imp, s.lineText, symbol.name, newFile, writer);
    if (retarget !== null) edits.push(...retarget);
    else {manual.push({
        file: s.file,
        line: s.line,
        text: s.text,
        reason: "an import written over several lines: import it from the new file",
      });}
  }
  // 4. Its old file imports it back when it still uses it; 5. qualified uses by hand.
  const stillUsed = found.sites.some((s) =>
    s.file === symbol.file && s.role === "reference" && s.certainty === "certain" &&
    (s.line < first || s.line > last)
  );
  if (stillUsed && !oneUnit) {
    edits.push(
      _insertImport(
        view,
        symbol.file,
        importLine(view, symbol.file, newFile, [symbol.name], writer, _styleOf(view, symbol.file)),
      ),
    );
  }
  for (const s of found.sites) {
    if (s.role !== "reference" || s.certainty === "mention" || s.file === symbol.file) continue;
    if (!/(?:\.|->|::)\s*$/.test(s.lineText.slice(0, s.start)) || oneUnit) continue;
    manual.push({
      file: s.file,
      line: s.line,
      text: s.text,
      reason: "a use through the old module's name: import the new module or the name",
    });
  }
  manual.push(..._unusedImports(view, symbol.file, lines, first, last));
  return { edits, manual, newFileExists: target !== undefined };
}

/** Imports of the old file that only the moved lines used: left in place, maybe unused now. */
function _unusedImports(
  view: RepoView,
  file: string,
  lines: string[],
  first: number,
  last: number,
): MovePlan["manual"] {
  const moved = new Set(
    lines.slice(first - 1, last).join("\n").match(/[\p{L}_$][\p{L}\p{N}_$]*/gu) ?? [],
  );
  const out: MovePlan["manual"] = [];
  for (const imp of view.get(IMPORT_GRAPH).importsOf.get(file) ?? []) {
    const line = lines[imp.line - 1] ?? "";
    const bound = imp.names.length > 0
      ? imp.names
      : [boundModule(line) ?? imp.specifier.split(/[./]/).pop()!];
    const uses = (w: Set<string>) => bound.some((n) => w.has(n));
    // The import line itself writes its names: count uses beyond it.
    const elsewhere = lines.some((l, i) =>
      i + 1 !== imp.line && (i + 1 < first || i + 1 > last) && bound.some((n) => l.includes(n))
    );
    if (uses(moved) && !elsewhere) {
      out.push({
        file,
        line: imp.line,
        text: line.trim().slice(0, 160),
        reason: "only the moved lines used this import: remove it if nothing else does",
      });
    }
  }
  return out;
}

/** The import writer of the symbol's language, when `newFile` is a file it writes. */
function _writerFor(symbol: SymbolRecord, newFile: string): ImportWriter {
  const writer = importWriterOf(symbol.language);
  if (!writer.files.test(newFile)) {
    throw new ToolError("invalid_argument", `new_file ${newFile} is not a ${symbol.language} file`);
  }
  return writer;
}

/** Import lines the moved body needs: its names imported in the old file, or defined there. */
function _neededImports(
  view: RepoView,
  symbol: SymbolRecord,
  body: string,
  newFile: string,
  writer: ImportWriter,
  oneUnit: boolean,
): string[] {
  const words = new Set(body.match(/[\p{L}_$][\p{L}\p{N}_$]*/gu) ?? []);
  const out: string[] = [];
  const lines = (view.index.fileText(symbol.file) ?? "").split("\n");
  for (const imp of view.get(IMPORT_GRAPH).importsOf.get(symbol.file) ?? []) {
    const line = lines[imp.line - 1] ?? "";
    if (writer.packageImport !== undefined) {
      const { name, text } = writer.packageImport(line, imp.specifier);
      if (body.includes(`${name}.`)) out.push(text);
      continue;
    }
    const names = imp.names.filter((n) => words.has(n) && n !== "*");
    const module = imp.names.length === 0 ? boundModule(line) : null;
    if (names.length === 0 && (module === null || !words.has(module))) continue;
    if (imp.resolved === null || !imp.specifier.startsWith(".")) {
      out.push(names.length > 0 ? writer.statement(imp.specifier, names) : line.trim());
    } else {
      out.push(importLine(view, newFile, imp.resolved, names, writer, imp.specifier));
    }
  }
  // Names of the old file's top level the body uses come from the old file (in scope in its unit).
  if (oneUnit) return out;
  const own = view.get(SYMBOLS).ofFile(symbol.file).filter((s) =>
    s.parent === null && s.id !== symbol.id && s.kind !== "import" && words.has(s.name)
  ).map((s) => s.name);
  if (own.length > 0) {
    out.push(
      importLine(
        view,
        newFile,
        symbol.file,
        [...new Set(own)],
        writer,
        _styleOf(view, symbol.file),
      ),
    );
  }
  return out;
}

/** The edit writing the body (and its imports) at the end of the new file, or creating it. */
function _append(
  file: string,
  existing: string | undefined,
  imports: string[],
  body: string,
  writer: ImportWriter,
  header: string,
): PlanEdit {
  const unique = [...new Set(imports)];
  const gap = "\n".repeat(writer.blankLines);
  if (existing === undefined) {
    const head = header + (unique.length > 0 ? unique.join("\n") + "\n" + gap : "");
    return {
      file,
      line: 1,
      col: 1,
      endLine: 1,
      endCol: 1,
      kind: "create",
      old: "",
      new: head + body + "\n",
      reason: "move: create the new file with the definition",
      certainty: "certain",
    };
  }
  const lines = existing.split("\n");
  const missing = unique.filter((i) => !existing.includes(i));
  const end = existing.endsWith("\n") ? lines.length : lines.length + 1;
  return {
    file,
    line: end,
    col: 1,
    endLine: end,
    endCol: 1,
    kind: "insert",
    old: "",
    new: (existing.endsWith("\n") ? "" : "\n") + gap +
      (missing.length > 0 ? missing.join("\n") + "\n" + gap : "") + body + "\n",
    reason: "move: append the definition (imports before it: move them to the top)",
    certainty: "certain",
  };
}

/** Edits pointing one import of the moved name at the new file. */
function _retarget(
  view: RepoView,
  imp: StoredImport,
  line: string,
  name: string,
  newFile: string,
  writer: ImportWriter,
): PlanEdit[] | null {
  const specifier = importSpecifier(view, imp.file, newFile, writer, imp.specifier);
  const quoted = imp.specifier;
  const at = line.indexOf(quoted);
  const others = imp.names.filter((n) => n !== name);
  if (others.length === 0 && at !== -1) {
    const col = [...line.slice(0, at)].length + 1;
    return [{
      file: imp.file,
      line: imp.line,
      col,
      endLine: imp.line,
      endCol: col + [...quoted].length,
      kind: "replace",
      old: quoted,
      new: specifier,
      reason: "move: import it from the new file",
      certainty: "certain",
    }];
  }
  // Several names: drop this one (and its comma) and import it from the new file below.
  const m = new RegExp(
    `(,\\s*)?\\b${name}\\b(\\s+as\\s+[\\p{L}_$][\\p{L}\\p{N}_$]*)?(\\s*,\\s*)?`,
    "u",
  )
    .exec(line);
  if (m === null) return null;
  const drop = m[1] !== undefined && m[3] !== undefined
    ? m[0].slice(0, m[0].length - m[3].length)
    : m[0];
  const col = [...line.slice(0, m.index)].length + 1;
  const text = writer.statement(specifier, [name], line);
  return [
    {
      file: imp.file,
      line: imp.line,
      col,
      endLine: imp.line,
      endCol: col + [...drop].length,
      kind: "delete",
      old: drop,
      new: "",
      reason: "move: this import no longer brings it",
      certainty: "certain",
    },
    _insertAfter(imp.file, imp.line, line, text),
  ];
}

function _insertAfter(file: string, line: number, lineText: string, text: string): PlanEdit {
  const col = [...lineText].length + 1;
  return {
    file,
    line,
    col,
    endLine: line,
    endCol: col,
    kind: "insert",
    old: "",
    new: "\n" + text,
    reason: "move: import it from the new file",
    certainty: "certain",
  };
}

/** An import line added after a file's last import (or at its top). */
function _insertImport(view: RepoView, file: string, text: string): PlanEdit {
  const imports = view.get(IMPORT_GRAPH).importsOf.get(file) ?? [];
  const lines = (view.index.fileText(file) ?? "").split("\n");
  const last = imports.reduce((m, i) => Math.max(m, i.line), 0);
  if (last === 0) {
    return {
      file,
      line: 1,
      col: 1,
      endLine: 1,
      endCol: 1,
      kind: "insert",
      old: "",
      new: text + "\n",
      reason: "move: import it back",
      certainty: "certain",
    };
  }
  return {
    ..._insertAfter(file, last, lines[last - 1] ?? "", text),
    reason: "move: import it back",
  };
}

/**
 * A specifier of the file's own imports of the repo's files to write new ones like: an absolute
 * one when it has one (Python modules on a source root import each other so), else null.
 */
function _styleOf(view: RepoView, file: string): string | null {
  const imports = view.get(IMPORT_GRAPH).importsOf.get(file) ?? [];
  return imports.find((i) => i.resolved !== null && !i.specifier.startsWith("."))?.specifier ??
    null;
}
