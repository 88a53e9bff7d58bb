import { deepStrictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import { parseJson, stringifyJson } from "../../src/codec/json_text.ts";
import { decode, encode } from "../../mod.ts";
import { jsonValue } from "./_arbitraries.ts";

Deno.test("parseJson survives V8's escaped-key defect", async (t) => {
  // In Deno 2.9.6 (V8 15.0) plain JSON.parse returns the key "\\" for the second text.
  const first = '{"kind":true,"\\\\":[1],"line":"x"}';
  const second = '{"kind":true,"\\t":[1],"line":"x"}';
  await t.step("objects of the same shape with different escaped keys", () => {
    deepStrictEqual(Object.keys(parseJson(first) as object), ["kind", "\\", "line"]);
    deepStrictEqual(Object.keys(parseJson(second) as object), ["kind", "\t", "line"]);
  });
  await t.step("json cells and blobs decode through it", () => {
    const x = {
      rows: [{ v: { kind: true, "\\": [1], line: "x" } }, {
        v: { kind: true, "\t": [1], line: "x" },
      }],
      blob: [{ kind: 1, "\n": 2 }],
    };
    deepStrictEqual(decode(encode("t", x, { extensions: true })), x);
    deepStrictEqual(decode(encode("t", x)), x);
  });
});

Deno.test("parseJson reads what JSON.parse reads (property)", () => {
  fc.assert(
    fc.property(jsonValue, (v) => {
      // The guarded path (escaped keys) and the plain path must both give the value back.
      deepStrictEqual(parseJson(stringifyJson(v)), v);
    }),
    { numRuns: 1000 },
  );
  deepStrictEqual(parseJson(' {"\\ta" : [1, -0.5e3, true, null, "\\u00e9"]} '), {
    "\ta": [1, -500, true, null, "é"],
  });
  deepStrictEqual(parseJson('{"\\n":{"\\"":[]}}'), { "\n": { '"': [] } });
  deepStrictEqual(Object.keys(parseJson('{"__proto__":1,"\\t":2}') as object), ["__proto__", "\t"]);
  throws(() => parseJson('{"\\n":1,}'), SyntaxError);
  throws(() => parseJson('{"\\n":tru}'), SyntaxError);
});
