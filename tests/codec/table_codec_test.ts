import { deepStrictEqual, equal, throws } from "node:assert/strict";
import fc from "fast-check";
import { decodeTable, decodeTables, encodeTable, encodeTables } from "../../mod.ts";
import { parseJson, stringifyJson } from "../../src/codec/json_text.ts";
import type { JsonObject, JsonValue } from "../../src/codec/types.ts";
import { jsonObject, jsonValue } from "./_arbitraries.ts";

Deno.test("decodeTable follows the documented rule", async (t) => {
  await t.step("the spec example", () => {
    const table = {
      cols: ["id", "title", "agent", "model"],
      dict: {
        agent: ["build", "executor-gpt"],
        model: [{ id: "claude-opus", provider: "anthropic" }],
      },
      rows: [["ses_a1", "Fix retry bug", 0, 0], ["ses_b2", "Cost audit", 1, 0]],
    };
    deepStrictEqual(decodeTable(table), [
      {
        id: "ses_a1",
        title: "Fix retry bug",
        agent: "build",
        model: { id: "claude-opus", provider: "anthropic" },
      },
      {
        id: "ses_b2",
        title: "Cost audit",
        agent: "executor-gpt",
        model: { id: "claude-opus", provider: "anthropic" },
      },
    ]);
  });
  await t.step("plain arrays pass through; null gives []", () => {
    const plain = [{ a: 1 }];
    equal(decodeTable(plain), plain);
    deepStrictEqual(decodeTable(null), []);
  });
  await t.step("out-of-range and non-integer dict cells pass through as literals", () => {
    deepStrictEqual(
      decodeTable({ cols: ["a"], dict: { a: ["x"] }, rows: [[0], [1], [-1], [0.5], ["0"]] }),
      [{ a: "x" }, { a: 1 }, { a: -1 }, { a: 0.5 }, { a: "0" }],
    );
  });
  await t.step("dict entries for columns not in cols are ignored", () => {
    deepStrictEqual(decodeTable({ cols: ["a"], dict: { b: [] }, rows: [[1]] }), [{ a: 1 }]);
  });
});

Deno.test("encodeTable interns the columns that save bytes, or the ones named", () => {
  const rows = Array.from({ length: 20 }, (_, i) => ({
    file: "src/services/payments/stripe.ts",
    line: i,
  }));
  const t = encodeTable(rows);
  deepStrictEqual(t.cols, ["file", "line"]);
  deepStrictEqual(t.dict, { file: ["src/services/payments/stripe.ts"] });
  equal(t.rows[3]![0], 0);
  deepStrictEqual(encodeTable(rows, { intern: ["line"] }).dict.line!.length, 20);
  deepStrictEqual(decodeTable(t), rows);
  throws(() => encodeTable([]), TypeError);
  throws(() => encodeTable([{ a: 1 }, { b: 1 }]), /same keys/);
});

Deno.test("encodeTable/decodeTable round-trip uniform rows (property)", () => {
  const rows = fc.tuple(
    fc.uniqueArray(fc.string(), { minLength: 1, maxLength: 5 }),
    fc.array(fc.array(jsonValue, { minLength: 5, maxLength: 5 }), { minLength: 1, maxLength: 8 }),
  ).map(([keys, values]) =>
    values.map((v) => Object.fromEntries(keys.map((k, i) => [k, v[i] ?? null])) as JsonObject)
  );
  fc.assert(
    fc.property(rows, fc.boolean(), (r, internAll) => {
      const t = encodeTable(r, internAll ? { intern: Object.keys(r[0]!) } : {});
      deepStrictEqual(decodeTable(t), r);
      // The table form is JSON: it survives a text round trip (values free of -0).
      const text = JSON.stringify(t);
      if (text === stringifyJson(t as unknown as JsonValue)) {
        deepStrictEqual(decodeTable(parseJson(text) as never), r);
      }
    }),
    { numRuns: 500 },
  );
});

Deno.test("encodeTables/decodeTables round-trip any response (property)", () => {
  fc.assert(
    fc.property(jsonObject, (x) => {
      deepStrictEqual(decodeTables(encodeTables(x)), x);
    }),
    { numRuns: 2000 },
  );
});

Deno.test("encodeTables escapes objects that look like tables", () => {
  const tricky: JsonValue = {
    a: { cols: ["x"], dict: {}, rows: [[1]] },
    b: { __literal: { y: 1 } },
    c: [{ cols: [], dict: {}, rows: [] }, { cols: [], dict: {}, rows: [] }],
  };
  const packed = encodeTables(tricky) as JsonObject;
  deepStrictEqual((packed.a as JsonObject).__literal, { cols: ["x"], dict: {}, rows: [[1]] });
  deepStrictEqual(decodeTables(packed), tricky);
  deepStrictEqual(decodeTables(parseJson(JSON.stringify(packed))), tricky);
});
