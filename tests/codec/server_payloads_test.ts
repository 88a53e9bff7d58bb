/**
 * Every tool, run through the real runner (real parser, real SQLite) on the language fixtures:
 * each `#MUNCH/1` payload the server sends must read back, with the three minimal v1 decoders
 * written from the spec (the reference's gen1 routine among them), as exactly the object our
 * decoder reads and the JSON answer holds.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join, relative } from "node:path";
import { decode } from "../../mod.ts";
import { TOOLS } from "../../src/tools/mod.ts";
import type { ToolRunner } from "../../src/server/runner.ts";
import { tempWorkspace, workspaceRunner } from "../ingest/_helpers.ts";
import { decodeNestMetaOnly, decodeSchemaFree } from "./_v1_decoders.ts";
import { decodeReferenceGen1 } from "./_reference_gen1_decoder.ts";

type Body = Record<string, unknown>;

function copyTree(from: string, to: string): void {
  for (const e of Deno.readDirSync(from)) {
    const src = join(from, e.name), dst = join(to, e.name);
    if (e.isDirectory) {
      Deno.mkdirSync(dst, { recursive: true });
      copyTree(src, dst);
    } else if (e.isFile) Deno.copyFileSync(src, dst);
  }
}

/** The parts of `_meta` that differ between two calls (time, running totals, the encoding). */
function stable(body: Body): Body {
  const out = structuredClone(body);
  const meta = out._meta as Body | undefined;
  if (meta) {
    for (const k of Object.keys(meta)) {
      if (/timing|total_|encoding|elapsed|duration|cache_hit/.test(k)) delete meta[k];
    }
  }
  delete out.duration_seconds;
  return out;
}

function settledEarly(body: Body): boolean {
  const meta = body._meta as Body | undefined;
  return meta?.total_is_lower_bound === true || meta?.timed_out === true;
}

Deno.test("every MUNCH v1 payload the server sends reads back with three spec-only decoders", async () => {
  const ws = tempWorkspace("codemunch-v1-payloads-");
  const fixtures = join(Deno.cwd(), "fixtures", "languages");
  copyTree(fixtures, ws.root);
  const runner: ToolRunner = workspaceRunner(ws);
  try {
    const indexed = await runner.call("index_folder", { path: ws.root, format: "json" });
    equal(indexed.isError, false, indexed.text);
    const repo = JSON.parse(indexed.text).repo as string;
    const hits = JSON.parse(
      (await runner.call("search_symbols", { repo, query: "a", max_results: 50, format: "json" }))
        .text,
    ).results as { id: string; file: string }[];
    ok(hits.length > 5);
    const files = [...new Set(hits.map((h) => h.file))];
    const ids = hits.map((h) => h.id);
    const anyFile = relative(ws.root, join(ws.root, files[0]!));

    // Known arguments per tool; a tool added later is tried with the common argument shapes.
    const known: Record<string, Body[]> = {
      index_folder: [{ path: ws.root }],
      list_repos: [{}],
      get_file_tree: [{ repo }, { repo, path_prefix: "python/" }],
      get_file_outline: [{ repo, file_path: anyFile }, { repo, file_paths: files.slice(0, 4) }],
      get_symbol_source: [{ repo, symbol_id: ids[0] }, { repo, symbol_ids: ids.slice(0, 5) }],
      get_file_content: [{ repo, file_path: anyFile }],
      search_symbols: [{ repo, query: "parse" }, { repo, query: "a", max_results: 50 }],
      search_text: [{ repo, query: "return" }, { repo, query: "def", context_lines: 2 }],
      get_repo_outline: [{ repo }],
      find_references: [{ repo, identifier: ids[0] }, { repo, identifiers: ids.slice(0, 3) }],
      find_importers: [{ repo, file_path: anyFile }, { repo, file_paths: files.slice(0, 3) }],
      invalidate_cache: [],
    };
    const generic: Body[] = [
      { repo },
      { repo, symbol: ids[0] },
      { repo, symbol_id: ids[0] },
      { repo, file_path: anyFile },
      { repo, query: "parse" },
    ];
    let munch = 0;
    const covered = new Set<string>();
    for (const tool of TOOLS) {
      for (const args of known[tool.name] ?? generic) {
        const json = await runner.call(tool.name, { ...args, format: "json" });
        if (json.isError) {
          ok(!(tool.name in known), `${tool.name} ${JSON.stringify(args)}: ${json.text}`);
          continue;
        }
        const expected = stable(JSON.parse(json.text));
        for (const format of ["compact", "auto"]) {
          const r = await runner.call(tool.name, { ...args, format });
          equal(r.isError, false, r.text);
          if (!r.text.startsWith("#MUNCH/")) continue;
          ok(
            r.text.startsWith("#MUNCH/1 "),
            `${tool.name}: not MUNCH v1:\n${r.text.slice(0, 200)}`,
          );
          const ours = decode(r.text) as Body;
          const where = `${tool.name} ${format} ${JSON.stringify(args)}:\n${r.text}`;
          deepStrictEqual(decodeReferenceGen1(r.text), ours, `reference gen1 decoder, ${where}`);
          deepStrictEqual(decodeNestMetaOnly(r.text), ours, `_meta-only decoder, ${where}`);
          deepStrictEqual(decodeSchemaFree(r.text), ours, `schema-free decoder, ${where}`);
          // A time-bounded scan that settled early (search_text on a loaded machine) may answer
          // two calls with different lines: compare with the JSON call only when neither did.
          if (!settledEarly(ours) && !settledEarly(JSON.parse(json.text))) {
            deepStrictEqual(stable(ours), expected, `MUNCH differs from JSON, ${where}`);
          }
          munch++;
          covered.add(tool.name);
        }
      }
    }
    const done = await runner.call("invalidate_cache", { repo, format: "compact" });
    equal(done.isError, false, done.text);
    if (done.text.startsWith("#MUNCH/")) {
      deepStrictEqual(decodeReferenceGen1(done.text), decode(done.text));
      deepStrictEqual(decodeSchemaFree(done.text), decode(done.text));
      deepStrictEqual(decodeNestMetaOnly(done.text), decode(done.text));
    }
    ok(munch >= 10, `only ${munch} MUNCH payloads`);
    console.log(`${munch} MUNCH payloads from ${covered.size} tools: all four decoders agree`);
    for (const name of ["search_symbols", "get_file_tree", "list_repos", "search_text"]) {
      ok(covered.has(name), `no MUNCH payload from ${name}`);
    }
  } finally {
    await runner.close();
    ws.dispose();
  }
});
