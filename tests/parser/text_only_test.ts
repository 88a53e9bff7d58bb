/** Text-only files through the worker pool: answered without a worker, with their language. */
import { deepStrictEqual } from "node:assert/strict";
import { ParserPool } from "../../src/parser/mod.ts";

Deno.test("the pool answers a text-only file at once, and still parses code", async () => {
  const pool = new ParserPool({ workers: 1 });
  try {
    const enc = new TextEncoder();
    const cmake = await pool.parse("build/rules.cmake", enc.encode("set(X 1)\n"));
    deepStrictEqual([cmake.language, cmake.status, cmake.symbols.length], ["cmake", "ok", 0]);
    // Ada went from text only to symbols (our own scanner), through a worker.
    const ada = await pool.parse(
      "src/main.adb",
      enc.encode("procedure Main is\nbegin\n  null;\nend Main;\n"),
    );
    deepStrictEqual(ada.symbols.map((s) => s.id), ["src/main.adb::Main#function"]);
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
