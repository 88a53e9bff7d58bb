/**
 * The MUNCH decoder. It needs no schema: tables, column types and scalar types come from the
 * payload's `__tables`/`__stypes` (plus our additive `__absent` and `__xf`). The encoding id only
 * selects which tier-1 transforms to undo.
 *
 * @module
 */
import { scanRows } from "./csv.ts";
import { parseJson } from "./json_text.ts";
import { decodeName, unescapeText } from "./escape.ts";
import { resolveHandle } from "./legend.ts";
import { parseNumber } from "./numbers.ts";
import { parseScalars } from "./scalars.ts";
import type { EncoderSpec } from "./spec.ts";
import { undoTransforms } from "./transforms.ts";
import { type ColumnType, isJsonObject, type JsonObject, type JsonValue, setKey } from "./types.ts";

const HEADER = /^#MUNCH\/(\d+) tool=(\S+) enc=(\S+)(?: .*)?$/;
// Reserved scalar keys: the spec's two, plus our additive optional-column and transform lists.
const RESERVED = new Set(["__tables", "__stypes", "__absent", "__xf"]);
const COLUMN_TYPES = new Set(["int", "float", "bool", "str", "json"]);

interface TableDef {
  tag: string;
  path: string[];
  columns: string[];
  types: ColumnType[];
  optional: Set<string>;
  rows: JsonObject[];
  /** Per column: decoded values of bare `str` fields. */
  caches: Map<string, string>[];
  /** Per column: whether an empty bare field means the key is absent. */
  absentable: boolean[];
}

/** Parsed header of a MUNCH payload. */
interface MunchHeader {
  version: number;
  tool: string;
  enc: string;
}

/** Read the header line; throws `SyntaxError` when it is not a MUNCH v1 header. */
function _parseHeader(payload: string): MunchHeader {
  if (!payload.startsWith("#MUNCH/")) {
    throw new SyntaxError('Cannot decode payload: header must start with "#MUNCH/"');
  }
  const end = payload.indexOf("\n");
  const line = end === -1 ? payload : payload.slice(0, end);
  const m = HEADER.exec(line);
  if (!m) {
    throw new SyntaxError(
      `Cannot decode payload: malformed header "${line.slice(0, 80)}" at line 1, column 1`,
    );
  }
  const version = Number(m[1]);
  if (version !== 1) {
    throw new SyntaxError(`Cannot decode payload: unsupported MUNCH version "${m[1]}"`);
  }
  return { version, tool: m[2]!, enc: m[3]! };
}

/** Decode a MUNCH payload; `specFor` supplies the tier-1 spec of an encoding id, if known. */
export function decodeMunch(
  payload: string,
  specFor: (enc: string) => EncoderSpec | undefined,
): JsonObject {
  const header = _parseHeader(payload);
  const body = payload.endsWith("\n") ? payload.slice(0, -1) : payload;
  const firstBreak = body.indexOf("\n");
  if (firstBreak === -1) {
    throw new SyntaxError("Cannot decode payload: no scalars section at line 2, column 1");
  }
  // Sections follow the header after one blank line and are separated by one blank line.
  let rest = body.slice(firstBreak + 1);
  let line = 2;
  if (rest.startsWith("\n")) {
    rest = rest.slice(1);
    line = 3;
  }
  const legend: string[] = [];
  let scalarLine: { text: string; line: number } | undefined;
  const tableSections: { text: string; line: number }[] = [];
  for (const section of rest.split("\n\n")) {
    if (section.startsWith("@")) _parseLegend(section, line, legend);
    else if (/^[a-z],/.test(section)) tableSections.push({ text: section, line });
    else if (scalarLine === undefined) {
      if (section.includes("\n")) {
        throw new SyntaxError(
          `Cannot decode payload: scalars section must be one line at line ${line + 1}, column 1`,
        );
      }
      scalarLine = { text: section, line };
    } else {
      throw new SyntaxError(
        `Cannot decode payload: unexpected section "${
          section.slice(0, 40)
        }" at line ${line}, column 1`,
      );
    }
    line += _countLines(section) + 1;
  }
  if (scalarLine === undefined) {
    throw new SyntaxError("Cannot decode payload: no scalars section at line 2, column 1");
  }

  const pairs = parseScalars(scalarLine.text, scalarLine.line);
  const reserved = new Map<string, string | null>();
  const out: JsonObject = {};
  for (const p of pairs) {
    if (RESERVED.has(p.key)) reserved.set(p.key, p.value);
  }
  const stypes = new Map<string, string>();
  for (const entry of _list(reserved.get("__stypes"), "|")) {
    const i = entry.lastIndexOf(":");
    if (i === -1) throw _bad(`invalid __stypes entry "${entry}"`, scalarLine.line);
    stypes.set(entry.slice(0, i), entry.slice(i + 1));
  }
  for (const p of pairs) {
    if (RESERVED.has(p.key)) continue;
    if (p.key.startsWith("__json.")) {
      const path = _path(p.key.slice(7), scalarLine.line);
      let v: JsonValue;
      try {
        v = p.value === null ? null : parseJson(p.value);
      } catch {
        throw _bad(`invalid JSON in "${p.key}"`, scalarLine.line);
      }
      _put(out, path, v);
      continue;
    }
    const path = _path(p.key, scalarLine.line);
    _put(out, path, _scalarValue(p.value, stypes.get(p.key), legend));
  }

  const tables = _tableDefs(reserved, scalarLine.line);
  const byTag = new Map(tables.map((t) => [t.tag, t]));
  for (const s of tableSections) {
    scanRows(s.text, s.line, (texts, quoted, count, line) => {
      const t = byTag.get(texts[0]!);
      if (t === undefined || quoted[0]) throw _bad(`unknown table tag "${texts[0]}"`, line);
      if (count !== t.columns.length + 1) {
        throw _bad(
          `table "${t.tag}" row has ${count - 1} fields, expected ${t.columns.length}`,
          line,
        );
      }
      t.rows.push(_row(texts, quoted, t, legend, line));
    });
  }
  for (const t of tables) _put(out, t.path, t.rows);

  const spec = specFor(header.enc);
  const applied = _list(reserved.get("__xf"), ",").map(decodeName);
  if (applied.length && spec?.transforms) return undoTransforms(out, spec.transforms, applied);
  return out;
}

function _parseLegend(section: string, line: number, legend: string[]): void {
  section.split("\n").forEach((l, i) => {
    const m = /^@(\d+)=/.exec(l);
    if (!m) throw _bad(`invalid legend line "${l.slice(0, 40)}"`, line + i);
    legend[Number(m[1]) - 1] = l.slice(m[0].length);
  });
}

function _tableDefs(reserved: Map<string, string | null>, line: number): TableDef[] {
  const optional = new Map<string, Set<string>>();
  for (const entry of _list(reserved.get("__absent"), ",")) {
    const [tag, cols] = entry.split(":");
    optional.set(tag!, new Set((cols ?? "").split("|").map(decodeName)));
  }
  return _list(reserved.get("__tables"), ",").map((entry) => {
    const parts = entry.split(":");
    if (parts.length !== 4 || !/^[a-z]$/.test(parts[0]!)) {
      throw _bad(`invalid __tables entry "${entry}"`, line);
    }
    const columns = parts[2]!.split("|").map(decodeName);
    const types = parts[3]!.split("|");
    if (types.length !== columns.length || !types.every((t) => COLUMN_TYPES.has(t))) {
      throw _bad(`invalid column types in __tables entry "${entry}"`, line);
    }
    return {
      tag: parts[0]!,
      path: _path(parts[1]!, line),
      columns,
      types: types as ColumnType[],
      optional: optional.get(parts[0]!) ?? new Set(),
      rows: [],
      caches: columns.map(() => new Map<string, string>()),
      absentable: columns.map((c) => optional.get(parts[0]!)?.has(c) ?? false),
    };
  });
}

function _row(
  texts: string[],
  quoted: boolean[],
  t: TableDef,
  legend: string[],
  line: number,
): JsonObject {
  const row: JsonObject = {};
  const { columns, types, caches, absentable } = t;
  for (let j = 0; j < columns.length; j++) {
    const text = texts[j + 1]!;
    const name = columns[j]!;
    let v: JsonValue;
    if (quoted[j + 1]) v = _value(_unescape(text, line), types[j]!, name, legend, line);
    else if (text === "") {
      if (absentable[j]) continue;
      v = null;
    } else if (types[j] === "str") {
      // Bare text is literal; interned strings repeat, so their decoded values are cached.
      const cache = caches[j]!;
      let s = cache.get(text);
      if (s === undefined) cache.set(text, s = resolveHandle(text, legend));
      v = s;
    } else v = _value(text, types[j]!, name, legend, line);
    if (name === "__proto__") setKey(row, name, v);
    else row[name] = v;
  }
  return row;
}

function _unescape(text: string, line: number): string {
  try {
    return unescapeText(text);
  } catch (e) {
    throw _bad((e as Error).message, line);
  }
}

function _value(text: string, type: ColumnType, name: string, legend: string[], line: number) {
  switch (type) {
    case "str":
      return resolveHandle(text, legend);
    case "int":
    case "float":
      return parseNumber(text);
    case "bool":
      return text === "T";
    case "json":
      try {
        return parseJson(text) as JsonValue;
      } catch {
        throw _bad(`invalid JSON in column "${name}"`, line);
      }
  }
}

function _scalarValue(value: string | null, type: string | undefined, legend: string[]) {
  if (value === null) return null;
  if (type === "int" || type === "float") return parseNumber(value);
  if (type === "bool") return value === "T";
  return resolveHandle(value, legend);
}

function _put(out: JsonObject, path: string[], value: JsonValue): void {
  let o = out;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i]!;
    let next = Object.hasOwn(o, k) ? o[k] : undefined;
    if (!isJsonObject(next)) {
      next = {};
      setKey(o, k, next);
    }
    o = next;
  }
  setKey(o, path[path.length - 1]!, value);
}

function _path(key: string, line: number): string[] {
  try {
    return key.split(".").map(decodeName);
  } catch (e) {
    throw _bad((e as Error).message, line);
  }
}

function _list(value: string | null | undefined, sep: string): string[] {
  return value ? value.split(sep) : [];
}

function _countLines(s: string): number {
  let n = 1;
  for (let i = s.indexOf("\n"); i !== -1; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

function _bad(what: string, line: number): SyntaxError {
  return new SyntaxError(`Cannot decode payload: ${what} at line ${line}, column 1`);
}
