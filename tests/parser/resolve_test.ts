/** Import resolution against repo-wide knowledge (go.mod, package roots, include dirs). */
import assert from "node:assert/strict";
import {
  buildOutline,
  type ParseResult,
  parseSource,
  resolveImports,
} from "../../src/parser/mod.ts";

const enc = new TextEncoder();

async function resolved(
  files: Record<string, string>,
  file: string,
  rootName?: string,
): Promise<(string | null)[]> {
  const results: ParseResult[] = [];
  for (const [path, text] of Object.entries(files)) {
    const r = await parseSource(path, enc.encode(text));
    if (r.status !== "skipped") results.push(r);
  }
  resolveImports(
    results,
    new Set(Object.keys(files)),
    (p) => files[p],
    rootName === undefined ? {} : { rootName },
  );
  return results.find((r) => r.file === file)!.imports.map((i) => i.resolved);
}

Deno.test("go: module paths, the std module, vendor and nested modules", async (t) => {
  await t.step("std: unprefixed imports are packages of the repo, tests excluded", async () => {
    const files = {
      "go.mod": "module std\n",
      "net/http/server.go": 'package http\n\nimport (\n\t"fmt"\n\t"golang.org/x/net/idna"\n)\n',
      "fmt/print.go": "package fmt\n",
      "fmt/fmt_test.go": "package fmt\n",
      "vendor/golang.org/x/net/idna/idna.go": "package idna\n",
    };
    assert.deepEqual(await resolved(files, "net/http/server.go"), [
      "fmt/print.go",
      "vendor/golang.org/x/net/idna/idna.go",
    ]);
  });
  await t.step("a nested module (cmd/go.mod) and an external package", async () => {
    const files = {
      "go.mod": "module std\n",
      "cmd/go.mod": "module cmd\n",
      "cmd/go/main.go": 'package main\n\nimport (\n\t"cmd/internal/base"\n\t"github.com/x/y"\n)\n',
      "cmd/internal/base/base.go": "package base\n",
      "cmd/internal/base/doc.go": "package base\n",
    };
    assert.deepEqual(await resolved(files, "cmd/go/main.go"), ["cmd/internal/base/base.go", null]);
  });
  await t.step(
    "the module's root package (gin's ginS imports github.com/gin-gonic/gin)",
    async () => {
      const files = {
        "go.mod": "module github.com/gin-gonic/gin\n",
        "gin.go": "package gin\n",
        "context.go": "package gin\n",
        "ginS/gins.go": 'package ginS\n\nimport "github.com/gin-gonic/gin"\n',
      };
      assert.deepEqual(await resolved(files, "ginS/gins.go"), ["context.go"]);
    },
  );
});

Deno.test("python: a checkout that is itself the package resolves its own absolute imports", async () => {
  const files = {
    "__init__.py": "",
    "db/__init__.py": "",
    "db/models/__init__.py": "",
    "db/models/base.py": "from django.db.models import fields\nimport os.path\n",
    "db/models/fields.py": "",
  };
  assert.deepEqual(await resolved(files, "db/models/base.py"), ["db/models/__init__.py", null]);
});

Deno.test("python: a package checkout named by its folder leaves other packages external", async () => {
  // Before the folder's name was used, `email.utils` lost its first part and resolved to the
  // repo's own `utils/` (django's `import email.utils` -> `utils/__init__.py`).
  const files = {
    "__init__.py": "",
    "utils/__init__.py": "",
    "db/__init__.py": "",
    "db/models/__init__.py": "",
    "db/models/base.py": "from django.db.models import fields\nimport email.utils\n" +
      "from _typeshed.wsgi import WSGIApplication\nimport django\nfrom django import db\n",
    "db/models/fields.py": "",
    "wsgi.py": "",
  };
  assert.deepEqual(await resolved(files, "db/models/base.py", "django"), [
    "db/models/__init__.py",
    null,
    null,
    "__init__.py",
    "__init__.py", // the package itself; the import graph expands its submodule `db`
  ]);
  // A folder name that is no Python name (a versioned copy) keeps the older rule.
  assert.deepEqual(
    (await resolved(files, "db/models/base.py", "django-4.2"))[0],
    "db/models/__init__.py",
  );
});

Deno.test("c: includes relative to the file, the root, then include directories", async () => {
  const files = {
    "src/main.c": '#include "util.h"\n#include "acme/api.h"\n#include <stdio.h>\n',
    "src/util.h": "int util(void);\n",
    "include/acme/api.h": "int api(void);\n",
  };
  assert.deepEqual(await resolved(files, "src/main.c"), ["src/util.h", "include/acme/api.h", null]);
});

Deno.test("javascript: unresolvable relative imports and packages stay external", async () => {
  const files = {
    "src/a.js": 'import x from "./missing";\nimport y from "lodash";\nimport z from "./b";\n',
    "src/b.mjs": "export default 1;\n",
  };
  assert.deepEqual(await resolved(files, "src/a.js"), [null, null, "src/b.mjs"]);
});

Deno.test("lua: dotted module names from the root, lua/ and src/, with init.lua", async () => {
  const files = {
    "app/main.lua": 'local u = require("app.util")\nlocal c = require "core"\n' +
      'local j = require("cjson")\n',
    "app/util.lua": "return {}\n",
    "lua/core/init.lua": "return {}\n",
  };
  assert.deepEqual(await resolved(files, "app/main.lua"), [
    "app/util.lua",
    "lua/core/init.lua",
    null,
  ]);
});

Deno.test("dart: relative URIs and package: URIs of the repo's own pubspec", async () => {
  const files = {
    "pkg/pubspec.yaml": "name: acme\nversion: 1.0.0\n",
    "pkg/lib/src/a.dart": "import 'b.dart';\nimport 'package:acme/api.dart';\n" +
      "import 'package:http/http.dart';\nimport 'dart:io';\n",
    "pkg/lib/src/b.dart": "class B {}\n",
    "pkg/lib/api.dart": "class Api {}\n",
  };
  assert.deepEqual(await resolved(files, "pkg/lib/src/a.dart"), [
    "pkg/lib/src/b.dart",
    "pkg/lib/api.dart",
    null,
    null,
  ]);
});

Deno.test("zig, solidity and bash: paths from the file's directory, then the root", async () => {
  const files = {
    "src/main.zig": 'const std = @import("std");\nconst util = @import("util.zig");\n',
    "src/util.zig": "pub fn f() void {}\n",
    "contracts/Token.sol": 'import "./lib/Math.sol";\nimport "contracts/Base.sol";\n' +
      'import "@openzeppelin/contracts/token/ERC20/ERC20.sol";\n',
    "contracts/lib/Math.sol": "library Math {}\n",
    "contracts/Base.sol": "contract Base {}\n",
    "scripts/deploy.sh": 'source ./lib.sh\n. "$DIR/env.sh"\nsource scripts/common.sh\n' +
      "source /etc/profile\n",
    "scripts/lib.sh": "f() { :; }\n",
    "scripts/common.sh": "g() { :; }\n",
  };
  assert.deepEqual(await resolved(files, "src/main.zig"), [null, "src/util.zig"]);
  assert.deepEqual(await resolved(files, "contracts/Token.sol"), [
    "contracts/lib/Math.sol",
    "contracts/Base.sol",
    null,
  ]);
  assert.deepEqual(await resolved(files, "scripts/deploy.sh"), [
    "scripts/lib.sh",
    null,
    "scripts/common.sh",
    null,
  ]);
});

Deno.test("buildOutline nests methods under classes and keeps source order", async () => {
  const src = "class A:\n    def m(self):\n        def inner():\n            pass\n\n" +
    "    class B:\n        def n(self):\n            pass\n\ndef top():\n    pass\n";
  const { symbols } = await parseSource("o.py", enc.encode(src));
  const shape = (nodes: ReturnType<typeof buildOutline>): unknown =>
    nodes.map((n) => [n.symbol.qualified_name, shape(n.children)]);
  assert.deepEqual(shape(buildOutline(symbols)), [
    ["A", [["A.m", [["A.m.inner", []]]], ["A.B", [["A.B.n", []]]]]],
    ["top", []],
  ]);
});

Deno.test("module_file: a module named as its file, beside the importer, else anywhere", async () => {
  // Emacs Lisp: `(require 'x)` is `x.el` beside the file first, then the shortest path named so.
  const el = {
    "lisp/main.el": "(require 'helm-core)\n(require 'util)\n(require 'cl-lib)\n",
    "lisp/util.el": "(provide 'util)\n",
    "vendor/deep/helm/helm-core.el": "(provide 'helm-core)\n",
    "helm-core.el": "(provide 'helm-core)\n",
    "util.el": "(provide 'util)\n",
  };
  assert.deepEqual(await resolved(el, "lisp/main.el"), ["helm-core.el", "lisp/util.el", null]);
  // ReScript: `open Js.Promise` is the file of its first part; `.res` before `.resi`.
  const res = {
    "src/App.res": "open Utils\ninclude Api.Client\nopen Belt\n",
    "src/lib/Utils.resi": "let x: int => int\n",
    "src/lib/Utils.res": "let x = a => a\n",
    "src/Api.res": "module Client = {}\n",
  };
  assert.deepEqual(await resolved(res, "src/App.res"), ["src/lib/Utils.res", "src/Api.res", null]);
});
