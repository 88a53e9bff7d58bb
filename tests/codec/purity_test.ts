/**
 * The codec is a pure library (issue 16): it reads no environment and writes no console output
 * (the server reads its settings and passes them in), its public docs lint clean, and `mod.ts`
 * alone is enough to use it.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
// Only the package entry point: everything a user needs must come from it.
import * as codemunch from "../../mod.ts";

const ROOT = join(import.meta.dirname!, "..", "..");

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) out.push(...sources(p));
    else if (e.name.endsWith(".ts")) out.push(p);
  }
  return out;
}

Deno.test("src/codec reads no environment and writes no console output", () => {
  const files = [...sources(join(ROOT, "src", "codec")), join(ROOT, "mod.ts")];
  ok(files.length > 10);
  const forbidden = [
    /\bDeno\.env\b/,
    /\bDeno\.(permissions|args|exit|cwd|readTextFile|readFile|stdout|stderr)\b/,
    /\bprocess\.env\b/,
    /\bconsole\.(log|error|warn|info|debug|trace)\b/,
  ];
  const hits: string[] = [];
  for (const f of files) {
    // Code only: examples in doc comments may print, the library may not.
    const code = Deno.readTextFileSync(f).replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
    for (const re of forbidden) if (re.test(code)) hits.push(`${f}: ${re}`);
  }
  deepStrictEqual(hits, []);
});

Deno.test("mod.ts alone round-trips every format", () => {
  const response = {
    result_count: 2,
    results: [
      { id: "src/a.py::f#function", name: "f", kind: "function", file: "src/a.py", line: 3 },
      { id: "src/a.py::g#function", name: "g", kind: "function", file: "src/a.py", line: 9 },
    ],
    _meta: { timing_ms: 1.5, truncated: false },
  };
  deepStrictEqual(codemunch.decode(codemunch.encode("search_symbols", response)), response);
  const ext = codemunch.encode("search_symbols", response, { extensions: true });
  deepStrictEqual(codemunch.decode(ext), response);
  for (const format of ["auto", "compact", "json", "table"] as const) {
    const r = codemunch.encodeResponse("search_symbols", response, { format, threshold: 0 });
    const back = codemunch.decode(r.text) as codemunch.JsonObject;
    deepStrictEqual(format === "table" ? codemunch.decodeTables(back) : back, response);
  }
  const table = codemunch.encodeTable(response.results);
  deepStrictEqual(codemunch.decodeTable(table), response.results);
  equal(codemunch.canEncodeV1(response), true);
  equal(codemunch.encodingId("search_symbols"), "gen1");
});

Deno.test("deno doc --lint mod.ts is clean", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--lint", "mod.ts"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  equal(out.code, 0, text);
  ok(!/error\[/.test(text), text);
});
