import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { permissionFlags, permissionInputs } from "../../scripts/serve.ts";
import { pyModule, tempWorkspace, writeTree } from "../ingest/_helpers.ts";

const CHILD = new URL("./_confined_child.ts", import.meta.url).pathname;

Deno.test("Deno's permission layer stops reads outside the allowed roots", async () => {
  const ws = tempWorkspace();
  const outside = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "codemunch-outside-" }));
  try {
    writeTree(ws.root, { "app.py": pyModule("inside") });
    writeTree(outside, { "secret.py": pyModule("stolen") });
    // The flags `deno task start` uses, for a server whose only allowed root is ws.root.
    const inputs = permissionInputs((name) =>
      ({ CODEMUNCH_ALLOWED_ROOTS: ws.root, CODE_INDEX_PATH: ws.indexDir } as Record<
        string,
        string
      >)[name]
    );
    const flags = permissionFlags(inputs);
    ok(flags.includes(`--allow-write=${ws.indexDir}`));
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...flags, CHILD, ws.root, outside, ws.indexDir],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    equal(out.success, true, stderr);
    const report = JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!);
    equal(report.directRead, "NotCapable");
    equal(report.outside.code, "path_outside_allowed_roots");
    ok(report.outside.message.includes(outside), report.outside.message);
    deepEqual(report.allowed, { file_count: 1, symbol_count: 1 });
    // Nothing was written outside the index directory.
    deepEqual([...Deno.readDirSync(outside)].map((e) => e.name), ["secret.py"]);
    ok([...Deno.readDirSync(ws.indexDir)].some((e) => e.name.endsWith(".db")));
    equal(Deno.statSync(join(ws.root)).isDirectory, true);
  } finally {
    Deno.removeSync(outside, { recursive: true });
    ws.dispose();
  }
});
