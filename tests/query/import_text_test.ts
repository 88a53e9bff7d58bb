/**
 * The imports a refactoring plan writes (src/query/import_text.ts), over a small indexed tree: the
 * statement of each family's import writer, relative specifiers from any folder, a Python
 * absolute specifier written from the same source root as the one it replaces, the extension rule
 * of ES imports, and a language without an import writer refused by name.
 */
import { equal, throws } from "node:assert/strict";
import { ToolError } from "../../src/errors.ts";
import {
  boundModule,
  importLine,
  importSpecifier,
  importWriterOf,
} from "../../src/query/import_text.ts";
import { indexedView } from "./_fixture.ts";

const python = importWriterOf("python");
const ecmascript = importWriterOf("typescript");

Deno.test("import_text: the statement of each family", () => {
  equal(python.statement(".money", ["total", "tax"]), "from .money import total, tax");
  equal(ecmascript.statement("./money.ts", ["total"]), 'import { total } from "./money.ts";');
  equal(
    ecmascript.statement("./m", ["a"], 'export { a, b } from "./x";'),
    'export { a } from "./m";',
  );
  equal(importWriterOf("go").statement("example.com/x/store", []), 'import "example.com/x/store"');
});

Deno.test("import_text: a language without an import writer is refused by name", () => {
  for (const language of ["rust", "sql"]) {
    throws(
      () => importWriterOf(language),
      (e) =>
        e instanceof ToolError && e.code === "unsupported_language" &&
        e.message.startsWith(`Cannot rewrite imports for ${language}: moves are planned for `) &&
        e.message.includes("python") && e.message.includes("typescript") &&
        e.message.includes("go"),
    );
  }
});

Deno.test("import_text: the name a whole-module import binds", () => {
  equal(boundModule("import numpy as np"), "np");
  equal(boundModule("import os.path"), "os.path");
  equal(boundModule('import * as path from "node:path";'), "path");
  equal(boundModule("from a import b"), null);
  equal(boundModule('import { a } from "./a";'), null);
});

Deno.test("import_text: specifiers as seen from the importing file", async (t) => {
  const { view, close } = await indexedView({
    "src/shapes/__init__.py": "",
    "src/shapes/square.py": "def square():\n    return 1\n",
    "src/shapes/circle.py": "def circle():\n    return 2\n",
    "src/app/main.py": "from shapes.square import square\n",
    "pkg/a/b.py": "def b():\n    return 1\n",
    "pkg/c.py": "def c():\n    return 1\n",
    "pkg/sub/__init__.py": "def s():\n    return 1\n",
    "web/app/main.ts": "export const x = 1;\n",
    "web/lib/util.ts": "export const y = 1;\n",
  });
  try {
    await t.step("python, relative: dots for each folder up", () => {
      equal(importSpecifier(view, "pkg/a/b.py", "pkg/c.py", python, null), "..c");
      equal(importSpecifier(view, "pkg/c.py", "pkg/a/b.py", python, null), ".a.b");
      equal(importSpecifier(view, "pkg/c.py", "pkg/sub/__init__.py", python, ".x"), ".sub");
    });
    await t.step("python, absolute: from the root of the specifier it replaces", () => {
      equal(
        importSpecifier(view, "src/app/main.py", "src/shapes/circle.py", python, "shapes.square"),
        "shapes.circle",
      );
      equal(
        importLine(view, "src/app/main.py", "src/shapes/circle.py", ["circle"], python, "shapes"),
        "from shapes.circle import circle",
      );
    });
    await t.step("ecmascript: relative, with the extension the replaced import writes", () => {
      equal(
        importSpecifier(view, "web/app/main.ts", "web/lib/util.ts", ecmascript, null),
        "../lib/util.ts",
      );
      equal(
        importSpecifier(view, "web/app/main.ts", "web/lib/util.ts", ecmascript, "./x.js"),
        "../lib/util.js",
      );
      equal(
        importSpecifier(view, "web/app/main.ts", "web/lib/util.ts", ecmascript, "./x"),
        "../lib/util",
      );
      equal(
        importSpecifier(view, "web/lib/other.ts", "web/lib/util.ts", ecmascript, null),
        "./util.ts",
      );
      equal(
        importSpecifier(view, "main.ts", "web/lib/util.ts", ecmascript, null),
        "./web/lib/util.ts",
      );
    });
  } finally {
    await close();
  }
});
