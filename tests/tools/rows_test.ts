/**
 * The row helpers keep a response's lists inside MUNCH v1 tables (property): records with any
 * scalar values, keys missing from some rows and text with line breaks, once squared and put on
 * one line, encode with no JSON blob and read back exactly with the three spec-only decoders. An
 * empty string is the exception (MUNCH v1 reads every empty cell as null): its list is a blob.
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import fc from "fast-check";
import { encodeResponse } from "../../mod.ts";
import type { JsonObject, JsonValue } from "../../src/codec/types.ts";
import { oneLine } from "../../src/query/one_line.ts";
import { countsText, decoratorText, squareRows } from "../../src/tools/rows.ts";
import { plain, trickyNumber, trickyString } from "../codec/_arbitraries.ts";
import { decodeNestMetaOnly, decodeSchemaFree } from "../codec/_v1_decoders.ts";
import { decodeReferenceGen1 } from "../codec/_reference_gen1_decoder.ts";

const COLUMNS = ["file", "line", "kind", "text", "symbol", "decorators", "score"];

/** One column's values are of one kind, as a tool's are (a v1 column has one type). */
const cell = (column: string): fc.Arbitrary<JsonValue> =>
  column === "line"
    ? fc.oneof(fc.integer(), fc.constant(null))
    : column === "score"
    ? fc.oneof(trickyNumber, fc.constant(null))
    : fc.oneof(trickyString.map(oneLine).filter((s) => s !== ""), fc.constant(null));

const rows: fc.Arbitrary<Record<string, JsonValue>[]> = fc.array(
  fc.record(Object.fromEntries(COLUMNS.map((c) => [c, cell(c)])), { requiredKeys: ["file"] }),
  { minLength: 1, maxLength: 12 },
);

Deno.test("squared one-line rows are one MUNCH v1 table that spec-only decoders read back (property)", () => {
  fc.assert(
    fc.property(rows, (list) => {
      // fast-check's records have no prototype: rebuild them as plain objects.
      const results = squareRows(plain(list) as Record<string, JsonValue>[]);
      const response: JsonObject = { result_count: list.length, results };
      const r = encodeResponse("search_text", response, { format: "compact" });
      ok(!r.text.includes("__json.results"), r.text);
      deepStrictEqual(decodeReferenceGen1(r.text), response, r.text);
      deepStrictEqual(decodeNestMetaOnly(r.text), response, r.text);
      deepStrictEqual(decodeSchemaFree(r.text), response, r.text);
      // `auto` never falls back for blobs.
      ok(encodeResponse("search_text", response).fallback !== "json_blobs");
    }),
    { numRuns: 500 },
  );
  // An empty string in a row: no v1 table cell reads back as "", so the list is a blob.
  const response = { result_count: 1, results: squareRows([{ file: "a.py", text: "" }]) };
  const r = encodeResponse("search_text", response, { format: "compact" });
  ok(r.text.includes("__json.results="), r.text);
  deepStrictEqual(decodeReferenceGen1(r.text), response, r.text);
  ok(encodeResponse("search_text", response).fallback === "json_blobs");
});

Deno.test("decorators, counts and one-line text", () => {
  deepStrictEqual(decoratorText([]), null);
  deepStrictEqual(
    decoratorText(["@app.route(\n    '/x',\n    methods=['GET'],\n)", "@login_required"]),
    "@app.route( '/x', methods=['GET'], ) @login_required",
  );
  deepStrictEqual(countsText({ b: 2, a: 2, c: 9 }), "c:9 a:2 b:2");
  deepStrictEqual(oneLine("a \r\n\t b\u2028c\fd"), "a b c d");
  deepStrictEqual(squareRows([{ a: 1 }, { b: 2 }]), [{ a: 1, b: null }, { b: 2, a: null }]);
});
