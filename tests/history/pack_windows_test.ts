/**
 * Pack files read through windows (src/ingest/git/pack_windows.ts): every positional read gives
 * the file's own bytes, within a window, across windows, at the end, past the end, and after the
 * window budget dropped the first windows.
 */
import { deepEqual } from "node:assert/strict";
import { openFileInside } from "../../src/ingest/safe_read.ts";
import { windowed } from "../../src/ingest/git/pack_windows.ts";

Deno.test("a windowed file reads the bytes of the file at every position", async (t) => {
  const root = Deno.realPathSync(Deno.makeTempDirSync());
  const bytes = new Uint8Array(10_000).map((_, i) => (i * 7 + (i >> 8)) & 255);
  Deno.writeFileSync(`${root}/p.pack`, bytes);
  const open = (maxBytes: number) => {
    const f = openFileInside(`${root}/p.pack`, root, { maxBytes: 1 << 20 });
    if (typeof f === "string") throw new Error(f);
    return windowed(f, { windowBytes: 1024, maxBytes });
  };
  const reads: [number, number][] = [
    [0, 10],
    [1000, 24], // up to a window's end
    [1000, 25], // one byte into the next
    [100, 5000], // across five windows
    [9990, 10], // the file's end
    [9990, 100], // past it: what there is
    [10_000, 5],
    [3000, 0],
  ];
  for (const budget of [1 << 20, 2048]) {
    await t.step(`window budget ${budget}`, () => {
      const f = open(budget);
      try {
        // Twice: the second time from the kept windows (or read again once dropped).
        for (let round = 0; round < 2; round++) {
          for (const [at, n] of reads) {
            deepEqual(f.readAt(at, n), bytes.subarray(at, Math.min(at + n, bytes.length)));
          }
        }
      } finally {
        f.close();
      }
    });
  }
  Deno.removeSync(root, { recursive: true });
});
