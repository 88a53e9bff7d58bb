/**
 * The local provider runs a model the test writes itself (tests/embed/_onnx_model.ts) through the
 * real ONNX Runtime (WebAssembly, one thread): WordPiece ids in, per-token output mean-pooled over
 * the attention mask (padding ignored) or an already pooled output taken as it is, unit length;
 * synonyms of the table land together; a missing model says how to get one.
 */
import { equal, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { onnxProvider } from "../../src/embed/onnx.ts";
import { ToolError } from "../../src/errors.ts";
import { writeTinyModel } from "./_onnx_model.ts";

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

Deno.test("onnx provider: a built model runs through ONNX Runtime, pooled by the mask", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "codemunch-onnx-" });
  try {
    writeTinyModel(join(dir, "tiny"));
    const p = onnxProvider({ kind: "onnx", model: "tiny", dir: join(dir, "tiny") });
    // Texts of different lengths in one batch: the short one is padded, and padding must not count.
    const [del, erase, load, long] = await p.embed(
      ["delete user", "erase user", "load config", "delete user delete user delete user"],
      "document",
    );
    for (const v of [del!, erase!, load!, long!]) {
      equal(v.length, 4);
      ok(Math.abs(Math.hypot(...v) - 1) < 1e-5, "unit length");
    }
    ok(dot(del!, erase!) > 0.999, "synonyms of the table embed alike");
    ok(dot(del!, load!) < 0.1, "unrelated words do not");
    ok(dot(del!, long!) > 0.999, "a padded short text pools like its repetition");
    // "parser" is cut into parse + ##r; "users" into user + ##s.
    const [parser] = await p.embed(["parser"], "query");
    ok(dot(parser!, load!) > 0.4);
    p.close!();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("onnx provider: an already pooled output [batch, dim] is taken as it is", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "codemunch-onnx-" });
  try {
    writeTinyModel(join(dir, "pooled"), true);
    const p = onnxProvider({ kind: "onnx", model: "pooled", dir: join(dir, "pooled") });
    const [a, b] = await p.embed(["remove file", "delete file"], "document");
    equal(a!.length, 4);
    ok(dot(a!, b!) > 0.95);
    p.close!();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("onnx provider: a missing model or a broken one is a clear error", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "codemunch-onnx-" });
  try {
    const missing = onnxProvider({ kind: "onnx", model: "none", dir: join(dir, "none") });
    await rejects(
      missing.embed(["x"], "query"),
      (e) =>
        e instanceof ToolError && e.code === "embedding_model_missing" &&
        /download-model/.test(e.message),
    );
    Deno.mkdirSync(join(dir, "bad"));
    Deno.writeTextFileSync(join(dir, "bad", "model.onnx"), "not a model");
    Deno.writeTextFileSync(join(dir, "bad", "vocab.txt"), "[PAD]\n[UNK]\n[CLS]\n[SEP]\n");
    const bad = onnxProvider({ kind: "onnx", model: "bad", dir: join(dir, "bad") });
    await rejects(
      bad.embed(["x"], "query"),
      (e) =>
        e instanceof ToolError && e.code === "embedding_failed" &&
        /could not be loaded/.test(e.message),
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
