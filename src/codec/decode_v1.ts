/**
 * The MUNCH v1 decoder, by SPEC_MUNCH v1 alone: no schema, no encoding-specific routine. It reads
 * any conforming `#MUNCH/1` payload — ours (strict.ts) and the generic payloads of other encoders:
 * dotted scalar keys are re-nested, `__json.` blobs parsed, values typed by `__stypes` (a bare
 * `_meta.` value without an entry by its form, as in the spec's `_meta.timing_ms=3.1`), table
 * cells by their column type, with the legend resolved in `str` cells. Unknown `__` keys are
 * ignored, as the spec asks.
 *
 * @module
 */
import { scanLine } from "./csv.ts";
import { parseJson } from "./json_text.ts";
import { isNumberText } from "./numbers.ts";
import { parseScalars } from "./scalars.ts";
import { isJsonObject, type JsonObject, type JsonValue, setKey } from "./types.ts";

const HEADER = /^#MUNCH\/1 tool=\S+ enc=\S+(?: .*)?$/;

interface _Table {
  path: string[];
  columns: string[];
  /** Per column: 1 int or float, 2 bool, 0 anything else (str, or a type this reader does not know). */
  kinds: number[];
  /** A column is named `__proto__` (stored with `setKey`, as an own property). */
  proto: boolean;
  rows: JsonObject[];
}

function _fieldCount(t: _Table, line: number): SyntaxError {
  return _bad(`row has a wrong number of fields, expected ${t.columns.length}`, line);
}

/** Decode a `#MUNCH/1` payload. Throws `SyntaxError` naming the line for malformed input. */
export function decodeV1(payload: string): JsonObject {
  const { legend, scalarText, scalarLine, sections } = _sections(payload);
  const { out, tablesText } = _scalars(scalarText, scalarLine);
  const tables = new Map<string, _Table>();
  // Rows find their table by tag letter without a lookup by name.
  const byTag: (_Table | undefined)[] = [];
  for (const shape of _tableShapes(tablesText, scalarLine)) {
    const t: _Table = { ...shape, rows: [] };
    tables.set(shape.tag, t);
    byTag[shape.tag.charCodeAt(0) - 97] = t;
  }
  const texts: string[] = [];
  const quoted: boolean[] = [];
  for (const s of sections) _readRows(s, byTag, legend, texts, quoted);
  for (const t of tables.values()) _put(out, t.path, t.rows);
  return out;
}

/** A table section and the line it starts on. */
interface _Section {
  text: string;
  line: number;
}

/**
 * The payload's sections after its header: the legend read (every `@` section), the one
 * scalars line and its line number, and the table sections.
 */
function _sections(
  payload: string,
): { legend: string[]; scalarText: string; scalarLine: number; sections: _Section[] } {
  const end = payload.indexOf("\n");
  const header = end === -1 ? payload : payload.slice(0, end);
  if (!HEADER.test(header)) {
    throw new SyntaxError(
      `Cannot decode payload: malformed header "${header.slice(0, 80)}" at line 1, column 1`,
    );
  }
  let body = end === -1 ? "" : payload.slice(end + 1);
  let line = 2;
  if (body.startsWith("\n")) {
    body = body.slice(1);
    line = 3;
  }
  if (body.endsWith("\n")) body = body.slice(0, -1);
  const legend: string[] = [];
  let scalarText: string | undefined;
  let scalarLine = line;
  const sections: _Section[] = [];
  const parts = body.split("\n\n");
  for (let k = 0; k < parts.length; k++) {
    const section = parts[k]!;
    if (/^[a-z],/.test(section)) sections.push({ text: section, line });
    else if (section.startsWith("@")) _readLegend(section, line, legend);
    else if (scalarText === undefined && !section.includes("\n")) {
      scalarText = section;
      scalarLine = line;
    } else throw _bad(`unexpected section "${section.slice(0, 40)}"`, line);
    // (The last section, usually the largest, needs no count: no section follows it.)
    if (k < parts.length - 1) line += _countLines(section) + 1;
  }
  if (scalarText === undefined) throw _bad("no scalars section", 2);
  return { legend, scalarText, scalarLine, sections };
}

/**
 * The scalars line read: the object with its scalars (typed by `__stypes`, a bare `_meta.` value
 * by its form) and `__json.` blobs, and the `__tables` text.
 */
function _scalars(
  scalarText: string,
  scalarLine: number,
): { out: JsonObject; tablesText: string | null | undefined } {
  const pairs = parseScalars(scalarText, scalarLine, false);
  const reserved = new Map<string, string | null>();
  for (const p of pairs) {
    if (p.key === "__tables" || p.key === "__stypes") reserved.set(p.key, p.value);
  }
  const stypes = _scalarTypes(reserved.get("__stypes"), scalarLine);
  const out: JsonObject = {};
  for (const p of pairs) {
    if (p.key.startsWith("__json.")) {
      let v: JsonValue;
      try {
        v = p.value === null ? null : parseJson(p.value);
      } catch {
        throw _bad(`invalid JSON in "${p.key}"`, scalarLine);
      }
      _put(out, _path(p.key), v);
      continue;
    }
    if (p.key.startsWith("__")) continue; // __tables, __stypes, or a key this decoder does not know
    let v: JsonValue = p.value;
    const type = stypes.get(p.key);
    if (v !== null) {
      if (type === "int" || type === "float") v = _number(v);
      else if (type === "bool") v = v === "T";
      else if (type === undefined && !p.quoted && p.key.startsWith("_meta.")) {
        if (v === "T" || v === "F") v = v === "T";
        else if (isNumberText(v)) v = Number(v);
      }
    }
    _put(out, _path(p.key), v);
  }
  return { out, tablesText: reserved.get("__tables") };
}

/**
 * One table section's rows, each pushed to its tag's table. `texts` and `quoted` are scratch
 * arrays reused across sections for the rows with quotes.
 */
function _readRows(
  section: _Section,
  byTag: (_Table | undefined)[],
  legend: string[],
  texts: string[],
  quoted: boolean[],
): void {
  const text = section.text;
  let at = 0;
  let n = section.line;
  // The next quote at or after the current row (searched again only once passed).
  let q = text.indexOf('"');
  if (q === -1) q = text.length + 1;
  while (at <= text.length) {
    let nl = text.indexOf("\n", at);
    if (nl === -1) nl = text.length;
    const t = byTag[text.charCodeAt(at) - 97];
    if (t === undefined) throw _bad(`unknown table tag "${text.charAt(at)}"`, n);
    const { columns, kinds, proto } = t;
    const row: JsonObject = {};
    // Quote-free rows (the usual case) are split in place; others through the RFC 4180 reader.
    if (q < at) {
      q = text.indexOf('"', at);
      if (q === -1) q = text.length + 1;
    }
    if (q > nl) {
      let pos = at + 2;
      for (let j = 0; j < columns.length; j++) {
        let e = text.indexOf(",", pos);
        if (e === -1 || e > nl) e = nl;
        if ((e === nl) !== (j === columns.length - 1)) throw _fieldCount(t, n);
        const v = _cellAt(text, pos, e, kinds[j]!, legend);
        if (proto) setKey(row, columns[j]!, v);
        else row[columns[j]!] = v;
        pos = e + 1;
      }
    } else {
      const count = scanLine(text, at + 2, nl, n, texts, quoted);
      if (count !== columns.length) throw _fieldCount(t, n);
      for (let j = 0; j < count; j++) {
        const v = _cell(texts[j]!, kinds[j]!, legend);
        if (proto) setKey(row, columns[j]!, v);
        else row[columns[j]!] = v;
      }
    }
    t.rows.push(row);
    at = nl + 1;
    n++;
  }
}

// Parsed `__stypes` texts, like the table shapes (a tool's payloads repeat theirs).
const _stypes = new Map<string, Map<string, string>>();
const _NO_TYPES = new Map<string, string>();

/** The scalar types of `__stypes` by key (shared between decodes: do not change the map). */
function _scalarTypes(text: string | null | undefined, line: number): Map<string, string> {
  if (!text) return _NO_TYPES;
  let types = _stypes.get(text);
  if (types === undefined) {
    types = new Map();
    for (const entry of text.split("|")) {
      const i = entry.lastIndexOf(":");
      if (i === -1) throw _bad(`invalid __stypes entry "${entry}"`, line);
      types.set(entry.slice(0, i), entry.slice(i + 1));
    }
    if (_stypes.size >= SHAPE_CACHE_SIZE) _stypes.clear();
    _stypes.set(text, types);
  }
  return types;
}

// Key paths of scalar keys, their segments internalized: a tool's payloads repeat their keys,
// and storing a property under a key not yet internalized costs a string-table lookup.
const _paths = new Map<string, string[]>();
const PATH_CACHE_SIZE = 1024;

/**
 * The path a scalar key stores its value at: its dot-separated segments, after `__json.` for a
 * blob (shared between decodes: do not change the array).
 */
function _path(key: string): string[] {
  let path = _paths.get(key);
  if (path === undefined) {
    const dotted = key.startsWith("__json.") ? key.slice(7) : key;
    path = dotted.split(".").map(_internalize);
    if (_paths.size >= PATH_CACHE_SIZE) _paths.clear();
    _paths.set(key, path);
  }
  return path;
}

/** The same text as an internalized string (the form property keys take). */
function _internalize(name: string): string {
  return Object.keys({ [name]: 0 })[0]!;
}

/** The shape of one `__tables` entry: everything but its rows. */
interface _TableShape {
  tag: string;
  path: string[];
  columns: string[];
  kinds: number[];
  proto: boolean;
}

// Parsed `__tables` texts: one tool's payloads repeat theirs, so each is parsed once. Only texts
// that parsed are kept, so a bad one fails at the same point of every decode.
const _shapes = new Map<string, _TableShape[]>();
const SHAPE_CACHE_SIZE = 256;

/** The entries of `__tables`, in order (arrays shared between decodes: do not change them). */
function _tableShapes(text: string | null | undefined, line: number): _TableShape[] {
  if (!text) return [];
  let shapes = _shapes.get(text);
  if (shapes === undefined) {
    shapes = text.split(",").map((entry) => _tableShape(entry, line));
    if (_shapes.size >= SHAPE_CACHE_SIZE) _shapes.clear();
    _shapes.set(text, shapes);
  }
  return shapes;
}

function _tableShape(entry: string, line: number): _TableShape {
  const parts = entry.split(":");
  if (parts.length !== 4 || !/^[a-z]$/.test(parts[0]!)) {
    throw _bad(`invalid __tables entry "${entry}"`, line);
  }
  // Property keys are internalized once here, not on every row's store.
  const columns = parts[2]!.split("|").map(_internalize);
  const types = parts[3]!.split("|");
  if (types.length !== columns.length) {
    throw _bad(`invalid column types in __tables entry "${entry}"`, line);
  }
  const kinds = types.map((t) => t === "int" || t === "float" ? 1 : t === "bool" ? 2 : 0);
  const proto = columns.includes("__proto__");
  return { tag: parts[0]!, path: parts[1]!.split("."), columns, kinds, proto };
}

/** Read the legend lines `@<digits>=<literal>` of one section into `legend`. */
function _readLegend(section: string, line: number, legend: string[]): void {
  const n = section.length;
  for (let i = 0, k = 0;; k++) {
    let nl = section.indexOf("\n", i);
    if (nl === -1) nl = n;
    let j = i + 1;
    while (j < nl && section.charCodeAt(j) >= 48 && section.charCodeAt(j) <= 57) j++;
    if (section.charCodeAt(i) !== 64 || j === i + 1 || section.charCodeAt(j) !== 61 /* = */) {
      throw _bad(`invalid legend line "${section.slice(i, Math.min(nl, i + 40))}"`, line + k);
    }
    legend[Number(section.slice(i + 1, j)) - 1] = section.slice(j + 1, nl);
    if (nl === n) return;
    i = nl + 1;
  }
}

/** {@linkcode _cell} of the bare field `s[pos, e)`, read in place. */
function _cellAt(s: string, pos: number, e: number, kind: number, legend: string[]): JsonValue {
  if (e === pos) return null;
  if (kind === 1) return _numberAt(s, pos, e);
  if (kind === 2) return e - pos === 1 && s.charCodeAt(pos) === 84; /* T */
  return s.charCodeAt(pos) === 64 /* @ */ ? _resolve(s.slice(pos, e), legend) : s.slice(pos, e);
}

/** {@linkcode _number} of `s[start, end)` (not empty): short digit runs summed in place. */
function _numberAt(s: string, start: number, end: number): number | string {
  const neg = s.charCodeAt(start) === 45; /* - */
  if (end - start < 16) {
    let i = neg ? start + 1 : start;
    let v = 0;
    for (; i < end; i++) {
      const d = s.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    if (i === end && end - start > (neg ? 1 : 0)) return neg ? -v : v;
  }
  const text = s.slice(start, end);
  return isNumberText(text) ? Number(text) : text;
}

function _cell(text: string, kind: number, legend: string[]): JsonValue {
  if (text === "") return null;
  if (kind === 1) return _number(text);
  if (kind === 2) return text === "T";
  return text.charCodeAt(0) === 64 /* @ */ ? _resolve(text, legend) : text;
}

/** `@N<rest>` → legend entry N + rest; a token naming no entry is kept as it is. */
function _resolve(text: string, legend: string[]): string {
  let j = 1;
  let n = 0;
  for (; j < text.length; j++) {
    const d = text.charCodeAt(j) - 48;
    if (d < 0 || d > 9) break;
    n = n * 10 + d;
  }
  // No digits, handle 0, or more digits than any legend has: not a handle.
  const entry = j === 1 || j > 10 ? undefined : legend[n - 1];
  return entry === undefined ? text : j === text.length ? entry : entry + text.slice(j);
}

function _countLines(s: string): number {
  let n = 1;
  for (let i = s.indexOf("\n"); i !== -1; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

function _number(text: string): number | string {
  // Short digit runs (most cells) are summed in place; the rest checked and parsed.
  const n = text.length;
  if (n < 16) {
    let i = text.charCodeAt(0) === 45 /* - */ ? 1 : 0;
    let v = 0;
    for (; i < n; i++) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    if (i === n && n > (text.charCodeAt(0) === 45 ? 1 : 0)) {
      return text.charCodeAt(0) === 45 ? -v : v;
    }
  }
  return isNumberText(text) ? Number(text) : text;
}

function _put(out: JsonObject, path: string[], value: JsonValue): void {
  let o = out;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i]!;
    let next = Object.hasOwn(o, k) ? o[k] : undefined;
    if (!isJsonObject(next)) setKey(o, k, next = {});
    o = next;
  }
  setKey(o, path[path.length - 1]!, value);
}

function _list(value: string | null | undefined, sep: string): string[] {
  return value ? value.split(sep) : [];
}

function _bad(what: string, line: number): SyntaxError {
  return new SyntaxError(`Cannot decode payload: ${what} at line ${line}, column 1`);
}
