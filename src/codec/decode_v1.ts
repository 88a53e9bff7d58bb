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
  types: string[];
  rows: JsonObject[];
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
    line += section.split("\n").length + 1;
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
    const columns = parts[2]!.split("|");
    const types = parts[3]!.split("|");
    if (types.length !== columns.length) {
      throw _bad(`invalid column types in __tables entry "${entry}"`, scalarLine);
    }
    tables.set(parts[0]!, { path: parts[1]!.split("."), columns, types, rows: [] });
  }
  const texts: string[] = [];
  const quoted: boolean[] = [];
  for (const s of sections) {
    let at = 0;
    let n = s.line;
    while (at <= s.text.length) {
      let nl = s.text.indexOf("\n", at);
      if (nl === -1) nl = s.text.length;
      const t = tables.get(s.text.charAt(at));
      if (t === undefined) throw _bad(`unknown table tag "${s.text.charAt(at)}"`, n);
      const count = scanLine(s.text, at + 2, nl, n, texts, quoted);
      if (count !== t.columns.length) {
        throw _bad(`row has ${count} fields, expected ${t.columns.length}`, n);
      }
      const row: JsonObject = {};
      for (let j = 0; j < count; j++) {
        setKey(row, t.columns[j]!, _cell(texts[j]!, t.types[j]!, legend));
      }
      t.rows.push(row);
      at = nl + 1;
      n++;
    }
  }
  for (const t of tables.values()) _put(out, t.path, t.rows);
  return out;
}

function _cell(text: string, type: string, legend: string[]): JsonValue {
  if (text === "") return null;
  switch (type) {
    case "int":
    case "float":
      return _number(text);
    case "bool":
      return text === "T";
    default:
      return _resolve(text, legend);
  }
}

/** `@N<rest>` → legend entry N + rest; a token naming no entry is kept as it is. */
function _resolve(text: string, legend: string[]): string {
  if (text.charCodeAt(0) !== 64) return text;
  const m = /^@(\d+)/.exec(text);
  if (!m) return text;
  const entry = legend[Number(m[1]) - 1];
  return entry === undefined ? text : entry + text.slice(m[0].length);
}

function _number(text: string): number | string {
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
