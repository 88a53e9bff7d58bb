/**
 * get_signal_chains over fixtures/gateways (Python, TypeScript, Go, Django urls): every kind of
 * entry point, the chains they reach, lookup mode, filters and bounds, compact decoding.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { decode } from "../../mod.ts";
import { findGateways } from "../../src/query/gateways.ts";
import { gatewayId, traceGateway } from "../../src/query/signal_chains.ts";
import { indexedFixture, indexedView } from "./_fixture.ts";

interface Chain {
  gateway: string;
  kind: string;
  label: string;
  via: string;
  reach: number;
  depth: number;
}

Deno.test("get_signal_chains: entry points of every kind and what they reach", async (t) => {
  const { runner, repo, close } = await indexedFixture("gateways");
  try {
    const call = async (args: Record<string, unknown>, format = "json") => {
      const r = await runner.call("get_signal_chains", { repo, format, ...args });
      equal(r.isError, false, r.text);
      return decode(r.text) as Record<string, unknown>;
    };

    const all = await call({});
    await t.step("discovery lists each gateway once, by kind, with its reach", () => {
      deepEqual(
        (all.chains as Chain[]).map((c) => `${c.kind} ${c.label} ${c.gateway} ${c.via} ${c.reach}`),
        [
          "http http:API.ServeHTTP cmd/server/main.go::API.ServeHTTP#method name 2",
          "http ANY /ping cmd/server/main.go::ping#function registration 2",
          "http GET /orders server.ts::listOrders#function registration 2",
          "http POST /orders server.ts:14 registration 1",
          // Its decorator's call app.get is no hop (it was, to AboutView.get and on to lookup).
          "http GET /users/<user_id> web/app.py::show_user#function decorator 3",
          "http POST /health web/app.py::health#function decorator 1",
          "http ANY /profile/ web/views.py::profile#function registration 2",
          "http ANY /about/ web/views.py::AboutView#class registration 3",
          "cli cli:cleanup jobs/management/commands/cleanup.py::Command#class file 2",
          "cli cli:reindex web/app.py::reindex#function decorator 2",
          "task task:send_digest web/app.py::send_digest#function decorator 3",
          "event event:server.ts server.ts::handler#function name 2",
          "event event:on_saved web/app.py::on_saved#function decorator 2",
          "main main:cmd/server/main.go cmd/server/main.go::main#function name 1",
          "main main:web/app.py web/app.py::main#function name 3",
        ],
      );
      equal(all.gateway_count, 15);
      deepEqual(all.kind_summary, [
        { kind: "http", count: 8 },
        { kind: "cli", count: 2 },
        { kind: "task", count: 1 },
        { kind: "event", count: 2 },
        { kind: "main", count: 2 },
      ]);
    });

    await t.step("chain members say how deep and through whom", () => {
      const members = (all.chain_symbols as Record<string, unknown>[])
        .filter((m) => m.gateway === "web/views.py::AboutView#class");
      deepEqual(members, [
        {
          gateway: "web/views.py::AboutView#class",
          symbol_id: "web/views.py::AboutView.get#method",
          depth: 1,
          from: "web/views.py::AboutView#class",
        },
        {
          gateway: "web/views.py::AboutView#class",
          symbol_id: "web/views.py::lookup#function",
          depth: 2,
          from: "web/views.py::AboutView.get#method",
        },
      ]);
    });

    await t.step("tests are gateways only with include_tests", async () => {
      const tests = await call({ include_tests: true, kind: "test" });
      deepEqual((tests.chains as Chain[]).map((c) => c.gateway), [
        "tests/test_app.py::test_load_user#function",
      ]);
    });

    await t.step("lookup: which entry points reach a symbol", async () => {
      const body = await call({ symbol: "load_user" });
      equal(body.symbol_id, "web/app.py::load_user#function");
      deepEqual(
        (body.chains as Record<string, unknown>[]).map((c) => `${c.label} ${c.depth_from_gateway}`),
        [
          "GET /users/<user_id> 1",
          "cli:reindex 1",
          "task:send_digest 1",
          "event:on_saved 1",
          "main:web/app.py 2",
        ],
      );
      equal(body.on_no_chain, false);
    });

    await t.step("bounded: max_results and max_depth", async () => {
      const cut = await call({ max_results: 2, max_depth: 1 });
      equal((cut.chains as unknown[]).length, 2);
      equal(cut.gateway_count, 15);
      const meta = cut._meta as Record<string, unknown>;
      equal(meta.truncated, true);
      ok(String(meta.hint).includes("max_results"), String(meta.hint));
      ok((cut.chains as Chain[]).every((c) => c.depth <= 1));
    });

    await t.step("compact decodes to the same object", async () => {
      const json = await call({ kind: "http" });
      const compact = await call({ kind: "http" }, "compact");
      delete json._meta;
      delete compact._meta;
      deepEqual(compact, json);
    });
  } finally {
    await close();
  }
});

Deno.test("get_signal_chains: says how many entry points it left out as examples", async () => {
  // A library whose routes all live in its documentation's examples (docs_src/).
  const files: Record<string, string> = {
    "pkg/app.py": "class App:\n    def get(self, path):\n        pass\n",
  };
  for (let i = 0; i < 3; i++) {
    files[`docs_src/tutorial${i}.py`] =
      `from pkg.app import App\n\napp = App()\n\n@app.get("/items/${i}")\ndef read_${i}():\n    pass\n`;
  }
  const tree = await indexedView(files);
  try {
    const call = async (args: Record<string, unknown>) => {
      const r = await tree.runner.call("get_signal_chains", {
        repo: tree.repo,
        format: "json",
        ...args,
      });
      equal(r.isError, false, r.text);
      return JSON.parse(r.text) as Record<string, unknown>;
    };
    const body = await call({});
    equal(body.gateway_count, 0);
    equal(body.excluded_gateway_count, 3);
    ok(String(body.gateway_warning).includes("3 were left out as tests, examples or fixtures"));
    ok(String(body.excluded_hint).includes("pass include_tests=true"));
    const included = await call({ include_tests: true });
    equal(included.gateway_count, 3);
    equal(included.excluded_gateway_count, 0);
  } finally {
    await tree.close();
  }
});

Deno.test("signal_chains: traceGateway walks callees breadth first, each symbol once", async (t) => {
  const { view, close } = await indexedView({
    "app.py": [
      "from flask import Flask",
      "app = Flask(__name__)",
      "",
      "",
      // The decorator's call app.get runs at import, not in users: it is no hop to Cart.get.
      '@app.get("/users")',
      "def users():",
      "    return load() + audit()",
      "",
      "",
      "def load():",
      "    return query() + audit()",
      "",
      "",
      "def audit():",
      "    return 0",
      "",
      "",
      "def query():",
      "    return 1",
      "",
    ].join("\n"),
    "server.js": "const app = require('express')();\napp.post('/x', (req, res) => res.send(1));\n",
    "shop/urls.py": "from django.urls import path\nfrom .views import Cart\n\n" +
      'urlpatterns = [path("cart/", Cart.as_view())]\n',
    "shop/views.py": "class Cart:\n    def get(self, request):\n        return price()\n\n" +
      "    def post(self, request):\n        return 1\n\n\ndef price():\n    return 2\n",
  });
  try {
    const gateways = findGateways(view);
    const of = (label: string) => gateways.find((g) => g.label === label)!;
    const rows = (label: string, depth: number) => {
      const trace = traceGateway(view, of(label), depth);
      return {
        nodes: trace.nodes.map((n) => `${n.depth} ${n.from} -> ${n.symbol!.id}`),
        depthReached: trace.depthReached,
        truncated: trace.truncated,
      };
    };
    await t.step("a function handler: its callees at their shortest depth", () => {
      deepEqual(rows("GET /users", 5), {
        nodes: [
          "1 app.py::users#function -> app.py::load#function",
          "1 app.py::users#function -> app.py::audit#function",
          "2 app.py::load#function -> app.py::query#function",
        ],
        depthReached: 2,
        truncated: false,
      });
      equal(gatewayId(of("GET /users")), "app.py::users#function");
    });
    await t.step("the depth bound", () => {
      deepEqual(rows("GET /users", 1).nodes, [
        "1 app.py::users#function -> app.py::load#function",
        "1 app.py::users#function -> app.py::audit#function",
      ]);
    });
    await t.step("a class handler reaches its methods first", () => {
      deepEqual(rows("ANY /cart/", 3).nodes, [
        "1 shop/views.py::Cart#class -> shop/views.py::Cart.get#method",
        "1 shop/views.py::Cart#class -> shop/views.py::Cart.post#method",
        "2 shop/views.py::Cart.get#method -> shop/views.py::price#function",
      ]);
    });
    await t.step("an inline handler reaches nothing and is named by its place", () => {
      const inline = of("POST /x");
      deepEqual(traceGateway(view, inline, 5), { nodes: [], depthReached: 0, truncated: false });
      equal(gatewayId(inline), "server.js:2");
    });
  } finally {
    await close();
  }
});
