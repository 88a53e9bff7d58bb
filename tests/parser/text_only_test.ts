/** Text-only files through the worker pool: answered without a worker, with their language. */
import { deepStrictEqual } from "node:assert/strict";
import { ParserPool } from "../../src/parser/mod.ts";

Deno.test("the pool answers a text-only file at once, and still parses code", async () => {
  const pool = new ParserPool({ workers: 1 });
  try {
    const enc = new TextEncoder();
    const ada = await pool.parse(
      "src/main.adb",
      enc.encode("procedure Main is begin null; end;\n"),
    );
    deepStrictEqual([ada.language, ada.status, ada.symbols.length], ["ada", "ok", 0]);
    // Protocol Buffers went from text only to symbols (npm protobufjs), through a worker.
    const proto = await pool.parse("api/user.proto", enc.encode("message User {}\n"));
    deepStrictEqual(proto.symbols.map((s) => s.id), ["api/user.proto::User#type"]);
    const rst = await pool.parse("docs/index.rst", enc.encode("Title\n=====\n"));
    deepStrictEqual([rst.language, rst.status], ["restructuredtext", "ok"]);
    const py = await pool.parse("app.py", enc.encode("def f():\n    pass\n"));
    deepStrictEqual(py.symbols.map((s) => s.id), ["app.py::f#function"]);
  } finally {
    await pool.close();
  }
});
