import { deepStrictEqual, equal, match, ok, throws } from "node:assert/strict";
import { decode, decodeTables, encodeResponse } from "../../mod.ts";
import type { JsonObject } from "../../src/codec/types.ts";
import { withSpec } from "./_specs.ts";

const hits: JsonObject = {
  result_count: 40,
  results: Array.from({ length: 40 }, (_, i) => ({
    id: `src/services/billing/invoice_${i % 4}.py::Invoice.total_${i}#method`,
    kind: "method",
    name: `total_${i}`,
    file: `src/services/billing/invoice_${i % 4}.py`,
    line: 10 + i,
    signature: `def total_${i}(self) -> Decimal:`,
    summary: "Compute the invoice total.",
    byte_length: 120 + i,
  })),
};

Deno.test("encodeResponse picks the format and reports sizes", async (t) => {
  await t.step("auto sends MUNCH when it saves at least the threshold", () => {
    const r = encodeResponse("search_symbols", hits);
    equal(r.encoding, "gen1");
    match(r.text, /^#MUNCH\/1 tool=search_symbols enc=gen1\n/);
    equal(r.json_bytes, new TextEncoder().encode(JSON.stringify(hits)).length);
    equal(r.encoded_bytes, new TextEncoder().encode(r.text).length);
    equal(r.encoding_tokens_saved, Math.floor((r.json_bytes - r.encoded_bytes) / 4));
    ok(r.encoded_bytes < r.json_bytes * 0.6);
    deepStrictEqual(decode(r.text), hits);
  });
  await t.step("auto sends JSON when the saving is below the threshold", () => {
    const small = { repo: "a/b", ok: true };
    const r = encodeResponse("list_repos", small);
    equal(r.encoding, "json");
    equal(r.text, JSON.stringify(small));
    equal(r.encoding_tokens_saved, 0);
    const high = encodeResponse("search_symbols", hits, { threshold: 0.99 });
    equal(high.encoding, "json");
    equal(high.fallback, "threshold");
  });
  await t.step("compact always sends MUNCH; gen1 for tools without a spec", () => {
    const r = encodeResponse("list_repos", { repo: "a/b" }, { format: "compact" });
    equal(r.encoding, "gen1");
    deepStrictEqual(decode(r.text), { repo: "a/b" });
  });
  await t.step("json and the aliases", () => {
    equal(encodeResponse("search_symbols", hits, { format: "json" }).encoding, "json");
    equal(encodeResponse("search_symbols", hits, { format: "raw" }).encoding, "json");
    equal(encodeResponse("search_symbols", hits, { format: "encoded" }).encoding, "gen1");
    equal(encodeResponse("search_symbols", hits, { format: "adaptive" }).encoding, "gen1");
    const ext = encodeResponse(
      "search_symbols",
      hits,
      withSpec("search_symbols", { format: "compact" as const, extensions: true }),
    );
    equal(ext.encoding, "ss1x");
    deepStrictEqual(decode(ext.text), hits);
  });
  await t.step("table sends the JSON table form", () => {
    const r = encodeResponse("search_symbols", hits, { format: "table" });
    equal(r.encoding, "table");
    deepStrictEqual(decodeTables(decode(r.text) as JsonObject), hits);
    ok(r.encoded_bytes < r.json_bytes);
  });
  await t.step("bad format and threshold are rejected", () => {
    throws(
      () => encodeResponse("x", {}, { format: "yaml" as "json" }),
      /Unknown format "yaml": expected one of auto, adaptive, compact, encoded, json, raw, table/,
    );
    throws(() => encodeResponse("x", {}, { threshold: 2 }), RangeError);
  });
});

Deno.test("encodeResponse reports an encoder failure and falls back to JSON, logging nothing", () => {
  const logged: unknown[] = [];
  const original = { error: console.error, log: console.log, warn: console.warn };
  console.error = console.log = console.warn = (...args: unknown[]) => void logged.push(args);
  try {
    const r = encodeResponse("bad tool name", { a: 1 }, { format: "compact" });
    equal(r.encoding, "json");
    equal(r.text, '{"a":1}');
    equal(r.fallback, "encoder_error");
    match(r.encoder_error ?? "", /invalid tool name/);
  } finally {
    Object.assign(console, original);
  }
  equal(logged.length, 0);
});

Deno.test("encodeResponse reads no environment: the caller passes the settings", () => {
  Deno.env.set("JCODEMUNCH_DEFAULT_FORMAT", "json");
  Deno.env.set("JCODEMUNCH_ENCODING_THRESHOLD", "0.99");
  try {
    equal(encodeResponse("search_symbols", hits).encoding, "gen1");
    equal(encodeResponse("search_symbols", hits, { format: "json" }).encoding, "json");
    equal(encodeResponse("search_symbols", hits, { threshold: 0.99 }).encoding, "json");
  } finally {
    Deno.env.delete("JCODEMUNCH_DEFAULT_FORMAT");
    Deno.env.delete("JCODEMUNCH_ENCODING_THRESHOLD");
  }
});

Deno.test("auto sends JSON when rows would hold JSON text, in both formats", () => {
  const rows = Array.from({ length: 20 }, (_, i) => ({
    id: `src/pkg/module_${i % 3}.py::f_${i}#function`,
    line: i,
    decorators: i % 5 ? [] : ["@overload"],
  }));
  for (const extensions of [false, true]) {
    const r = encodeResponse(
      "search_symbols",
      { results: rows },
      withSpec("search_symbols", { extensions, threshold: 0 }),
    );
    equal(r.encoding, "json");
    equal(r.fallback, "json_blobs");
    const c = encodeResponse(
      "search_symbols",
      { results: rows },
      withSpec("search_symbols", { extensions, format: "compact" as const }),
    );
    equal(c.encoding, extensions ? "ss1x" : "gen1");
    deepStrictEqual(decode(c.text), { results: rows });
  }
  const flat = rows.map(({ id, line }) => ({ id, line }));
  const ext = withSpec("search_symbols", { extensions: true });
  equal(encodeResponse("search_symbols", { results: flat }, ext).encoding, "ss1x");
  equal(
    encodeResponse("search_symbols", { results: flat }, { extensions: true }).encoding,
    "gen1x",
  );
});

Deno.test("an empty tool name is refused by the extended encoder in a fresh process", async () => {
  // The check is cached per tool name: the first call of a process must not skip it.
  const mod = new URL("../../mod.ts", import.meta.url).href;
  const script = `import { encode } from "${mod}";
try { encode("", { a: 1 }, { extensions: true }); console.log("encoded"); }
catch (e) { console.log(e.message); }`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--config", new URL("../../deno.dev.json", import.meta.url).pathname, script],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  match(new TextDecoder().decode(out.stdout), /invalid tool name ""/);
});
