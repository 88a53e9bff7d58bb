/** Writers of one repo in one process take turns, first come first served; readers never wait. */
import { deepStrictEqual, equal, rejects } from "node:assert/strict";
import { Store } from "../../src/store/store.ts";

Deno.test("store: writers of one repo take turns in order; a wait past waitMs is index_busy", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "codemunch-queue-" });
  const store = new Store(dir);
  try {
    const order: string[] = [];
    const first = await store.writer("local/a-00000000");
    const second = store.writer("local/a-00000000").then((w) => {
      order.push("second");
      return w;
    });
    const third = store.writer("local/a-00000000").then((w) => {
      order.push("third");
      return w;
    });
    // Another repo is not held up.
    const other = await store.writer("local/b-00000000");
    other.rollback();
    await new Promise((r) => setTimeout(r, 50));
    deepStrictEqual(order, []);
    await rejects(
      store.writer("local/a-00000000", { waitMs: 20 }),
      (e: Error & { code?: string }) => e.code === "index_busy",
    );
    first.rollback();
    const w2 = await second;
    deepStrictEqual(order, ["second"]);
    w2.commit();
    (await third).rollback();
    deepStrictEqual(order, ["second", "third"]);
    // The queue is empty again: a writer gets the lock at once.
    const again = await store.writer("local/a-00000000", { waitMs: 0 });
    again.rollback();
    equal(store.has("local/a-00000000"), true);
  } finally {
    store.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
