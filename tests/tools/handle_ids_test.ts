/**
 * Issue 28: an id copied from a compact answer as it is written there (`@1::Model.save#method`,
 * the path a legend handle) is read as the id it stands for when the rest of it names one symbol,
 * with a warning saying how ids are written; otherwise the error says how to expand it.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { decode } from "../../mod.ts";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";

const MODEL = (n: number) =>
  `class Model${n}:\n    def save(self):\n        return ${n}\n\n    def load(self):\n        return ${n}\n`;

Deno.test("ids with an unexpanded legend handle", async (t) => {
  const ws = tempWorkspace("codemunch-handle-ids-");
  const files: Record<string, string> = {};
  for (let i = 0; i < 4; i++) files[`app/models/m${i}.py`] = MODEL(i);
  files["app/other/m0.py"] = MODEL(0);
  writeTree(ws.root, files);
  const runner = workspaceRunner(ws);
  try {
    const indexed = await runner.call("index_folder", { path: ws.root, format: "json" });
    equal(indexed.isError, false, indexed.text);
    const repo = JSON.parse(indexed.text).repo as string;
    const search = await runner.call("search_symbols", {
      repo,
      query: "save load",
      max_results: 20,
      format: "compact",
    });
    // An id as the compact answer writes it: its path is a file's legend handle.
    const legend = new Map([...search.text.matchAll(/^@(\d+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
    const written = /^s,(@\d+::Model[123][^,]*),/m.exec(search.text)?.[1];
    ok(written !== undefined, search.text);
    const full = legend.get(/^@(\d+)/.exec(written)![1]!) + written.replace(/^@\d+/, "");
    ok(full.startsWith("app/") && full.includes(".py::Model"), full);

    await t.step("a unique rest of the id: read as the full id, with a warning", async () => {
      const r = await runner.call("get_symbol_source", {
        repo,
        symbol_id: written,
        format: "json",
      });
      equal(r.isError, false, r.text);
      const body = JSON.parse(r.text);
      equal(body.id, full);
      const warnings = String(body._meta.warnings);
      ok(warnings.includes(`"${written}" was read as ${full}`), warnings);
      match(warnings, /legend handle: replace "@N" with the text of the answer's "@N=" line/);
      // In a list too, and in compact answers.
      const batch = await runner.call("get_symbol_source", {
        repo,
        symbol_ids: [written, "app/models/m2.py::Model2.load#method"],
        format: "compact",
      });
      equal(batch.isError, false, batch.text);
      const ids = (decode(batch.text) as { symbols: { id: string }[] }).symbols.map((s) => s.id);
      deepStrictEqual(ids, [full, "app/models/m2.py::Model2.load#method"]);
    });

    await t.step("a folder handle with the rest of the path", async () => {
      const r = await runner.call("get_symbol_source", {
        repo,
        symbol_id: "@7m0.py::Model0.save#method",
        format: "json",
      });
      // Two files end with m0.py (app/models/ and app/other/): not unique, so not guessed.
      equal(r.isError, true, r.text);
      match(r.text, /symbol_not_found/);
      match(r.text, /legend handle: replace \\"@N\\" with the text/);
      const one = await runner.call("get_symbol_source", {
        repo,
        symbol_id: "@7models/m0.py::Model0.save#method",
        format: "json",
      });
      equal(one.isError, false, one.text);
      equal(JSON.parse(one.text).id, "app/models/m0.py::Model0.save#method");
    });

    await t.step("a real id is never rewritten", async () => {
      const r = await runner.call("get_symbol_source", {
        repo,
        symbol_id: "app/models/m3.py::Model3.save#method",
        format: "json",
      });
      equal(r.isError, false, r.text);
      equal(JSON.parse(r.text)._meta.warnings, undefined);
    });
  } finally {
    await runner.close();
    ws.dispose();
  }
});
