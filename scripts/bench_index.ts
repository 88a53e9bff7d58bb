/**
 * `deno task bench index [--corpora a,b] [--json FILE]`: full index and one-file incremental
 * re-index (with the warm parser pool, then with a new one, as a fresh server's first re-index,
 * then in a new process: "1-file fresh", the index call and the whole process) of the real
 * corpora (corpora/, see prepare_corpora.sh), side by side with `ctags -R` in the same run.
 * Reports wall time with a phase breakdown, CPU time against ctags', peak RSS (the kernel's
 * high-water mark, VmHWM), the database size against the size of the indexed source, and the
 * load averages (other work on the machine inflates wall times; CPU seconds are the steadier
 * comparison).
 *
 * Each corpus is copied to a temporary folder (the one-file change must not touch corpora/)
 * and indexed by a fresh child process, so peak RSS is that of one index run.
 */
import { join } from "node:path";
import { loadAverages, markdownTable, parseFlags, writeJson } from "./bench_util.ts";

const ALL = ["express", "gin", "django", "typescript", "gostd"];

interface ChildReport {
  files: number;
  symbols: number;
  source_bytes: number;
  db_bytes: number;
  full: Record<string, number>;
  incremental: Record<string, number>;
  incremental_changed: number;
  /** The same kind of one-file change re-indexed with a new parser pool (a fresh server). */
  incremental_cold: Record<string, number>;
  /** The repo file the one-file re-indexes change. */
  changed_path: string;
  peak_rss_mb: number;
  /** CPU seconds of the full index: whole process, and the main thread (walk, store, FTS). */
  cpu_s: number;
  main_thread_cpu_s: number;
}

/** Entry point for the dispatcher. */
export async function main(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  if (flags.has("child")) return await _child(flags);
  if (flags.has("reindex")) return await _reindexChild(flags);
  const names = (flags.get("corpora") ?? ALL.join(",")).split(",");
  const loadBefore = loadAverages();
  const rows: unknown[][] = [];
  const results: Record<string, unknown> = {};
  for (const name of names) {
    const src = join("corpora", name);
    try {
      Deno.statSync(src);
    } catch {
      console.error(`bench index: corpus "${name}" missing (run scripts/prepare_corpora.sh)`);
      continue;
    }
    const work = Deno.makeTempDirSync({ prefix: `bench-index-${name}-` });
    try {
      const copy = join(work, name);
      await _run("cp", ["-r", src, copy]);
      const ctags = await _ctags(copy, join(work, "tags"));
      const ctagsMs = ctags.ms;
      const out = await new Deno.Command(Deno.execPath(), {
        // -A: the child reads its own CPU times from /proc/self, which Deno grants only to -A.
        args: [
          "run",
          "-A",
          new URL("./bench_index.ts", import.meta.url).pathname,
          "--child",
          copy,
          "--index",
          join(work, "index"),
        ],
        stdout: "piped",
        stderr: "inherit",
      }).output();
      if (!out.success) throw new Error(`child failed for ${name}`);
      const r = JSON.parse(new TextDecoder().decode(out.stdout)) as ChildReport;
      const f = r.full;
      // Once more in a new process (a server's first call after start-up): change the same
      // file again and re-index it from a fresh `deno run`.
      const target = join(copy, r.changed_path);
      Deno.writeFileSync(
        target,
        new Uint8Array([...Deno.readFileSync(target), ...new TextEncoder().encode("\n// fresh\n")]),
      );
      const fresh = await _fresh(copy, join(work, "index"));
      results[name] = { ctags_ms: ctagsMs, ctags_cpu_s: ctags.cpu_s, ...r, fresh };
      rows.push([
        name,
        r.files,
        r.symbols,
        ctagsMs,
        f.total_ms!,
        f.total_ms! / ctagsMs,
        f.walk_ms!,
        f.read_hash_ms!,
        f.parse_ms!,
        f.store_ms!,
        f.fts_ms!,
        f.resolve_ms! + f.commit_ms!,
        ctags.cpu_s,
        r.cpu_s,
        r.cpu_s / ctags.cpu_s,
        r.main_thread_cpu_s,
        r.incremental.total_ms!,
        r.incremental_cold.total_ms!,
        `${Math.round(fresh.index_ms)} / ${Math.round(fresh.process_ms)}`,
        r.peak_rss_mb,
        r.source_bytes / 1e6,
        r.db_bytes / 1e6,
        r.db_bytes / r.source_bytes,
      ]);
      console.error(`bench index: ${name} done`);
    } finally {
      Deno.removeSync(work, { recursive: true });
    }
  }
  console.log(`Load averages at start: ${loadBefore}; at end: ${loadAverages()}\n`);
  console.log(markdownTable([
    "corpus",
    "files",
    "symbols",
    "ctags ms",
    "full ms",
    "× ctags",
    "walk",
    "read+hash",
    "parse",
    "store",
    "fts",
    "resolve+commit",
    "ctags CPU s",
    "CPU s",
    "CPU × ctags",
    "main-thread CPU s",
    "1-file ms",
    "1-file cold ms",
    "1-file fresh ms (index / process)",
    "peak RSS MB",
    "source MB",
    "DB MB",
    "DB/source",
  ], rows));
  await writeJson(flags, results);
}

/**
 * A one-file re-index in a new process: `index_ms` is the `indexLocalFolder` call (what a server's
 * first `index_folder` call spends once it is up), `process_ms` the child's whole wall time from
 * spawn to exit (Deno start-up and module loading included).
 */
async function _fresh(
  folder: string,
  index: string,
): Promise<{ index_ms: number; process_ms: number; changed: number }> {
  const t = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./bench_index.ts", import.meta.url).pathname,
      "--reindex",
      folder,
      "--index",
      index,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const processMs = performance.now() - t;
  if (!out.success) throw new Error("fresh re-index child failed");
  const r = JSON.parse(new TextDecoder().decode(out.stdout)) as { ms: number; changed: number };
  return { index_ms: r.ms, process_ms: processMs, changed: r.changed };
}

async function _reindexChild(flags: Map<string, string>): Promise<void> {
  const { Store } = await import("../src/store/mod.ts");
  const { indexLocalFolder } = await import("../src/ingest/index_local.ts");
  const { ParserPool } = await import("../src/parser/mod.ts");
  const { DEFAULT_INGEST_CONFIG } = await import("../src/ingest/config.ts");
  const store = new Store(flags.get("index")!);
  const pool = new ParserPool();
  try {
    const t = performance.now();
    const r = await indexLocalFolder(store, DEFAULT_INGEST_CONFIG, pool, {
      path: flags.get("reindex")!,
    });
    console.log(
      JSON.stringify({ ms: performance.now() - t, changed: r.changed, timings: r.timings }),
    );
  } finally {
    await pool.close();
    store.close();
  }
}

async function _child(flags: Map<string, string>): Promise<void> {
  const { Store } = await import("../src/store/mod.ts");
  const { indexLocalFolder } = await import("../src/ingest/index_local.ts");
  const { ParserPool } = await import("../src/parser/mod.ts");
  const { DEFAULT_INGEST_CONFIG } = await import("../src/ingest/config.ts");
  const folder = flags.get("child")!;
  const store = new Store(flags.get("index")!);
  const pool = new ParserPool();
  // Peak RSS: the kernel's high-water mark (VmHWM) where /proc/self/status is readable (the
  // child runs with -A); otherwise the resident set sampled every 20 ms, which misses a spike
  // between samples or while the main thread is busy (SQLite's index builds at the end).
  let peak = Deno.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, Deno.memoryUsage().rss);
  }, 20);
  try {
    const cpu0 = _cpuSeconds();
    const full = await indexLocalFolder(store, DEFAULT_INGEST_CONFIG, pool, { path: folder });
    const cpu1 = _cpuSeconds();
    // Change one file the way an editor does: append a function, new mtime.
    const index = store.repo(full.repo);
    const target = index.listFiles().find((f) =>
      f.language === "go" || f.language === "python" ||
      f.language === "typescript" || f.language === "javascript"
    )!;
    const bytes = index.fileBytes(target.path)!;
    const extra = target.language === "go"
      ? "\nfunc benchAddedFunction() int { return 1 }\n"
      : target.language === "python"
      ? "\n\ndef bench_added_function():\n    return 1\n"
      : "\nexport function benchAddedFunction() { return 1; }\n";
    Deno.writeFileSync(
      join(folder, target.path),
      new Uint8Array([...bytes, ...new TextEncoder().encode(extra)]),
    );
    const inc = await indexLocalFolder(store, DEFAULT_INGEST_CONFIG, pool, { path: folder });
    // Peak RSS is that of the full and warm re-index (the new pool below adds a worker).
    const peakRss = _highWaterMark() ?? Math.max(peak, Deno.memoryUsage().rss);
    // Again with a parser pool that has not started yet, as in a server's first re-index.
    Deno.writeFileSync(
      join(folder, target.path),
      new Uint8Array([
        ...bytes,
        ...new TextEncoder().encode(extra + extra.replace("dded", "dded2")),
      ]),
    );
    const coldPool = new ParserPool();
    let cold;
    try {
      cold = await indexLocalFolder(store, DEFAULT_INGEST_CONFIG, coldPool, { path: folder });
    } finally {
      await coldPool.close();
    }
    const dbPath = store.dbPath(full.repo);
    const source = index.listFiles().reduce((n, f) => n + f.size, 0);
    let db = Deno.statSync(dbPath).size;
    try {
      db += Deno.statSync(dbPath + "-wal").size;
    } catch { /* no WAL left */ }
    const report: ChildReport = {
      files: full.file_count,
      symbols: full.symbol_count,
      source_bytes: source,
      db_bytes: db,
      full: { ...full.timings },
      incremental: { ...inc.timings },
      incremental_changed: inc.changed,
      incremental_cold: { ...cold.timings },
      changed_path: target.path,
      peak_rss_mb: peakRss / 1024 / 1024,
      cpu_s: cpu1.process - cpu0.process,
      main_thread_cpu_s: cpu1.main - cpu0.main,
    };
    console.log(JSON.stringify(report));
  } finally {
    clearInterval(sampler);
    await pool.close();
    store.close();
  }
}

/** This process' peak resident set (VmHWM) in bytes, or undefined where it cannot be read. */
function _highWaterMark(): number | undefined {
  try {
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(Deno.readTextFileSync("/proc/self/status"))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) of this process and of its main thread, from /proc (Linux). */
function _cpuSeconds(): { process: number; main: number } {
  const read = (path: string) => {
    try {
      const fields = Deno.readTextFileSync(path).split(") ")[1]!.split(" ");
      return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks
    } catch {
      return NaN;
    }
  };
  return { process: read("/proc/self/stat"), main: read(`/proc/self/task/${Deno.pid}/stat`) };
}

/** Wall time and CPU seconds (user + system, from bash's `time`) of `ctags -R`. */
async function _ctags(folder: string, tagsFile: string): Promise<{ ms: number; cpu_s: number }> {
  const t = performance.now();
  const out = await new Deno.Command("bash", {
    args: [
      "-c",
      'TIMEFORMAT="%U %S"; time ctags -R -f "$1" "$2" 2>/dev/null',
      "_",
      tagsFile,
      folder,
    ],
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - t;
  if (!out.success) throw new Error("ctags failed");
  const [user, sys] = new TextDecoder().decode(out.stderr).trim().split(/\s+/).slice(-2).map(
    Number,
  );
  return { ms, cpu_s: (user ?? NaN) + (sys ?? NaN) };
}

async function _run(cmd: string, args: string[]): Promise<void> {
  const out = await new Deno.Command(cmd, { args, stdout: "null", stderr: "null" }).output();
  if (!out.success) throw new Error(`${cmd} failed`);
}

if (import.meta.main) await main(Deno.args);
