/**
 * Issue 31's "every symbol" items, each on a small real parse: JavaScript/TypeScript module-level
 * bindings that are no functions and properties assigned on objects, Go struct fields and
 * interface methods as members of their type, and a TypeScript schema factory as a type. (The
 * conformance fixtures hold them too; this names each item and its kind.)
 */
import assert from "node:assert/strict";
import { parseSource } from "../../src/parser/mod.ts";

async function kinds(file: string, source: string): Promise<Record<string, string>> {
  const r = await parseSource(file, new TextEncoder().encode(source));
  assert.equal(r.status, "ok", `${file}: ${r.reason}`);
  return Object.fromEntries(r.symbols.map((s) => [s.qualified_name, s.kind]));
}

Deno.test("JavaScript: module-level const/let that are no functions, assigned properties, class fields", async () => {
  const got = await kinds(
    "lib/app.js",
    [
      'const path = require("path");',
      "const registry = new WeakMap();",
      'const config = { port: 3000, host: "localhost" };',
      "let requests = 0;",
      'exports.version = "1.2.0";',
      'app.mountpath = "/";',
      "module.exports.limit = 10;",
      "class Cache {",
      "  size = 0;",
      "  #entries = new Map();",
      "  clear = () => this.#entries.clear();",
      "}",
      "",
    ].join("\n"),
  );
  assert.deepEqual(got, {
    registry: "constant",
    config: "constant",
    requests: "variable",
    "exports.version": "property",
    "app.mountpath": "property",
    "module.exports.limit": "property",
    Cache: "class",
    "Cache.size": "field",
    "Cache.#entries": "field",
    "Cache.clear": "method",
  });
});

Deno.test("JavaScript: a binding through a chained assignment is named by its variable", async () => {
  // Express's examples and router: `var app = module.exports = express()`.
  const got = await kinds(
    "examples/mvc/index.js",
    [
      "var app = module.exports = express();",
      "var pets = exports.pets = [];",
      'const VERSION = exports.VERSION = "4.0";',
      "var proto = module.exports = function (options) { return options; };",
      'let fs = module.exports = require("fs");',
      "",
    ].join("\n"),
  );
  assert.deepEqual(got, {
    app: "variable",
    pets: "variable",
    VERSION: "constant",
    proto: "function",
  });
});

Deno.test("TypeScript: a zod-style factory is a type; fields, interface properties, enum members", async () => {
  const got = await kinds(
    "src/schema.ts",
    [
      'import { z } from "zod";',
      "export const User = z.object({ name: z.string() });",
      "export type User = z.infer<typeof User>;",
      'export const ROLES = ["admin", "user"] as const;',
      "const cache = new Map<string, User>();",
      "export interface Named { readonly name: string; greet(): string }",
      "export enum Color { Red, Green = 2 }",
      "export class Store { private items: string[] = []; }",
      "declare const BUILD_ID: string;",
      "",
    ].join("\n"),
  );
  assert.equal(got["User"], "type");
  assert.deepEqual(
    [got["ROLES"], got["cache"], got["Named.name"], got["Named.greet"]],
    ["constant", "constant", "field", "method"],
  );
  assert.deepEqual(
    [got["Color.Red"], got["Color.Green"], got["Store.items"], got["BUILD_ID"]],
    ["constant", "constant", "field", "constant"],
  );
});

Deno.test("Go: struct fields and interface methods are members of their type", async () => {
  const got = await kinds(
    "server.go",
    [
      "package server",
      "",
      "type Server struct {",
      "\tAddr, Host string",
      "\tstore *Store",
      "}",
      "",
      "type Greeter interface {",
      "\tGreet(name string) string",
      "}",
      "",
      "var DefaultServer = &Server{}",
      "var userMap, groupMap sync.Map",
      'const magicGNU, versionGNU = "ustar ", " \\x00"',
      "",
    ].join("\n"),
  );
  assert.deepEqual(got, {
    Server: "type",
    "Server.Addr": "field",
    "Server.Host": "field",
    "Server.store": "field",
    Greeter: "type",
    "Greeter.Greet": "method",
    DefaultServer: "variable",
    userMap: "variable",
    groupMap: "variable",
    magicGNU: "constant",
    versionGNU: "constant",
  });
});
