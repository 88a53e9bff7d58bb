/**
 * `codemunch download-model` against a model host on 127.0.0.1 (the Hugging Face URL layout, its
 * `X-Linked-ETag` checksum header): the files land in `<index>/models/all-MiniLM-L6-v2/` through
 * the launcher's own permissions, semantic search then finds the model, and it runs; a checksum or
 * size that does not match, or a missing file, installs nothing and leaves no partial file.
 */
import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { downloadModel, modelFiles } from "../../src/embed/download.ts";
import { embeddingSettingsFromEnv } from "../../src/embed/config.ts";
import { createProvider } from "../../src/embed/mod.ts";
import { ToolError } from "../../src/errors.ts";
import { CHECKOUT } from "../e2e/_server.ts";
import { modelHost, SERVED_MODEL } from "./_model_host.ts";

const MODEL = SERVED_MODEL;

Deno.test("download-model: the CLI fetches the model, checks it, and semantic search can use it", async () => {
  const host = modelHost();
  const base = Deno.makeTempDirSync({ prefix: "codemunch-dl-" });
  try {
    const indexDir = join(base, "index");
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-read",
        "--allow-env",
        "--allow-run",
        join(CHECKOUT, "scripts", "serve.ts"),
        "download-model",
        "--url",
        host.url,
      ],
      env: { CODE_INDEX_PATH: indexDir, HOME: base, PATH: Deno.env.get("PATH") ?? "" },
      clearEnv: true,
      cwd: base,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    const stdout = new TextDecoder().decode(out.stdout);
    equal(out.code, 0, stderr);
    const dir = join(indexDir, "models", "all-MiniLM-L6-v2");
    ok(stdout.includes(`Model ready at ${dir}`), stdout);
    ok(/model\.onnx: .*host checksum matched/.test(stderr), stderr);
    ok(/vocab\.txt: .*size checked/.test(stderr), stderr);
    deepEqual(Deno.readFileSync(join(dir, "model.onnx")), MODEL);
    deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "manifest.json",
      "model.onnx",
      "vocab.txt",
    ]);
    // A bare setup now finds it, and it runs.
    const settings = embeddingSettingsFromEnv(() => undefined, indexDir);
    deepEqual(settings.provider, { kind: "onnx", model: "all-MiniLM-L6-v2", dir });
    const provider = createProvider(settings);
    const [v] = await provider.embed(["delete user"], "query");
    equal(v!.length, 4);
    provider.close?.();
    // A second run keeps what is there.
    const again = await downloadModel(
      dir,
      modelFiles(host.url, "sentence-transformers/all-MiniLM-L6-v2"),
    );
    deepEqual(again.map((f) => f.kept), [true, true]);
  } finally {
    await host.close();
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("download-model: a wrong checksum, a short file or a 404 installs nothing", async (t) => {
  const base = Deno.makeTempDirSync({ prefix: "codemunch-dl-" });
  try {
    for (
      const [name, lie, code, pattern] of [
        ["checksum", { sha: true }, "download_corrupt", /does not match the expected 0{64}/],
        ["size", { size: true }, "download_corrupt", /bytes arrived, the host announced/],
        ["missing", { missing: "vocab.txt" }, "download_failed", /vocab\.txt answered 404/],
      ] as const
    ) {
      await t.step(name, async () => {
        const host = modelHost(lie);
        const dir = join(base, name);
        try {
          await rejects(
            downloadModel(dir, modelFiles(host.url, "sentence-transformers/all-MiniLM-L6-v2")),
            (e) => e instanceof ToolError && e.code === code && pattern.test(e.message),
          );
          const left = [...Deno.readDirSync(dir)].map((e) => e.name);
          ok(!left.some((n) => n.includes(".partial-")), `no partial file: ${left}`);
          if (name !== "missing") {
            ok(!left.includes("model.onnx"), "the bad file was not installed");
          }
        } finally {
          await host.close();
        }
      });
    }
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});
