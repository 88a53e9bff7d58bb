/**
 * Two minimal MUNCH v1 decoders written from SPEC_MUNCH v1 alone (they import nothing from
 * src/codec but `parseJson`, JSON.parse guarded against a V8 defect that can hand back an earlier
 * object's escaped key — no MUNCH logic), as two different third parties could have written
 * them. Every payload codemunch emits as `#MUNCH/1` must decode to the same object with both, and
 * with the third, the reference's gen1 routine (`_reference_gen1_decoder.ts`).
 *
 * - {@linkcode decodeNestMetaOnly} reads like the reference's tier-1 (schema) decoders and SPEC
 *   §4.2: lines split as Python's `str.splitlines()` does, rows through an RFC 4180 CSV reader
 *   (csv-parse), only `_meta.` dotted keys re-nested (any other dotted key stays a flat key),
 *   `_meta.` values without an `__stypes` entry typed by their form, the legend applied to any
 *   `@N` token (scalars too).
 * - {@linkcode decodeSchemaFree} reads like a schema-free TypeScript decoder: `\n` lines, a
 *   hand-written field splitter, every dotted key re-nested, scalars typed only by `__stypes`,
 *   the legend applied only to `str` cells.
 *
 * Neither knows any encoding id, `__const`, `__absent`, `__xf`, escapes or percent-encoding:
 * unknown `__` keys are ignored, as the spec asks.
 */
import { parse as parseCsv } from "csv-parse/sync";
import { parseJson } from "../../src/codec/json_text.ts";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

/** Python's `str.splitlines()` line boundaries. */
// deno-lint-ignore no-control-regex -- the control characters are the point
const PY_LINES = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;
/** Python's `str.isspace()` characters. */
// deno-lint-ignore no-control-regex -- the control characters are the point
const PY_SPACE = /[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

function set(o: Obj, k: string, v: Json): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function header(first: string): void {
  const m = /^#MUNCH\/(\d+) tool=(\S+) enc=(\S+)$/.exec(first);
  if (!m || m[1] !== "1") throw new Error(`not a MUNCH v1 header: ${first}`);
}

/** `key=value` pairs of the scalars line; `value` null for an empty bare value. */
export function scalarPairs(line: string, isSpace: (c: string) => boolean) {
  const out: { key: string; value: string | null; quoted: boolean }[] = [];
  let i = 0;
  while (i < line.length) {
    if (isSpace(line[i]!)) {
      i++;
      continue;
    }
    const eq = line.indexOf("=", i);
    if (eq === -1) throw new Error(`no "=" in scalars at ${i}`);
    const key = line.slice(i, eq);
    i = eq + 1;
    if (line[i] === '"') {
      let v: string;
      [v, i] = quoted(line, i, "unterminated quote");
      out.push({ key, value: v, quoted: true });
    } else {
      let j = i;
      while (j < line.length && !isSpace(line[j]!)) j++;
      out.push({ key, value: j === i ? null : line.slice(i, j), quoted: false });
      i = j;
    }
  }
  return out;
}

function legendDecode(token: string, legend: Map<number, string>): string {
  const m = /^@(\d+)/.exec(token);
  if (!m) return token;
  const lit = legend.get(Number(m[1]));
  return lit === undefined ? token : lit + token.slice(m[0].length);
}

/** Python's int() and float() on the text, or the text when they would raise. */
function num(text: string, type: "int" | "float"): Json {
  if (type === "int") return /^\s*[+-]?\d+\s*$/.test(text) ? Number(text) : text;
  return /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(text) ? Number(text) : text;
}

function coerceCell(raw: string, type: string, legend: Map<number, string>): Json {
  if (raw === "") return null;
  if (type === "int" || type === "float") return num(raw, type);
  if (type === "bool") return raw === "T";
  return legendDecode(raw, legend);
}

interface Parsed {
  legend: Map<number, string>;
  pairs: { key: string; value: string | null; quoted: boolean }[];
  tables: Map<string, { key: string; cols: string[]; types: string[] }>;
  stypes: Map<string, string>;
  tableSections: string[][];
}

function sections(lines: string[]): string[][] {
  const out: string[][] = [];
  let cur: string[] = [];
  for (const l of lines) {
    if (l === "") {
      if (cur.length) out.push(cur);
      cur = [];
    } else cur.push(l);
  }
  if (cur.length) out.push(cur);
  return out;
}

function parse(lines: string[], isSpace: (c: string) => boolean): Parsed {
  header(lines[0]!);
  const legend = new Map<number, string>();
  let scalarLine: string | undefined;
  const tableSections: string[][] = [];
  for (const s of sections(lines.slice(1))) {
    if (/^[a-z],/.test(s[0]!)) tableSections.push(s);
    else if (s[0]!.startsWith("@")) {
      for (const l of s) {
        const m = /^@(\d+)=(.*)$/s.exec(l);
        if (!m) throw new Error(`bad legend line ${l}`);
        legend.set(Number(m[1]), m[2]!);
      }
    } else {
      if (scalarLine !== undefined || s.length !== 1) throw new Error("two scalars sections");
      scalarLine = s[0]!;
    }
  }
  const pairs = scalarPairs(scalarLine ?? "", isSpace);
  const take = (k: string) => pairs.find((p) => p.key === k)?.value ?? "";
  const stypes = new Map<string, string>();
  for (const e of take("__stypes") ? take("__stypes").split("|") : []) {
    const i = e.lastIndexOf(":");
    stypes.set(e.slice(0, i), e.slice(i + 1));
  }
  const tables = new Map<string, { key: string; cols: string[]; types: string[] }>();
  for (const e of take("__tables") ? take("__tables").split(",") : []) {
    const [tag, key, cols, types] = e.split(":");
    tables.set(tag!, { key: key!, cols: cols!.split("|"), types: types!.split("|") });
  }
  return {
    legend,
    pairs: pairs.filter((p) => p.key !== "__tables" && p.key !== "__stypes"),
    tables,
    stypes,
    tableSections,
  };
}

function scalarValue(
  p: { key: string; value: string | null; quoted: boolean },
  stypes: Map<string, string>,
  literalMeta: boolean,
): Json {
  if (p.value === null) return null;
  const t = stypes.get(p.key);
  if (t === "int" || t === "float") return num(p.value, t);
  if (t === "bool") return p.value === "T";
  if (t === undefined && literalMeta && !p.quoted && p.key.startsWith("_meta.")) {
    if (p.value === "T" || p.value === "F") return p.value === "T";
    const n = num(p.value, "float");
    if (typeof n === "number") return n;
  }
  return p.value;
}

/** The Python-like reader: splitlines, csv rows, only `_meta.` re-nested. */
export function decodeNestMetaOnly(payload: string): Obj {
  if (!payload.startsWith("#MUNCH/")) throw new Error("not MUNCH");
  const lines = payload.split(PY_LINES);
  if (lines[lines.length - 1] === "") lines.pop();
  const p = parse(lines, (c) => PY_SPACE.test(c));
  const out: Obj = {};
  const meta: Obj = {};
  let hasMeta = false;
  for (const pair of p.pairs) {
    let key = pair.key;
    let v: Json;
    if (key.startsWith("__json.")) {
      key = key.slice(7);
      v = pair.value === null ? null : parseJson(pair.value);
    } else if (key.startsWith("__")) continue;
    else {
      v = scalarValue(pair, p.stypes, true);
      if (typeof v === "string") v = legendDecode(v, p.legend);
    }
    if (key.startsWith("_meta.")) {
      set(meta, key.slice(6), v);
      hasMeta = true;
    } else set(out, key, v);
  }
  if (hasMeta) set(out, "_meta", meta);
  for (const s of p.tableSections) {
    const records = parseCsv(s.join("\n"), { relax_column_count: true }) as string[][];
    for (const rec of records) {
      const t = p.tables.get(rec[0]!);
      if (!t) throw new Error(`unknown tag ${rec[0]}`);
      if (rec.length - 1 !== t.cols.length) throw new Error(`bad row ${rec.join(",")}`);
      const row: Obj = {};
      t.cols.forEach((c, i) => set(row, c, coerceCell(rec[i + 1]!, t.types[i]!, p.legend)));
      const list = (Object.hasOwn(out, t.key) ? out[t.key] : undefined) as Json[] | undefined;
      if (list) list.push(row);
      else set(out, t.key, [row]);
    }
  }
  return out;
}

/**
 * The double-quoted value starting at `line[i]` (a `""` is one quote) and the index after its
 * closing quote.
 */
function quoted(line: string, i: number, unterminated: string): [string, number] {
  let v = "";
  i++;
  while (true) {
    const q = line.indexOf('"', i);
    if (q === -1) throw new Error(unterminated);
    v += line.slice(i, q);
    if (line[q + 1] !== '"') return [v, q + 1];
    v += '"';
    i = q + 2;
  }
}

/** RFC 4180 fields of one line (no line breaks inside quotes). */
function fields(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (true) {
    if (line[i] === '"') {
      let v: string;
      [v, i] = quoted(line, i, "unterminated quote in row");
      out.push(v);
    } else {
      let j = line.indexOf(",", i);
      if (j === -1) j = line.length;
      out.push(line.slice(i, j));
      i = j;
    }
    if (i >= line.length) return out;
    if (line[i] !== ",") throw new Error(`expected "," at ${i} in ${line}`);
    i++;
    if (i === line.length) {
      out.push("");
      return out;
    }
  }
}

function nest(out: Obj, path: string[], v: Json): void {
  let o = out;
  for (const k of path.slice(0, -1)) {
    const next = Object.hasOwn(o, k) ? o[k] : undefined;
    if (next === null || typeof next !== "object" || Array.isArray(next)) set(o, k, {});
    o = o[k] as Obj;
  }
  set(o, path[path.length - 1]!, v);
}

/** The schema-free TS-like reader: `\n` lines, every dotted key re-nested, `__stypes` only. */
export function decodeSchemaFree(payload: string): Obj {
  if (!payload.startsWith("#MUNCH/")) throw new Error("not MUNCH");
  const lines = payload.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const p = parse(lines, (c) => c === " ");
  const out: Obj = {};
  for (const pair of p.pairs) {
    if (pair.key.startsWith("__json.")) {
      nest(out, pair.key.slice(7).split("."), pair.value === null ? null : parseJson(pair.value));
    } else if (!pair.key.startsWith("__")) {
      nest(out, pair.key.split("."), scalarValue(pair, p.stypes, false));
    }
  }
  for (const s of p.tableSections) {
    for (const line of s) {
      const f = fields(line);
      const t = p.tables.get(f[0]!);
      if (!t) throw new Error(`unknown tag ${f[0]}`);
      if (f.length - 1 !== t.cols.length) throw new Error(`bad row ${line}`);
      const row: Obj = {};
      t.cols.forEach((c, i) => set(row, c, coerceCell(f[i + 1]!, t.types[i]!, p.legend)));
      const path = t.key.split(".");
      let o: Json = out;
      for (const k of path) o = o && typeof o === "object" ? (o as Obj)[k] ?? null : null;
      if (Array.isArray(o)) o.push(row);
      else nest(out, path, [row]);
    }
  }
  return out;
}
