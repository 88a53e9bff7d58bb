/**
 * Hostile repositories: the history reader runs nothing, follows no link out, never blocks on a
 * FIFO, refuses objects over the size setting and names a damaged object.
 */
import { equal, match, ok, throws } from "node:assert/strict";
import { join } from "node:path";
import { GitRepository } from "../../src/ingest/git/repository.ts";
import { DEFAULT_HISTORY_LIMITS } from "../../src/ingest/git/limits.ts";
import { ToolError } from "../../src/errors.ts";
import { Store } from "../../src/store/store.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { commit, git, newRepo, sampleRepo, write } from "./_repo.ts";
import { deflateSync } from "node:zlib";

function open(dir: string, limits = DEFAULT_HISTORY_LIMITS): GitRepository {
  const repo = GitRepository.open(dir, null, limits);
  if (typeof repo === "string") throw new Error(repo);
  return repo;
}

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof ToolError) return `${e.code}: ${e.message}`;
    throw e;
  }
  return "no error";
}

Deno.test("a config that would run commands runs nothing", async () => {
  const dir = sampleRepo();
  const marker = join(dir, "..", `pwned-${crypto.randomUUID()}`);
  const cmd = `touch ${marker}`;
  Deno.writeTextFileSync(
    join(dir, ".git", "config"),
    `[core]\n\tfsmonitor = ${cmd}\n\tpager = ${cmd}\n\thooksPath = hooks\n[diff]\n\texternal = ${cmd}\n[diff "x"]\n\ttextconv = ${cmd}\n[filter "x"]\n\tclean = ${cmd}\n\tsmudge = ${cmd}\n`,
    { append: true },
  );
  write(dir, {
    ".gitattributes": "* diff=x filter=x\n",
    "src/math.ts": "export const changed = 1;\n",
  });
  Deno.mkdirSync(join(dir, "hooks"), { recursive: true });
  for (const hook of ["post-checkout", "pre-commit", "post-index-change"]) {
    Deno.writeTextFileSync(join(dir, "hooks", hook), `#!/bin/sh\n${cmd}\n`, { mode: 0o755 });
  }
  const store = new Store(Deno.makeTempDirSync());
  const runner = new ToolRunner({ store, cwd: dir, log: () => {} });
  try {
    const indexed = await runner.call("index_folder", { path: dir }, { format: "json" });
    const repo = JSON.parse(indexed.text).repo as string;
    for (
      const [tool, args] of [
        ["get_changed_symbols", { repo }],
        ["get_changed_symbols", { repo, since_sha: "HEAD~3", until_sha: "HEAD" }],
        ["get_symbol_provenance", { repo, symbol: "greet" }],
        ["get_churn_rate", { repo, target: "src/math.ts" }],
        ["get_symbol_diff", { repo, symbol: "greet", from_ref: "HEAD~2", to_ref: "HEAD" }],
        ["get_hotspots", { repo, min_complexity: 1 }],
        ["get_pr_risk_profile", { repo, base_ref: "HEAD~3" }],
      ] as const
    ) {
      const out = await runner.call(tool, args, { format: "json" });
      equal(out.isError, false, out.text);
    }
    throws(() => Deno.statSync(marker), Deno.errors.NotFound);
  } finally {
    await runner.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a symlinked object is refused, not followed", () => {
  const dir = newRepo();
  write(dir, { "a.ts": "export const a = 1;\n" });
  commit(dir, "one", 1_700_000_000);
  const id = git(dir, ["rev-parse", "HEAD:a.ts"]).trim();
  const path = join(dir, ".git", "objects", id.slice(0, 2), id.slice(2));
  const outside = Deno.makeTempFileSync();
  Deno.copyFileSync(path, outside);
  Deno.removeSync(path);
  Deno.symlinkSync(outside, path);
  const repo = open(dir);
  match(code(() => repo.read(id, "blob")), /^git_unsafe: Refused to read .*symbolic link/);
  repo.close();
  Deno.removeSync(dir, { recursive: true });
  Deno.removeSync(outside);
});

Deno.test("a loose objects folder that is a link out is refused, not followed", () => {
  const dir = newRepo();
  write(dir, { "a.ts": "export const a = 1;\n" });
  commit(dir, "one", 1_700_000_000);
  const id = git(dir, ["rev-parse", "HEAD:a.ts"]).trim();
  const folder = join(dir, ".git", "objects", id.slice(0, 2));
  const outside = Deno.makeTempDirSync();
  Deno.renameSync(folder, join(outside, "moved"));
  Deno.symlinkSync(join(outside, "moved"), folder);
  const repo = open(dir);
  match(code(() => repo.read(id, "blob")), /^git_unsafe: Refused to read .*symbolic link/);
  repo.close();
  Deno.removeSync(dir, { recursive: true });
  Deno.removeSync(outside, { recursive: true });
});

Deno.test("a blob over the size setting is refused, naming it", () => {
  const dir = newRepo();
  write(dir, { "big.txt": "x".repeat(300_000) });
  commit(dir, "big", 1_700_000_000);
  const id = git(dir, ["rev-parse", "HEAD:big.txt"]).trim();
  for (const packed of [false, true]) {
    if (packed) git(dir, ["gc", "-q"]);
    const repo = open(dir, { ...DEFAULT_HISTORY_LIMITS, maxObjectBytes: 100_000 });
    match(code(() => repo.read(id, "blob")), new RegExp(`^git_object_too_large: Git object ${id}`));
    repo.close();
  }
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("a corrupt pack is an error naming the object", () => {
  const dir = sampleRepo();
  git(dir, ["gc", "-q"]);
  const packDir = join(dir, ".git", "objects", "pack");
  const pack = [...Deno.readDirSync(packDir)].find((e) => e.name.endsWith(".pack"))!.name;
  const bytes = Deno.readFileSync(join(packDir, pack));
  for (let i = 200; i < bytes.length - 20; i += 7) bytes[i] = bytes[i]! ^ 0x5a;
  Deno.chmodSync(join(packDir, pack), 0o644);
  Deno.writeFileSync(join(packDir, pack), bytes);
  const repo = open(dir);
  const errors = repo.walk.bind(repo);
  const message = code(() => errors(repo.resolveCommit("main")));
  match(message, /^git_object_(invalid|missing): (Git object [0-9a-f]{40}|The revision)/);
  repo.close();
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("a FIFO where a ref should be does not block", () => {
  const dir = sampleRepo();
  const ref = join(dir, ".git", "refs", "heads", "fifo");
  new Deno.Command("mkfifo", { args: [ref] }).outputSync();
  const repo = open(dir);
  const started = performance.now();
  match(
    code(() => repo.resolveCommit("fifo")),
    /^git_unsafe: Refused to read .*not a regular file/,
  );
  ok(performance.now() - started < 2000);
  repo.close();
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("a folder without git history says so and what to do", async () => {
  const dir = Deno.realPathSync(Deno.makeTempDirSync());
  write(dir, { "a.ts": "export function a() {}\n" });
  const runner = new ToolRunner({
    store: new Store(Deno.makeTempDirSync()),
    cwd: dir,
    log: () => {},
  });
  try {
    const repo =
      JSON.parse((await runner.call("index_folder", { path: dir }, { format: "json" })).text).repo;
    const out = await runner.call("get_changed_symbols", { repo }, { format: "json" });
    equal(out.code, "history_unavailable");
    match(JSON.parse(out.text).error, /not inside a git repository.*index_folder/);
  } finally {
    await runner.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

/** Index a folder and call a history tool on it: the tool's error code and message, or its answer. */
async function callOn(
  dir: string,
  tool: string,
  args: Record<string, unknown>,
  history = DEFAULT_HISTORY_LIMITS,
): Promise<{ code: string | undefined; body: Record<string, unknown> }> {
  const runner = new ToolRunner({
    store: new Store(Deno.makeTempDirSync()),
    cwd: dir,
    log: () => {},
    history,
  });
  try {
    const indexed = await runner.call("index_folder", { path: dir }, { format: "json" });
    const repo = JSON.parse(indexed.text).repo as string;
    const out = await runner.call(tool, { repo, ...args }, { format: "json" });
    return { code: out.isError ? out.code : undefined, body: JSON.parse(out.text) };
  } finally {
    await runner.close();
  }
}

Deno.test("through the tools: a symlinked pack, a corrupt pack, a huge blob", async (t) => {
  await t.step("a pack file that is a symlink out is refused, naming it", async () => {
    const dir = sampleRepo();
    const packDir = join(dir, ".git", "objects", "pack");
    const pack = [...Deno.readDirSync(packDir)].find((e) => e.name.endsWith(".pack"))!.name;
    const outside = Deno.makeTempFileSync();
    Deno.copyFileSync(join(packDir, pack), outside);
    Deno.removeSync(join(packDir, pack));
    Deno.symlinkSync(outside, join(packDir, pack));
    const r = await callOn(dir, "get_changed_symbols", {
      since_sha: "HEAD~4",
      until_sha: "HEAD~1",
    });
    equal(r.code, "git_unsafe");
    match(r.body.error as string, new RegExp(`Refused to read .*${pack}: it is a symbolic link`));
    Deno.removeSync(dir, { recursive: true });
    Deno.removeSync(outside);
  });
  await t.step("a corrupt pack is an error result, not a crash", async () => {
    const dir = sampleRepo();
    const packDir = join(dir, ".git", "objects", "pack");
    const pack = [...Deno.readDirSync(packDir)].find((e) => e.name.endsWith(".pack"))!.name;
    const bytes = Deno.readFileSync(join(packDir, pack));
    for (let i = 200; i < bytes.length - 20; i += 7) bytes[i] = bytes[i]! ^ 0x5a;
    Deno.chmodSync(join(packDir, pack), 0o644);
    Deno.writeFileSync(join(packDir, pack), bytes);
    const r = await callOn(dir, "get_symbol_provenance", { symbol: "greet" });
    match(r.code ?? "", /^git_object_(invalid|missing)$/);
    match(r.body.error as string, /Git object [0-9a-f]{40}|revision/);
    Deno.removeSync(dir, { recursive: true });
  });
  await t.step("a changed blob over the size setting is skipped and said so", async () => {
    const dir = newRepo();
    write(dir, { "a.ts": "export const a = 1;\n", "big.ts": "export const x = 1;\n" });
    commit(dir, "one", 1_700_000_000);
    write(dir, { "big.ts": `export const x = "${"y".repeat(300_000)}";\n` });
    commit(dir, "two", 1_700_000_100);
    const r = await callOn(
      dir,
      "get_changed_symbols",
      { since_sha: "HEAD~1", until_sha: "HEAD" },
      { ...DEFAULT_HISTORY_LIMITS, maxObjectBytes: 100_000 },
    );
    equal(r.code, undefined, JSON.stringify(r.body));
    const skipped = r.body.skipped_files as { path: string; reason: string }[];
    equal(skipped[0]?.path, "big.ts");
    match(skipped[0]!.reason, /too large to read.*CODEMUNCH_HISTORY_MAX_OBJECT_BYTES/);
    Deno.removeSync(dir, { recursive: true });
  });
});

Deno.test("a loose object whose stream inflates past its header is refused quickly", () => {
  const dir = newRepo();
  write(dir, { "a.ts": "export const a = 1;\n" });
  commit(dir, "one", 1_700_000_000);
  const id = git(dir, ["rev-parse", "HEAD:a.ts"]).trim();
  const path = join(dir, ".git", "objects", id.slice(0, 2), id.slice(2));
  // A header of 20 bytes, then 64 MB of zeros: a bomb the size cap must stop.
  const bomb = new Uint8Array(64 * 1024 * 1024 + 9);
  bomb.set(new TextEncoder().encode("blob 20\0"));
  Deno.chmodSync(path, 0o644);
  Deno.writeFileSync(path, deflateSync(bomb));
  const repo = open(dir);
  const started = performance.now();
  match(
    code(() => repo.read(id, "blob")),
    new RegExp(`^git_object_invalid: Git object ${id} is damaged`),
  );
  ok(performance.now() - started < 10_000);
  repo.close();
  Deno.removeSync(dir, { recursive: true });
});
