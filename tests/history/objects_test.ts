/**
 * The object reader on packs built the ways git builds them: every object of a repository with
 * long delta chains (`git repack --depth`), read newest first and oldest first, hashes to its id;
 * a small object whose stream still inflates but whose bytes were altered is named damaged (the
 * small-stream inflater does not check the checksum itself).
 */
import { equal, match } from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { GitRepository } from "../../src/ingest/git/repository.ts";
import { DEFAULT_HISTORY_LIMITS } from "../../src/ingest/git/limits.ts";
import { ToolError } from "../../src/errors.ts";
import { commit, git, newRepo, write } from "./_repo.ts";

function open(dir: string): GitRepository {
  const repo = GitRepository.open(dir, null, DEFAULT_HISTORY_LIMITS);
  if (typeof repo === "string") throw new Error(repo);
  return repo;
}

function _bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

function hashOf(type: string, data: Uint8Array): string {
  return createHash("sha1").update(`${type} ${data.length}\0`).update(data).digest("hex");
}

Deno.test("every object of a pack with long delta chains reads back as its id", async () => {
  const dir = newRepo();
  // 80 commits in one git fast-import: each appends a function to a file and touches another.
  let stream = "";
  let text = "";
  for (let i = 0; i < 80; i++) {
    text += `export function f${i}(x: number): number {\n  return x * ${i};\n}\n`;
    const other = `export const n = ${i};\n`;
    stream +=
      `commit refs/heads/main\ncommitter Ada <ada@example.com> ${1_700_000_000 + i * 60} +0000\n` +
      `data 7\nstep ${String(i).padStart(2, "0")}\n` +
      `M 100644 inline src/a.ts\ndata ${_bytes(text)}\n${text}\n` +
      `M 100644 inline src/n${i % 7}.ts\ndata ${_bytes(other)}\n${other}\n`;
  }
  const fi = new Deno.Command("git", { args: ["fast-import", "--quiet"], cwd: dir, stdin: "piped" })
    .spawn();
  const writer = fi.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stream));
  await writer.close();
  equal((await fi.status).success, true);
  git(dir, ["repack", "-a", "-d", "-q", "--depth=60", "--window=80"]);
  git(dir, ["prune-packed"]);
  const ids = git(dir, ["cat-file", "--batch-all-objects", "--batch-check=%(objectname)"])
    .trim().split("\n");
  for (const order of [ids, [...ids].reverse()]) {
    const repo = open(dir);
    try {
      for (const id of order) {
        const o = repo.objects.read(id);
        equal(hashOf(o.type, o.data), id);
      }
    } finally {
      repo.close();
    }
  }
  // Versions of the file, newest first, as a line log reads them.
  const repo = open(dir);
  try {
    const versions = git(dir, ["log", "--format=%H", "--", "src/a.ts"]).trim().split("\n");
    for (const c of versions.filter((_, i) => i % 8 === 0)) {
      equal(
        new TextDecoder().decode(repo.fileAt(c, "src/a.ts")!),
        git(dir, ["show", `${c}:src/a.ts`]),
      );
    }
  } finally {
    repo.close();
  }
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("a small loose object whose bytes were altered is damaged, not read", () => {
  const dir = newRepo();
  write(dir, { "a.ts": "export const a = 1;\n" });
  commit(dir, "one", 1_700_000_000);
  const id = git(dir, ["rev-parse", "HEAD:a.ts"]).trim();
  const path = join(dir, ".git", "objects", id.slice(0, 2), id.slice(2));
  // Stored (level 0) deflate: one altered content byte still inflates; only the checksum tells.
  const stream = deflateSync(new TextEncoder().encode("blob 20\0export const a = 1;\n"), {
    level: 0,
  });
  stream[stream.length - 8] = stream[stream.length - 8]! ^ 1;
  Deno.chmodSync(path, 0o644);
  Deno.writeFileSync(path, stream);
  const repo = open(dir);
  try {
    repo.read(id, "blob");
    throw new Error("read a damaged object");
  } catch (e) {
    if (!(e instanceof ToolError)) throw e;
    match(`${e.code}: ${e.message}`, new RegExp(`^git_object_invalid: Git object ${id}`));
  } finally {
    repo.close();
  }
  Deno.removeSync(dir, { recursive: true });
});
