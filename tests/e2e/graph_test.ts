/**
 * The code-graph tools end to end: the fixture repo fixtures/graph/ (Python, TypeScript, Go,
 * Java; see its README) is indexed through the MCP stdio client, then every graph tool is called
 * in json and compact form. The json answers must be exactly fixtures/graph/expected.json (run
 * with `CODEMUNCH_UPDATE_GRAPH=1` to rewrite it after a deliberate change, and read the diff), the
 * compact answers must decode to the json ones, and the facts the fixture was built for are
 * checked one by one below so that a snapshot update cannot hide a regression.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { decode } from "../../mod.ts";
import { call, CHECKOUT, connect, normalised } from "./_server.ts";

const FIXTURE = join(CHECKOUT, "fixtures", "graph");
const EXPECTED = join(FIXTURE, "expected.json");

/** The calls whose answers are pinned, by label. */
const CALLS: Record<string, [string, Record<string, unknown>]> = {
  importers_circle: ["find_importers", { file_path: "src/shapes/circle.py" }],
  importers_dog: ["find_importers", { file_path: "ts/src/models/dog.ts" }],
  importers_go_package: ["find_importers", { file_path: "go/store/format.go" }],
  importers_batch: ["find_importers", { file_paths: ["ts/src/fmt.ts", "src/util.py"] }],
  references_describe: ["find_references", { identifier: "describe" }],
  references_new: ["find_references", { identifier: "New" }],
  references_animal: ["find_references", { identifier: "Animal" }],
  references_dog: ["find_references", { identifier: "Dog" }],
  references_store: ["find_references", { identifier: "go/store/store.go::Store#type" }],
  references_area: ["find_references", { identifier: "area" }],
  references_file: ["find_references", { identifier: "src/shapes/base.py" }],
  references_batch: ["find_references", { identifiers: ["helper", "Drivable"] }],
  hierarchy_main: ["get_call_hierarchy", { symbol_id: "src/app.py::main#function" }],
  hierarchy_sound: ["get_call_hierarchy", { symbol_id: "Animal.sound", direction: "callers" }],
  hierarchy_go_log: ["get_call_hierarchy", { symbol_id: "Store.log", depth: 2 }],
  hierarchy_java: ["get_call_hierarchy", { symbol_id: "Vehicle.describe" }],
  deps_animal: [
    "get_dependency_graph",
    { file: "ts/src/models/animal.ts", direction: "importers", depth: 3 },
  ],
  deps_app: ["get_dependency_graph", { file: "src/app.py", direction: "both", depth: 2 }],
  cycles: ["get_dependency_cycles", {}],
  blast_new: ["get_blast_radius", { symbol: "go/store/store.go::New#function" }],
  blast_shape: ["get_blast_radius", { symbol: "Shape", depth: 2, include_depth_scores: true }],
  impact_area: ["get_impact_preview", { symbol_id: "Shape.area" }],
  impact_format: ["get_impact_preview", { symbol_id: "format" }],
  classes_base: ["get_class_hierarchy", { class_name: "Base" }],
  classes_car: ["get_class_hierarchy", { class_name: "Car" }],
  classes_animal: ["get_class_hierarchy", { class_name: "Animal" }],
  classes_read_closer: ["get_class_hierarchy", { class_name: "ReadCloser" }],
};

/** A body with the temp repo id replaced and volatile `_meta` removed. */
function _stable(body: Record<string, unknown>, repo: string): unknown {
  return JSON.parse(JSON.stringify(normalised(body)).replaceAll(repo, "<repo>"));
}

Deno.test("graph tools over stdio: exact answers on the four-language fixture", async (t) => {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "codemunch-graph-" }));
  const root = join(base, "project");
  cpSync(FIXTURE, root, { recursive: true });
  try {
    Deno.removeSync(join(root, "expected.json"));
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const server = await connect(root, join(base, "index"));
  const answers: Record<string, unknown> = {};
  try {
    const indexed = await call(server.client, "index_folder", { path: root, format: "json" });
    equal(indexed.isError, false, indexed.text);
    const repo = String(indexed.body.repo);
    for (const [label, [tool, args]] of Object.entries(CALLS)) {
      const json = await call(server.client, tool, { repo, ...args, format: "json" });
      equal(json.isError, false, `${label}: ${json.text}`);
      const compact = await call(server.client, tool, { repo, ...args, format: "compact" });
      equal(compact.isError, false, `${label}: ${compact.text}`);
      ok(compact.text.startsWith(`#MUNCH/1 tool=${tool} `), compact.text.slice(0, 60));
      deepStrictEqual(
        normalised(decode(compact.text) as Record<string, unknown>),
        normalised(json.body),
        label,
      );
      answers[label] = _stable(json.body, repo);
    }
    await t.step("errors name what to do", async () => {
      const bad = await call(server.client, "get_call_hierarchy", { repo, symbol_id: "New" });
      equal(bad.isError, true);
      equal(bad.body.code, "symbol_ambiguous");
      const missing = await call(server.client, "find_importers", {
        repo,
        file_path: "src/shape/base.py",
      });
      equal(missing.isError, true);
      equal(missing.body.code, "file_not_found");
    });
  } finally {
    await server.close();
    Deno.removeSync(base, { recursive: true });
  }
  if (Deno.env.get("CODEMUNCH_UPDATE_GRAPH") === "1") {
    Deno.writeTextFileSync(EXPECTED, JSON.stringify(answers, null, 2) + "\n");
    return;
  }
  const a = answers as Record<string, Record<string, unknown>>;
  // deno-lint-ignore no-explicit-any
  const rows = (label: string, key: string) => a[label]![key] as any[];

  await t.step("re-exports: importers through a barrel and an __init__.py say the hop", () => {
    deepStrictEqual(
      rows("importers_circle", "importers").map((r) => [r.file, r.hops, r.via]),
      [["src/shapes/__init__.py", 1, null], ["src/app.py", 2, "src/shapes/__init__.py"]],
    );
    deepStrictEqual(
      rows("importers_dog", "importers").map((r) => [r.file, r.hops, r.via]),
      [["ts/src/models/index.ts", 1, null], ["ts/src/main.ts", 2, "ts/src/models/index.ts"]],
    );
    // A Go import names the package: main.go imports format.go's package through store.go.
    deepStrictEqual(rows("importers_go_package", "importers").map((r) => r.file), [
      "go/cmd/shop/main.go",
    ]);
  });

  await t.step("cycles: both two-file cycles, the unresolved externals are no edges", () => {
    deepStrictEqual(rows("cycles", "cycles").map((c) => c.path), [
      "src/ping.py -> src/pong.py -> src/ping.py",
      "ts/src/cyc/a.ts -> ts/src/cyc/b.ts -> ts/src/cyc/a.ts",
    ]);
    const deps = rows("deps_app", "edges").map((e) => `${e.from}>${e.to}`);
    ok(deps.includes("src/app.py>src/util.py"));
    ok(!deps.some((e) => e.includes("requests")));
  });

  await t.step("calls through receivers resolve through the receiver's type or module", () => {
    const callees = rows("hierarchy_main", "callees");
    const by = (id: string) => callees.find((c) => c.id === id);
    equal(by("src/util.py::log#function")?.resolution, "resolved"); // util.log()
    equal(by("src/shapes/circle.py::Circle#class")?.resolution, "resolved"); // via __init__.py
    equal(by("src/shapes/base.py::Shape.area#method")?.resolution, "by_name"); // c.area()
    equal(by("src/shapes/base.py::Shape.area#method")?.candidates, 2);
    equal(by("src/shapes/base.py::Shape.describe#method")?.resolution, "resolved"); // self., base
    // An ambiguous call is one row (never one per candidate), saying how many it could mean.
    deepStrictEqual(
      rows("references_area", "references").filter((r) => r.line === 9).map((r) => [
        r.target,
        r.resolution,
        r.candidates,
      ]),
      [[null, "by_name", 2]],
    );
    const sound = rows("hierarchy_sound", "callers").map((c) => [c.id, c.depth, c.resolution]);
    deepStrictEqual(sound[0], ["ts/src/models/animal.ts::Animal.speak#method", 1, "resolved"]);
    deepStrictEqual(sound[1], ["ts/src/models/dog.ts::Dog.fetch#method", 2, "resolved"]);
    const goLog = rows("hierarchy_go_log", "callers").map((c) => [c.id, c.resolution]);
    deepStrictEqual(goLog[0], ["go/store/store.go::Store.Add#method", "resolved"]); // s.log()
    // A parameter's declared type resolves calls on it (`s *store.Store`, `dog: Dog`).
    ok(goLog.some(([id, r]) => id === "go/cmd/shop/main.go::fill#function" && r === "resolved"));
    ok(sound.some(([id, , r]) => id === "ts/src/main.ts::walk#function" && r === "resolved"));
    const java = rows("hierarchy_java", "callers").map((c) => [c.id, c.resolution]);
    deepStrictEqual(java[0], ["java/com/acme/Car.java::Car.drive#method", "resolved"]);
  });

  await t.step("name collisions: each call goes to its own definition", () => {
    deepStrictEqual(
      rows("references_new", "references").map((r) => [r.file, r.line, r.target]),
      [
        ["go/cmd/shop/main.go", 11, "go/store/store.go::New#function"],
        ["go/cmd/shop/main.go", 13, "go/cart/cart.go::New#function"],
        ["go/store/store_test.go", 6, "go/store/store.go::New#function"],
      ],
    );
    const describe = rows("references_describe", "references").map((r) => r.target);
    ok(describe.includes("src/shapes/base.py::Shape.describe#method"));
    ok(describe.includes("src/util.py::describe#function"));
  });

  await t.step("type uses in declarations, qualified as the language writes them", () => {
    const dog = rows("references_dog", "references").map((r) => [r.kind, r.symbol ?? r.file]);
    ok(dog.some(([k, s]) => k === "type_use" && s === "ts/src/main.ts::walk#function"));
    ok(dog.some(([k, s]) => k === "import" && s === "ts/src/main.ts"));
    const store = rows("references_store", "references").filter((r) => r.kind === "type_use");
    deepStrictEqual(store.map((r) => [r.symbol, r.resolution]), [
      ["go/cmd/shop/main.go::fill#function", "resolved"],
      ["go/store/store.go::New#function", "resolved"],
    ]);
  });

  await t.step("inheritance across files in every language", () => {
    deepStrictEqual(rows("classes_car", "ancestors").map((r) => [r.name, r.relation]), [
      ["Vehicle", "extends"],
      ["Drivable", "implements"],
    ]);
    deepStrictEqual(rows("classes_base", "descendants").map((r) => [r.name, r.relation]), [
      ["Store", "embeds"],
    ]);
    deepStrictEqual(rows("classes_animal", "descendants").map((r) => r.name), ["Dog"]);
    deepStrictEqual(rows("classes_read_closer", "ancestors").map((r) => r.name), ["Reader"]);
  });

  await t.step("blast radius lists tests apart", () => {
    deepStrictEqual(rows("blast_new", "tests").map((r) => r.file), ["go/store/store_test.go"]);
    deepStrictEqual(rows("blast_new", "confirmed").map((r) => r.file), ["go/cmd/shop/main.go"]);
  });

  await t.step("every answer is exactly the recorded one", () => {
    const expected = JSON.parse(Deno.readTextFileSync(EXPECTED));
    for (const label of Object.keys(CALLS)) deepStrictEqual(answers[label], expected[label], label);
  });
});
