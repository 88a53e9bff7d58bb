/** The search pool terminates workers left idle for its idle delay; busy ones are kept. */
import { equal, ok, throws } from "node:assert/strict";
import { acquireWorker, poolLoad, setIdleCloseMs } from "../../src/query/search_pool.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("search pool: an idle worker is terminated after the idle delay", async () => {
  setIdleCloseMs(300);
  try {
    const lease = await acquireWorker("text", 30_000);
    lease.release(true);
    equal(poolLoad().idle, 1);
    // Taken again before the delay: the same worker, not closed meanwhile.
    const again = await acquireWorker("text", 30_000);
    equal(again.worker, lease.worker);
    equal(poolLoad().idle, 0);
    await sleep(450);
    again.release(true);
    equal(poolLoad().idle, 1, "a lent worker is never closed");
    const t0 = Date.now();
    while (poolLoad().idle > 0) {
      ok(Date.now() - t0 < 20_000, "the idle worker is closed");
      await sleep(20);
    }
  } finally {
    setIdleCloseMs(300_000);
  }
  throws(() => setIdleCloseMs(0), RangeError);
});
