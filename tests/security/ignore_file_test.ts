/**
 * A huge `.gitignore` is not read whole (issue 25, medium 7): index_folder on a folder whose
 * `.gitignore` is a sparse 1 GB file (and one nested FIFO `.gitignore`) finishes with a warning
 * that the file was skipped and its rules not applied, while the indexer's peak memory stays
 * far below the file's size (the server as its own process, its peak RSS read from /proc).
 */
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { resultText } from "../e2e/_server.ts";
import { limitedServer } from "./_limited_server.ts";

Deno.test("index_folder: a 1 GB .gitignore is skipped with a warning, memory bounded", async () => {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "codemunch-ignore-" }));
  const root = join(base, "project");
  Deno.mkdirSync(join(root, "sub"), { recursive: true });
  Deno.writeTextFileSync(join(root, "a.py"), "def a():\n    return 1\n");
  Deno.writeTextFileSync(join(root, "sub", "b.py"), "def b():\n    return 2\n");
  const f = Deno.openSync(join(root, ".gitignore"), { create: true, write: true });
  f.writeSync(new TextEncoder().encode("sub/\n"));
  f.truncateSync(1024 * 1024 * 1024);
  f.close();
  const server = await limitedServer({
    CODE_INDEX_PATH: join(base, "index"),
    CODEMUNCH_ALLOWED_ROOTS: root,
  });
  try {
    const r = await server.client.callTool({
      name: "index_folder",
      arguments: { path: root, format: "json" },
    });
    const text = resultText(r);
    equal(r.isError, undefined, text);
    match(text, /Skipped \.gitignore: over 1048576 bytes, its rules are not applied/);
    // Its rule (sub/) is not applied: both files are indexed.
    equal(JSON.parse(text).file_count, 2, text);
    const peak = server.peakRssMb();
    console.log(`peak RSS ${peak.toFixed(0)} MB`);
    ok(peak < 300, `peak RSS ${peak} MB`);
  } finally {
    await server.close();
    Deno.removeSync(base, { recursive: true });
  }
});
