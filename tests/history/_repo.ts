/** Real git repositories for the history tests, made with the git CLI (available in tests). */
import { equal } from "node:assert/strict";
import { join } from "node:path";
import { decode } from "../../mod.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { Store } from "../../src/store/store.ts";

/** Run git in a folder with a fixed identity and dates; returns stdout. */
export function git(dir: string, args: string[], env: Record<string, string> = {}): string {
  const out = new Deno.Command("git", {
    args: ["-c", "init.defaultBranch=main", "-c", "core.hooksPath=/dev/null", ...args],
    cwd: dir,
    env: {
      GIT_AUTHOR_NAME: "Ada",
      GIT_AUTHOR_EMAIL: "ada@example.com",
      GIT_COMMITTER_NAME: "Ada",
      GIT_COMMITTER_EMAIL: "ada@example.com",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

/** Write files (path → text) into a folder. */
export function write(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    Deno.mkdirSync(join(dir, path, ".."), { recursive: true });
    Deno.writeTextFileSync(join(dir, path), text);
  }
}

/** Commit everything with a subject at a fixed time (seconds since the epoch). */
export function commit(dir: string, subject: string, time: number): string {
  git(dir, ["add", "-A"]);
  const date = `${time} +0000`;
  git(dir, ["commit", "-q", "--allow-empty", "-m", subject], {
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
  });
  return git(dir, ["rev-parse", "HEAD"]).trim();
}

/** A new empty repository in a temp folder (real path). */
export function newRepo(): string {
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "codemunch-history-" }));
  git(dir, ["init", "-q"]);
  return dir;
}

/**
 * A small TypeScript project with a history: functions edited in the body and the signature, a
 * function renamed, a file renamed, a branch merged, then packed (git gc) with one more loose
 * commit on top.
 */
export function sampleRepo(): string {
  const dir = newRepo();
  const t = 1_700_000_000;
  write(dir, {
    "src/math.ts":
      "export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function mul(a: number, b: number): number {\n  return a * b;\n}\n",
    "src/util.ts": "export function greet(name: string): string {\n  return `hi ${name}`;\n}\n",
  });
  commit(dir, "Add math and util", t);
  write(dir, {
    "src/math.ts":
      "export function add(a: number, b: number): number {\n  const sum = a + b;\n  return sum;\n}\n\nexport function mul(a: number, b: number): number {\n  return a * b;\n}\n",
  });
  commit(dir, "Refactor add", t + 100);
  git(dir, ["checkout", "-q", "-b", "side"]);
  write(dir, {
    "src/util.ts":
      "export function greet(name: string, loud = false): string {\n  return loud ? `HI ${name}` : `hi ${name}`;\n}\n",
  });
  commit(dir, "Support loud greetings", t + 200);
  git(dir, ["checkout", "-q", "main"]);
  write(dir, {
    "src/math.ts":
      "export function add(a: number, b: number): number {\n  const sum = a + b;\n  return sum;\n}\n\nexport function times(a: number, b: number): number {\n  return a * b;\n}\n",
  });
  commit(dir, "Rename mul", t + 300);
  git(dir, ["merge", "-q", "--no-ff", "-m", "Merge side", "side"], {
    GIT_AUTHOR_DATE: `${t + 400} +0000`,
    GIT_COMMITTER_DATE: `${t + 400} +0000`,
  });
  git(dir, ["mv", "src/util.ts", "src/greeting.ts"]);
  commit(dir, "Move util to greeting", t + 500);
  git(dir, ["gc", "-q"]);
  write(dir, {
    "src/math.ts":
      "export function add(a: number, b: number): number {\n  const sum = a + b;\n  return sum; // checked\n}\n\nexport function times(a: number, b: number): number {\n  return a * b;\n}\n",
  });
  commit(dir, "Fix add comment", t + 600);
  return dir;
}

/** A runner over a fresh store with `dir` indexed; `call` asserts success and parses the answer. */
export interface IndexedRepo {
  runner: ToolRunner;
  repo: string;
  /** Call `tool` on the repo in `format` (json or compact), asserting it did not fail. */
  call(
    tool: string,
    args: Record<string, unknown>,
    format?: string,
  ): Promise<Record<string, unknown>>;
  /** Close the runner, remove `dir` and the store. */
  close(): Promise<void>;
}

/** Index `dir` with a real ToolRunner over a store in a temp dir. */
export async function indexedRepo(dir: string): Promise<IndexedRepo> {
  const storeDir = Deno.makeTempDirSync();
  const runner = new ToolRunner({ store: new Store(storeDir), cwd: dir, log: () => {} });
  const indexed = await runner.call("index_folder", { path: dir }, { format: "json" });
  const repo = String(JSON.parse(indexed.text).repo);
  return {
    runner,
    repo,
    call: async (tool, args, format = "json") => {
      const out = await runner.call(tool, { repo, ...args }, { format: format as "json" });
      equal(out.isError, false, out.text);
      return (format === "json" ? JSON.parse(out.text) : decode(out.text)) as Record<
        string,
        unknown
      >;
    },
    close: async () => {
      await runner.close();
      Deno.removeSync(dir, { recursive: true });
      Deno.removeSync(storeDir, { recursive: true });
    },
  };
}
