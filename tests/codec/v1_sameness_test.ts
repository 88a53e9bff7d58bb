/**
 * The strict MUNCH v1 codec after its speed work is byte-for-byte the codec before it: the
 * encoder writes the same text (and reports the same record blobs, the same refusals and the same
 * errors) as the frozen copy in `_frozen_v1/`, and the decoder returns the same object — or the
 * same error — for every payload, well-formed or damaged.
 *
 * The encoder has changed on purpose since (issue 27, interop with the reference's gen1 decoder):
 * `_meta` and `null` scalars are `__json.` blobs, a list with an empty string in a row is a blob,
 * and no legend handle is followed by a digit of another script. The encoder comparison therefore
 * runs on responses those rules do not touch ({@linkcode untouched}); strict_v1_test.ts checks
 * the new rules. The decoder did not change and is compared on every payload.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import fc from "fast-check";
import { decodeV1 } from "../../src/codec/decode_v1.ts";
import { encodeStrict } from "../../src/codec/encode_v1.ts";
import { specFor } from "./_specs.ts";
import { isJsonObject, type JsonObject, type JsonValue } from "../../src/codec/types.ts";
import * as frozen from "./_frozen_v1/mod.ts";
import { jsonObject, plain, trickyNumber, trickyString } from "./_arbitraries.ts";

const TOOLS = [
  "search_symbols",
  "get_file_outline",
  "find_references",
  "search_text",
  "get_file_tree",
  "get_repo_outline",
  "some_tool",
];

/** What a call returned or threw, in a form `deepStrictEqual` compares exactly. */
type Outcome = { ok: unknown } | { error: string };

function _outcome(f: () => unknown): Outcome {
  try {
    return { ok: f() };
  } catch (e) {
    return { error: `${(e as Error).name}: ${(e as Error).message}` };
  }
}

/**
 * `x` without what the issue-27 rules changed: no `_meta`, no top-level `null`, no empty string
 * (`"e"` instead) and no digit outside ASCII (`"n"` instead) anywhere.
 */
function untouched(x: JsonObject): JsonObject {
  const text = (v: JsonValue): JsonValue => {
    if (typeof v === "string") return v === "" ? "e" : v.replace(/(?![0-9])\p{N}/gu, "n");
    if (Array.isArray(v)) return v.map(text);
    if (isJsonObject(v)) {
      const o: JsonObject = {};
      for (const k of Object.keys(v)) {
        const value = text(v[k]!);
        Object.defineProperty(o, k, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return o;
    }
    return v;
  };
  const out = text(x) as JsonObject;
  for (const k of Object.keys(out)) if (k === "_meta" || out[k] === null) delete out[k];
  return out;
}

/** Both encoders agree on `x` for `tool`, with the tool's spec and without. */
function assertSameEncoding(tool: string, x: JsonObject): void {
  for (const spec of [specFor(tool), undefined]) {
    const now = _outcome(() => encodeStrict(tool, x, spec));
    const then = _outcome(() => frozen.encodeStrict(tool, x, spec));
    deepStrictEqual(now, then, `encoders differ for ${tool} on ${JSON.stringify(x)}`);
  }
}

/** The payloads the encoder writes for `x`, with the tool's spec and without. */
function payloads(tool: string, x: JsonObject): string[] {
  const texts: string[] = [];
  for (const spec of [specFor(tool), undefined]) {
    const text = (_outcome(() => encodeStrict(tool, x, spec)) as { ok?: { text: string } }).ok
      ?.text;
    if (text !== undefined) texts.push(text);
  }
  return texts;
}

/** Both decoders agree on `payload`: the same object (key order too) or the same error. */
function assertSameDecoding(payload: string): void {
  const now = _outcome(() => decodeV1(payload));
  const then = _outcome(() => frozen.decodeV1(payload));
  deepStrictEqual(now, then, `decoders differ on:\n${payload}`);
  if ("ok" in now) equal(_keyOrder(now.ok), _keyOrder((then as { ok: unknown }).ok));
}

function _keyOrder(v: unknown): string {
  return JSON.stringify(
    v,
    (_k, x) =>
      x !== null && typeof x === "object" && !Array.isArray(x)
        ? Object.fromEntries(Object.keys(x).map((k) => [k === "__proto__" ? "%proto" : k, x[k]]))
        : x,
  );
}

// Responses shaped like the server's (and the codec bench's): real-looking paths and symbol ids
// under a few directories, signatures with commas and quotes, null summaries, typed `_meta`.
const DIRS = ["django/db/models/", "django/db/models/sql/", "django/http/", "tests/", "", "@1/"];
const NAMES = ["get", "query", "Model", "save", "__init__", "a", "get_queryset", "9lives", "x,y"];
const path = fc.tuple(fc.constantFrom(...DIRS), fc.constantFrom("base.py", "query.py", "a b.py"))
  .map(([d, f]) => d + f);
const symbolId = fc.tuple(path, fc.constantFrom(...NAMES), fc.constantFrom("function", "class"))
  .map(([p, n, k]) => `${p}::${n}#${k}`);
const text = fc.oneof(
  fc.constantFrom("def get(self, *args, **kwargs):", 'return self.filter(name="x")', "", "  "),
  trickyString,
);
const meta = fc.record({
  timing_ms: fc.constantFrom(2.4, 0, 13),
  tokens_saved: fc.nat(),
  truncated: fc.boolean(),
}, { requiredKeys: [] });

const hit = fc.record({
  id: symbolId,
  kind: fc.constantFrom("function", "class", "method"),
  name: fc.constantFrom(...NAMES),
  file: path,
  line: fc.nat(5000),
  signature: text,
  summary: fc.option(text),
  byte_length: fc.nat(),
  decorators: fc.option(fc.constantFrom("@property", "@1x")),
  score: trickyNumber,
  _freshness: fc.constantFrom("fresh", "stale"),
});
const reference = fc.record({
  file: path,
  line: fc.nat(5000),
  caller: fc.option(symbolId),
  name: fc.constantFrom(...NAMES),
  kind: fc.constant("call"),
});
const textLine = fc.record({
  file: path,
  line: fc.nat(5000),
  kind: fc.constantFrom("match", "context"),
  text,
  symbol: fc.option(symbolId),
});
const fileRow = fc.record({
  path,
  language: fc.option(fc.constantFrom("python", "go")),
  symbol_count: fc.nat(300),
});

const serverLike: fc.Arbitrary<[string, JsonObject]> = fc.oneof(
  fc.tuple(
    fc.constant("search_symbols"),
    fc.record({ result_count: fc.nat(), results: fc.array(hit, { maxLength: 30 }), _meta: meta }),
  ),
  fc.tuple(
    fc.constant("find_references"),
    fc.record({
      repo: fc.constant("local/django-1a2b"),
      identifier: fc.constantFrom(...NAMES),
      references: fc.array(reference, { maxLength: 60 }),
      _meta: meta,
    }),
  ),
  fc.tuple(
    fc.constant("search_text"),
    fc.record({
      result_count: fc.nat(),
      results: fc.array(textLine, { maxLength: 30 }),
      _meta: meta,
    }),
  ),
  fc.tuple(
    fc.constant("get_file_tree"),
    fc.record({
      repo: fc.string(),
      path_prefix: fc.constantFrom("", "django/"),
      files: fc.array(fileRow, { maxLength: 40 }),
      _meta: meta,
    }),
  ),
  fc.tuple(
    fc.constant("get_repo_outline"),
    fc.record({
      repo: fc.string(),
      file_count: fc.nat(),
      directories: fc.dictionary(fc.constantFrom(...DIRS), fc.nat()),
      _meta: meta,
    }),
  ),
) as fc.Arbitrary<[string, JsonObject]>;

/** Damage a payload: drop, insert or repeat text at a position. */
const damage = fc.tuple(
  fc.nat(),
  fc.constantFrom("drop", "insert", "repeat"),
  fc.constantFrom(
    ",",
    '"',
    "\n",
    "\n\n",
    "@",
    "@1",
    "@0",
    "=",
    " ",
    ":",
    "|",
    "1",
    "-",
    ".",
    "T",
    "\\",
    "\u2028",
    "\t",
    "@99999999999",
  ),
  fc.integer({ min: 1, max: 12 }),
);

function _damaged(payload: string, [at, how, insert, n]: [number, string, string, number]): string {
  const i = at % (payload.length + 1);
  if (how === "drop") return payload.slice(0, i) + payload.slice(i + n);
  if (how === "insert") return payload.slice(0, i) + insert + payload.slice(i);
  return payload.slice(0, i) + payload.slice(i, i + n) + payload.slice(i);
}

Deno.test("strict v1 encoder writes the same bytes as before its speed work (property)", async (t) => {
  await t.step("server-shaped responses", () => {
    fc.assert(
      fc.property(serverLike, ([tool, x]) => {
        assertSameEncoding(tool, untouched(plain(x) as JsonObject));
      }),
      { numRuns: 600 },
    );
  });
  await t.step("arbitrary JSON objects", () => {
    fc.assert(
      fc.property(jsonObject, fc.constantFrom(...TOOLS), (raw, tool) => {
        assertSameEncoding(tool, untouched(plain(raw) as JsonObject));
      }),
      { numRuns: 600 },
    );
  });
  await t.step("refusals and errors", () => {
    // Each twice in a row: a name checked once is not let through the second time.
    for (
      const tool of ["", "", "bad tool", "bad tool", "x\n", "search_symbols", "search_symbols"]
    ) {
      for (const x of [null, [], "s", 1, {}, { "a.b": 1 }, { __x: 1 }, { _meta: { "a b": 1 } }]) {
        assertSameEncoding(tool, x as unknown as JsonObject);
        assertSameEncoding(tool, { ok: 1 });
      }
    }
  });
});

Deno.test("strict v1 decoder reads every payload as before its speed work (property)", async (t) => {
  await t.step("payloads and damaged payloads", () => {
    fc.assert(
      fc.property(
        fc.oneof(serverLike, fc.tuple(fc.constantFrom(...TOOLS), jsonObject)),
        fc.array(damage, { maxLength: 3 }),
        ([tool, raw], damages) => {
          for (const payload of payloads(tool, plain(raw) as JsonObject)) {
            assertSameDecoding(payload);
            let d = payload;
            for (const x of damages) {
              d = _damaged(d, x);
              assertSameDecoding(d);
            }
          }
        },
      ),
      { numRuns: 600 },
    );
  });
  await t.step("hand-written payloads", () => {
    const cases = [
      "",
      "#MUNCH/1",
      "#MUNCH/1 tool=x enc=y",
      "#MUNCH/1 tool=x enc=y\n",
      "#MUNCH/1 tool=x enc=y\n\n",
      "#MUNCH/1 tool=x enc=y\n\na=1",
      "#MUNCH/1 tool=x enc=y\n\na=1 __stypes=a:int\n",
      '#MUNCH/1 tool=x enc=y\n\n@1=src/\n@2=\n\nn=@1 __tables=r:refs:f|l|b:str|int|bool\n\nr,@1a.py,10,T\nr,@2,,F\nr,"@1""q",-3,\n',
      "#MUNCH/1 tool=x enc=y\n\nx=1 __tables=r:refs:f:str\n\nr,a,b\n",
      "#MUNCH/1 tool=x enc=y\n\nx=1 __tables=r:refs:f|g:str|str\n\nr,a\n",
      "#MUNCH/1 tool=x enc=y\n\nx=1 __tables=r:refs:f|g:str|str\n\nq,a,b\n",
      "#MUNCH/1 tool=x enc=y\n\nx=1 __tables=r:a.b:f:json\n\nr,[1]\n",
      '#MUNCH/1 tool=x enc=y\n\n_meta.t=3.1 _meta.f=F _meta.s="10" a.b.c=1 __json.z=[1,-0] __json.y=x\n',
      '#MUNCH/1 tool=x enc=y\n\nk="unterminated\n',
      '#MUNCH/1 tool=x enc=y\n\nk=1 __tables="r:x:a|b:int|float" \n\nr,1e5,-0.0\nr,007,1.5e-05\nr,99999999999999999999,x\n',
      "#MUNCH/1 tool=x enc=y\n\n@x=1\n\nk=1\n",
      "#MUNCH/1 tool=x enc=y\n\nk=1\n\nk=2\n",
      '#MUNCH/1 tool=x enc=y\n\na=1\tb="x y"\t \tc= d=T\t__stypes=a:int|d:bool\t\n',
      '#MUNCH/1 tool=x enc=y\n\nk=1 __tables=r:x:__proto__|a:str|str\n\nr,1,2\nr,"3",4\n',
    ];
    for (const c of cases) assertSameDecoding(c);
  });
});
