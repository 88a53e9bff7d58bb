/**
 * Git metadata of a hostile repository (issue 10): only small regular files inside the root are
 * read, and the answer is a commit id or "" — never a file's content, never a hang on a FIFO,
 * never unbounded memory on /dev/zero. Each case runs `readGitHead` in a child process with a
 * deadline, so that a hang fails the test instead of stalling it.
 */
import { equal } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const GIT_HEAD = fileURLToPath(new URL("../../src/ingest/git_head.ts", import.meta.url));
const SHA = "0123456789abcdef0123456789abcdef01234567";

/** `readGitHead(root)` in a child process, killed after `ms`. */
async function headOf(root: string, ms = 10_000): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `import { readGitHead } from ${JSON.stringify(GIT_HEAD)};` +
      `console.log(JSON.stringify(readGitHead(${JSON.stringify(root)})));`,
    ],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), ms);
  const out = await child.output();
  clearTimeout(timer);
  if (!out.success) return `<failed: ${new TextDecoder().decode(out.stderr).slice(0, 200)}>`;
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

function repo(): { base: string; root: string; git: string } {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "codemunch-git-" }));
  const root = join(base, "repo");
  const git = join(root, ".git");
  Deno.mkdirSync(join(git, "refs", "heads"), { recursive: true });
  Deno.writeTextFileSync(join(git, "HEAD"), "ref: refs/heads/main\n");
  return { base, root, git };
}

Deno.test("git head: ordinary checkouts (loose ref, packed ref, detached HEAD)", async () => {
  const r = repo();
  try {
    Deno.writeTextFileSync(join(r.git, "refs", "heads", "main"), SHA + "\n");
    equal(await headOf(r.root), SHA);
    Deno.removeSync(join(r.git, "refs", "heads", "main"));
    Deno.writeTextFileSync(join(r.git, "packed-refs"), `# pack-refs\n${SHA} refs/heads/main\n`);
    equal(await headOf(r.root), SHA);
    Deno.writeTextFileSync(join(r.git, "HEAD"), SHA.replace("0", "f") + "\n");
    equal(await headOf(r.root), SHA.replace("0", "f"));
  } finally {
    Deno.removeSync(r.base, { recursive: true });
  }
});

Deno.test("git head: a ref symlinked to /etc/passwd is unknown, not the file", async () => {
  const r = repo();
  try {
    Deno.symlinkSync("/etc/passwd", join(r.git, "refs", "heads", "main"));
    equal(await headOf(r.root), "");
  } finally {
    Deno.removeSync(r.base, { recursive: true });
  }
});

Deno.test("git head: a ref that is not a commit id is unknown", async () => {
  const r = repo();
  try {
    Deno.writeTextFileSync(
      join(r.git, "refs", "heads", "main"),
      "root:x:0:0:root:/root:/bin/bash\n",
    );
    equal(await headOf(r.root), "");
  } finally {
    Deno.removeSync(r.base, { recursive: true });
  }
});

Deno.test("git head: a ref pointing to /dev/zero ends at once", async () => {
  const r = repo();
  try {
    Deno.symlinkSync("/dev/zero", join(r.git, "refs", "heads", "main"));
    equal(await headOf(r.root), "");
  } finally {
    Deno.removeSync(r.base, { recursive: true });
  }
});

Deno.test("git head: a FIFO HEAD does not hang", async () => {
  const r = repo();
  try {
    Deno.removeSync(join(r.git, "HEAD"));
    const made = new Deno.Command("mkfifo", { args: [join(r.git, "HEAD")] }).outputSync();
    equal(made.success, true);
    equal(await headOf(r.root), "");
  } finally {
    Deno.removeSync(r.base, { recursive: true });
  }
});

Deno.test("git head: a gitdir: pointer out of the root is not followed", async () => {
  const r = repo();
  const outside = join(r.base, "outside");
  try {
    Deno.mkdirSync(join(outside, "refs", "heads"), { recursive: true });
    Deno.writeTextFileSync(join(outside, "HEAD"), "ref: refs/heads/main\n");
    Deno.writeTextFileSync(join(outside, "refs", "heads", "main"), SHA + "\n");
    Deno.removeSync(r.git, { recursive: true });
    Deno.writeTextFileSync(join(r.root, ".git"), `gitdir: ${outside}\n`);
    equal(await headOf(r.root), "");
    Deno.writeTextFileSync(join(r.root, ".git"), "gitdir: ../outside\n");
    equal(await headOf(r.root), "");
  } finally {
    Deno.removeSync(r.base, { recursive: true });
  }
});
