/**
 * `deno task bench fresh [--corpus gostd] [--edits N] [--debounce MS] [--json FILE]`: edit-to-fresh latency —
 * from a file saved on disk to the first `search_symbols` answer that contains the change —
 * through the real MCP server over stdio (watch mode on, the default), on a copy of a corpus
 * (`bench-out/fresh-<corpus>`, made once; the shared corpora are never edited).
 *
 * Each edit appends a uniquely named function to a different source file; the client then asks
 * `search_symbols` for it every 5 ms until it appears. Side by side in the same run, the same
 * edit followed by an explicit `index_file` call (what an agent without watch mode would do).
 * Target: watch-mode p50 under 500 ms on the Go standard library.
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { decode } from "../mod.ts";
import { permissionFlags, permissionInputs } from "./serve.ts";
import {
  loadAverages,
  markdownTable,
  median,
  parseFlags,
  percentile,
  serverEnv,
  writeJson,
} from "./bench_util.ts";

const CHECKOUT = resolve(fileURLToPath(new URL("..", import.meta.url)));

/** The source files of a corpus copy worth editing (non-test files of its main language). */
function _targets(root: string, ext: string, limit: number): string[] {
  const out: string[] = [];
  const visit = (rel: string) => {
    for (
      const e of [...Deno.readDirSync(join(root, rel))].sort((a, b) => a.name < b.name ? -1 : 1)
    ) {
      if (out.length >= limit * 20) return;
      const child = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory && !/^(testdata|vendor|internal|cmd)$/.test(e.name)) visit(child);
      else if (e.isFile && e.name.endsWith(ext) && !e.name.endsWith("_test" + ext)) out.push(child);
    }
  };
  visit("");
  // Spread over the tree: every k-th file.
  const step = Math.max(1, Math.floor(out.length / limit));
  return out.filter((_, i) => i % step === 0).slice(0, limit);
}

async function _call(client: Client, name: string, args: Record<string, unknown>) {
  const r = await client.callTool({ name, arguments: { format: "json", ...args } }, undefined, {
    timeout: 600_000,
  });
  const text = (r.content as { text: string }[])[0]!.text;
  if (r.isError) throw new Error(`${name} failed: ${text}`);
  return decode(text) as Record<string, unknown>;
}

async function _seen(client: Client, repo: string, name: string, timeoutMs: number) {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    const r = await _call(client, "search_symbols", { repo, query: name, max_results: 5 });
    if ((r.results as { name: string }[]).some((h) => h.name === name)) return true;
    await new Promise((done) => setTimeout(done, 5));
  }
  return false;
}

/** Run the benchmark. */
export async function main(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  const corpus = flags.get("corpus") ?? "gostd";
  const edits = Number(flags.get("edits") ?? 20);
  const source = join(CHECKOUT, "corpora", corpus);
  const copy = join(CHECKOUT, "bench-out", `fresh-${corpus}`);
  const indexDir = join(CHECKOUT, "bench-out", "fresh-index");
  try {
    Deno.statSync(copy);
  } catch {
    console.error(`bench fresh: copying ${source} to ${copy} (once)`);
    Deno.mkdirSync(join(CHECKOUT, "bench-out"), { recursive: true });
    const cp = await new Deno.Command("cp", { args: ["-rL", source, copy] }).output();
    if (!cp.success) throw new Error(`cannot copy ${source}`);
  }
  const env = serverEnv(
    indexDir,
    copy,
    flags.has("debounce") ? { CODEMUNCH_WATCH_DEBOUNCE_MS: flags.get("debounce")! } : {},
  );
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: [
      "run",
      ...permissionFlags(permissionInputs((n) => env[n], CHECKOUT)),
      join(CHECKOUT, "main.ts"),
      "serve",
    ],
    env,
    cwd: CHECKOUT,
    stderr: "ignore",
  });
  const client = new Client({ name: "bench-fresh", version: "0" });
  await client.connect(transport);
  const ext = corpus === "gostd" || corpus === "gin" ? ".go" : corpus === "django" ? ".py" : ".ts";
  const targets = _targets(copy, ext, edits * 2 + 10);
  const originals = new Map(targets.map((t) => [t, Deno.readTextFileSync(join(copy, t))]));
  const watchMs: number[] = [];
  const indexFileMs: number[] = [];
  let repo = "";
  const stamp = Date.now().toString(36);
  try {
    const t0 = performance.now();
    const indexed = await _call(client, "index_folder", { path: copy });
    repo = String(indexed.repo);
    console.error(`bench fresh: ${repo} indexed in ${Math.round(performance.now() - t0)} ms`);
    // Only files the index holds (a rule may exclude a file: too large, ignored).
    const indexedTargets: string[] = [];
    for (const t of targets) {
      const r = await client.callTool({
        name: "get_file_outline",
        arguments: { repo, file_path: t, format: "json" },
      });
      if (!r.isError) indexedTargets.push(t);
    }
    targets.splice(0, targets.length, ...indexedTargets);
    const append = (file: string, name: string) => {
      const body = ext === ".go"
        ? `\n// ${name} is a benchmark probe.\nfunc ${name}() int { return 1 }\n`
        : ext === ".py"
        ? `\n\ndef ${name}():\n    return 1\n`
        : `\nexport function ${name}(): number {\n  return 1;\n}\n`;
      Deno.writeTextFileSync(join(copy, file), originals.get(file)! + body);
    };
    for (let i = 0; i < edits; i++) {
      // Turns alternate: watch mode alone, then edit + index_file.
      const name = `FreshProbe${stamp}W${i}`;
      const file = targets[(2 * i) % targets.length]!;
      const tw = performance.now();
      append(file, name);
      if (!(await _seen(client, repo, name, 10_000))) throw new Error(`${name} never seen`);
      watchMs.push(performance.now() - tw);

      const name2 = `FreshProbe${stamp}F${i}`;
      const file2 = targets[(2 * i + 1) % targets.length]!;
      const tf = performance.now();
      append(file2, name2);
      await _call(client, "index_file", { path: join(copy, file2) });
      if (!(await _seen(client, repo, name2, 10_000))) throw new Error(`${name2} never seen`);
      indexFileMs.push(performance.now() - tf);
      // Let the watcher's own batch for that edit pass before the next turn.
      await new Promise((done) => setTimeout(done, 600));
    }
  } finally {
    for (const [file, text] of originals) Deno.writeTextFileSync(join(copy, file), text);
    await new Promise((done) => setTimeout(done, 500));
    await client.close();
  }
  const row = (label: string, ms: number[]) => [
    label,
    ms.length,
    median(ms),
    percentile(ms, 95),
    Math.max(...ms),
  ];
  console.log(
    `\nEdit-to-fresh on ${corpus} (${targets.length} files edited, debounce ${
      env.CODEMUNCH_WATCH_DEBOUNCE_MS ?? "default"
    } ms, ${loadAverages()})\n`,
  );
  console.log(markdownTable(["path", "edits", "p50 ms", "p95 ms", "max ms"], [
    row("watch mode (save → search sees it)", watchMs),
    row("save + index_file call → search", indexFileMs),
  ]));
  console.log(`\nTarget: watch-mode p50 < 500 ms — ${median(watchMs) < 500 ? "met" : "NOT met"}`);
  await writeJson(flags, {
    corpus,
    repo,
    load: loadAverages(),
    watch_ms: watchMs,
    index_file_ms: indexFileMs,
  });
}

if (import.meta.main) await main(Deno.args);
