/**
 * `deno task bench codec [--json FILE] [--corpus NAME] [--server]`: MUNCH against its peers on realistic
 * responses built from a real corpus (default `django`, prepared by scripts/prepare_corpora.sh):
 * real repo paths and symbols from Universal Ctags, real source lines for text search.
 *
 * For each sample: bytes and tokens (o200k, cl100k) of pretty JSON, minified JSON, TOON, our
 * table format, strict MUNCH v1 (the default) and extended MUNCH (`#MUNCH/1x`, opt-in), and what
 * `format: "auto"` sends; then encode+decode throughput against JSON.stringify+JSON.parse.
 * "munch" is strict v1 throughout; the extended columns show what the non-spec encodings would
 * save on top (the token loss strict v1 accepts, against TOON too). With `--server`, the same
 * comparison on real server answers instead (bench_codec_server.ts).
 */
import { encode as toonEncode } from "@toon-format/toon";
import { encode as o200k } from "gpt-tokenizer/encoding/o200k_base";
import { encode as cl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { decode, decodeTables, encode, encodeResponse, encodeTables } from "../mod.ts";
import type { JsonObject } from "../src/codec/types.ts";
import { CODEC_SPECS, codecOptions } from "../src/server/codec_spec.ts";
import { languageForPath } from "../src/parser/registry.ts";
import { markdownTable, median, parseFlags, writeJson } from "./bench_util.ts";
import { deepStrictEqual } from "node:assert/strict";

interface Tag {
  name: string;
  path: string;
  line: number;
  end?: number;
  kind: string;
  scope?: string;
  scopeKind?: string;
  signature?: string;
  pattern?: string;
}

interface Sample {
  name: string;
  tool: string;
  /** List-shaped responses count towards the byte-saving target. */
  list: boolean;
  response: JsonObject;
}

const KIND: Record<string, string> = {
  class: "class",
  function: "function",
  member: "method",
  method: "method",
  variable: "constant",
};

export async function main(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  const corpus = flags.get("corpus") ?? "django";
  const root = `corpora/${corpus}`;
  try {
    await Deno.stat(root);
  } catch {
    console.error(
      `bench codec: ${root} is missing; run: bash scripts/prepare_corpora.sh ${corpus}`,
    );
    Deno.exit(2);
  }
  if (flags.has("server")) {
    const { serverBench } = await import("./bench_codec_server.ts");
    await writeJson(flags, await serverBench(corpus));
    return;
  }
  const tags = await _ctags(root);
  const lines = await _sourceLines(root, tags);
  const samples = _samples(corpus, root, tags, lines);

  const sizeRows: unknown[][] = [];
  const speedRows: unknown[][] = [];
  const results: Record<string, unknown>[] = [];
  for (const s of samples) {
    const layout = codecOptions(s.tool);
    const munch = encode(s.tool, s.response, layout);
    const munchx = encode(s.tool, s.response, { ...layout, extensions: true });
    const auto = encodeResponse(s.tool, s.response, layout);
    const dump = flags.get("dump");
    if (dump !== undefined) {
      await Deno.mkdir(dump, { recursive: true });
      await Deno.writeTextFile(`${dump}/${s.name.replaceAll(" ", "_")}.json`, JSON.stringify(s));
    }
    if (flags.get("show") === s.name) {
      console.log(
        `${munch}\n--- extended ---\n${munchx}\n--- TOON ---\n${toonEncode(s.response)}\n`,
      );
    }
    deepStrictEqual(decode(munch), s.response, `MUNCH round trip failed for ${s.name}`);
    deepStrictEqual(
      decode(munchx, { specs: CODEC_SPECS }),
      s.response,
      `extended MUNCH round trip failed for ${s.name}`,
    );
    const forms: Record<string, string> = {
      pretty: JSON.stringify(s.response, null, 2),
      json: JSON.stringify(s.response),
      toon: toonEncode(s.response),
      table: JSON.stringify(encodeTables(s.response)),
      munch,
      munchx,
    };
    const bytes = Object.fromEntries(
      Object.entries(forms).map(([k, v]) => [k, new TextEncoder().encode(v).length]),
    );
    const tok200 = Object.fromEntries(Object.entries(forms).map(([k, v]) => [k, o200k(v).length]));
    const tok100 = Object.fromEntries(Object.entries(forms).map(([k, v]) => [k, cl100k(v).length]));
    const saving = 1 - bytes.munch! / bytes.json!;
    const autoSends = auto.encoding === "json" ? `json (${auto.fallback})` : auto.encoding;
    sizeRows.push([
      s.name,
      bytes.pretty,
      bytes.json,
      bytes.toon,
      bytes.table,
      bytes.munch,
      bytes.munchx,
      `${(saving * 100).toFixed(1)}%`,
      tok200.json,
      tok200.toon,
      tok200.munch,
      tok200.munchx,
      tok100.toon,
      tok100.munch,
      tok100.munchx,
      autoSends,
    ]);
    const speed = _speed(s, forms.json!);
    speedRows.push([
      s.name,
      speed.jsonMBs,
      speed.munchMBs,
      speed.tableMBs,
      `${(speed.munchMBs / speed.jsonMBs).toFixed(2)}x`,
    ]);
    results.push({
      sample: s.name,
      tool: s.tool,
      list: s.list,
      bytes,
      tokens_o200k: tok200,
      tokens_cl100k: tok100,
      byte_saving_vs_json: saving,
      auto_sends: autoSends,
      speed,
    });
  }

  console.log(`\nCodec sizes on ${corpus} (bytes; tokens o200k / cl100k)\n`);
  console.log(markdownTable([
    "sample",
    "pretty",
    "json",
    "toon",
    "table",
    "munch",
    "munch+x",
    "munch saving",
    "json tok",
    "toon tok",
    "munch tok",
    "munch+x tok",
    "toon cl100k",
    "munch cl100k",
    "munch+x cl100k",
    "auto sends",
  ], sizeRows));
  console.log("\nEncode+decode throughput (MB of minified JSON per second; median of runs)\n");
  console.log(markdownTable(["sample", "JSON", "MUNCH", "table", "MUNCH/JSON"], speedRows));

  const listSavings = results.filter((r) => r.list).map((r) => r.byte_saving_vs_json as number);
  const beatsToon = results.every((r) => {
    const t2 = r.tokens_o200k as Record<string, number>;
    const t1 = r.tokens_cl100k as Record<string, number>;
    return t2.munch! < t2.toon! && t1.munch! < t1.toon!;
  });
  const beatsToonExt = results.every((r) => {
    const t2 = r.tokens_o200k as Record<string, number>;
    const t1 = r.tokens_cl100k as Record<string, number>;
    return t2.munchx! < t2.toon! && t1.munchx! < t1.toon!;
  });
  const losers = results.filter((r) => {
    const t2 = r.tokens_o200k as Record<string, number>;
    return t2.munch! >= t2.toon!;
  }).map((r) => {
    const t2 = r.tokens_o200k as Record<string, number>;
    return `${r.sample} (${t2.munch} vs TOON ${t2.toon}, extended ${t2.munchx})`;
  });
  const total = (key: string) =>
    results.reduce((n, r) => n + (r.tokens_o200k as Record<string, number>)[key]!, 0);
  const ratio = median(results.map((r) => {
    const sp = r.speed as { munchMBs: number; jsonMBs: number };
    return sp.munchMBs / sp.jsonMBs;
  }));
  // Whole-set throughput: total JSON megabytes over total time, so large responses weigh more.
  let jsonSeconds = 0, munchSeconds = 0;
  for (const r of results) {
    const mb = (r.bytes as Record<string, number>).json! / 1e6;
    const sp = r.speed as { munchMBs: number; jsonMBs: number };
    jsonSeconds += mb / sp.jsonMBs;
    munchSeconds += mb / sp.munchMBs;
  }
  const summary = {
    aggregate_speed_ratio_vs_json: jsonSeconds / munchSeconds,
    median_list_byte_saving: median(listSavings),
    fewer_tokens_than_toon_on_every_sample: beatsToon,
    extended_fewer_tokens_than_toon_on_every_sample: beatsToonExt,
    samples_not_beating_toon_o200k: losers,
    total_tokens_o200k: {
      json: total("json"),
      toon: total("toon"),
      munch: total("munch"),
      munchx: total("munchx"),
    },
    median_speed_ratio_vs_json: ratio,
    targets: { median_list_byte_saving: 0.45, speed_ratio: 1 / 3 },
  };
  console.log(
    `\nmedian MUNCH byte saving on list-shaped samples: ${
      (summary.median_list_byte_saving * 100).toFixed(1)
    }% (target >= 45%)`,
  );
  console.log(`fewer tokens than TOON on every sample (o200k and cl100k): ${beatsToon}`);
  if (losers.length) console.log(`  not beating TOON (o200k): ${losers.join("; ")}`);
  console.log(
    `extended MUNCH (#MUNCH/1x, opt-in): fewer tokens than TOON on every sample: ${beatsToonExt}`,
  );
  const tt = summary.total_tokens_o200k;
  console.log(
    `total o200k tokens over all samples: JSON ${tt.json}, TOON ${tt.toon}, MUNCH v1 ${tt.munch} (${
      (tt.munch / tt.toon).toFixed(3)
    }x TOON), extended ${tt.munchx} (${(tt.munchx / tt.toon).toFixed(3)}x TOON)`,
  );
  console.log(
    `median encode+decode speed vs JSON.stringify+parse: ${ratio.toFixed(2)}x (target >= 0.33x)`,
  );
  console.log(
    `aggregate encode+decode speed over all samples (by bytes): ${
      summary.aggregate_speed_ratio_vs_json.toFixed(2)
    }x`,
  );
  await writeJson(flags, { corpus, samples: results, summary });
}

/**
 * Throughput of each codec's encode+decode round trip, in MB of minified JSON per second. Each
 * function is warmed up first (so the JIT has compiled it), then timed in batches of calls long
 * enough (about 2 ms) that the timer's resolution and overhead do not count; the three are run
 * interleaved, batch after batch, so machine load affects them alike; medians of per-call times.
 */
function _speed(s: Sample, json: string) {
  const mb = new TextEncoder().encode(json).length / 1e6;
  const fns = [
    () => JSON.parse(JSON.stringify(s.response)),
    () => decode(encode(s.tool, s.response, codecOptions(s.tool))),
    () => decodeTables(JSON.parse(JSON.stringify(encodeTables(s.response)))),
  ];
  const batches = fns.map((fn) => {
    const until = performance.now() + 100;
    let calls = 0;
    while (calls < 20 || performance.now() < until) {
      fn();
      calls++;
    }
    let n = 1;
    while (true) {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) fn();
      if (performance.now() - t0 >= 2) return n;
      n *= 2;
    }
  });
  const runs: number[][] = [[], [], []];
  const until = performance.now() + 1500;
  for (let round = 0; round < 300 && (round < 7 || performance.now() < until); round++) {
    fns.forEach((fn, k) => {
      const n = batches[k]!;
      const t0 = performance.now();
      for (let i = 0; i < n; i++) fn();
      runs[k]!.push((performance.now() - t0) / n);
    });
  }
  const [jsonMBs, munchMBs, tableMBs] = runs.map((r) => mb / (median(r) / 1000));
  return { jsonMBs: jsonMBs!, munchMBs: munchMBs!, tableMBs: tableMBs! };
}

async function _ctags(root: string): Promise<Tag[]> {
  const out = await new Deno.Command("ctags", {
    args: ["-R", "--output-format=json", "--fields=+nKSeZ", "-f", "-", root],
    stdout: "piped",
    stderr: "null",
  }).output();
  if (!out.success) throw new Error("ctags failed; install universal-ctags");
  const tags: Tag[] = [];
  for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
    if (!line.startsWith("{")) continue;
    const t = JSON.parse(line);
    if (t._type !== "tag" || !KIND[t.kind]) continue;
    tags.push({ ...t, path: t.path.slice(root.length + 1) });
  }
  tags.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line);
  return tags;
}

async function _sourceLines(root: string, tags: Tag[]): Promise<Map<string, string[]>> {
  const files = [...new Set(tags.map((t) => t.path))].slice(0, 400);
  const m = new Map<string, string[]>();
  for (const f of files) {
    m.set(f, (await Deno.readTextFile(`${root}/${f}`)).split("\n"));
  }
  return m;
}

function _symbolId(t: Tag): string {
  const q = t.scope ? `${t.scope.split(".").pop()}.${t.name}` : t.name;
  return `${t.path}::${q}#${KIND[t.kind]}`;
}

function _signature(t: Tag): string {
  const p = (t.pattern ?? "").replace(/^\/\^/, "").replace(/\$\/$/, "").trim();
  return p || `${t.kind} ${t.name}`;
}

/** A search_symbols hit as the server sends it (standard detail: one row, the same keys in all). */
function _hit(t: Tag, i: number): JsonObject {
  return {
    id: _symbolId(t),
    kind: KIND[t.kind]!,
    name: t.name,
    file: t.path,
    line: t.line,
    signature: _signature(t),
    // The server leaves out (null) a summary that would only repeat the signature.
    summary: t.kind === "class" ? `Class ${t.name}` : null,
    byte_length: 40 + ((t.end ?? t.line) - t.line) * 38,
    // ctags does not report decorators: one hit in five gets one, as in a Python code base.
    decorators: i % 5 === 1 ? "@property" : null,
    score: Math.round((60 - i * 0.37) * 1000) / 1000,
    _freshness: "fresh",
  };
}

function _samples(
  corpus: string,
  root: string,
  tags: Tag[],
  lines: Map<string, string[]>,
): Sample[] {
  const repo = `local/${corpus}-1a2b3c4d`;
  const meta = { timing_ms: 2.4, tokens_saved: 18250, total_tokens_saved: 912000 };
  const samples: Sample[] = [];
  const defs = tags.filter((t) => t.kind !== "variable");
  for (const n of [10, 50, 100]) {
    const results = defs.filter((t) => /get|query|model/i.test(t.name)).slice(0, n).map(_hit);
    samples.push({
      name: `search_symbols ${results.length}`,
      tool: "search_symbols",
      list: true,
      response: { result_count: results.length, results, _meta: { ...meta, truncated: false } },
    });
  }
  // The file with the most symbols, as the server outlines it: one row per symbol in source
  // order with its parent's id.
  const byFile = Map.groupBy(tags, (t) => t.path);
  const [bigFile, fileTags] = [...byFile].sort((a, b) => b[1].length - a[1].length)[0]!;
  const classIds = new Map<string, string>();
  const symbols: JsonObject[] = [];
  for (const t of fileTags!) {
    const parent = t.scope ? classIds.get(t.scope.split(".").pop()!) ?? null : null;
    symbols.push({
      id: _symbolId(t),
      parent,
      kind: KIND[t.kind]!,
      name: t.name,
      line: t.line,
      end_line: t.end ?? t.line,
      signature: _signature(t),
      summary: t.kind === "class" ? `Class ${t.name}` : null,
    });
    if (t.kind === "class") classIds.set(t.name, _symbolId(t));
  }
  samples.push({
    name: `get_file_outline ${fileTags!.length}`,
    tool: "get_file_outline",
    list: true,
    response: {
      repo,
      file: bigFile,
      language: languageForPath(bigFile)?.id ?? null,
      file_summary: `Defines ${classIds.size} classes`,
      symbols,
      _meta: { ...meta, symbol_count: fileTags!.length },
    },
  });
  // Reference lists: one row per call-site-like location, real paths and names.
  for (const n of [10, 100, 1000, 5000]) {
    const refs = tags.slice(0, n).map((t) => ({
      file: t.path,
      line: t.line,
      caller: t.scope ? `${t.path}::${t.scope.split(".").pop()}#class` : null,
      name: t.name,
      kind: "call",
    }));
    samples.push({
      name: `references ${refs.length}`,
      tool: "find_references",
      list: true,
      response: {
        repo,
        identifier: "get",
        reference_count: refs.length,
        references: refs,
        _meta: meta,
      },
    });
  }
  // search_text as the server sends it: one row per line, files in turn; real lines containing
  // "return self", with and without two lines of context around each match.
  for (const [n, context] of [[20, 0], [100, 0], [20, 2]] as const) {
    const results: JsonObject[] = [];
    let count = 0;
    for (const [file, src] of lines) {
      const scopes = byFile.get(file) ?? [];
      let next = 0; // the first line index not shown yet
      src.forEach((text, i) => {
        if (count >= n || !text.includes("return self")) return;
        const row = (k: number, kind: string) => ({
          file,
          line: k + 1,
          ...(context > 0 ? { kind } : {}),
          text: src[k]!.trimEnd().slice(0, 200),
          symbol: kind === "match" ? _enclosing(scopes, k + 1) : null,
        });
        for (let k = Math.max(next, i - context); k < i; k++) results.push(row(k, "context"));
        results.push(row(i, "match"));
        for (let k = i + 1; k <= Math.min(src.length - 1, i + context); k++) {
          if (src[k]!.includes("return self")) break;
          results.push(row(k, "context"));
          next = k + 1;
        }
        next = Math.max(next, i + 1);
        count++;
      });
      if (count >= n) break;
    }
    samples.push({
      name: `search_text ${count}${context > 0 ? ` ctx=${context}` : ""}`,
      tool: "search_text",
      list: true,
      response: {
        result_count: count,
        results,
        _meta: { ...meta, files_searched: 400, total_matches: 2 * count, truncated: true },
      },
    });
  }
  // File tree (500 files) and repo outline.
  const files = [...byFile.keys()].slice(0, 500);
  samples.push({
    name: `get_file_tree ${files.length}`,
    tool: "get_file_tree",
    list: true,
    response: {
      repo,
      path_prefix: "",
      files: files.sort().map((f) => ({
        path: f,
        language: languageForPath(f)?.id ?? null,
        symbol_count: byFile.get(f)!.length,
      })),
      _meta: { ...meta, file_count: files.length },
    },
  });
  const dirs: Record<string, number> = {};
  for (const f of byFile.keys()) {
    const d = f.includes("/") ? f.slice(0, f.indexOf("/") + 1) : "(root)";
    dirs[d] = (dirs[d] ?? 0) + 1;
  }
  samples.push({
    name: "get_repo_outline",
    tool: "get_repo_outline",
    list: false,
    response: {
      repo,
      indexed_at: "2026-11-29T21:00:00",
      file_count: byFile.size,
      symbol_count: tags.length,
      languages: { python: byFile.size },
      directories: Object.fromEntries(Object.entries(dirs).sort((a, b) => b[1] - a[1])),
      symbol_kinds: Object.fromEntries(
        Object.entries(Object.groupBy(tags, (t) => KIND[t.kind]!)).map(([k, v]) => [k, v!.length]),
      ),
      _meta: { ...meta, is_stale: false },
    },
  });
  void root;
  return samples;
}

/** Id of the innermost tag whose lines hold `line`, or null (as search_text's `symbol`). */
function _enclosing(tags: Tag[], line: number): string | null {
  let best: Tag | null = null;
  for (const t of tags) {
    const end = t.end ?? t.line;
    if (t.line > line || end < line) continue;
    if (best === null || end - t.line < (best.end ?? best.line) - best.line) best = t;
  }
  return best === null ? null : _symbolId(best);
}
