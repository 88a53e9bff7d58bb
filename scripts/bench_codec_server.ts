/**
 * `deno task bench codec --server [--corpus NAME]`: the codecs on what the server really answers.
 * Indexes the corpus with the real runner into a temporary folder, makes a fixed set of calls
 * (searches, outlines, trees, sources) with `format: "json"`, and encodes each response body
 * (with its `_meta`) as JSON, TOON, strict MUNCH v1, extended MUNCH, and what `auto` sends.
 */
import { encode as toonEncode } from "@toon-format/toon";
import { encode as o200k } from "gpt-tokenizer/encoding/o200k_base";
import { canEncodeV1, decode, encode, encodeResponse } from "../mod.ts";
import type { JsonObject } from "../src/codec/types.ts";
import { CODEC_SPECS, codecOptions } from "../src/server/codec_spec.ts";
import { DEFAULT_SETTINGS } from "../src/server/config.ts";
import { ToolRunner } from "../src/server/runner.ts";
import { Store } from "../src/store/mod.ts";
import { markdownTable } from "./bench_util.ts";
import { deepStrictEqual } from "node:assert/strict";
import { resolve } from "node:path";

/** Calls made on every corpus; `{file}` and `{files}`, `{ids}` come from earlier answers. */
const QUERIES = ["get", "query", "request handler", "parse", "model", "cache", "render template"];
const TEXT_QUERIES = ["return self", "TODO", "raise ValueError", "import"];

export async function serverBench(corpus: string): Promise<Record<string, unknown>> {
  const root = resolve(`corpora/${corpus}`);
  const dir = await Deno.makeTempDir({ prefix: "codemunch-bench-codec-" });
  const runner = new ToolRunner({ store: new Store(dir), settings: DEFAULT_SETTINGS, cwd: root });
  try {
    const call = async (tool: string, args: Record<string, unknown>) => {
      const r = await runner.call(tool, { ...args, format: "json" });
      if (r.isError) throw new Error(`${tool} ${JSON.stringify(args)}: ${r.text}`);
      return JSON.parse(r.text) as JsonObject;
    };
    const t0 = performance.now();
    const indexed = await call("index_folder", { path: root });
    const repo = indexed.repo as string;
    console.log(`indexed ${corpus} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const calls: [string, string, Record<string, unknown>][] = [];
    for (const q of QUERIES) {
      calls.push([`search_symbols "${q}"`, "search_symbols", { repo, query: q, max_results: 20 }]);
    }
    for (const q of TEXT_QUERIES) {
      calls.push([`search_text "${q}"`, "search_text", { repo, query: q, max_results: 50 }]);
    }
    calls.push(["search_text ctx=2", "search_text", {
      repo,
      query: TEXT_QUERIES[0],
      max_results: 20,
      context_lines: 2,
    }]);
    const hits = (await call("search_symbols", { repo, query: "get", max_results: 50 }))
      .results as { id: string; file: string }[];
    const files = [...new Set(hits.map((h) => h.file))];
    for (const f of files.slice(0, 3)) {
      calls.push([`get_file_outline ${f}`, "get_file_outline", { repo, file_path: f }]);
    }
    calls.push(["get_file_outline x4", "get_file_outline", {
      repo,
      file_paths: files.slice(0, 4),
    }]);
    calls.push(["get_symbol_source x5", "get_symbol_source", {
      repo,
      symbol_ids: hits.slice(0, 5).map((h) => h.id),
    }]);
    calls.push(["get_file_tree", "get_file_tree", { repo }]);
    calls.push(["get_repo_outline", "get_repo_outline", { repo }]);
    calls.push(["list_repos", "list_repos", {}]);

    const rows: unknown[][] = [];
    const totals = { json: 0, toon: 0, munch: 0, munchx: 0, auto: 0, autox: 0 };
    const sends = new Map<string, number>();
    for (const [name, tool, args] of calls) {
      const body = await call(tool, args);
      // A response with a key no v1 decoder reads back (a search with no hit has "⚠ warning")
      // cannot be v1 MUNCH at all: `compact` then sends JSON too.
      const layout = codecOptions(tool);
      const munch = canEncodeV1(body) ? encode(tool, body, layout) : JSON.stringify(body);
      const munchx = encode(tool, body, { ...layout, extensions: true });
      deepStrictEqual(decode(munch), body, `MUNCH round trip failed for ${name}`);
      deepStrictEqual(
        decode(munchx, { specs: CODEC_SPECS }),
        body,
        `extended MUNCH round trip failed for ${name}`,
      );
      const auto = encodeResponse(tool, body, layout);
      const autox = encodeResponse(tool, body, { ...layout, extensions: true });
      const tok = {
        json: o200k(JSON.stringify(body)).length,
        toon: o200k(toonEncode(body)).length,
        munch: o200k(munch).length,
        munchx: o200k(munchx).length,
        auto: o200k(auto.text).length,
        autox: o200k(autox.text).length,
      };
      for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += tok[k];
      const sent = auto.encoding === "json" ? `json (${auto.fallback})` : auto.encoding;
      sends.set(sent, (sends.get(sent) ?? 0) + 1);
      rows.push([name, tok.json, tok.toon, tok.munch, tok.munchx, tok.auto, tok.autox, sent]);
    }
    console.log(`\nReal server responses on ${corpus} (o200k tokens)\n`);
    console.log(markdownTable(
      ["call", "json", "toon", "munch v1", "munch+x", "auto v1", "auto+x", "auto v1 sends"],
      rows,
    ));
    console.log(
      `\ntotals: JSON ${totals.json}, TOON ${totals.toon}, MUNCH v1 (compact) ${totals.munch}, ` +
        `extended ${totals.munchx}; auto v1 ${totals.auto} (${
          (totals.auto / totals.json).toFixed(3)
        }x JSON, ${(totals.auto / totals.toon).toFixed(3)}x TOON), auto extended ${totals.autox} (${
          (totals.autox / totals.toon).toFixed(3)
        }x TOON)`,
    );
    console.log(`auto v1 sends: ${[...sends].map(([k, n]) => `${k} ×${n}`).join(", ")}`);
    return { corpus, totals, sends: Object.fromEntries(sends), calls: rows };
  } finally {
    await runner.close();
    await Deno.remove(dir, { recursive: true });
  }
}
