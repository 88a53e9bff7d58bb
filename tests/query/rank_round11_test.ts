/**
 * Round 11 of the ranking (issue 33): the data-kind prior of a description and the owner groups
 * (off as shipped, `OWNER_SHARE` = 0, but a tuning of the fitting script), each on a small Go
 * package indexed through the real tools, with expectations worked out by hand.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { rankSymbolHits } from "../../src/query/symbol_rank.ts";
import { groupCoverage, groupMasks, ownerKeyOf } from "../../src/query/owner_groups.ts";
import { indexedView } from "./_fixture.ts";

/** A struct whose field names share the question's words, and the methods that do the work. */
const FILES = {
  "go.mod": "module example.com/pool\n\ngo 1.22\n",
  "pool/pool.go": `package pool

// Pool runs submitted tasks on its workers.
type Pool struct {
\t// rejectedTasks counts the tasks the queue rejected.
\trejectedTasks int
\t// queuedTasks counts the tasks waiting in the queue.
\tqueuedTasks int
}

// Submit queues a task, or rejects it when the queue is full.
func (p *Pool) Submit(task func()) error {
\treturn nil
}

// startWorker starts a worker for a queued task.
func (p *Pool) startWorker() {}
`,
};

Deno.test("data kinds: a description ranks code with a body above fields sharing its words", async () => {
  const ix = await indexedView(FILES);
  try {
    const question = "how are rejected tasks counted by the pool";
    const rank = (dataKindWeight: number) =>
      rankSymbolHits(ix.view, { query: question, maxResults: 10, tuning: { dataKindWeight } })
        .hits.map((h) => h.symbol.id);
    const field = "pool/pool.go::Pool.rejectedTasks#field";
    const method = "pool/pool.go::Pool.Submit#method";
    const off = rank(1);
    ok(off.indexOf(field) < off.indexOf(method), `without the prior the field leads: ${off}`);
    const on = rank(0.2);
    ok(on.indexOf(method) < on.indexOf(field), `with it the method leads: ${on}`);
    // A name query is no description: its order does not depend on the prior.
    const byName = (dataKindWeight: number) =>
      rankSymbolHits(ix.view, { query: "rejectedTasks", maxResults: 5, tuning: { dataKindWeight } })
        .hits.map((h) => h.symbol.id);
    deepStrictEqual(byName(0.2), byName(1));
    equal(byName(0.2)[0], field);
  } finally {
    await ix.close();
  }
});

Deno.test("owner groups: members of one type share the words they cover together", async (t) => {
  await t.step("groups: outermost type, a Go package's folder, a JavaScript prototype", () => {
    deepStrictEqual(
      [
        "a/b.py::Pool.Worker.run#method",
        "a/b.py::Pool#class",
        "net/http/server.go::ServeMux.Handle#method",
        "net/http/routing_tree.go::ServeMux.match#method",
        "lib/view.js::View.prototype.render#method",
        "a/b.py::run#function",
      ].map(ownerKeyOf),
      [
        "a/b.py::Pool",
        "a/b.py::Pool",
        "net/http/::ServeMux",
        "net/http/::ServeMux",
        "lib/view.js::View",
        null,
      ],
    );
  });
  await t.step("a group's mask is the union of its members'; a function has its own", () => {
    const masks = groupMasks([
      { id: "a.py::Pool#class", mask: 0b0001 },
      { id: "a.py::Pool.execute#method", mask: 0b0010 },
      { id: "a.py::Pool.Worker.run#method", mask: 0b0100 },
      { id: "a.py::reject#function", mask: 0b1000 },
    ]);
    equal(masks.get("a.py::Pool.execute#method"), 0b0111);
    equal(masks.get("a.py::Pool#class"), 0b0111);
    equal(masks.get("a.py::reject#function"), 0b1000);
  });
  await t.step("coverage moves toward the group's by the share, never below its own", () => {
    equal(groupCoverage(0.25, 1, 0.5), 0.625);
    equal(groupCoverage(0.5, 0.25, 0.5), 0.5);
    equal(groupCoverage(0.25, 1, 0), 0.25);
  });
  await t.step(
    "in the ranking: a member gains when its siblings cover the other words",
    async () => {
      const ix = await indexedView(FILES);
      try {
        const question = "how does the pool start a worker for a queued task";
        const score = (ownerShare: number) =>
          rankSymbolHits(ix.view, { query: question, maxResults: 10, tuning: { ownerShare } })
            .hits.find((h) => h.symbol.id === "pool/pool.go::Pool.Submit#method")?.lexical;
        const off = score(0);
        const on = score(1);
        ok(off !== undefined && on !== undefined);
        ok(on > off, `owner groups raise its text score: ${off} → ${on}`);
      } finally {
        await ix.close();
      }
    },
  );
});
