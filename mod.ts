/**
 * The codemunch codec: MUNCH v1, the compact line-oriented wire format of codemunch's MCP
 * responses, and the columnar `{cols, dict, rows}` table format. Both are lossless:
 * `decode(encode(tool, x))` deep-equals `x` for every JSON object `x`.
 *
 * ## MUNCH v1 in brief
 *
 * ```text
 * #MUNCH/1 tool=find_references enc=gen1
 *
 * @1=src/models/
 *
 * repo=acme/shop reference_count=3 __tables=r:references:file|line|kind:str|int|str __stypes=reference_count:int
 *
 * r,@1user.py,10,call
 * r,@1user.py,22,call
 * r,src/b.py,5,""
 * ```
 *
 * A header line, then sections separated by one blank line, and a trailing newline:
 *
 * - **Legend** (optional): `@N=<prefix>` lines, `N` dense from 1. A string value written as
 *   `@N<rest>` is the prefix followed by `rest`. A string that itself starts with `@` and a digit
 *   is written with a leading `@0` (handle 0 never exists): `@0@5x` is the string `@5x`.
 * - **Scalars**: one line of space-separated `key=value`. Keys of nested objects are dotted paths
 *   (`symbol.file=a.py`, `_meta.timing_ms=3.1`), re-nested on decode. A value is bare unless it is
 *   empty or holds `,`, `=`, whitespace, `"`, a backslash or a line break; then it is quoted with
 *   `""` for `"`. `null` is the empty bare value; the empty string is `""`. `T`/`F` are booleans,
 *   numbers are decimal, and `__stypes` (`key:int|key:float|key:bool`) types every non-string
 *   scalar outside `_meta.` (see below). Arrays that are not tables, and empty objects, are JSON
 *   blobs: `__json.<key>=<json>`.
 * - **Tables**: CSV rows (RFC 4180) whose first field is the table's tag `a`–`z`, one section per
 *   table. `__tables` describes them: `tag:key:col|col:type|type`, comma-separated, types
 *   `int`, `float`, `bool`, `str`. An unquoted empty field is `null`; `""` is the empty string.
 *
 * ## Choices where the spec is open (all readable by a decoder that follows the spec)
 *
 * - **Line breaks and backslashes.** Inside a quoted value or field, `\\` is a backslash, `\n` a
 *   line feed, `\r` a carriage return, `\uXXXX` a UTF-16 unit (for the other characters Python's
 *   `splitlines()` breaks on). Any value holding a backslash or line break is quoted and escaped,
 *   so a payload line never breaks inside a value, a blank line never appears inside a section,
 *   and an unquoted value is always literal.
 * - **Names.** In keys and column names the characters `% . = , : | " @ \` and whitespace are
 *   percent-encoded (`%2E` for `.`), so a key like `a.b` is not mistaken for nesting. A top-level
 *   key starting with `__` is written `%5F_…` so it cannot collide with the reserved keys.
 * - **`_meta.` scalars are typed by their literal form**, as in the spec's own example
 *   (`_meta.timing_ms=3.1 _meta.truncated=F`, no `__stypes`): a bare `T`/`F` is a boolean, bare
 *   number text (`2.4`, `-0.0`, `1.5e-05`) a number, anything else a string. A string that would
 *   read as a number or boolean is quoted (`_meta.note="10"`), as the spec quotes `""` to tell
 *   the empty string from null. An `__stypes` entry, when present, still decides. A decoder that
 *   types scalars only by `__stypes` reads these values as their text.
 * - **Column type `json`.** A column holding objects, arrays or mixed types has type `json`; each
 *   field is JSON text.
 * - **`__absent`** (`tag:col|col`, comma-separated) lists columns that some rows lack; in them an
 *   unquoted empty field means "key absent" (and `null` is written `null`, type `json`).
 * - **`__const`** (`tag:col|col`, comma-separated) lists table columns that hold one and the same
 *   value in every row and are written once, as the scalar `<tag>.<col>` (typed by `__stypes`
 *   like any scalar), instead of in each row: `r.kind=call __const=r:kind` means every row of
 *   table `r` has `kind: "call"`. The constants are the table's last columns in that order unless
 *   the entry ends with their indexes among all its columns (`r:kind|lang:1|3`). A column is moved
 *   only when the table has 4 rows or more, the value is not `null`, the move saves bytes and
 *   estimated tokens, the table keeps a column, and no top-level key is named like the tag, so a
 *   decoder that knows nothing of `__const` still reads the value (as `{"r": {"kind": "call"}}`).
 * - **`__xf`** lists the keys a tier-1 encoder reshaped (search_text's results split into a table
 *   of files with their match counts, `results`, and one of all matching lines in order,
 *   `__matches__`; a file outline's or file tree's nodes flattened in preorder with a `__depth`
 *   column; a repo outline's count maps of 32 entries or more turned into tables); the decoder
 *   reverses them by the encoding id. A decoder that does not know the id still reads the flat
 *   tables.
 * - **Numbers.** Integers are written in full (`12345678901234567000`, never `1e+19`); floats in
 *   Python `repr` style (`2.0`, `1.5e-05`), and `-0` is the float `-0.0`.
 * - **Non-MUNCH input** to {@linkcode decode} is parsed as JSON; malformed MUNCH throws
 *   `SyntaxError` naming the line and column. JSON inside the codec (and non-MUNCH input) is
 *   parsed with a guard against a V8 defect in Deno 2.9 (an object key written as an escape, such
 *   as `"\t"`, can come back as the key of an earlier object of the same shape), so
 *   `decode(tableText)` is the safe way to read the `table` format's text.
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
  decode,
  type DispatchOptions,
  encode,
  type EncodeOptions,
  encodeResponse,
  type EncodeResult,
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
