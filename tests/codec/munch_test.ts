import { deepStrictEqual, equal, match, ok, throws } from "node:assert/strict";
import fc from "fast-check";
import { decode, encode } from "../../mod.ts";
import type { JsonObject } from "../../src/codec/types.ts";
import { jsonObject, jsonValue, plain, trickyNumber, trickyString } from "./_arbitraries.ts";
import { SPECS, withSpec } from "./_specs.ts";

/** These tests cover the extended format (`#MUNCH/1x`); strict v1 is in strict_v1_test.ts. */
const EXT = { extensions: true };

/** Encode with the tool's tier-1 spec (test data: the codec knows no tool) and decode back. */
function roundTrip(x: JsonObject, tool = "some_tool"): string {
  const text = encode(tool, x, withSpec(tool, EXT));
  deepStrictEqual(decode(text, { specs: SPECS }), x, `round trip failed for payload:\n${text}`);
  return text;
}

Deno.test("extended MUNCH round-trips hand-written hard cases", async (t) => {
  const cases: Record<string, JsonObject> = {
    "blank lines in strings do not split sections": {
      s: "a\n\nb",
      rows: [{ t: "x\n\ny" }, { t: "\n\n\n" }],
    },
    "strings that look like legend handles": {
      s: "@1abc",
      z: "@0",
      rows: [{ f: "@1" }, { f: "@12/x" }, { f: "src/a/b.py" }, { f: "src/a/c.py" }],
    },
    "empty string vs null, in scalars and cells": {
      a: "",
      b: null,
      rows: [{ v: "", w: null }, { v: null, w: "" }],
    },
    "commas, quotes, equals, tabs, CR/LF": {
      s: 'a,b "c" d=e\tf\r\ng',
      rows: [{ v: 'x,"y"' }, { v: "=\t=" }, { v: "\r" }],
    },
    "unicode and emoji": { s: "héllo 😀 \u2028 \u0085", rows: [{ v: "日本語" }, { v: "😀" }] },
    "keys with special characters": {
      "a:b": 1,
      "c|d": 2,
      "e,f": 3,
      "g.h": 4,
      "i=j": 5,
      "k%l": 6,
      "m n": 7,
      "": 8,
      "@1": 9,
      "__tables": "user",
      "__json": { x: 1 },
      rows: [{ "a.b": 1, "c|d": "x", "e:f": true }],
    },
    "nested arrays and objects": {
      a: { b: { c: [1, [2, 3], { d: null }] } },
      e: {},
      f: [],
      g: [[]],
      rows: [{ x: { y: [1] } }, { x: [] }],
    },
    "mixed-type columns": { rows: [{ v: 1 }, { v: "1" }, { v: true }, { v: null }, { v: 1.5 }] },
    "optional columns and null together": { rows: [{ a: 1 }, { a: null }, { b: 2 }] },
    "numbers: -0, exponents, beyond 2^53": {
      z: -0,
      e: 1e-7,
      big: 12345678901234567890,
      huge: 1e21,
      neg: -1e300,
      tiny: 5e-324,
      rows: [{ n: -0 }, { n: 1.5 }, { n: 2 ** 53 + 2 }],
    },
    "_meta re-nests": { _meta: { timing_ms: 1.5, truncated: false, repo: "a/b" }, x: 1 },
    "_meta strings that look like numbers or booleans": {
      _meta: {
        a: "2.4",
        b: "T",
        c: "F",
        d: "10",
        e: "1e5",
        f: "-0",
        g: "",
        h: null,
        i: "+1",
        j: ".5",
        k: "@1",
        l: "t",
        m: "NaN",
      },
    },
    "_meta numbers and booleans": {
      _meta: { a: -0, b: 1e21, c: 12345678901234567890, d: 5e-324, e: true, f: false, g: 0 },
      __meta: { x: 1 },
      "_meta.x": 2,
    },
    "__proto__ keys stay own properties": JSON.parse(
      '{"__proto__": {"a": 1}, "rows": [{"__proto__": 1}, {"__proto__": 2}]}',
    ),
    "a list of 27 tables (more than the tag alphabet)": Object.fromEntries(
      Array.from({ length: 27 }, (_, i) => [`t${i}`, [{ a: i }, { a: i + 1 }]]),
    ),
    "rows with keys in different orders": { rows: [{ a: 1, b: 2 }, { b: 3, a: 4 }] },
    "a row of only empty objects falls back to JSON": { rows: [{}, {}] },
    "an empty last field at the end of a quote-free payload": { rows: [{ a: null }] },
    "a quote only in a later row": { rows: [{ a: "x", b: 1 }, { a: 'q"', b: null }] },
    "handles with large digits and @0": {
      rows: [{ f: "@99999999999x" }, { f: "@0" }, { f: "@" }, { f: "@12" }],
    },
  };
  for (const [name, value] of Object.entries(cases)) {
    await t.step(name, () => {
      roundTrip(value);
    });
  }
  const tier1: [string, string, JsonObject][] = [
    ["a tree whose children key is not last", "get_file_outline", {
      symbols: [{ id: "a", children: [{ id: "b" }], line: 1 }, { id: "c", line: 2 }],
    }],
    ["search_text: one row per matching line, naming its file", "search_text", {
      result_count: 3,
      results: [
        { file: "src/app/a.py", matches: [{ line: 1, text: "x" }, { line: 4, text: "y" }] },
        { file: "src/app/b.py", matches: [{ line: 2, text: "z", symbol: "src/app/b.py::f" }] },
      ],
    }],
  ];
  for (const [name, tool, value] of tier1) {
    await t.step(name, () => {
      const text = roundTrip(value, tool);
      ok(text.includes("__xf="), `expected ${tool} to reshape:\n${text}`);
    });
  }
  await t.step("search_text context lines are rows of their own, marked like grep's", () => {
    const text = roundTrip({
      result_count: 2,
      results: [
        {
          file: "src/app/models.py",
          matches: [
            { line: 3, text: "x = 1", before: ["import os", ""], after: ["y = 2"] },
            { line: 9, text: "z", before: [], after: [], symbol: "src/app/models.py::f#function" },
          ],
        },
        { file: "b.py", matches: [{ line: 1, text: "q", before: [], after: ["r", "s"] }] },
      ],
    }, "search_text");
    match(text, /__tables=m:__lines__:file\|line\|mark\|text\|symbol:str\|int\|str\|str\|str /);
    match(text, /^m,[^,]+,1,-,import os,$/m);
    match(text, /^m,[^,]+,2,-,"",$/m);
    match(text, /^m,[^,]+,3,:,x = 1,$/m);
    match(text, /^m,[^,]+,4,\+,y = 2,$/m);
    match(text, /^m,b\.py,3,\+,s,$/m);
    ok(!text.includes("["), `no JSON lists in cells:\n${text}`);
  });
  await t.step("a batched outline is one table of symbols with a file column", () => {
    const outline = (file: string) => ({
      repo: "local/app",
      file,
      language: "python",
      symbols: [
        {
          id: `${file}::A#class`,
          kind: "class",
          name: "A",
          line: 1,
          children: [{ id: `${file}::A.f#method`, kind: "method", name: "f", line: 2 }],
        },
        { id: `${file}::g#function`, kind: "function", name: "g", line: 9 },
      ],
    });
    const text = roundTrip({
      repo: "local/app",
      results: [outline("src/app/models.py"), outline("src/app/views.py"), {
        repo: "local/app",
        file: "src/app/empty.py",
        language: "python",
        symbols: [],
      }],
    }, "get_file_outline");
    match(text, /o:__symbols__:file\|__depth\|id\|name\|kind\|line:str\|int\|str\|str\|str\|int/);
    match(text, /^o,@\d+(models\.py)?,1,@\d+[^,]*,f,method,2$/m);
    ok(!text.includes("["), `no JSON lists in cells:\n${text}`);
  });
  // Shapes a transform does not fit are encoded generically, still lossless.
  const unfit: [string, string, JsonObject][] = [
    ["search_text: a file twice in a row, a file with no matches", "search_text", {
      results: [
        { file: "a.py", matches: [{ line: 1, text: "x" }] },
        { file: "a.py", matches: [{ line: 2, text: "y", file: "b.py" }] },
        { file: "c.py", matches: [] },
      ],
    }],
    ["search_text: no matches at all", "search_text", {
      results: [{ file: "a.py", matches: [] }],
    }],
  ];
  for (const [name, tool, value] of unfit) {
    await t.step(name, () => void roundTrip(value, tool));
  }
  await t.step("search_text rows name their file; the file is interned", () => {
    const text = roundTrip({
      result_count: 12,
      results: ["models", "views"].map((name) => ({
        file: `src/app/${name}.py`,
        matches: rowsOf(6, (i) => ({ line: i + 1, text: name.charAt(0) })),
      })),
    }, "search_text");
    match(text, /__tables=m:__lines__:file\|line\|text:str\|int\|str /);
    match(text, /^m,@\d+(models\.py)?,1,m$/m);
    match(text, /^m,@\d+(views\.py)?,6,v$/m);
  });
});

Deno.test("extended MUNCH output is deterministic, line-oriented and ends with a newline", () => {
  const files = ["a", "b", "c", "d", "e", "f"].map((n) => ({ f: `src/components/${n}.ts` }));
  const x = { b: 1, a: files };
  const text = encode("t", x, EXT);
  equal(encode("t", structuredClone(x), EXT), text);
  ok(text.endsWith("\n") && !text.endsWith("\n\n"));
  match(text, /^#MUNCH\/1x tool=t enc=gen1x\n\n/);
  match(text, /__tables=a:a:f:str/);
  match(text, /^@1=src\/components\/$/m);
});

Deno.test("extended MUNCH types _meta scalars by their literal form", async (t) => {
  await t.step("numbers and booleans carry no __stypes entry", () => {
    const text = roundTrip({ n: 1, _meta: { timing_ms: 2.4, tokens: 7, truncated: false } });
    match(text, / _meta\.timing_ms=2\.4 _meta\.tokens=7 _meta\.truncated=F /);
    match(text, / __stypes=n:int\n/);
  });
  await t.step("strings that would read as numbers or booleans are quoted", () => {
    const text = roundTrip({ _meta: { a: "2.4", b: "T", c: "x", d: "" } });
    match(text, /^_meta\.a="2\.4" _meta\.b="T" _meta\.c=x _meta\.d="" /m);
  });
  await t.step("_meta is flat scalars even where one JSON blob would be shorter", () => {
    const meta = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, i * 1.5]));
    const text = roundTrip({ _meta: meta });
    match(text, /^_meta\.k0=0 _meta\.k1=1\.5 /m);
    ok(!text.includes("__json._meta"), text);
  });
  await t.step("other scalars keep their __stypes entries", () => {
    const text = roundTrip({ a: { n: 1, s: "1" }, meta: { n: 2 } });
    match(text, /__stypes=a\.n:int\|meta\.n:int\n/);
  });
});

/** Round-trip and check that every object's keys come back in their order. */
function roundTripOrdered(x: JsonObject, tool = "some_tool"): string {
  const text = roundTrip(x, tool);
  equal(
    JSON.stringify(decode(text, { specs: SPECS })),
    JSON.stringify(x),
    `key order changed for:\n${text}`,
  );
  return text;
}

const rowsOf = (n: number, row: (i: number) => JsonObject) =>
  Array.from({ length: n }, (_, i) => row(i));

Deno.test("extended MUNCH writes a column holding one value in every row once, as a scalar", async (t) => {
  const ref = (i: number) => ({ file: `src/m${i % 3}.py`, line: i * 7 + 1, kind: "call" });
  await t.step("a constant last column becomes the scalar <tag>.<column>", () => {
    const text = roundTripOrdered({ refs: rowsOf(5, ref) });
    match(text, /^r\.kind=call __tables=r:refs:file\|line:str\|int __stypes= __const=r:kind\n/m);
    ok(!text.includes(",call"), text);
  });
  await t.step("constant columns elsewhere keep their positions", () => {
    const text = roundTripOrdered({
      refs: rowsOf(6, (i) => ({ kind: "call", file: `f${i}.py`, lang: "python", line: i })),
    });
    match(text, / __const=r:kind\|lang:0\|2\n/);
  });
  await t.step("typed constants are typed by __stypes", () => {
    const text = roundTripOrdered({
      rows: rowsOf(20, (i) => ({ id: i, depth: 0, score: 1.5, ok: true, neg: -0 })),
    });
    match(text, /__stypes=r\.depth:int\|r\.score:float\|r\.ok:bool\|r\.neg:float /);
  });
  await t.step("0 and -0 are different values", () => {
    const text = roundTripOrdered({ rows: rowsOf(20, (i) => ({ id: i, z: i % 2 ? 0 : -0 })) });
    ok(!text.includes("__const"), text);
  });
  await t.step("strings that look like handles, numbers or need quoting", () => {
    for (const v of ["@1x", "@0", "10", "T", "F", "", "a b", "x,y", 'q"q', "a\nb", "\\", "é😀"]) {
      roundTripOrdered({ rows: rowsOf(12, (i) => ({ id: i, v })) });
    }
  });
  await t.step("a null column stays in the rows", () => {
    const text = roundTripOrdered({ rows: rowsOf(30, (i) => ({ id: i, caller: null })) });
    ok(!text.includes("__const"), text);
  });
  await t.step("a table keeps at least one column", () => {
    const text = roundTripOrdered({
      rows: rowsOf(8, () => ({ kind: "call", lang: "python", src: "src/x" })),
    });
    match(text, / __tables=r:rows:kind:str .* __const=r:lang\|src\n/);
  });
  await t.step("fewer than 4 rows, or a top-level key named like the tag, keep the column", () => {
    ok(!roundTripOrdered({ refs: rowsOf(3, ref) }).includes("__const"));
    ok(!roundTripOrdered({ r: { kind: "x" }, refs: rowsOf(8, ref) }).includes("__const"));
    ok(!roundTrip({ refs: rowsOf(8, ref), r: null }).includes("__const"));
  });
  await t.step("special column names", () => {
    roundTripOrdered(JSON.parse(
      '{"rows": [' + Array(6).fill('{"__proto__": "x", "a.b": "y", "c|d": "z", "id": 1}').join() +
        "]}",
    ));
    roundTripOrdered({ rows: rowsOf(6, (i) => ({ "": "empty name", "%2E": "v", n: i })) });
  });
  await t.step("a table under a nested key", () => {
    const text = roundTripOrdered({ data: { n: 1, refs: rowsOf(6, ref) } });
    match(text, / r\.kind=call /);
  });
  await t.step("tier-1 tables", () => {
    roundTripOrdered({
      result_count: 5,
      results: rowsOf(5, (i) => ({ id: `a.py::f${i}#function`, kind: "function", line: i })),
    }, "search_symbols");
    roundTrip({
      symbols: rowsOf(5, (i) => ({
        id: `s${i}`,
        kind: "method",
        children: rowsOf(i % 3 ? 0 : 5, (j) => ({ id: `c${j}`, kind: "method" })),
      })),
    }, "get_file_outline");
    roundTrip({
      results: rowsOf(3, (i) => ({
        file: `f${i}.py`,
        matches: rowsOf(5, (j) => ({ line: j, text: "return self", kind: "code" })),
      })),
    }, "search_text");
  });
  await t.step("a decoder that ignores __const still reads the value as a scalar", () => {
    const text = encode("some_tool", { refs: rowsOf(5, ref) }, EXT).replace(/ __const=\S+/, "");
    const out = decode(text) as { r: unknown; refs: JsonObject[] };
    deepStrictEqual(out.r, { kind: "call" });
    deepStrictEqual(out.refs[0], { file: "src/m0.py", line: 1 });
  });
});

Deno.test("extended MUNCH round-trips tables with constant columns (property)", () => {
  const value = fc.oneof(
    { weight: 4, arbitrary: fc.oneof(trickyString, trickyNumber, fc.boolean(), fc.constant(null)) },
    { weight: 1, arbitrary: jsonValue },
  );
  const column = fc.oneof(
    fc.tuple(fc.constant(true), value),
    fc.tuple(fc.constant(false), fc.constant(null)),
  );
  const arb = fc.tuple(
    fc.uniqueArray(fc.oneof(trickyString, fc.constantFrom("kind", "line", "__proto__")), {
      minLength: 1,
      maxLength: 4,
    }),
    fc.array(column, { minLength: 4, maxLength: 4 }),
    fc.array(fc.array(value, { minLength: 4, maxLength: 4 }), { minLength: 4, maxLength: 9 }),
    fc.constantFrom("refs", "r", "data"),
  ).map(([keys, cols, rows, key]) => {
    const table = rows.map((values) => {
      const row: JsonObject = {};
      keys.forEach((k, i) => {
        const [constant, value] = cols[i]!;
        Object.defineProperty(row, k, {
          value: constant ? value : values[i] ?? null,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      });
      return row;
    });
    return plain(key === "data" ? { data: { refs: table } } : { [key]: table }) as JsonObject;
  });
  fc.assert(fc.property(arb, (x) => void roundTripOrdered(x)), { numRuns: 1500 });
});

Deno.test("extended MUNCH round-trips arbitrary JSON objects (property)", () => {
  fc.assert(
    fc.property(jsonObject, (x) => {
      roundTrip(x);
    }),
    { numRuns: 3000 },
  );
});

Deno.test("extended MUNCH tier-1 encoders round-trip arbitrary objects under their tool names (property)", () => {
  const tools = ["search_symbols", "get_file_outline", "get_repo_outline", "search_text"];
  fc.assert(
    fc.property(jsonObject, fc.constantFrom(...tools), (x, tool) => {
      roundTrip(x, tool);
    }),
    { numRuns: 2000 },
  );
});

Deno.test("decode reads non-MUNCH text as JSON", () => {
  deepStrictEqual(decode('{"a":[1,2]}'), { a: [1, 2] });
  throws(() => decode("not json"), SyntaxError);
});

Deno.test("decode rejects malformed MUNCH with SyntaxError naming line and column", async (t) => {
  const bad: Record<string, [string, RegExp]> = {
    "unsupported version": ["#MUNCH/2 tool=x enc=gen1\n\na=1\n", /unsupported MUNCH version "2"/],
    "malformed header": ["#MUNCH/1 tool\n\na=1\n", /malformed header .* at line 1, column 1/],
    "missing =": [
      "#MUNCH/1x tool=x enc=gen1x\n\na=1 b\n",
      /expected "=" after key "b" at line 3, column 5/,
    ],
    "unterminated quote": [
      '#MUNCH/1x tool=x enc=gen1x\n\na="x\n',
      /unterminated quoted value at line 3, column 3/,
    ],
    "unknown tag": [
      "#MUNCH/1x tool=x enc=gen1x\n\n__tables=\n\nq,1\n",
      /unknown table tag "q" at line 5, column 1/,
    ],
    "wrong field count": [
      "#MUNCH/1x tool=x enc=gen1x\n\n__tables=t:r:a|b:int|int\n\nt,1,2\nt,1\n",
      /table "t" row has 1 fields, expected 2 at line 6, column 1/,
    ],
    "bad quoted field": [
      '#MUNCH/1x tool=x enc=gen1x\n\n__tables=t:r:a:str\n\nt,"x"y\n',
      /expected "," after quoted field at line 5, column 6/,
    ],
    "bad escape": [
      '#MUNCH/1x tool=x enc=gen1x\n\na="\\q"\n',
      /invalid escape "\\q" at line 3, column 3/,
    ],
    "bad json blob": [
      '#MUNCH/1x tool=x enc=gen1x\n\n__json.a="{"\n',
      /invalid JSON in "__json.a" at line 3/,
    ],
    "__const naming an unknown table": [
      "#MUNCH/1x tool=x enc=gen1x\n\nq.a=1 __tables=t:r:b:int __const=q:a\n\nt,1\n",
      /__const names unknown table "q" at line 3, column 1/,
    ],
    "__const without its scalar": [
      "#MUNCH/1x tool=x enc=gen1x\n\n__tables=t:r:b:int __const=t:a\n\nt,1\n",
      /no scalar "t.a" for constant column "a" at line 3, column 1/,
    ],
    "__const positions out of order": [
      "#MUNCH/1x tool=x enc=gen1x\n\nt.a=1 t.c=2 __tables=t:r:b:int __const=t:a|c:2|0\n\nt,1\n",
      /invalid __const entry "t:a\|c:2\|0" at line 3, column 1/,
    ],
    "__const position past the end": [
      "#MUNCH/1x tool=x enc=gen1x\n\nt.a=1 __tables=t:r:b:int __const=t:a:2\n\nt,1\n",
      /constant column "a" is past the end of table "t" at line 3, column 1/,
    ],
    "bad legend": [
      "#MUNCH/1x tool=x enc=gen1x\n\n@x=1\n\na=1\n",
      /invalid legend line "@x=1" at line 3/,
    ],
  };
  for (const [name, [payload, re]] of Object.entries(bad)) {
    await t.step(name, () => {
      throws(() => decode(payload), (e: unknown) => e instanceof SyntaxError && re.test(e.message));
    });
  }
});

Deno.test("decode follows the spec for payloads from other encoders", async (t) => {
  await t.step("the spec's table example", () => {
    const payload = "#MUNCH/1 tool=find_references enc=fr1\n\n" +
      "__tables=t:references:file|line|kind:str|int|str\n\n" +
      "t,src/a.py,10,call\nt,src/a.py,22,call\nt,src/b.py,5,ref\n";
    deepStrictEqual(decode(payload), {
      references: [
        { file: "src/a.py", line: 10, kind: "call" },
        { file: "src/a.py", line: 22, kind: "call" },
        { file: "src/b.py", line: 5, kind: "ref" },
      ],
    });
  });
  await t.step("legend handles expand; unknown handles stay verbatim", () => {
    const payload = "#MUNCH/1 tool=x enc=zz9\n\n@1=src/models/\n\n" +
      "__tables=t:r:f:str\n\nt,@1user.py\nt,@7x\n";
    deepStrictEqual(decode(payload), { r: [{ f: "src/models/user.py" }, { f: "@7x" }] });
  });
  await t.step("int and float fields that are not numbers stay text", () => {
    const payload = "#MUNCH/1 tool=x enc=gen1\n\n__tables=t:r:n|b:int|bool\n\nt,abc,T\nt,,x\n";
    deepStrictEqual(decode(payload), { r: [{ n: "abc", b: true }, { n: null, b: false }] });
  });
  await t.step("the spec's _meta example: typed by literal form", () => {
    const payload = "#MUNCH/1 tool=x enc=gen1\n\n_meta.timing_ms=3.1 _meta.truncated=F " +
      '_meta.n=12 _meta.s="12" _meta.e= _meta.t=text _meta.u=2 __stypes=_meta.u:str\n';
    deepStrictEqual(decode(payload), {
      _meta: { timing_ms: 3.1, truncated: false, n: 12, s: "12", e: null, t: "text", u: "2" },
    });
  });
  await t.step("scalars typed by __stypes, the rest strings", () => {
    const payload = '#MUNCH/1 tool=x enc=gen1\n\nn=42 r=0.5 ok=T s=42 e= q="" ' +
      "__stypes=n:int|r:float|ok:bool\n";
    deepStrictEqual(decode(payload), { n: 42, r: 0.5, ok: true, s: "42", e: null, q: "" });
  });
});

Deno.test("extended tier-1 transforms round-trip the shapes they reshape (property)", async (t) => {
  const node = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.record({
      id: trickyString,
      kind: fc.constantFrom("class", "method", "function"),
      line: fc.nat(),
      children: fc.option(fc.array(tie("node"), { minLength: 0, maxLength: 3 }), {
        nil: undefined,
      }),
    }, { requiredKeys: ["id", "kind", "line"] }),
  })).node as unknown as fc.Arbitrary<JsonObject>;
  const cases: [string, fc.Arbitrary<unknown>][] = [
    [
      "search_text",
      fc.record({
        result_count: fc.nat(),
        results: fc.array(
          fc.record({
            file: trickyString,
            matches: fc.array(
              fc.oneof(
                fc.record({
                  line: fc.nat(),
                  text: trickyString,
                  before: fc.array(trickyString),
                }, { requiredKeys: ["line", "text"] }),
                fc.record({
                  line: fc.nat(),
                  text: trickyString,
                  before: fc.array(trickyString, { maxLength: 3 }),
                  after: fc.array(trickyString, { maxLength: 3 }),
                  symbol: fc.option(trickyString),
                }),
              ),
              { maxLength: 4 },
            ),
          }),
          { maxLength: 5 },
        ),
      }),
    ],
    [
      // Every match with context lists: the lines transform applies.
      "search_text",
      fc.record({
        result_count: fc.nat(),
        results: fc.uniqueArray(
          fc.record({
            file: trickyString,
            matches: fc.array(
              fc.record({
                line: fc.nat(),
                text: trickyString,
                before: fc.array(trickyString, { maxLength: 3 }),
                after: fc.array(trickyString, { maxLength: 3 }),
                symbol: fc.option(trickyString),
              }, { requiredKeys: ["line", "text", "before", "after"] }),
              { minLength: 1, maxLength: 4 },
            ),
          }),
          { maxLength: 5, selector: (g) => g.file },
        ),
      }),
    ],
    [
      "get_file_outline",
      fc.record({ repo: trickyString, symbols: fc.array(node, { maxLength: 4 }) }),
    ],
    [
      "get_file_outline",
      fc.record({
        repo: trickyString,
        results: fc.array(
          fc.record({
            file: trickyString,
            language: trickyString,
            symbols: fc.array(node, { maxLength: 3 }),
          }),
          { maxLength: 4 },
        ),
      }),
    ],
    [
      "get_repo_outline",
      fc.record({
        repo: trickyString,
        languages: fc.dictionary(trickyString, fc.nat(), { noNullPrototype: true }),
        directories: fc.dictionary(trickyString, jsonValue, { noNullPrototype: true }),
      }),
    ],
    [
      // Maps of 32 entries or more become tables.
      "get_repo_outline",
      fc.record({
        languages: fc.dictionary(trickyString, fc.nat(), {
          minKeys: 30,
          maxKeys: 40,
          noNullPrototype: true,
        }),
        directories: fc.dictionary(trickyString, jsonValue, {
          minKeys: 30,
          maxKeys: 40,
          noNullPrototype: true,
        }),
      }),
    ],
  ];
  for (const [i, [tool, arb]] of cases.entries()) {
    await t.step(`${tool} ${i}`, () => {
      fc.assert(fc.property(arb, (x) => void roundTrip(plain(x) as JsonObject, tool)), {
        // The large-map case builds 60+ tricky entries per run.
        numRuns: i === cases.length - 1 ? 100 : 700,
      });
    });
  }
});

Deno.test("a reshaped extended payload needs its spec to decode", () => {
  const outline = {
    symbols: [{ id: "a.py::f#function", name: "f", children: [{ id: "a.py::f.g#function" }] }],
  };
  const text = encode("get_file_outline", outline, withSpec("get_file_outline", EXT));
  match(text, /__xf=symbols/);
  throws(
    () => decode(text),
    (e: unknown) => e instanceof TypeError && /options\.specs/.test(e.message),
  );
  deepStrictEqual(decode(text, { specs: SPECS }), outline);
});
