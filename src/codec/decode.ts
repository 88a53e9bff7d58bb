/**
 * The decoder of extended MUNCH payloads (`#MUNCH/1x`, see generic.ts). It needs no schema: tables, column types and scalar types come from the
 * payload's `__tables`/`__stypes` (plus our additive `__absent`, `__const` and `__xf`, and the
 * literal typing of `_meta.` scalars). The encoding id only selects which tier-1 transforms to
 * undo.
 *
 * @module
 */
import { readQuoted } from "./csv.ts";
import { parseJson } from "./json_text.ts";
import { decodeName, unescapeText } from "./escape.ts";
import { resolveHandle } from "./legend.ts";
import { isNumberText, parseNumber } from "./numbers.ts";
import { LITERAL_PREFIX, parseScalars } from "./scalars.ts";
import type { EncoderSpec } from "./spec.ts";
import { EXTENDED_SUFFIX, EXTENDED_VERSION } from "./generic.ts";
import { leadName, transformSource, undoTransforms } from "./transforms.ts";
import {
  type ColumnType,
  isJsonObject,
  type JsonObject,
  type JsonValue,
  KIND_OF,
  setKey,
  T_BOOL,
  T_INT,
  T_STR,
} from "./types.ts";

const HEADER = /^#MUNCH\/(\w+) tool=(\S+) enc=(\S+)(?: .*)?$/;
// Reserved scalar keys: the spec's two, plus our additive optional-column, transform and
// constant-column lists.
const RESERVED = new Set(["__tables", "__stypes", "__absent", "__xf", "__const"]);
const COLUMN_TYPES = new Set(["int", "float", "bool", "str", "json"]);

/** A table of one payload: its shape plus the rows read so far. */
interface TableDef extends _TableShape {
  rows: JsonObject[];
  /** Index of the lead column read beside the rows (-1: none), and its values by row. */
  lead: number;
  leadValues: (JsonValue | undefined)[];
  /** Constant columns (`__const`) to set before each column `j`, and after the last at `[n]`. */
  constAt: (_Constant[] | undefined)[] | undefined;
}

/** A constant column: its name and the value of its scalar. */
interface _Constant {
  name: string;
  value: JsonValue;
}

/** The `__const` entry of one table: column names, positions (or none: last), values. */
interface _ConstEntry {
  names: string[];
  positions: number[] | undefined;
  values: (JsonValue | undefined)[];
}

/** Parsed header of a MUNCH payload. */
interface MunchHeader {
  version: number;
  tool: string;
  enc: string;
}

/** Read the header line; throws `SyntaxError` when it is not an extended MUNCH header. */
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
  if (m[1] !== EXTENDED_VERSION) {
    throw new SyntaxError(`Cannot decode payload: unsupported MUNCH version "${m[1]}"`);
  }
  const enc = m[3]!.endsWith(EXTENDED_SUFFIX) ? m[3]!.slice(0, -EXTENDED_SUFFIX.length) : m[3]!;
  return { version: 1, tool: m[2]!, enc };
}

/** Decode a MUNCH payload; `specFor` supplies the tier-1 spec of an encoding id, if known. */
export function decodeMunch(
  payload: string,
  specFor: (enc: string) => EncoderSpec | undefined,
): JsonObject {
  const header = _parseHeader(payload);
  const { legend, scalarLine, tableSections } = _splitSections(payload);
  const { out, reserved, consts } = _readScalars(scalarLine, legend);
  const tables = _tableDefs(reserved, scalarLine.line);
  const byTag: (TableDef | undefined)[] = [];
  for (const t of tables) byTag[t.tag.charCodeAt(0) - 97] = t;
  if (consts !== undefined) _placeConstants(consts, byTag, scalarLine.line);
  const spec = specFor(header.enc);
  const applied = _list(reserved.get("__xf"), ",").map(decodeName);
  if (applied.length > 0 && spec?.transforms === undefined) {
    // Reading the reshaped rows as they are would return another object than was encoded.
    throw new TypeError(
      `Cannot decode payload: it was reshaped (__xf=${
        applied.join(",")
      }) by the tier-1 spec "${header.enc}": pass that spec in options.specs`,
    );
  }
  const transforms = applied.length && spec?.transforms ? spec.transforms : undefined;
  const leads = _leadColumns(tables, transforms, applied);
  for (const s of tableSections) _readSection(s.text, s.line, byTag, legend);
  for (const t of tables) _put(out, t.path, t.rows);
  if (transforms) return undoTransforms(out, transforms, applied, leads);
  return out;
}

/** A section of the payload and the line it starts on. */
interface _Section {
  text: string;
  line: number;
}

/**
 * The payload's sections after its header: the legend read (every `@` section), the one
 * scalars line, and the table sections (`[a-z],` first).
 */
function _splitSections(
  payload: string,
): { legend: string[]; scalarLine: _Section; tableSections: _Section[] } {
  const body = payload.charCodeAt(payload.length - 1) === 10 ? payload.slice(0, -1) : payload;
  const firstBreak = body.indexOf("\n");
  if (firstBreak === -1) {
    throw new SyntaxError("Cannot decode payload: no scalars section at line 2, column 1");
  }
  // Sections follow the header after one blank line and are separated by one blank line.
  let rest = body.slice(firstBreak + 1);
  let line = 2;
  if (rest.charCodeAt(0) === 10) {
    rest = rest.slice(1);
    line = 3;
  }
  const legend: string[] = [];
  let scalarLine: _Section | undefined;
  const tableSections: _Section[] = [];
  const sections = rest.split("\n\n");
  for (let k = 0; k < sections.length; k++) {
    const section = sections[k]!;
    const c = section.charCodeAt(0);
    if (c === 64 /* @ */) _parseLegend(section, line, legend);
    else if (c >= 97 && c <= 122 && section.charCodeAt(1) === 44) {
      tableSections.push({ text: section, line }); // `[a-z],`
    } else if (scalarLine === undefined) {
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
    if (k < sections.length - 1) line += _countLines(section) + 1;
  }
  if (scalarLine === undefined) {
    throw new SyntaxError("Cannot decode payload: no scalars section at line 2, column 1");
  }
  return { legend, scalarLine, tableSections };
}

/**
 * The scalars line read: the object with its scalars and JSON blobs set, the reserved keys'
 * values, and the constant columns (their values filled from their scalars).
 */
function _readScalars(
  scalarLine: _Section,
  legend: string[],
): {
  out: JsonObject;
  reserved: Map<string, string | null>;
  consts: Map<string, _ConstEntry> | undefined;
} {
  const pairs = parseScalars(scalarLine.text, scalarLine.line);
  const reserved = new Map<string, string | null>();
  const out: JsonObject = {};
  for (const p of pairs) {
    if (RESERVED.has(p.key)) reserved.set(p.key, p.value);
  }
  const consts = _constEntries(reserved.get("__const"), scalarLine.line);
  const stypes = new Map<string, string>();
  for (const entry of _list(reserved.get("__stypes"), "|")) {
    const i = entry.lastIndexOf(":");
    if (i === -1) throw _bad(`invalid __stypes entry "${entry}"`, scalarLine.line);
    stypes.set(entry.slice(0, i), entry.slice(i + 1));
  }
  for (const p of pairs) {
    const reservedOrBlob = p.key.charCodeAt(0) === 95 && p.key.charCodeAt(1) === 95;
    if (reservedOrBlob && RESERVED.has(p.key)) continue;
    if (reservedOrBlob && p.key.startsWith("__json.")) {
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
    // A constant column's scalar, `<tag>.<column>`.
    if (consts !== undefined && p.key.charCodeAt(1) === 46 /* . */) {
      const c = consts.get(p.key.charAt(0));
      const path = c && _path(p.key, scalarLine.line);
      const i = path?.length === 2 ? c!.names.indexOf(path[1]!) : -1;
      if (i !== -1) {
        c!.values[i] = _scalarValue(p.value, stypes.get(p.key), legend);
        continue;
      }
    }
    let type = stypes.get(p.key);
    if (type === undefined && !p.quoted && p.key.startsWith(LITERAL_PREFIX)) type = "literal";
    const v = _scalarValue(p.value, type, legend);
    if (p.key.includes(".")) _put(out, _path(p.key, scalarLine.line), v);
    else setKey(out, _name(p.key, scalarLine.line), v);
  }
  return { out, reserved, consts };
}

/**
 * The lead column of each table that a transform will fold back (a group's key, a tree's depth),
 * marked to be read beside the rows (so the rows need no copy without it): its values by source.
 */
function _leadColumns(
  tables: readonly TableDef[],
  transforms: NonNullable<EncoderSpec["transforms"]> | undefined,
  applied: readonly string[],
): Map<string, (JsonValue | undefined)[]> {
  const leads = new Map<string, (JsonValue | undefined)[]>();
  for (const x of transforms ?? []) {
    const lead = leadName(x);
    if (lead === undefined || !applied.includes(x.key)) continue;
    const source = transformSource(x);
    const t = tables.find((t) => t.path.length === 1 && t.path[0] === source);
    const j = t?.columns.indexOf(lead) ?? -1;
    if (t === undefined || j === -1 || t.lead !== -1 || leads.has(source)) continue;
    t.lead = j;
    leads.set(source, t.leadValues);
  }
  return leads;
}

function _parseLegend(section: string, line: number, legend: string[]): void {
  const n = section.length;
  let i = 0;
  while (true) {
    let nl = section.indexOf("\n", i);
    if (nl === -1) nl = n;
    // `@<digits>=<literal>`
    let j = i + 1;
    let handle = 0;
    for (; j < nl; j++) {
      const d = section.charCodeAt(j) - 48;
      if (d < 0 || d > 9) break;
      handle = handle * 10 + d;
    }
    if (section.charCodeAt(i) !== 64 || j === i + 1 || section.charCodeAt(j) !== 61 /* = */) {
      throw _bad(`invalid legend line "${section.slice(i, Math.min(nl, i + 40))}"`, line);
    }
    legend[handle - 1] = section.slice(j + 1, nl);
    if (nl === n) return;
    i = nl + 1;
    line++;
  }
}

/** The parts of a table definition that depend only on the `__tables`/`__absent` text. */
interface _TableShape {
  tag: string;
  path: string[];
  columns: string[];
  types: ColumnType[];
  /** Per column: the type as a small integer (`KIND_OF`). */
  kinds: number[];
  /** Per column: the name is `__proto__` (set with `setKey`). */
  proto: boolean[];
  /** Per column: whether an empty bare field means the key is absent. */
  absentable: boolean[];
}

// Parsed `__tables`/`__absent` texts: one tool's payloads repeat them, so they are parsed once.
const _shapes = new Map<string, _TableShape[]>();
const SHAPE_CACHE_SIZE = 256;

function _tableDefs(reserved: Map<string, string | null>, line: number): TableDef[] {
  const tablesText = reserved.get("__tables") ?? "";
  const absentText = reserved.get("__absent") ?? "";
  const cacheKey = absentText === "" ? tablesText : tablesText + "\n" + absentText;
  let shapes = _shapes.get(cacheKey);
  if (shapes === undefined) {
    shapes = _parseTableShapes(tablesText, absentText, line);
    if (_shapes.size >= SHAPE_CACHE_SIZE) _shapes.clear();
    _shapes.set(cacheKey, shapes);
  }
  return shapes.map((shape) => ({
    ...shape,
    rows: [],
    lead: -1,
    leadValues: [],
    constAt: undefined,
  }));
}

/** The `__const` entries of one payload by tag, with room for their scalars' values. */
function _constEntries(
  text: string | null | undefined,
  line: number,
): Map<string, _ConstEntry> | undefined {
  if (!text) return undefined;
  let shapes = _constShapes.get(text);
  if (shapes === undefined) {
    shapes = _parseConstShapes(text, line);
    if (_constShapes.size >= SHAPE_CACHE_SIZE) _constShapes.clear();
    _constShapes.set(text, shapes);
  }
  const out = new Map<string, _ConstEntry>();
  for (const c of shapes) {
    out.set(c.tag, { names: c.names, positions: c.positions, values: new Array(c.names.length) });
  }
  return out;
}

/** One parsed `__const` entry. */
interface _ConstShape {
  tag: string;
  names: string[];
  positions: number[] | undefined;
}

// Parsed `__const` texts, like the table shapes.
const _constShapes = new Map<string, _ConstShape[]>();

/** Parse `__const` (`tag:col|col[:pos|pos]`, comma-separated). */
function _parseConstShapes(text: string, line: number): _ConstShape[] {
  const out: _ConstShape[] = [];
  for (const entry of text.split(",")) {
    const parts = entry.split(":");
    const names = (parts[1] ?? "").split("|").map((c) => _name(c, line));
    const positions = parts[2]?.split("|").map(Number);
    if (
      parts.length < 2 || parts.length > 3 || !/^[a-z]$/.test(parts[0]!) ||
      out.some((c) => c.tag === parts[0]) ||
      (positions !== undefined &&
        (positions.length !== names.length ||
          !positions.every((p, i) => Number.isInteger(p) && p >= (positions[i - 1] ?? -1) + 1)))
    ) {
      throw _bad(`invalid __const entry "${entry}"`, line);
    }
    out.push({ tag: parts[0]!, names, positions });
  }
  return out;
}

/** Give each table its constant columns, at their positions among the table's columns. */
function _placeConstants(
  consts: Map<string, _ConstEntry>,
  byTag: (TableDef | undefined)[],
  line: number,
): void {
  for (const [tag, c] of consts) {
    const t = byTag[tag.charCodeAt(0) - 97];
    if (t === undefined) throw _bad(`__const names unknown table "${tag}"`, line);
    const n = t.columns.length;
    const at: (_Constant[] | undefined)[] = new Array(n + 1);
    c.names.forEach((name, i) => {
      if (c.values[i] === undefined) {
        throw _bad(`no scalar "${tag}.${name}" for constant column "${name}"`, line);
      }
      // Among all columns, the k-th constant at position p follows p - k table columns.
      const j = c.positions === undefined ? n : c.positions[i]! - i;
      if (j > n) throw _bad(`constant column "${name}" is past the end of table "${tag}"`, line);
      (at[j] ??= []).push({ name, value: c.values[i]! });
    });
    t.constAt = at;
  }
}

function _parseTableShapes(tablesText: string, absentText: string, line: number): _TableShape[] {
  const optional = new Map<string, Set<string>>();
  for (const entry of _list(absentText, ",")) {
    const [tag, cols] = entry.split(":");
    optional.set(tag!, new Set((cols ?? "").split("|").map(decodeName)));
  }
  return _list(tablesText, ",").map((entry) => {
    const parts = entry.split(":");
    if (parts.length !== 4 || !/^[a-z]$/.test(parts[0]!)) {
      throw _bad(`invalid __tables entry "${entry}"`, line);
    }
    // Property keys are internalized once here, not on every row's store.
    const columns = parts[2]!.split("|").map((c) => _internalize(decodeName(c)));
    const types = parts[3]!.split("|");
    if (types.length !== columns.length || !types.every((t) => COLUMN_TYPES.has(t))) {
      throw _bad(`invalid column types in __tables entry "${entry}"`, line);
    }
    const opt = optional.get(parts[0]!);
    return {
      tag: parts[0]!,
      path: _path(parts[1]!, line),
      columns,
      types: types as ColumnType[],
      kinds: types.map((t) => KIND_OF[t as ColumnType]),
      proto: columns.map((c) => c === "__proto__"),
      absentable: columns.map((c) => opt?.has(c) ?? false),
    };
  });
}

/**
 * Read one table section into its tables' rows, one line per row, fields split at commas (with
 * RFC 4180 quoted fields read in place).
 */
function _readSection(
  section: string,
  firstLine: number,
  byTag: (TableDef | undefined)[],
  legend: string[],
): void {
  const n = section.length;
  let line = firstLine;
  let i = 0;
  // The next quote at or after the current field: fields before it are split without looking.
  const quotes = { at: section.indexOf('"') };
  if (quotes.at === -1) quotes.at = n + 1; // past every field, even an empty last one
  while (true) {
    let nl = section.indexOf("\n", i);
    if (nl === -1) nl = n;
    const t = byTag[section.charCodeAt(i) - 97];
    if (t === undefined || section.charCodeAt(i + 1) !== 44 /* , */) {
      throw _bad(`unknown table tag "${section.slice(i, section.indexOf(",", i))}"`, line);
    }
    t.rows.push(_readRow(section, i, nl, t, legend, line, quotes));
    if (nl === n) return;
    i = nl + 1;
    line++;
  }
}

/** One row: the line `s[lineStart, end)`; `quotes.at` is the next quote at or after its fields. */
function _readRow(
  s: string,
  lineStart: number,
  end: number,
  t: TableDef,
  legend: string[],
  line: number,
  quotes: { at: number },
): JsonObject {
  const row: JsonObject = {};
  const { columns, kinds, absentable, proto, constAt } = t;
  const last = columns.length - 1;
  let pos = lineStart + 2;
  for (let j = 0; j <= last; j++) {
    if (constAt !== undefined && constAt[j] !== undefined) _setConstants(row, constAt[j]!);
    let v: JsonValue;
    let e: number;
    if (quotes.at === pos) {
      const run = readQuoted(s, pos, end);
      if (run === undefined) throw _bad("unterminated quoted field", line, pos - lineStart);
      e = run[1];
      if (e !== end && s.charCodeAt(e) !== 44) {
        throw _bad('expected "," after quoted field', line, e - lineStart);
      }
      quotes.at = s.indexOf('"', e);
      if (quotes.at === -1) quotes.at = s.length + 1;
      if ((e === end) !== (j === last)) {
        throw _fieldCount(t, j === last ? _countFields(s, lineStart + 2, end) : j + 1, line);
      }
      v = _value(_unescape(run[0], line), t.types[j]!, columns[j]!, legend, line);
    } else {
      e = s.indexOf(",", pos);
      if (e === -1 || e > end) e = end;
      if (quotes.at < e) {
        throw _bad("unexpected quote in unquoted field", line, quotes.at - lineStart);
      }
      if ((e === end) !== (j === last)) {
        throw _fieldCount(t, j === last ? _countFields(s, lineStart + 2, end) : j + 1, line);
      }
      if (e === pos) {
        if (absentable[j]) {
          if (j === t.lead) t.leadValues.push(undefined);
          pos = e + 1;
          continue;
        }
        v = null;
      } else {
        switch (kinds[j]) {
          case T_STR:
            v = s.charCodeAt(pos) === 64 /* @ */ ? _handle(s, pos, e, legend) : s.slice(pos, e);
            break;
          case T_INT:
            v = _int(s, pos, e);
            break;
          case T_BOOL:
            v = e - pos === 1 && s.charCodeAt(pos) === 84; /* T */
            break;
          default:
            v = _value(s.slice(pos, e), t.types[j]!, columns[j]!, legend, line);
        }
      }
    }
    if (j === t.lead) t.leadValues.push(v);
    else if (proto[j]) setKey(row, columns[j]!, v);
    else row[columns[j]!] = v;
    pos = e + 1;
  }
  if (constAt !== undefined && constAt[last + 1] !== undefined) {
    _setConstants(row, constAt[last + 1]!);
  }
  return row;
}

function _setConstants(row: JsonObject, constants: _Constant[]): void {
  for (const c of constants) setKey(row, c.name, c.value);
}

/**
 * A bare `str` field `s[start, end)` that starts with `@`: resolved in place (see
 * `resolveHandle`), so a field that is exactly a handle costs no new string.
 */
function _handle(s: string, start: number, end: number, legend: string[]): string {
  let j = start + 1;
  let n = 0;
  for (; j < end; j++) {
    const d = s.charCodeAt(j) - 48;
    if (d < 0 || d > 9) break;
    n = n * 10 + d;
  }
  if (j === start + 1) return s.slice(start, end);
  if (n === 0 && j === start + 2) return s.slice(j, end);
  const entry = j - start < 10 ? legend[n - 1] : undefined;
  if (entry === undefined) return resolveHandle(s.slice(start, end), legend);
  return j === end ? entry : entry + s.slice(j, end);
}

/** An `int` field `s[start, end)`: short digit runs are summed in place, the rest parsed. */
function _int(s: string, start: number, end: number): number | string {
  let i = start;
  const neg = s.charCodeAt(i) === 45; /* - */
  if (neg) i++;
  if (end - i > 0 && end - i < 16) {
    let v = 0;
    for (; i < end; i++) {
      const d = s.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return parseNumber(s.slice(start, end));
      v = v * 10 + d;
    }
    // "-0" is not an int value (the encoder writes -0 as the float -0.0), but read it as -0.
    return neg ? -v : v;
  }
  return parseNumber(s.slice(start, end));
}

function _countFields(s: string, start: number, end: number): number {
  let n = 1;
  for (let i = s.indexOf(",", start); i !== -1 && i < end; i = s.indexOf(",", i + 1)) n++;
  return n;
}

function _fieldCount(t: TableDef, got: number, line: number): SyntaxError {
  return _bad(`table "${t.tag}" row has ${got} fields, expected ${t.columns.length}`, line);
}

function _internalize(name: string): string {
  return Object.keys({ [name]: 0 })[0]!;
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

/** A scalar's value by its `__stypes` type; `literal` types it by its form (`_meta.` keys). */
function _scalarValue(value: string | null, type: string | undefined, legend: string[]) {
  if (value === null) return null;
  if (type === "literal") {
    if (value === "T" || value === "F") return value === "T";
    if (isNumberText(value)) return Number(value);
  }
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

// Decoded key paths: one tool's payloads repeat their dotted keys (`_meta.timing_ms`, ...).
const _paths = new Map<string, string[]>();
const PATH_CACHE_SIZE = 1024;

/** A dotted key's decoded segments (shared between calls: do not change the array). */
function _path(key: string, line: number): string[] {
  let path = _paths.get(key);
  if (path === undefined) {
    try {
      path = key.split(".").map(decodeName);
    } catch (e) {
      throw _bad((e as Error).message, line);
    }
    if (_paths.size >= PATH_CACHE_SIZE) _paths.clear();
    _paths.set(key, path);
  }
  return path;
}

function _name(key: string, line: number): string {
  try {
    return decodeName(key);
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

function _bad(what: string, line: number, column = 0): SyntaxError {
  return new SyntaxError(`Cannot decode payload: ${what} at line ${line}, column ${column + 1}`);
}
