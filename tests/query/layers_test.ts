/**
 * Layer rules and their violations (src/query/layers.ts) over a small TypeScript tree indexed for
 * real: rules checked with errors that name the entry, layers read from `.jcodemunch.jsonc`,
 * paths assigned to the first layer that matches, the imports that break a rule, and inferred
 * layers whose violations go against the main direction.
 */
import { deepEqual, equal, throws } from "node:assert/strict";
import { ToolError } from "../../src/errors.ts";
import { stripJsonc } from "../../src/ingest/jsonc.ts";
import {
  checkLayerRules,
  configuredLayers,
  inferredLayers,
  layerAssigner,
  ruleViolations,
} from "../../src/query/layers.ts";
import { indexedView } from "./_fixture.ts";

const _RULES = [
  { name: "ui", paths: ["src/ui"], may_not_import: ["db"] },
  { name: "core", paths: ["src/core/", "src/shared.ts"], may_not_import: ["ui"] },
  { name: "db", paths: ["src/db/*.ts"], may_not_import: ["ui", "core"] },
];

const _TREE = {
  "src/ui/view.ts":
    'import { save } from "../db/store.ts";\nimport { rule } from "../core/rule.ts";\n' +
    "export function view() {\n  return save(rule());\n}\n",
  "src/core/rule.ts":
    'import { view } from "../ui/view.ts";\nexport function rule() {\n  return 1;\n}\n' +
    "export const again = view;\n",
  "src/db/store.ts": 'import { shared } from "../shared.ts";\nexport function save(x: number) {\n' +
    "  return x + shared;\n}\n",
  "src/shared.ts": "export const shared = 1;\n",
  "tools/script.ts": 'import { view } from "../src/ui/view.ts";\nview();\n',
};

function _invalid(pattern: RegExp) {
  return (e: unknown) =>
    e instanceof ToolError && e.code === "invalid_argument" && pattern.test(e.message);
}

Deno.test("layers: rules are checked, errors naming the entry", () => {
  deepEqual(checkLayerRules([{ name: "a" }], "layers"), [
    { name: "a", paths: [], may_not_import: [] },
  ]);
  throws(() => checkLayerRules({}, "layers"), _invalid(/^layers must be a list of layers$/));
  throws(() => checkLayerRules([[]], "layers"), _invalid(/^layers\[0\] must be an object/));
  throws(() => checkLayerRules([{ name: "" }], "layers"), _invalid(/^layers\[0\]\.name must be/));
  throws(
    () => checkLayerRules([{ name: "a", paths: "src" }], "layers"),
    _invalid(/^layers\[0\]\.paths must be a list of strings$/),
  );
  throws(
    () => checkLayerRules([{ name: "a" }, { name: "a" }], "layers"),
    _invalid(/^layers: two layers are named "a"$/),
  );
  throws(
    () => checkLayerRules([{ name: "a", may_not_import: ["b", "c"] }], "layers"),
    _invalid(/^layers: layer "a" may_not_import undeclared layers: b, c$/),
  );
});

Deno.test("layers: a path belongs to the first layer with a matching path", () => {
  const layerOf = layerAssigner([
    ...checkLayerRules(_RULES, "layers"),
    { name: "all", paths: ["./"], may_not_import: [] },
  ]);
  equal(layerOf("src/ui/view.ts"), "ui");
  equal(layerOf("src/ui"), "ui");
  equal(layerOf("src/uikit/x.ts"), "all", "a prefix is a folder, not the start of a name");
  equal(layerOf("src/core/deep/x.ts"), "core");
  equal(layerOf("src/shared.ts"), "core");
  equal(layerOf("src/db/store.ts"), "db");
  equal(layerOf("tools/script.ts"), "all");
  equal(layerAssigner(_RULES)("tools/script.ts"), null);
});

Deno.test("layers: the imports that break the declared rules", async () => {
  const { view, close } = await indexedView(_TREE);
  try {
    const found = ruleViolations(view, checkLayerRules(_RULES, "layers"));
    deepEqual(found.map((v) => `${v.file}:${v.line} ${v.import_target} (${v.rule_violated})`), [
      "src/core/rule.ts:1 src/ui/view.ts (core may_not_import ui)",
      "src/db/store.ts:1 src/shared.ts (db may_not_import core)",
      "src/ui/view.ts:1 src/db/store.ts (ui may_not_import db)",
    ]);
    deepEqual(ruleViolations(view, []), []);
  } finally {
    await close();
  }
});

Deno.test("layers: rules read from .jcodemunch.jsonc", async (t) => {
  await t.step("declared layers, comments allowed", async () => {
    const { view, close } = await indexedView({
      ..._TREE,
      ".jcodemunch.jsonc": `{\n  // our layers\n  "architecture": { "layers": ${
        JSON.stringify(_RULES)
      } }\n}\n`,
    });
    try {
      deepEqual(configuredLayers(view, stripJsonc), checkLayerRules(_RULES, "layers"));
    } finally {
      await close();
    }
  });
  await t.step("no file, or no layers in it: none", async () => {
    const { view, close } = await indexedView({ ..._TREE, ".jcodemunch.jsonc": '{"other": 1}' });
    try {
      equal(configuredLayers(view, stripJsonc), null);
    } finally {
      await close();
    }
  });
  await t.step("a malformed file names itself", async () => {
    const { view, close } = await indexedView({
      ..._TREE,
      ".jcodemunch.jsonc": '{"architecture": {"layers": [{"name": 1}]}}',
    });
    try {
      throws(
        () => configuredLayers(view, stripJsonc),
        _invalid(/^\.jcodemunch\.jsonc architecture\.layers\[0\]\.name must be/),
      );
    } finally {
      await close();
    }
  });
});

Deno.test("layers: inferred violations go against the direction with more imports", async () => {
  // Two tight folders: every app file imports app/core.ts and lib/base.ts; lib/base.ts imports
  // app/core.ts back once.
  const files: Record<string, string> = {
    "app/core.ts": "export const core = 1;\n",
    "lib/base.ts": 'import { core } from "../app/core.ts";\nexport const base = core;\n',
  };
  for (const n of [1, 2, 3, 4]) {
    files[`app/a${n}.ts`] = 'import { core } from "./core.ts";\n' +
      'import { base } from "../lib/base.ts";\n' + `export const a${n} = core + base;\n`;
    files[`lib/l${n}.ts`] = 'import { base } from "./base.ts";\n' + `export const l${n} = base;\n`;
  }
  const { view, close } = await indexedView(files);
  try {
    const inferred = inferredLayers(view);
    deepEqual(inferred.layers, [{ name: "app", files: 5 }, { name: "lib", files: 5 }]);
    deepEqual(inferred.violations, [{
      file: "lib/base.ts",
      line: 1,
      file_layer: "lib",
      import_target: "app/core.ts",
      target_layer: "app",
      rule_violated: "lib may_not_import app (inferred: app imports lib 4×, lib imports app 1×)",
    }]);
    equal(inferred.undecided, 0);
    equal(inferredLayers(view), inferred, "once per index state");
  } finally {
    await close();
  }
});
