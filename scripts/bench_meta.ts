/**
 * `deno task bench meta [--corpus a,b,…] [--json FILE]`: what `_meta` costs in the answers the
 * server really sends (issue 28: at most 15% of a compact 5-hit `search_symbols` answer).
 * Indexes each corpus with the real runner into a temporary folder and makes MUNCH calls
 * (`format: "compact"`): `search_symbols` with 5 hits for a fixed query list, at the default
 * detail level and at `detail_level: "compact"`, and a few other tools for comparison. `_meta`'s
 * share of a payload is 1 − bytes(the decoded body without `_meta`, encoded again) / bytes(payload):
 * what the client would not receive without it, whatever the layout `_meta` has.
 */
import { decode, encode } from "../mod.ts";
import type { JsonObject } from "../src/codec/types.ts";
import { codecOptions } from "../src/server/codec_spec.ts";
import { DEFAULT_SETTINGS } from "../src/server/config.ts";
import { ToolRunner } from "../src/server/runner.ts";
import { Store } from "../src/store/mod.ts";
import { markdownTable, median } from "./bench_util.ts";
import { resolve } from "node:path";

const CORPORA = ["express4", "gin", "werkzeug", "tokio"];
/** Queries for the 5-hit searches: words any code base has, none tuned on a corpus. */
const QUERIES = ["get", "parse", "request", "handler", "render", "error", "config", "read"];
const TARGET = 0.15;
/**
 * The `_meta` fields the design promises in a compact answer (API.md Part A §3, SPEC_MUNCH §6),
 * and `hint`/`warnings` when there are any: what no frugality can leave out.
 */
const PROMISED = [
  "timing_ms",
  "repo",
  "symbol_count",
  "total_symbols",
  "truncated",
  "tokens_saved",
  "total_tokens_saved",
  "encoding",
  "encoding_tokens_saved",
  "total_encoding_tokens_saved",
  "hint",
  "warnings",
];

const bytes = (s: string) => new TextEncoder().encode(s).length;

/**
 * `_meta`'s share of the bytes of a MUNCH payload (0 for JSON or a body without `_meta`), and the
 * share it would have with only the {@linkcode PROMISED} fields.
 */
export function metaShare(tool: string, payload: string): { share: number; floor: number } {
  if (!payload.startsWith("#MUNCH/")) return { share: 0, floor: 0 };
  const body = decode(payload) as JsonObject;
  const meta = body._meta as JsonObject | undefined;
  if (meta === undefined) return { share: 0, floor: 0 };
  delete body._meta;
  const without = bytes(encode(tool, body, codecOptions(tool)));
  const promised = Object.fromEntries(PROMISED.filter((k) => k in meta).map((k) => [k, meta[k]!]));
  const least = bytes(encode(tool, { ...body, _meta: promised }, codecOptions(tool)));
  return { share: 1 - without / bytes(payload), floor: 1 - without / least };
}

type Sample = {
  corpus: string;
  call: string;
  tool: string;
  bytes: number;
  share: number;
  floor: number;
};

async function _corpus(corpus: string): Promise<Sample[]> {
  const root = resolve(`corpora/${corpus}`);
  const dir = await Deno.makeTempDir({ prefix: "codemunch-bench-meta-" });
  const runner = new ToolRunner({ store: new Store(dir), settings: DEFAULT_SETTINGS, cwd: root });
  const samples: Sample[] = [];
  try {
    const call = async (label: string, tool: string, args: Record<string, unknown>) => {
      const r = await runner.call(tool, { ...args, format: "compact" });
      if (r.isError) throw new Error(`${tool} ${JSON.stringify(args)}: ${r.text}`);
      samples.push({ corpus, call: label, tool, bytes: bytes(r.text), ...metaShare(tool, r.text) });
      return r.text;
    };
    const indexed = await runner.call("index_folder", { path: root, format: "json" });
    if (indexed.isError) throw new Error(indexed.text);
    const repo = JSON.parse(indexed.text).repo as string;
    for (const query of QUERIES) {
      await call("search_symbols 5 hits", "search_symbols", { repo, query, max_results: 5 });
      await call("search_symbols 5 hits, detail compact", "search_symbols", {
        repo,
        query,
        max_results: 5,
        detail_level: "compact",
      });
    }
    const top = JSON.parse(
      (await runner.call("search_symbols", { repo, query: "get", max_results: 1, format: "json" }))
        .text,
    ).results[0] as { file: string; name: string } | undefined;
    await call("search_text 5 lines", "search_text", { repo, query: "return", max_results: 5 });
    if (top !== undefined) {
      await call("get_file_outline", "get_file_outline", { repo, file_path: top.file });
      await call("find_references", "find_references", { repo, identifier: top.name });
    }
    await call("get_file_tree", "get_file_tree", { repo });
  } finally {
    await runner.close();
    await Deno.remove(dir, { recursive: true });
  }
  return samples;
}

export async function main(args: string[]): Promise<void> {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) flags.set(args[i]!.replace(/^--/, ""), args[i + 1]!);
  const corpora = flags.get("corpus")?.split(",") ?? CORPORA;
  const samples: Sample[] = [];
  for (const corpus of corpora) {
    if (!Deno.statSync(`corpora/${corpus}`).isDirectory) throw new Error(`no corpora/${corpus}`);
    samples.push(...await _corpus(corpus));
  }
  const byCall = Map.groupBy(samples, (s) => s.call);
  const rows = [...byCall].map(([label, xs]) => {
    const shares = xs.map((s) => s.share);
    return [
      label,
      xs.length,
      Math.round(median(xs.map((s) => s.bytes))),
      _pct(median(shares)),
      _pct(Math.max(...shares)),
      _pct(median(xs.map((s) => s.floor))),
    ];
  });
  const [load] = Deno.loadavg();
  console.log(`\n_meta share of compact (MUNCH) answers on ${corpora.join(", ")}\n`);
  console.log(markdownTable(
    ["call", "answers", "median bytes", "median share", "max share", "promised fields only"],
    rows,
  ));
  const target = byCall.get("search_symbols 5 hits")!.map((s) => s.share);
  const worst = Math.max(...target);
  console.log(
    `\nsearch_symbols, 5 hits: median ${_pct(median(target))}, max ${_pct(worst)} (target ≤ ${
      _pct(TARGET)
    }: ${worst <= TARGET ? "met" : "NOT met"}); load average ${load!.toFixed(2)}`,
  );
  const out = flags.get("json");
  if (out !== undefined) {
    await Deno.writeTextFile(out, JSON.stringify({ corpora, samples }, null, 2) + "\n");
  }
}

function _pct(x: number): string {
  return (100 * x).toFixed(1) + "%";
}
