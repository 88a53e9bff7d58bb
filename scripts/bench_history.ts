/**
 * `deno task bench history`: the in-process history reader against the `git` CLI, in one run.
 *
 * Speed (in turns, each of ours on a freshly opened repository — cold object caches in a warm
 * process, as a server's first call on a repo — against a new `git` process doing the same work),
 * wall time and CPU time side by side (ours: this process's every thread; git's: its process's
 * user + system time), so a ratio still means something on a loaded machine:
 *
 * - `tree diff`: the changed files of `HEAD~100..HEAD`, renames paired (`git diff -M --name-only`);
 * - `diff`: the file changes of `HEAD~100..HEAD` with renames and each text file's line diff
 *   (`git diff -M -U0`);
 * - `changed symbols`: `get_changed_symbols`' work for that range (the diff, both sides of every
 *   changed file parsed, symbols classed) against the same `git diff -M -U0` (git names no
 *   symbols: the ratio says what the symbols cost on top); and the same asked again of a
 *   repository kept open, as the server keeps it (the symbols of blobs parsed before remembered);
 * - `line log`: the provenance of a function over a history of 1,000+ commits (this repository's
 *   first-parent history replayed one file per commit, `scripts/history_replay.ts`) against
 *   `git log -L`;
 * - `walk`: every commit from HEAD (`git rev-list HEAD`).
 *
 * Agreement with git (the truth of `scripts/history_truth.ts`): the changed files (renames paired)
 * and each text file's `-U0` hunks of 50 commit ranges of this repository against `git diff -M`
 * (`scripts/history_files.ts`); changed symbols of the same ranges against the symbols whose lines
 * `git diff` touches; the provenance of
 * 30 functions against `git log -L`; and, with `--eslint`, the cyclomatic complexity and parameter
 * count of every function of the JavaScript corpora (express, typescript) against ESLint's
 * `complexity`, `max-depth` and `max-params` rules.
 *
 *   deno task bench history [--rounds 5] [--ranges 50] [--spans 1,2,5,10,20] [--symbols 30]
 *     [--eslint] [--eslint-corpora zod,express] [--only agreement|speed] [--json FILE]
 */
import { join } from "node:path";
import { cpuUsage } from "node:process";
import { GitRepository } from "../src/ingest/git/repository.ts";
import { DEFAULT_HISTORY_LIMITS } from "../src/ingest/git/limits.ts";
import {
  type ChangedSymbols,
  changedSymbols,
  type ChangedSymbolsOptions,
  symbolsFromIndex,
} from "../src/query/changed_symbols.ts";
import { ParserPool } from "../src/parser/pool.ts";
import { indexHead } from "./history_index.ts";
import { diffLines, splitLines } from "../src/parser/git/line_diff.ts";
import { parseSource } from "../src/parser/parse.ts";
import { entryKind } from "../src/parser/git/objects.ts";
import { gitBytes, gitLineLog, gitText, gitTouchedSymbols } from "./history_truth.ts";
import { replayHistory } from "./history_replay.ts";
import { loadAverages, markdownTable, median, parseFlags, writeJson } from "./bench_util.ts";
import { eslintAgreement } from "./history_eslint.ts";
import { type FileAgreement, fileAgreement } from "./history_files.ts";

const _decoder = new TextDecoder();

function _open(dir: string): GitRepository {
  const repo = GitRepository.open(dir, null, DEFAULT_HISTORY_LIMITS);
  if (typeof repo === "string") throw new Error(repo);
  return repo;
}

/** Ours: the tree diff with renames and the line diff of every changed text file. */
function _diffWork(dir: string, a: string, b: string): number {
  const repo = _open(dir);
  try {
    const from = repo.resolveCommit(a);
    const to = repo.resolveCommit(b);
    let hunks = 0;
    for (const f of repo.diffTrees(repo.folderTree(from), repo.folderTree(to))) {
      if (f.oldId === "" || f.newId === "" || f.oldMode.startsWith("160")) continue;
      if (entryKind(f.newMode) !== "file") continue;
      let oldBytes: Uint8Array, newBytes: Uint8Array;
      try {
        oldBytes = repo.read(f.oldId, "blob");
        newBytes = repo.read(f.newId, "blob");
      } catch {
        continue; // over the size setting: git prints "Binary files differ" for such too
      }
      if (oldBytes.includes(0) || newBytes.includes(0)) continue;
      hunks += diffLines(
        splitLines(_decoder.decode(oldBytes)),
        splitLines(_decoder.decode(newBytes)),
      ).length;
    }
    return hunks;
  } finally {
    repo.close();
  }
}

/** Ours: the tree diff alone, renames paired (`git diff -M --name-only`). */
function _treeDiffWork(dir: string, a: string, b: string): number {
  const repo = _open(dir);
  try {
    return repo.diffTrees(
      repo.folderTree(repo.resolveCommit(a)),
      repo.folderTree(repo.resolveCommit(b)),
    )
      .length;
  } finally {
    repo.close();
  }
}

async function _changedWork(
  dir: string,
  a: string,
  b: string,
  options: ChangedSymbolsOptions = {},
): Promise<ChangedSymbols> {
  const repo = _open(dir);
  try {
    return await changedSymbols(repo, repo.resolveCommit(a), repo.resolveCommit(b), [], options);
  } finally {
    repo.close();
  }
}

function _lineLogWork(dir: string, path: string, start: number, end: number): string[] {
  const repo = _open(dir);
  try {
    const head = repo.resolveCommit("HEAD");
    return repo.lineLog(head, path, start, end, 100_000).entries.map((e) => e.commit.id);
  } finally {
    repo.close();
  }
}

function _walkWork(dir: string): number {
  const repo = _open(dir);
  try {
    return repo.walk(repo.resolveCommit("HEAD"), { max: 1_000_000 }).commits.length;
  } finally {
    repo.close();
  }
}

/** One measured case: ours and git's times, in turns (wall and CPU, ms). */
interface Timed {
  case: string;
  ours: number[];
  git: number[];
  /** CPU of this process (every thread: the worker pool's too) during each of our rounds. */
  oursCpu: number[];
  /** CPU of the git process of each round (its user + system time, reaped). */
  gitCpu: number[];
  detail: string;
}

/** CPU ms of this process so far, every thread. */
function _ourCpu(): number {
  const u = cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * CPU ms of this process's reaped children so far (`cutime` + `cstime` of /proc/PID/stat, read
 * through `cat` as Deno's permissions want; clock ticks of 10 ms).
 */
function _childCpu(): number {
  const out = new Deno.Command("cat", { args: [`/proc/${Deno.pid}/stat`], stdout: "piped" })
    .outputSync();
  const stat = _decoder.decode(out.stdout);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After the name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14 here.
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

async function _turns(
  name: string,
  rounds: number,
  ours: () => unknown,
  git: () => unknown,
  detail: string,
): Promise<Timed> {
  await ours(); // warm the code (JIT), not the data: each round opens the repository anew
  git();
  const t: Timed = { case: name, ours: [], git: [], oursCpu: [], gitCpu: [], detail };
  for (let i = 0; i < rounds; i++) {
    let c = _ourCpu();
    let s = performance.now();
    await ours();
    t.ours.push(performance.now() - s);
    t.oursCpu.push(_ourCpu() - c);
    c = _childCpu();
    s = performance.now();
    git();
    t.git.push(performance.now() - s);
    // The `cat` that read the first figure is reaped before git runs: its CPU is in `c`.
    t.gitCpu.push(_childCpu() - c);
  }
  return t;
}

/** A function at HEAD of `path` to trace: the longest one. */
async function _longestFunction(dir: string, path: string) {
  const bytes = gitBytes(dir, ["cat-file", "blob", `HEAD:${path}`]);
  const functions = (await parseSource(path, bytes)).symbols.filter((s) =>
    s.kind === "function" || s.kind === "method"
  );
  return functions.sort((x, y) => (y.end_line - y.line) - (x.end_line - x.line))[0];
}

async function _speed(
  dir: string,
  replayDir: string,
  replayPath: string,
  rounds: number,
  work: string,
) {
  const target = await _longestFunction(replayDir, replayPath);
  if (target === undefined) throw new Error(`no function in ${replayPath}`);
  const visited = (() => {
    const repo = _open(replayDir);
    try {
      return repo.lineLog(
        repo.resolveCommit("HEAD"),
        replayPath,
        target.line,
        target.end_line,
        100_000,
      )
        .visited;
    } finally {
      repo.close();
    }
  })();
  const diffArgs = ["diff", "-M", "-U0", "--no-color", "--no-ext-diff", "--no-textconv"];
  const cases: Timed[] = [];
  cases.push(
    await _turns(
      "tree diff HEAD~100..HEAD (renames, names only)",
      rounds,
      () => _treeDiffWork(dir, "HEAD~100", "HEAD"),
      () => gitBytes(dir, ["diff", "-M", "--name-only", "HEAD~100", "HEAD"]),
      "git diff -M --name-only",
    ),
  );
  cases.push(
    await _turns(
      "diff HEAD~100..HEAD (renames, line diffs)",
      rounds,
      () => _diffWork(dir, "HEAD~100", "HEAD"),
      () => gitBytes(dir, [...diffArgs, "HEAD~100", "HEAD"]),
      "git diff -M -U0",
    ),
  );
  let changed: ChangedSymbols | null = null;
  cases.push(
    await _turns(
      "changed symbols HEAD~100..HEAD, one thread, both sides parsed",
      rounds,
      async () => (changed = await _changedWork(dir, "HEAD~100", "HEAD")),
      () => gitBytes(dir, [...diffArgs, "HEAD~100", "HEAD"]),
      "git diff -M -U0 (no symbols)",
    ),
  );
  // The tool's path: HEAD's side of each file from an index of HEAD (the server's), the other side
  // parsed in the worker pool (one worker per CPU, warmed by the first run).
  const head = await indexHead(dir, join(work, "head"));
  const pool = new ParserPool();
  try {
    const tool = {
      parse: (p: string, b: Uint8Array, complexity: boolean) =>
        pool.parse(p, b, undefined, { symbolsOnly: true, complexity }),
      known: symbolsFromIndex(head.index),
    };
    cases.push(
      await _turns(
        `changed symbols HEAD~100..HEAD, the tool's path (index + ${pool.size} workers)`,
        rounds,
        () => _changedWork(dir, "HEAD~100", "HEAD", tool),
        () => gitBytes(dir, [...diffArgs, "HEAD~100", "HEAD"]),
        "git diff -M -U0 (no symbols)",
      ),
    );
    // The server keeps a repository open between calls: the same range asked again parses
    // nothing it parsed before (symbols remembered by blob id).
    const kept = _open(dir);
    try {
      const again = () =>
        changedSymbols(kept, kept.resolveCommit("HEAD~100"), kept.resolveCommit("HEAD"), [], tool);
      cases.push(
        await _turns(
          "the same asked again (repository kept open: parsed blobs remembered)",
          rounds,
          again,
          () => gitBytes(dir, [...diffArgs, "HEAD~100", "HEAD"]),
          "git diff -M -U0 (no symbols)",
        ),
      );
    } finally {
      kept.close();
    }
  } finally {
    await pool.close();
    head.close();
  }
  cases.push(
    await _turns(
      `line log ${replayPath}:${target.line}-${target.end_line} (${visited} commits examined)`,
      rounds,
      () => _lineLogWork(replayDir, replayPath, target.line, target.end_line),
      () => gitLineLog(replayDir, "HEAD", replayPath, target.line, target.end_line),
      "git log -L",
    ),
  );
  cases.push(
    await _turns(
      "walk every commit (replayed history)",
      rounds,
      () => _walkWork(replayDir),
      () => gitBytes(replayDir, ["rev-list", "HEAD"]),
      "git rev-list HEAD",
    ),
  );
  const c = changed as ChangedSymbols | null;
  return {
    cases,
    changedFiles: c?.files.length ?? 0,
    changedSymbols: c?.symbols.length ?? 0,
    lineLogVisited: visited,
  };
}

/**
 * The symbols of a change by id, whichever side: ours (a modified or renamed symbol's new and old
 * ids, an added one's new id, a removed one's old id) and git's (`gitTouchedSymbols`' keys without
 * their side). By identity, not by side: an append at a function's end touches only its new
 * lines in git's hunks (a pure insertion after its last old line), yet it is one changed symbol.
 */
function _ourKeys(result: ChangedSymbols): Set<string> {
  const keys = new Set<string>();
  for (const s of result.symbols) {
    keys.add(s.symbol.id);
    if (s.previous !== null) keys.add(s.previous.id);
  }
  return keys;
}

function _bySymbol(sided: Set<string>): Set<string> {
  return new Set([...sided].map((k) => k.replace(/^(old|new):/, "")));
}

/**
 * `count` ranges of the first-parent history: `HEAD~(k+d)..HEAD~k`, k spread evenly over the
 * history (every 10 commits when it is long enough), d cycling through the spans (default 1, 2,
 * 5, 10, 20 commits).
 */
function _ranges(dir: string, count: number, spans = [1, 2, 5, 10, 20]): [string, string][] {
  const firstParent = gitText(dir, ["rev-list", "--first-parent", "HEAD"]).trim().split("\n");
  const longest = Math.max(...spans);
  const step = Math.max(1, Math.min(10, Math.floor((firstParent.length - longest) / count)));
  const out: [string, string][] = [];
  for (let i = 0; out.length < count; i++) {
    const k = i * step;
    const d = spans[i % spans.length]!;
    if (k >= firstParent.length - 1) break;
    if (k + d >= firstParent.length) continue;
    out.push([firstParent[k + d]!, firstParent[k]!]);
  }
  return out;
}

async function _changedAgreement(dir: string, count: number, spans?: number[]) {
  const rows: { range: string; ours: number; git: number; same: boolean; only: string[] }[] = [];
  const files: FileAgreement[] = [];
  for (const [a, b] of _ranges(dir, count, spans)) {
    const repo = _open(dir);
    try {
      files.push(fileAgreement(repo, dir, a, b));
    } finally {
      repo.close();
    }
    const ours = _ourKeys(await _changedWork(dir, a, b));
    const truth = _bySymbol(await gitTouchedSymbols(dir, a, b));
    const only = [
      ...[...ours].filter((k) => !truth.has(k)).map((k) => `ours ${k}`),
      ...[...truth].filter((k) => !ours.has(k)).map((k) => `git ${k}`),
    ];
    rows.push({
      range: `${a.slice(0, 8)}..${b.slice(0, 8)}`,
      ours: ours.size,
      git: truth.size,
      same: only.length === 0,
      only: only.slice(0, 5),
    });
  }
  const both = rows.reduce((n, r) => n + Math.min(r.ours, r.git), 0);
  return {
    rows,
    agreeing: rows.filter((r) => r.same).length,
    symbols: both,
    files: {
      rangesSameFiles: files.filter((f) => f.sameFiles).length,
      filePairs: files.reduce((n, f) => n + f.git, 0),
      textFilesCompared: files.reduce((n, f) => n + f.compared, 0),
      textFilesSameHunks: files.reduce((n, f) => n + f.sameHunks, 0),
      examples: files.flatMap((f) => f.examples).slice(0, 10),
    },
  };
}

/** 30 functions of HEAD in files with history, spread over the repository. */
async function _provenanceTargets(dir: string, count: number) {
  const busy = gitText(dir, ["log", "--format=", "--name-only", "-n", "300"]).split("\n")
    .filter((p) => /\.(ts|js|py|go)$/.test(p));
  const counts = new Map<string, number>();
  for (const p of busy) counts.set(p, (counts.get(p) ?? 0) + 1);
  const files = [...counts].filter(([p, n]) => n >= 3 && _exists(dir, p)).map(([p]) => p).sort();
  const targets: { path: string; name: string; line: number; end_line: number }[] = [];
  // Round the files (a stride could land on one file only: 7 files, stride 7), a different
  // function of each every round.
  for (let i = 0; targets.length < count && i < files.length * 8; i++) {
    const path = files[i % files.length]!;
    const symbols = (await parseSource(path, gitBytes(dir, ["cat-file", "blob", `HEAD:${path}`])))
      .symbols.filter((s) => s.kind === "function" || s.kind === "method");
    const s = symbols[(Math.floor(i / files.length) * 5 + i) % Math.max(1, symbols.length)];
    if (s === undefined || targets.some((t) => t.path === path && t.line === s.line)) continue;
    targets.push({ path, name: s.qualified_name, line: s.line, end_line: s.end_line });
  }
  return targets;
}

function _exists(dir: string, path: string): boolean {
  try {
    gitBytes(dir, ["cat-file", "-e", `HEAD:${path}`]);
    return true;
  } catch {
    return false;
  }
}

async function _provenanceAgreement(dir: string, count: number) {
  const rows: { symbol: string; ours: number; git: number; same: boolean; sameSet: boolean }[] = [];
  for (const t of await _provenanceTargets(dir, count)) {
    const ours = _lineLogWork(dir, t.path, t.line, t.end_line);
    const truth = gitLineLog(dir, "HEAD", t.path, t.line, t.end_line);
    rows.push({
      symbol: `${t.path}:${t.name} (${t.line}-${t.end_line})`,
      ours: ours.length,
      git: truth.length,
      same: ours.join() === truth.join(),
      sameSet: [...ours].sort().join() === [...truth].sort().join(),
    });
  }
  return {
    rows,
    agreeing: rows.filter((r) => r.same).length,
    sameCommits: rows.filter((r) => r.sameSet).length,
  };
}

function _printSpeed(speed: Awaited<ReturnType<typeof _speed>>, rounds: number, load: string) {
  const r = (x: number) => Math.round(x);
  const table = speed.cases.map((c) => {
    const ours = median(c.ours);
    const git = median(c.git);
    const oursCpu = median(c.oursCpu);
    const gitCpu = median(c.gitCpu);
    return [
      c.case,
      r(ours),
      r(git),
      (ours / git).toFixed(1) + "x",
      r(oursCpu),
      r(gitCpu),
      gitCpu > 0 ? (oursCpu / gitCpu).toFixed(1) + "x" : "-",
      r(Math.max(...c.ours)),
      c.detail,
    ];
  });
  console.log(`\n## Speed (median of ${rounds}, ms; ${load})\n`);
  console.log(
    markdownTable([
      "work",
      "in process",
      "git CLI",
      "ratio",
      "ours CPU",
      "git CPU",
      "CPU ratio",
      "ours max",
      "git does",
    ], table),
  );
  console.log(
    `\nchanged symbols HEAD~100..HEAD: ${speed.changedFiles} files, ${speed.changedSymbols} symbols`,
  );
}

/** Run the benchmark. */
export async function main(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  const rounds = Number(flags.get("rounds") ?? 5);
  const dir = flags.get("repo") ?? gitText(Deno.cwd(), ["rev-parse", "--show-toplevel"]).trim();
  const work = Deno.makeTempDirSync({ prefix: "codemunch-bench-history-" });
  try {
    console.error(`bench history: ${dir}, ${loadAverages()}`);
    // `--only agreement` leaves the timings and their replayed history out.
    const timed = flags.get("only") !== "agreement";
    const replay = timed ? await replayHistory(dir, join(work, "replay")) : null;
    const replayPath = replay === null ? "" : _busiestAtHead(replay.dir, dir);
    if (replay !== null) {
      console.error(
        `bench history: replayed ${replay.commits} commits (${replayPath} has the most at HEAD)`,
      );
    }
    const loadBefore = loadAverages();
    const speed = replay === null ? null : await _speed(dir, replay.dir, replayPath, rounds, work);
    const loadAfter = loadAverages();
    if (speed !== null) _printSpeed(speed, rounds, `${loadBefore} → ${loadAfter}`);
    if (flags.get("only") === "speed") {
      await writeJson(flags, { repo: dir, load: { before: loadBefore, after: loadAfter }, speed });
      return;
    }
    const spans = flags.get("spans")?.split(",").map(Number);
    const changed = await _changedAgreement(dir, Number(flags.get("ranges") ?? 50), spans);
    console.log(
      `\n## Changed symbols vs git diff: ${changed.agreeing}/${changed.rows.length} ranges identical`,
    );
    for (const r of changed.rows.filter((r) => !r.same)) {
      console.log(`- ${r.range}: ours ${r.ours}, git ${r.git}: ${r.only.join("; ")}`);
    }
    const f = changed.files;
    console.log(
      `\n## Changed files and line ranges vs git diff -M: ${f.rangesSameFiles}/${changed.rows.length} ranges with the same files (${f.filePairs} file pairs), ${f.textFilesSameHunks}/${f.textFilesCompared} text files with git's exact -U0 hunks`,
    );
    for (const e of f.examples) console.log(`- ${e}`);
    const provenance = await _provenanceAgreement(dir, Number(flags.get("symbols") ?? 30));
    console.log(
      `\n## Provenance vs git log -L: ${provenance.agreeing}/${provenance.rows.length} symbols identical (${provenance.sameCommits} with the same commits in any order)`,
    );
    for (const r of provenance.rows.filter((r) => !r.same)) {
      console.log(`- ${r.symbol}: ours ${r.ours} commits, git ${r.git}`);
    }
    const only = flags.get("eslint-corpora")?.split(",");
    const eslint = flags.has("eslint") || only !== undefined
      ? await eslintAgreement("corpora", only)
      : null;
    if (eslint !== null) {
      console.log("\n## Complexity vs ESLint\n");
      console.log(markdownTable(
        ["corpus", "functions", "cyclomatic", "max-depth", "max-params"],
        eslint.map((e) => [e.corpus, e.functions, e.cyclomatic, e.maxDepth, e.params]),
      ));
    }
    console.log(`\n${loadAverages()}`);
    await writeJson(flags, {
      repo: dir,
      replay: replay === null ? null : { commits: replay.commits, path: replayPath },
      load: { before: loadBefore, after: loadAfter, end: loadAverages() },
      speed,
      changed,
      provenance,
      eslint,
    });
  } finally {
    Deno.removeSync(work, { recursive: true });
  }
}

/** The replayed path with the most commits among those still in HEAD of the source. */
function _busiestAtHead(replayDir: string, src: string): string {
  const counts = new Map<string, number>();
  for (const p of gitText(replayDir, ["log", "--format=", "--name-only"]).split("\n")) {
    if (/\.(ts|js)$/.test(p)) counts.set(p, (counts.get(p) ?? 0) + 1);
  }
  for (const [p] of [...counts].sort((a, b) => b[1] - a[1])) if (_exists(src, p)) return p;
  throw new Error("no source file with history");
}
