/**
 * Receivers the index can type (issue 27): JavaScript objects built by assignment — Express's
 * `res.render = function render` called as `res.render(…)` in handlers, `this` inside such a
 * function, a local bound to `new View(…)` — and Go calls through a struct field of a known type.
 * A call is listed once, whatever the number of definitions a name search covers.
 */
import { deepEqual } from "node:assert/strict";
import { identifierReferences } from "../../src/query/references.ts";
import { CALL_GRAPH } from "../../src/query/call_graph.ts";
import { indexedView } from "./_fixture.ts";

const EXPRESS_LIKE: Record<string, string> = {
  "index.js": "module.exports = require('./lib/express');\n",
  "lib/express.js": "var res = require('./response');\nexports.response = res;\n",
  "lib/response.js": [
    "var res = Object.create(null);",
    "module.exports = res;",
    "res.render = function render(view) {",
    "  var app = this.app;",
    "  app.render(view);",
    "};",
    "res.send = function send(body) {",
    "  this.set('x');",
    "};",
    "res.set = function set() {};",
    "res.status = function status(code) {",
    "  return this;",
    "};",
    "",
  ].join("\n"),
  "lib/application.js": [
    "var View = require('./view');",
    "var app = exports = module.exports = {};",
    "app.render = function render(name) {",
    "  var view = new View(name);",
    "  view.render();",
    "};",
    "",
  ].join("\n"),
  "lib/view.js": [
    "function View(name) {}",
    "View.prototype.render = function render() {};",
    "module.exports = View;",
    "",
  ].join("\n"),
  "examples/site/index.js": [
    "var express = require('../../');",
    "var app = express();",
    "app.get('/', function (req, res) {",
    "  res.render('index');",
    "  res.status(404).render('404');",
    "});",
    "function show(req, res) {",
    "  res.render('show');",
    "  tmpl.render();",
    "}",
    "",
  ].join("\n"),
};
// Many other `render` methods (test doubles): a name match across the repo then says nothing.
for (let i = 0; i < 9; i++) {
  EXPRESS_LIKE[`test/support/view${i}.js`] =
    `function V${i}() {}\nV${i}.prototype.render = function render() {};\n`;
}

function _rows(refs: ReturnType<typeof identifierReferences>): string[] {
  return refs.map((r) => `${r.file}:${r.line} ${r.detail} ${r.resolution} ${r.target}`);
}

Deno.test("JavaScript receivers of objects built by assignment", async (t) => {
  const { view, symbol, close } = await indexedView(EXPRESS_LIKE);
  try {
    await t.step("res.render: the calls through res, none of the other renders", () => {
      deepEqual(_rows(identifierReferences(view, "lib/response.js::res.render#method")), [
        "examples/site/index.js:4 res.render by_name lib/response.js::res.render#method",
        "examples/site/index.js:5 res.status(404).render by_name lib/response.js::res.render#method",
        // A function declaring the parameter `res`.
        "examples/site/index.js:8 res.render resolved lib/response.js::res.render#method",
      ]);
    });
    await t.step("this inside an object's function, a local bound to new View()", () => {
      const graph = view.get(CALL_GRAPH);
      deepEqual(
        graph.callees(symbol("lib/response.js::res.send#method")).map((e) =>
          `${e.symbol?.id} ${e.resolution}`
        ),
        ["lib/response.js::res.set#method resolved"],
      );
      deepEqual(
        graph.callees(symbol("lib/application.js::app.render#method")).map((e) =>
          `${e.symbol?.id} ${e.resolution}`
        ),
        [
          "lib/view.js::View#function by_name",
          "lib/view.js::View.prototype.render#method resolved",
        ],
      );
      deepEqual(
        graph.callers(symbol("lib/application.js::app.render#method")).map((e) =>
          `${e.file}:${e.callLine} ${e.resolution}`
        ),
        ["lib/response.js:5 by_name"],
      );
    });
    await t.step("a name search lists each call once", () => {
      const rows = identifierReferences(view, "render").filter((r) => r.kind === "call");
      const sites = rows.map((r) => `${r.file}:${r.line}`);
      deepEqual(sites, [...new Set(sites)]);
    });
  } finally {
    await close();
  }
});

Deno.test("Go calls through a struct field of a known type", async () => {
  const { view, close } = await indexedView({
    "go.mod": "module example.com/m\n",
    "store/store.go": "package store\n\ntype Store struct{}\n\nfunc (s *Store) Open() {}\n",
    "other/other.go": "package other\n\ntype Other struct{}\n\nfunc (o *Other) Open() {}\n",
    "server/server.go": [
      "package server",
      "",
      'import "example.com/m/store"',
      "",
      "type Server struct {",
      "\tdb *store.Store",
      "}",
      "",
      "func (s *Server) Start() {",
      "\ts.db.Open()",
      "}",
      "",
      "func run(srv *Server) {",
      "\tsrv.db.Open()",
      "}",
      "",
    ].join("\n"),
  });
  try {
    deepEqual(_rows(identifierReferences(view, "store/store.go::Store.Open#method")), [
      "server/server.go:10 s.db.Open resolved store/store.go::Store.Open#method",
      "server/server.go:14 srv.db.Open resolved store/store.go::Store.Open#method",
    ]);
    deepEqual(_rows(identifierReferences(view, "other/other.go::Other.Open#method")), []);
  } finally {
    await close();
  }
});
