/** The worker pool gives the same results as in-process parsing, concurrently and in any order. */
import assert from "node:assert/strict";
import { ParserPool, parseSource } from "../../src/parser/mod.ts";
import { FIXTURES, listFiles } from "./_conformance.ts";

Deno.test("ParserPool parses many files concurrently with the same results as parseSource", async () => {
  const files: { path: string; bytes: Uint8Array }[] = [];
  for (const lang of ["python", "go", "typescript", "rust", "java", "c", "cpp", "javascript"]) {
    const dir = new URL(`${lang}/`, FIXTURES);
    for (const f of await listFiles(dir)) {
      if (f === "expected.json") continue;
      files.push({ path: `${lang}/${f}`, bytes: await Deno.readFile(new URL(f, dir)) });
    }
  }
  const lengths = files.map((f) => f.bytes.byteLength);
  const pool = new ParserPool({ workers: 2 });
  try {
    assert.equal(pool.size, 2);
    // Every file three times, all at once: the queue must hand out and collect all of them.
    const jobs = [...files, ...files, ...files];
    const results = await Promise.all(jobs.map((f) => pool.parse(f.path, f.bytes)));
    for (let i = 0; i < jobs.length; i++) {
      const expected = await parseSource(jobs[i]!.path, jobs[i]!.bytes);
      assert.deepEqual(results[i], expected, jobs[i]!.path);
    }
    // The caller keeps its buffers: the pool copies them.
    assert.deepEqual(files.map((f) => f.bytes.byteLength), lengths);
  } finally {
    await pool.close();
  }
});

Deno.test("ParserPool reports skipped files instead of dropping them", async () => {
  const pool = new ParserPool({ workers: 1, limits: { maxBytes: 10 } });
  try {
    const enc = new TextEncoder();
    const [unknown, big] = await Promise.all([
      pool.parse("x.unknownext", enc.encode("?")),
      pool.parse("big.py", enc.encode("x = 1\n".repeat(10))),
    ]);
    assert.deepEqual([unknown.status, unknown.reason], ["skipped", "unsupported file type"]);
    assert.deepEqual([big.status, big.reason], ["skipped", "file too large: 60 bytes (limit 10)"]);
  } finally {
    await pool.close();
  }
});

Deno.test("ParserPool defaults to one worker per CPU and refuses work after close", async () => {
  const pool = new ParserPool();
  assert.equal(pool.size, navigator.hardwareConcurrency);
  await pool.close();
  await assert.rejects(
    pool.parse("a.py", new Uint8Array()),
    /Cannot parse: the parser pool is closed/,
  );
  assert.throws(() => new ParserPool({ workers: 0 }), RangeError);
});

Deno.test("a query compile error in a worker rejects the job with the message", async () => {
  // The registry has no broken query, so use a language id the worker cannot find: the job
  // still resolves, as a skipped file (only bugs reject).
  const pool = new ParserPool({ workers: 1 });
  try {
    const r = await pool.parse("a.py", new TextEncoder().encode("x = 1"), "no-such-language");
    assert.deepEqual([r.status, r.reason], ["skipped", 'unknown language: "no-such-language"']);
  } finally {
    await pool.close();
  }
});

Deno.test("ParserPool.prewarm starts one worker ahead of the first parse, once", async () => {
  const pool = new ParserPool({ workers: 2 });
  try {
    assert.equal(pool.running, 0);
    pool.prewarm(["go", "no-such-language"]);
    assert.equal(pool.running, 1);
    pool.prewarm(["python"]); // a worker is running: nothing more to start
    assert.equal(pool.running, 1);
    const bytes = new TextEncoder().encode("package b\n\nfunc B() {}\n");
    // A parse right behind the warm-up (same language, and one never warmed) gives the same
    // results as in-process parsing.
    const [go, py] = await Promise.all([
      pool.parse("b.go", bytes),
      pool.parse("a.py", new TextEncoder().encode("def a():\n    pass\n")),
    ]);
    assert.deepEqual(go, await parseSource("b.go", bytes));
    assert.deepEqual(py.symbols.map((s) => s.id), ["a.py::a#function"]);
  } finally {
    await pool.close();
  }
  pool.prewarm(["go"]); // closed: nothing starts
  assert.equal(pool.running, 0);
});

Deno.test("ParserPool replaces a worker after it parsed a file of recycleAfterBytes or more", async () => {
  const enc = new TextEncoder();
  const small = enc.encode("def a():\n    pass\n");
  const big = enc.encode(pyModule(...Array.from({ length: 40 }, (_, i) => `f${i}`)));
  const pool = new ParserPool({ workers: 1, recycleAfterBytes: 1000 });
  try {
    assert.ok(big.byteLength >= 1000 && small.byteLength < 1000);
    assert.deepEqual(await pool.parse("a.py", small), await parseSource("a.py", small));
    assert.equal(pool.running, 1); // a small file keeps the worker
    // The big file and a small one queued behind it on the same worker: both finish, then the
    // worker stops; the next job starts a fresh one with the same results.
    const [b, a] = await Promise.all([pool.parse("big.py", big), pool.parse("a.py", small)]);
    assert.deepEqual(b, await parseSource("big.py", big));
    assert.deepEqual(a, await parseSource("a.py", small));
    assert.equal(pool.running, 0);
    assert.deepEqual(await pool.parse("big.py", big), b);
    assert.equal(pool.running, 0);
    assert.deepEqual(await pool.parse("a.py", small), a);
    assert.equal(pool.running, 1);
  } finally {
    await pool.close();
  }
  assert.throws(() => new ParserPool({ recycleAfterBytes: 0 }), RangeError);
});

function pyModule(...names: string[]): string {
  return names.map((n) => `def ${n}(x):\n    return x\n`).join("\n");
}

Deno.test("ParserPool keeps a few files of a language on the worker that has its grammar", async () => {
  const enc = new TextEncoder();
  const py = (i: number) => enc.encode(`def f${i}():\n    return ${i}\n`);
  const few = new ParserPool({ workers: 2 });
  try {
    const results = await Promise.all([0, 1, 2].map((i) => few.parse(`m${i}.py`, py(i))));
    assert.deepEqual(results.map((r) => r.symbols[0]?.name), ["f0", "f1", "f2"]);
    assert.equal(few.running, 1); // three Python files: one worker loads Python
  } finally {
    await few.close();
  }
  const many = new ParserPool({ workers: 2 });
  try {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => many.parse(`m${i}.py`, py(i))),
    );
    assert.equal(results.length, 12);
    assert.equal(many.running, 2); // a batch of them spreads over both
  } finally {
    await many.close();
  }
});

/** Wait (bounded) until `ok()` holds. */
async function until(ok: () => boolean, what: string, deadlineMs = 20_000): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > deadlineMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

Deno.test("ParserPool stops idle workers after idleStopMs and keeps one fresh spare", async () => {
  const enc = new TextEncoder();
  const py = (i: number) => enc.encode(`def f${i}():\n    return ${i}\n`);
  const pool = new ParserPool({ workers: 2, idleStopMs: 100 });
  try {
    const first = await Promise.all(
      Array.from({ length: 12 }, (_, i) => pool.parse(`m${i}.py`, py(i))),
    );
    assert.equal(pool.running, 2);
    await until(() => pool.idleStops === 1, "the idle stop");
    assert.equal(pool.running, 1); // both used workers stopped, one fresh spare started
    // The spare has parsed nothing: later idle periods leave it alone.
    await new Promise((r) => setTimeout(r, 400));
    assert.equal([pool.idleStops, pool.running].join(), "1,1");
    // The pool is still usable, with the same results, and stops its workers again when idle.
    const again = await Promise.all(
      Array.from({ length: 12 }, (_, i) => pool.parse(`m${i}.py`, py(i))),
    );
    assert.deepEqual(again, first);
    await until(() => pool.idleStops === 2, "the second idle stop");
    assert.equal(pool.running, 1);
  } finally {
    await pool.close();
  }
  assert.equal(pool.running, 0);
  assert.throws(() => new ParserPool({ idleStopMs: -1 }), RangeError);
});

Deno.test("ParserPool without keepSpare stops all idle workers; a busy pool is not stopped", async () => {
  const enc = new TextEncoder();
  const pool = new ParserPool({ workers: 1, idleStopMs: 500, keepSpare: false });
  try {
    // Parses spaced below the idle delay keep the worker.
    for (let i = 0; i < 5; i++) {
      await pool.parse(`m${i}.py`, enc.encode(`def f${i}():\n    pass\n`));
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(pool.idleStops, 0);
    await until(() => pool.idleStops === 1, "the idle stop");
    assert.equal(pool.running, 0);
    const r = await pool.parse("b.go", enc.encode("package b\n\nfunc B() {}\n"));
    assert.deepEqual(r.symbols.map((s) => s.id), ["b.go::B#function"]);
  } finally {
    await pool.close();
  }
});

Deno.test("ParserPool parses a node Buffer view's own bytes, not the buffer around them", async () => {
  const { Buffer } = await import("node:buffer");
  // As the git reader hands a blob: a Buffer view past the object's header (`Buffer.slice()` is
  // no copy, so a copy made with it would carry the header and what follows).
  const object = Buffer.from("blob 46\0def first():\n    pass\n\ndef second():\n    pass\n# tail");
  const source = object.subarray(8, object.length - 6);
  const pool = new ParserPool({ workers: 1 });
  try {
    const result = await pool.parse("a.py", source);
    assert.deepEqual(result.symbols.map((s) => s.name), ["first", "second"]);
    assert.deepEqual(result.symbols, (await parseSource("a.py", source)).symbols);
  } finally {
    await pool.close();
  }
});
