/**
 * `changedSymbols` on real repositories, in the cases where naming by order or by bytes alone
 * went wrong against `git diff`: duplicate names after an insertion, an `export` dropped (the
 * symbol's bytes the same, its line not), a nested function whose parent was renamed.
 */
import { deepEqual, ok } from "node:assert/strict";
import { GitRepository } from "../../src/ingest/git/repository.ts";
import { DEFAULT_HISTORY_LIMITS } from "../../src/ingest/git/limits.ts";
import { changedSymbols } from "../../src/query/changed_symbols.ts";
import { parseSource } from "../../src/parser/parse.ts";
import { commit, git, newRepo, write } from "./_repo.ts";

/** The changes between two commits as `change id` strings, sorted. */
async function changes(dir: string, from: string, to: string, lines = false): Promise<string[]> {
  const repo = GitRepository.open(dir, null, DEFAULT_HISTORY_LIMITS);
  if (typeof repo === "string") throw new Error(repo);
  try {
    const result = await changedSymbols(repo, from, to, []);
    return result.symbols.map((s) =>
      `${s.change} ${s.symbol.id}${lines ? ` ${s.symbol.line}` : ""}`
    ).sort();
  } finally {
    repo.close();
  }
}

const tool = (name: string) =>
  `    {\n      "name": "${name}",\n      "inputSchema": {\n        "title": "${name}"\n      }\n    }`;

Deno.test("an entry inserted before repeated keys is the only change", async () => {
  const dir = newRepo();
  const file = (names: string[]) => `{\n  "tools": [\n${names.map(tool).join(",\n")}\n  ]\n}\n`;
  write(dir, { "tools.json": file(["a", "b", "c"]) });
  const a = commit(dir, "three tools", 1_700_000_000);
  write(dir, { "tools.json": file(["new", "a", "b", "c"]) });
  const b = commit(dir, "a tool in front", 1_700_000_100);
  // The array and one schema, the one in the lines git diff inserts; not the three schemas that
  // only moved (their ids renumbered `~1`, `~2`, … by order).
  const got = await changes(dir, a, b, true);
  deepEqual(got.map((c) => c.split(" ")[0]), ["added", "modified"], got.join("; "));
  const [, start, count] = /^@@ -\S+ \+(\d+),(\d+) @@/m.exec(git(dir, ["diff", "-U0", a, b]))!;
  const [, id, line] = got[0]!.split(" ");
  ok(id!.startsWith("tools.json::tools.inputSchema#constant"), id);
  ok(Number(line) >= Number(start) && Number(line) < Number(start) + Number(count), got[0]);
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("a declaration that stops being exported is modified", async () => {
  // The symbol's bytes (the interface without its `export` keyword) stay the same; its line,
  // which git diff shows changed, does not.
  const dir = newRepo();
  const src = (exported: boolean) =>
    `${exported ? "export " : ""}interface Header {\n  version: number;\n}\n`;
  write(dir, { "h.ts": src(true) });
  const a = commit(dir, "header", 1_700_000_000);
  write(dir, { "h.ts": src(false) });
  const b = commit(dir, "header is private", 1_700_000_100);
  deepEqual(await changes(dir, a, b), ["modified h.ts::Header#type"]);
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("a nested function of a renamed function is not a change of its own", async () => {
  const dir = newRepo();
  const src = (outer: string, body: string) =>
    `export function ${outer}(xs: number[]): number {\n  function inner(x: number): number {\n    return x * 2;\n  }\n  ${body}\n}\n`;
  write(dir, { "m.ts": src("total", "return xs.map(inner).length;") });
  const a = commit(dir, "total", 1_700_000_000);
  write(dir, { "m.ts": src("sum", "return xs.map(inner).reduce((p, q) => p + q, 0);") });
  const b = commit(dir, "sum", 1_700_000_100);
  const got = await changes(dir, a, b);
  deepEqual(got.filter((c) => c.includes("inner")), [], got.join("; "));
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("a change asked again parses only the file versions not seen before", async () => {
  const dir = newRepo();
  const src = (body: string) => `export function f() {\n  return ${body};\n}\n`;
  write(dir, { "a.ts": src("1"), "b.ts": src("2") });
  const a = commit(dir, "two files", 1_700_000_000);
  write(dir, { "a.ts": src("10"), "b.ts": src("20") });
  const b = commit(dir, "both changed", 1_700_000_100);
  const repo = GitRepository.open(dir, null, DEFAULT_HISTORY_LIMITS);
  if (typeof repo === "string") throw new Error(repo);
  try {
    const parsed: string[] = [];
    const parse = (path: string, bytes: Uint8Array) => {
      parsed.push(path);
      return parseSource(path, bytes);
    };
    const first = await changedSymbols(repo, a, b, [], { parse });
    deepEqual(parsed.sort(), ["a.ts", "a.ts", "b.ts", "b.ts"]);
    parsed.length = 0;
    deepEqual(await changedSymbols(repo, a, b, [], { parse }), first);
    deepEqual(parsed, []);
    // The working tree against b: b's side remembered, only the edited file's new bytes parsed.
    write(dir, { "a.ts": src("100") });
    const worktree = await changedSymbols(repo, b, null, [], { parse });
    deepEqual(parsed, ["a.ts"]);
    deepEqual(worktree.symbols.map((s) => `${s.change} ${s.symbol.id}`), [
      "modified a.ts::f#function",
    ]);
    // A fresh repository object remembers nothing: the same answer from parsing again.
    parsed.length = 0;
    const fresh = GitRepository.open(dir, null, DEFAULT_HISTORY_LIMITS) as GitRepository;
    deepEqual(await changedSymbols(fresh, a, b, [], { parse }), first);
    deepEqual(parsed.length, 4);
    fresh.close();
  } finally {
    repo.close();
  }
  Deno.removeSync(dir, { recursive: true });
});
