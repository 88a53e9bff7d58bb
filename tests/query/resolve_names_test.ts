/**
 * Name resolution (src/query/resolve_names.ts) over small real programs, indexed for real: each
 * language family's scoping and receivers as its `LanguageSemantics` declare them.
 */
import { deepEqual, equal } from "node:assert/strict";
import { CALL_GRAPH } from "../../src/query/call_graph.ts";
import { IMPORT_GRAPH } from "../../src/query/import_graph.ts";
import { bindsModule, NAME_RESOLVER } from "../../src/query/resolve_names.ts";
import { semanticsOf } from "../../src/parser/semantics/mod.ts";
import type { RepoView } from "../../src/query/view.ts";
import { indexedView } from "./_fixture.ts";

/** Every call site named `callee` in `file`, as `line receiver.callee -> targets (resolution)`. */
function _resolved(view: RepoView, file: string, callee: string): string[] {
  const resolver = view.get(NAME_RESOLVER);
  return view.get(CALL_GRAPH).sitesOf(file).filter((s) => s.callee === callee).map((s) => {
    const r = resolver.resolveCall(s);
    const call = `${s.line} ${s.receiver === null ? "" : s.receiver + "."}${callee}`;
    return r === null
      ? `${call} -> null`
      : `${call} -> ${r.targets.map((t) => t.id).join(",")} (${r.resolution})`;
  });
}

Deno.test("resolve_names: Python scopes, self, super, imports and hints", async () => {
  const { view, close } = await indexedView({
    "pkg/__init__.py": "",
    "pkg/base.py":
      "class Base:\n    def save(self):\n        pass\n\n    def log(self):\n        pass\n",
    "pkg/shop.py": [
      "from pkg.base import Base",
      "",
      "class Shop(Base):",
      "    def save(self):",
      "        super().save()",
      "        self.log()",
      "",
      "def run(s: Shop, other):",
      "    s.save()",
      "    other.log()",
      "    helper()",
      "",
      "def helper():",
      "    pass",
      "",
    ].join("\n"),
  });
  try {
    deepEqual(_resolved(view, "pkg/shop.py", "save"), [
      "5 super().save -> pkg/base.py::Base.save#method (resolved)",
      "9 s.save -> pkg/shop.py::Shop.save#method (resolved)",
    ]);
    deepEqual(_resolved(view, "pkg/shop.py", "log"), [
      // self: a member of an ancestor.
      "6 self.log -> pkg/base.py::Base.log#method (resolved)",
      // An unknown receiver matches the methods the file can see, by name.
      "10 other.log -> pkg/base.py::Base.log#method (by_name)",
    ]);
    deepEqual(_resolved(view, "pkg/shop.py", "helper"), [
      "11 helper -> pkg/shop.py::helper#function (resolved)",
    ]);
  } finally {
    await close();
  }
});

Deno.test("resolve_names: Python `import a.b.c as d` binds the module to d", async () => {
  // Before, the alias was dropped: `d.fetch()` had no module and matched every `fetch` by name.
  const { view, close } = await indexedView({
    "pkg/__init__.py": "",
    "pkg/net/__init__.py": "",
    "pkg/net/client.py": "def fetch(url):\n    pass\n",
    "pkg/cache.py": "def fetch(key):\n    pass\n",
    "app.py": "import pkg.net.client as d\nimport pkg.cache\n\ndef run():\n    d.fetch(1)\n" +
      "    pkg.cache.fetch(2)\n",
  });
  try {
    deepEqual(_resolved(view, "app.py", "fetch"), [
      "5 d.fetch -> pkg/net/client.py::fetch#function (resolved)",
      "6 pkg.cache.fetch -> pkg/cache.py::fetch#function (resolved)",
    ]);
    deepEqual(view.get(IMPORT_GRAPH).importsOf.get("app.py")?.map((i) => i.names), [
      ["* as d"],
      [],
    ]);
  } finally {
    await close();
  }
});

Deno.test("resolve_names: Go packages are folders, receivers and lower-case names", async () => {
  const { view, close } = await indexedView({
    "go.mod": "module example.com/shop\n",
    "store/store.go": [
      "package store",
      "",
      "type Store struct{}",
      "",
      "func New() *Store { return &Store{} }",
      "",
      "func (s *Store) Put() { s.flush() }",
      "",
    ].join("\n"),
    "store/flush.go": "package store\n\nfunc (s *Store) flush() { check() }\n\nfunc check() {}\n",
    "other/other.go": "package other\n\nfunc (o *T) flush() {}\n\ntype T struct{}\n",
    "cmd/main.go": [
      "package main",
      "",
      'import "example.com/shop/store"',
      "",
      "func main() {",
      "\tx := store.New()",
      "\tx.Put()",
      "\tx.flush()",
      "\tundefinedHere()",
      "}",
      "",
    ].join("\n"),
  });
  try {
    // The receiver variable means the method's type, declared in another file of the package.
    deepEqual(_resolved(view, "store/store.go", "flush"), [
      "7 s.flush -> store/flush.go::Store.flush#method (resolved)",
    ]);
    // A bare name of the package, in another of its files.
    deepEqual(_resolved(view, "store/flush.go", "check"), [
      "3 check -> store/flush.go::check#function (resolved)",
    ]);
    deepEqual(_resolved(view, "cmd/main.go", "New"), [
      "6 store.New -> store/store.go::New#function (resolved)",
    ]);
    deepEqual(_resolved(view, "cmd/main.go", "Put"), [
      "7 x.Put -> store/store.go::Store.Put#method (by_name)",
    ]);
    // A lower-case method is invisible outside its package; an unknown name is a builtin's.
    deepEqual(_resolved(view, "cmd/main.go", "flush"), ["8 x.flush -> null"]);
    deepEqual(_resolved(view, "cmd/main.go", "undefinedHere"), ["9 undefinedHere -> null"]);
  } finally {
    await close();
  }
});

Deno.test("resolve_names: Java implicit this and classes of the package", async () => {
  const { view, close } = await indexedView({
    "com/acme/Engine.java":
      "package com.acme;\n\npublic class Engine {\n  public void start() {}\n}\n",
    "com/acme/Car.java": [
      "package com.acme;",
      "",
      "public class Car {",
      "  void drive() {",
      "    honk();",
      "    Engine.start();",
      "    missing();",
      "  }",
      "  void honk() {}",
      "}",
      "",
    ].join("\n"),
  });
  try {
    deepEqual(_resolved(view, "com/acme/Car.java", "honk"), [
      "5 honk -> com/acme/Car.java::Car.honk#method (resolved)",
    ]);
    // A class of the same package, seen without an import: a static-style call.
    deepEqual(_resolved(view, "com/acme/Car.java", "start"), [
      "6 Engine.start -> com/acme/Engine.java::Engine.start#method (resolved)",
    ]);
    // Closed scope: a name found nowhere in scope is a library's.
    deepEqual(_resolved(view, "com/acme/Car.java", "missing"), ["7 missing -> null"]);
  } finally {
    await close();
  }
});

Deno.test("resolve_names: TypeScript this, namespace imports and barrels", async () => {
  const { view, close } = await indexedView({
    "src/util/log.ts": "export function log(m: string) {}\n",
    "src/util/index.ts": 'export { log } from "./log";\n',
    "src/main.ts": [
      'import * as util from "./util/index";',
      'import { log } from "./util";',
      "",
      "class App {",
      "  run() { this.stop(); util.log('a'); log('b'); }",
      "  stop() {}",
      "}",
      "",
    ].join("\n"),
  });
  try {
    deepEqual(_resolved(view, "src/main.ts", "stop"), [
      "5 this.stop -> src/main.ts::App.stop#method (resolved)",
    ]);
    deepEqual(_resolved(view, "src/main.ts", "log"), [
      "5 util.log -> src/util/log.ts::log#function (resolved)",
      "5 log -> src/util/log.ts::log#function (resolved)",
    ]);
  } finally {
    await close();
  }
});

Deno.test("bindsModule: each family's module names", () => {
  const go = semanticsOf("go");
  equal(bindsModule({ specifier: "github.com/x/go-yaml/v3", names: [] }, "yaml", go), true);
  equal(bindsModule({ specifier: "net/http", names: [] }, "http", go), true);
  const py = semanticsOf("python");
  equal(bindsModule({ specifier: "os.path", names: [] }, "os.path", py), true);
  equal(bindsModule({ specifier: "pkg", names: ["mod"] }, "mod", py), true);
  equal(bindsModule({ specifier: "pkg.sub.mod", names: ["* as m"] }, "m", py), true);
  equal(bindsModule({ specifier: "pkg.sub.mod", names: ["* as m"] }, "pkg.sub.mod", py), false);
  const js = semanticsOf("javascript");
  equal(bindsModule({ specifier: "./util", names: ["* as u"] }, "u", js), true);
  equal(bindsModule({ specifier: "./util", names: [] }, "util", js), true);
  equal(bindsModule({ specifier: "./util", names: [] }, "util", semanticsOf("java")), false);
});
