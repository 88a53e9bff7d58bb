/**
 * A third MUNCH v1 decoder, independent of src/codec (it imports only `parseJson`, JSON.parse
 * guarded against a V8 defect that can hand back an earlier object's escaped key): the reference
 * server's generic decoder, the routine its `decode()` picks for `enc=gen1` — the id of every
 * payload codemunch writes. Written from SPEC_MUNCH v1 and from how the reference's gen1 decoder
 * behaves (issue 27): it re-nests nothing but `__json.` blobs, which is where the two other test
 * decoders and the reference's tier-1 decoders differ from it. In detail, as Python runs it:
 *
 * - Sections: the text after the header split at `\n\n`, each stripped of line feeds, blank
 *   ones dropped. A section whose first line (`str.splitlines()`) starts with `a`–`z` and `,` is
 *   a table; one starting with `@` and holding `=` the legend (a later one replaces it); the first
 *   other one holding `=` the scalars; anything else a table section too.
 * - Scalars: `key=value` pairs split at Python whitespace (`str.isspace()`); a value opening with
 *   `"` runs to the next single `"` (`""` is a quote). A quoted empty value and a bare one are
 *   both the string `""`. `__json.<key>` is parsed as JSON into the key `<key>` as written (no
 *   nesting: `__json._meta.x` is the key `_meta.x`; unparsable JSON stays text). A key listed in
 *   `__stypes` is coerced (`""` → null, `int()` / `float()` or the text, `bool` is `== "T"`);
 *   every other value is its text: no form typing, no `_meta.` re-nesting, no legend.
 * - `__tables` entries `tag:key:cols:types`, split at `,` then `:` (types default to `str`).
 * - Rows: Python's `csv.reader` (excel dialect, non-strict; a field over 131,072 characters is an
 *   error, as is a NUL, which CSV readers before Python 3.11 refuse) over each table section,
 *   rows picked by their tag; a missing field is `""`. A `str` cell goes through the legend first
 *   (`@` + the digits `str.isdigit()` accepts, turned into a handle by `int()`; a run `int()`
 *   refuses, or a handle outside the legend, leaves the text as it is); then every cell is coerced
 *   like a typed scalar — so any cell that is or becomes `""` is null. A table key with a `.` is
 *   nested one level (`a.b` → `{a: {b: rows}}`).
 */
import { parseJson } from "../../src/codec/json_text.ts";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

const TAGS = "abcdefghijklmnopqrstuvwxyz";
/** Python's `csv.field_size_limit()` default. */
const FIELD_LIMIT = 131_072;

/** Python's `str.splitlines()` line boundaries. */
// deno-lint-ignore no-control-regex -- the control characters are the point
const PY_LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;
/** Python's `str.isspace()` characters. */
// deno-lint-ignore no-control-regex -- the control characters are the point
const PY_SPACE = /[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;
const PY_SPACE_RUN = new RegExp(`^${PY_SPACE.source}+|${PY_SPACE.source}+$`, "g");

/**
 * Characters of Unicode's Numeric_Type=Digit (superscripts, subscripts, circled digits, …), which
 * Python's `str.isdigit()` accepts besides the decimal digits (`\p{Nd}`) and `int()` refuses.
 */
const PY_DIGIT_ONLY =
  /[\u00b2\u00b3\u00b9\u1369-\u1371\u19da\u2070\u2074-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247c\u2488-\u2490\u24ea\u24f5-\u24fd\u24ff\u2776-\u277e\u2780-\u2788\u278a-\u2792\u{10a40}-\u{10a43}\u{1f100}-\u{1f10a}]/u;

function set(o: Obj, k: string, v: Json): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function splitlines(text: string): string[] {
  const lines = text.split(PY_LINE_BREAK);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function pyStrip(text: string): string {
  return text.replace(PY_SPACE_RUN, "");
}

function isDecimal(cp: number): boolean {
  return /\p{Nd}/u.test(String.fromCodePoint(cp));
}

function isDigit(ch: string): boolean {
  return /^\p{Nd}$/u.test(ch) || PY_DIGIT_ONLY.test(ch);
}

/** The value of a decimal digit of any script (each script's digits run 0-9 in code points). */
function digitValue(cp: number): number {
  let start = cp;
  while (isDecimal(start - 1)) start--;
  return (cp - start) % 10;
}

/** Python's `int(text)`, or undefined where it raises `ValueError`. */
function pyInt(text: string): number | undefined {
  const s = pyStrip(text);
  if (!/^[+-]?\p{Nd}+(?:_\p{Nd}+)*$/u.test(s)) return undefined;
  let digits = "";
  for (const ch of s.replace(/_/g, "")) {
    const cp = ch.codePointAt(0)!;
    digits += ch === "+" || ch === "-" ? ch : String(cp < 128 ? cp - 48 : digitValue(cp));
  }
  return Number(BigInt(digits));
}

/** Python's `float(text)` for the texts a MUNCH encoder writes, or undefined where it raises. */
function pyFloat(text: string): number | undefined {
  const s = pyStrip(text).replace(/(?<=\d)_(?=\d)/g, "");
  if (/^[+-]?(?:inf|infinity)$/i.test(s)) return s.startsWith("-") ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(s)) return NaN;
  return /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(s) ? Number(s) : undefined;
}

function coerce(raw: string, hint: string): Json {
  if (raw === "") return null;
  if (hint === "bool") return raw === "T";
  if (hint === "int") return pyInt(raw) ?? raw;
  if (hint === "float") return pyFloat(raw) ?? raw;
  return raw;
}

/** The legend: entry N at index N-1; lines without `@` or with a handle `int()` refuses skipped. */
function readLegend(text: string): string[] {
  const order: string[] = [];
  for (const line of splitlines(text)) {
    if (!line.startsWith("@")) continue;
    const eq = line.indexOf("=");
    const handle = eq === -1 ? line : line.slice(0, eq);
    const idx = pyInt(handle.slice(1));
    if (idx === undefined) continue;
    if (idx < 1 || idx > 1_000_000) throw new Error(`legend handle out of range: ${handle}`);
    while (order.length < idx) order.push("");
    order[idx - 1] = eq === -1 ? "" : line.slice(eq + 1);
  }
  return order;
}

function decodePrefix(value: string, order: readonly string[]): string {
  if (!value.startsWith("@")) return value;
  const chars = Array.from(value);
  let i = 1;
  while (i < chars.length && isDigit(chars[i]!)) i++;
  if (i === 1) return value;
  const idx = pyInt(chars.slice(1, i).join(""));
  if (idx === undefined || idx < 1 || idx > order.length) return value;
  return order[idx - 1] + chars.slice(i).join("");
}

/** The `key=value` pairs of the scalars section, in order; a repeated key keeps its place. */
function parseScalars(line: string): Map<string, string> {
  const out = new Map<string, string>();
  const n = line.length;
  let i = 0;
  while (i < n) {
    while (i < n && PY_SPACE.test(line[i]!)) i++;
    if (i >= n) break;
    const j = line.indexOf("=", i);
    if (j < 0) break;
    const key = line.slice(i, j);
    i = j + 1;
    if (i < n && line[i] === '"') {
      i++;
      let buf = "";
      while (i < n) {
        const ch = line[i]!;
        if (ch === '"') {
          if (line[i + 1] === '"') {
            buf += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        buf += ch;
        i++;
      }
      out.set(key, buf);
    } else {
      const start = i;
      while (i < n && !PY_SPACE.test(line[i]!)) i++;
      out.set(key, line.slice(start, i));
    }
  }
  return out;
}

type CsvState = "record" | "field" | "in" | "quoted" | "quote" | "crnl";

/** Python's `csv.reader` (excel dialect, `strict=False`) over `text`, read line by line. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  const r = { fields: [] as string[], field: "", state: "record" as CsvState };
  for (const line of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
    for (const c of line) csvStep(r, c);
    csvStep(r, null);
    if (r.state === "record") {
      if (r.fields.length > 0) rows.push(r.fields);
      r.fields = [];
    }
  }
  if (r.field !== "" || r.state === "quoted") {
    r.fields.push(r.field);
    rows.push(r.fields);
  }
  return rows;
}

/** One character of CPython's `_csv` reader state machine; `null` is the end of a line. */
function csvStep(r: { fields: string[]; field: string; state: CsvState }, c: string | null): void {
  if (c === "\0") throw new Error("line contains NUL");
  const eol = c === null || c === "\n" || c === "\r";
  const add = (ch: string) => {
    if (r.field.length >= FIELD_LIMIT) {
      throw new Error(`field larger than field limit (${FIELD_LIMIT})`);
    }
    r.field += ch;
  };
  const save = (next: CsvState) => {
    r.fields.push(r.field);
    r.field = "";
    r.state = next;
  };
  const end: CsvState = c === null ? "record" : "crnl";
  if (r.state === "record") {
    if (c === null) return; // a blank line: no record
    if (eol) {
      r.state = "crnl";
      return;
    }
    r.state = "field";
  }
  switch (r.state) {
    case "field":
      if (eol) save(end);
      else if (c === '"') r.state = "quoted";
      else if (c === ",") save("field");
      else {
        add(c!);
        r.state = "in";
      }
      return;
    case "in":
      if (eol) save(end);
      else if (c === ",") save("field");
      else add(c!);
      return;
    case "quoted":
      if (c === null) return; // a line break inside quotes: the field goes on
      if (c === '"') r.state = "quote";
      else add(c);
      return;
    case "quote":
      if (c === '"') {
        add('"');
        r.state = "quoted";
      } else if (c === ",") save("field");
      else if (eol) save(end);
      else {
        add(c!);
        r.state = "in";
      }
      return;
    case "crnl":
      if (c === null) r.state = "record";
      else if (!eol) throw new Error("new-line character seen in unquoted field");
  }
}

/** Decode a payload as the reference's gen1 routine does (see the module doc). */
export function decodeReferenceGen1(payload: string): Obj {
  const nl = payload.indexOf("\n");
  const head = nl === -1 ? payload : payload.slice(0, nl);
  if (!/^#MUNCH\/1 tool=\S+ enc=gen1$/.test(head)) {
    throw new Error(`not a MUNCH v1 header for the gen1 routine: ${head}`);
  }
  const rest = nl === -1 ? "" : payload.slice(nl + 1);
  const blocks = rest.split("\n\n").map((b) => b.replace(/^\n+|\n+$/g, ""))
    .filter((b) => pyStrip(b) !== "");
  let legend: string[] = [];
  let scalarBlock: string | undefined;
  const tableBlocks: string[] = [];
  for (const b of blocks) {
    const lines = splitlines(b);
    if (lines.length === 0) continue;
    const first = lines[0]!;
    const isTableRow = first.length >= 2 && first[1] === "," && TAGS.includes(first[0]!);
    if (first.startsWith("@") && first.includes("=") && !isTableRow) legend = readLegend(b);
    else if (isTableRow) tableBlocks.push(b);
    else if (scalarBlock === undefined && first.includes("=")) scalarBlock = b;
    else tableBlocks.push(b);
  }
  const raw = scalarBlock === undefined ? new Map<string, string>() : parseScalars(scalarBlock);
  const schemaText = raw.get("__tables") ?? "";
  const stypesText = raw.get("__stypes") ?? "";
  raw.delete("__tables");
  raw.delete("__stypes");
  const stypes = new Map<string, string>();
  for (const part of stypesText.split("|").filter((p) => p !== "")) {
    const colon = part.indexOf(":");
    const name = colon === -1 ? part : part.slice(0, colon);
    const hint = colon === -1 ? "" : part.slice(colon + 1);
    if (name !== "" && hint !== "") stypes.set(name, hint);
  }
  const out: Obj = {};
  for (const [k, v] of raw) {
    if (k.startsWith("__json.")) {
      let value: Json;
      try {
        value = parseJson(v) as Json;
      } catch {
        value = v;
      }
      set(out, k.slice(7), value);
    } else if (stypes.has(k)) set(out, k, coerce(v, stypes.get(k)!));
    else set(out, k, v);
  }
  for (const part of schemaText.split(",").filter((p) => p !== "")) {
    const pieces = part.split(":");
    if (pieces.length < 3) continue;
    const [tag, key, colSpec] = pieces as [string, string, string];
    const typeSpec = pieces[3] ?? "";
    const cols = colSpec === "" ? [] : colSpec.split("|");
    const types = typeSpec === "" ? cols.map(() => "str") : typeSpec.split("|");
    const rowsOut: Json[] = [];
    for (const block of tableBlocks) {
      for (const row of csvRows(block)) {
        if (row[0] !== tag) continue;
        const rec: Obj = {};
        cols.forEach((c, i) => {
          let cell = row[i + 1] ?? "";
          const hint = types[i] ?? "str";
          if (hint === "str") cell = decodePrefix(cell, legend);
          set(rec, c, coerce(cell, hint));
        });
        rowsOut.push(rec);
      }
    }
    const dot = key.indexOf(".");
    if (dot === -1) set(out, key, rowsOut);
    else {
      const parent = key.slice(0, dot);
      if (!Object.hasOwn(out, parent)) set(out, parent, {});
      const p = out[parent];
      if (p !== null && typeof p === "object" && !Array.isArray(p)) {
        set(p, key.slice(dot + 1), rowsOut);
      }
    }
  }
  return out;
}
