/**
 * The codemunch codec: MUNCH v1, the compact line-oriented wire format of codemunch's MCP
 * responses, and the columnar `{cols, dict, rows}` table format. Both are lossless:
 * `decode(encode(tool, x))` deep-equals `x` for every JSON object `x` that MUNCH can carry
 * ({@linkcode canEncodeV1}). The codec is a pure library: it reads no environment and writes
 * nothing to the console; callers pass settings in ({@linkcode DispatchOptions}).
 *
 * ## Strict MUNCH v1 (the default)
 *
 * ```text
 * #MUNCH/1 tool=find_references enc=gen1
 *
 * @1=src/models/
 *
 * repo=acme/shop reference_count=3 __json._meta="{""timing_ms"":3.1}" __tables=r:references:file|line|kind:str|int|str __stypes=reference_count:int
 *
 * r,@1user.py,10,call
 * r,@1user.py,22,call
 * r,src/b.py,5,ref
 * ```
 *
 * Every payload {@linkcode encode} writes by default stays inside SPEC_MUNCH v1, so it decodes
 * to exactly the encoded object with any decoder that follows the spec — the reference's gen1
 * decoder (which re-nests nothing but `__json.` blobs and reads every empty cell as null), one
 * that re-nests `_meta.` keys (as the reference's tier-1 decoders do), a schema-free one, one
 * that types scalars only through `__stypes`. The encoding id is always `gen1`: a tool's tier-1 spec only
 * orders scalars and columns and picks the interned columns, all described in the payload. Where
 * the spec is open, the encoder avoids the open point instead of relying on a reading of it:
 *
 * - **Keys.** Top-level keys, `_meta` fields and column names are plain names (letters, digits,
 *   `_ $ / + -`); no dotted key. A nested object is a `__json.<key>` blob, and so is a `null`
 *   scalar (a bare empty value reads as `""` where a key has no `__stypes` entry). A response with a top-level key that is not a plain name (or starts with
 *   `__`) cannot be written: {@linkcode encodeResponse} sends it as JSON.
 * - **`_meta`** is one `__json._meta` blob, as the reference's gen1 encoder writes it: the
 *   reference's gen1 decoder re-nests no `_meta.` key, so flat `_meta.<field>` scalars would reach
 *   it as keys named `_meta.timing_ms`. (The decoder still reads flat `_meta.` scalars, SPEC §4.2.)
 * - **Tables** are top-level lists of records with one key set and, per column, one v1 type
 *   (`str`, `int`, `float` — integers and floats together — or `bool`; `null` anywhere). Any
 *   other list (nested values, rows with different keys, mixed kinds) is a `__json.` blob.
 * - **No escapes.** The spec defines none, so backslashes are literal. Text that some reader
 *   would split (a line feed, CR, or anything Python's `splitlines()` breaks on) or that UTF-8
 *   cannot carry (a lone surrogate) is never written raw: a scalar holding it is a `__json.`
 *   blob, a column holding it makes its list a blob.
 * - **The legend** applies only to `str` table cells, and a handle is never followed by a digit
 *   of any script (the reference reads `@1²` as handle `1²`). A string that starts with `@` and a
 *   digit gets a legend entry of its own, since the spec reads every `@N…` token as a handle; a
 *   scalar starting so is a blob.
 * - **Empty strings and long text in cells.** The spec reads every empty field as null, and no
 *   spelling of `""` survives the reference's gen1 decoder in a cell (it coerces after the
 *   legend), so a list with an empty string in a row is a `__json.` blob; so is one with a cell
 *   over 131,072 characters (Python's CSV field limit).
 * - **Numbers.** Integers are written in full (`12345678901234567000`, never `1e+19`); floats in
 *   Python `repr` style (`2.0`, `1.5e-05`), and `-0` is the float `-0.0`.
 *
 * `format: "auto"` sends MUNCH only when it saves at least the threshold (15%) *and* carries no
 * list of records as a JSON blob (such a payload is JSON text inside MUNCH: JSON itself reads
 * better); `compact` sends MUNCH whenever the response can be written as MUNCH.
 *
 * ## Extended MUNCH (opt-in)
 *
 * `encode(tool, x, { extensions: true })` (server setting `CODEMUNCH_MUNCH_EXTENSIONS=on`) saves
 * more with encodings outside v1: tier-1 transforms that flatten nested shapes (`__xf`: search
 * matches, outline trees, count maps), constant columns written once (`__const`), absent cells
 * (`__absent`), `json` columns, dotted keys for any nested object, backslash escapes, and
 * percent-encoded names. Its header is `#MUNCH/1x` and its ids end in `x` (`ss1x`, `gen1x`), so
 * a v1 decoder refuses it rather than misreads it; only {@linkcode decode} reads it. The codec
 * knows no tool: a tool's layout is an {@linkcode EncoderSpec} the caller passes to
 * {@linkcode encode} / {@linkcode encodeResponse} (`spec`), and a reshaped extended payload is
 * decoded with the same spec (`decode(text, { specs })`).
 *
 * **Non-MUNCH input** to {@linkcode decode} is parsed as JSON; malformed MUNCH throws
 * `SyntaxError` naming the line. JSON inside the codec (and non-MUNCH input) is parsed with a
 * guard against a V8 defect in Deno 2.9 (an object key written as an escape, such as `"\t"`, can
 * come back as the key of an earlier object of the same shape), so `decode(tableText)` is the
 * safe way to read the `table` format's text.
 *
 * ## Table format
 *
 * `{cols, dict, rows}`: a cell in a column named in `dict` is an integer index into
 * `dict[col]`; any other cell is its literal value. {@linkcode encodeTables} applies it to every
 * list of uniform records in a response and stays valid JSON; an object that would read as a table
 * is escaped as `{"__literal": …}`.
 *
 * @example Round-trip a response through MUNCH
 * ```ts
 * import { decode, encode } from "@codemunch/codemunch";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const response = {
 *   result_count: 2,
 *   results: [
 *     { id: "src/a.py::f#function", name: "f", kind: "function", file: "src/a.py", line: 3 },
 *     { id: "src/a.py::g#function", name: "g", kind: "function", file: "src/a.py", line: 9 },
 *   ],
 * };
 * const text = encode("search_symbols", response);
 * deepStrictEqual(decode(text), response);
 * ```
 *
 * @module
 */
export {
  canEncodeV1,
  decode,
  type DecodeOptions,
  type DispatchOptions,
  encode,
  type EncodeOptions,
  encodeResponse,
  type EncodeResult,
  encodingId,
  type Format,
  type FormatName,
} from "./src/codec/dispatch.ts";
export {
  decodeTable,
  decodeTables,
  type EncodedTable,
  encodeTable,
  type EncodeTableOptions,
  encodeTables,
} from "./src/codec/table_codec.ts";
export type { ColumnType, JsonObject, JsonValue } from "./src/codec/types.ts";
export type {
  DictTransform,
  EncoderSpec,
  ForestTransform,
  GroupTransform,
  LinesTransform,
  SplitTransform,
  TableSpec,
  Transform,
  TreeTransform,
} from "./src/codec/spec.ts";
