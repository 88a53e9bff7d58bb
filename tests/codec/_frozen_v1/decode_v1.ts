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
import { isNumberText } from "../../../src/codec/numbers.ts";
import { parseScalars } from "./scalars.ts";
import { isJsonObject, type JsonObject, type JsonValue, setKey } from "../../../src/codec/types.ts";

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
  const sections: { text: string; line: number }[] = [];
  for (const section of body.split("\n\n")) {
    if (/^[a-z],/.test(section)) sections.push({ text: section, line });
    else if (section.startsWith("@")) {
      section.split("\n").forEach((l, i) => {
        const m = /^@(\d+)=/.exec(l);
        if (!m) throw _bad(`invalid legend line "${l.slice(0, 40)}"`, line + i);
        legend[Number(m[1]) - 1] = l.slice(m[0].length);
      });
    } else if (scalarText === undefined && !section.includes("\n")) {
      scalarText = section;
      scalarLine = line;
    } else throw _bad(`unexpected section "${section.slice(0, 40)}"`, line);
    line += _countLines(section) + 1;
  }
  if (scalarText === undefined) throw _bad("no scalars section", 2);

  const pairs = parseScalars(scalarText, scalarLine, false);
  const reserved = new Map<string, string | null>();
  for (const p of pairs) {
    if (p.key === "__tables" || p.key === "__stypes") reserved.set(p.key, p.value);
  }
  const stypes = new Map<string, string>();
  for (const entry of _list(reserved.get("__stypes"), "|")) {
    const i = entry.lastIndexOf(":");
    if (i === -1) throw _bad(`invalid __stypes entry "${entry}"`, scalarLine);
    stypes.set(entry.slice(0, i), entry.slice(i + 1));
  }
  const out: JsonObject = {};
  for (const p of pairs) {
    if (p.key.startsWith("__json.")) {
      let v: JsonValue;
      try {
        v = p.value === null ? null : parseJson(p.value);
      } catch {
        throw _bad(`invalid JSON in "${p.key}"`, scalarLine);
      }
      _put(out, p.key.slice(7).split("."), v);
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
    _put(out, p.key.split("."), v);
  }

  const tables = new Map<string, _Table>();
  for (const entry of _list(reserved.get("__tables"), ",")) {
    const parts = entry.split(":");
    if (parts.length !== 4 || !/^[a-z]$/.test(parts[0]!)) {
      throw _bad(`invalid __tables entry "${entry}"`, scalarLine);
    }
    // Property keys are internalized once here, not on every row's store.
    const columns = parts[2]!.split("|").map((c) => Object.keys({ [c]: 0 })[0]!);
    const types = parts[3]!.split("|");
    if (types.length !== columns.length) {
      throw _bad(`invalid column types in __tables entry "${entry}"`, scalarLine);
    }
    const kinds = types.map((t) => t === "int" || t === "float" ? 1 : t === "bool" ? 2 : 0);
    const proto = columns.includes("__proto__");
    tables.set(parts[0]!, { path: parts[1]!.split("."), columns, kinds, proto, rows: [] });
  }
  const texts: string[] = [];
  const quoted: boolean[] = [];
  for (const s of sections) {
    const text = s.text;
    let at = 0;
    let n = s.line;
    // The next quote at or after the current row (searched again only once passed).
    let q = text.indexOf('"');
    if (q === -1) q = text.length + 1;
    while (at <= text.length) {
      let nl = text.indexOf("\n", at);
      if (nl === -1) nl = text.length;
      const t = tables.get(text.charAt(at));
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
          const v = _cell(text.slice(pos, e), kinds[j]!, legend);
          if (proto) setKey(row, columns[j]!, v);
          else row[columns[j]!] = v;
          pos = e + 1;
        }
      } else {
        const count = scanLine(text, at + 2, nl, n, texts, quoted);
        if (count !== columns.length) throw _fieldCount(t, n);
        for (let j = 0; j < count; j++) {
          setKey(row, columns[j]!, _cell(texts[j]!, kinds[j]!, legend));
        }
      }
      t.rows.push(row);
      at = nl + 1;
      n++;
    }
  }
  for (const t of tables.values()) _put(out, t.path, t.rows);
  return out;
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
