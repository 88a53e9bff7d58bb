/** get_related_symbols on a real git history: co-change as the share of the file's commits. */
import { deepEqual, equal } from "node:assert/strict";
import { commit, indexedRepo, newRepo, write } from "./_repo.ts";

Deno.test("get_related_symbols: co-change from the history", async () => {
  const dir = newRepo();
  const now = Math.floor(Date.now() / 1000);
  const def = (name: string, body = "1") => `def ${name}():\n    return ${body}\n`;
  write(dir, { "a.py": def("fa"), "b.py": def("fb"), "c.py": def("fc") });
  commit(dir, "all three", now - 4000);
  write(dir, { "a.py": def("fa", "2"), "b.py": def("fb", "2") });
  commit(dir, "a and b", now - 3000);
  write(dir, { "a.py": def("fa", "3"), "b.py": def("fb", "3") });
  commit(dir, "a and b again", now - 2000);
  write(dir, { "a.py": def("fa", "4"), "c.py": def("fc", "4") });
  commit(dir, "a and c", now - 1000);
  const { call, close } = await indexedRepo(dir);
  try {
    const body = await call("get_related_symbols", { symbol_id: "a.py::fa#function" });
    // a.py changed in 4 commits: with b.py in 3, with c.py in 2 (the first adds all three).
    deepEqual(
      (body.related as Record<string, unknown>[]).map((r) =>
        `${r.id} ${r.relatedness_score} ${r.reasons}`
      ),
      ["b.py::fb#function 2.25 co_changed:3/4", "c.py::fc#function 1.5 co_changed:2/4"],
    );
    equal(body.git_available, true);
    const old = await call("get_related_symbols", { symbol_id: "fa", days: 1 });
    deepEqual((old.related as unknown[]).length, 2, "the whole history is within a day");
  } finally {
    await close();
  }
});
