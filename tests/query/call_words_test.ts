/**
 * Call words (src/query/call_words.ts): symbols found by the words of the names they call, ranked
 * by BM25 over those call documents, on a real index of a small fixture.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { indexedFixture } from "./_fixture.ts";
import {
  callPostings,
  callQueryTerms,
  callTermMasks,
  callWordMatches,
  identifierTerms,
  rankCallWords,
} from "../../src/query/call_words.ts";
import { contextCandidates } from "../../src/query/ranked_context.ts";
import { rankSymbolHits } from "../../src/query/symbol_rank.ts";
import { RepoViews } from "../../src/query/view.ts";

const POOL = `
function execute(task) {
  if (!offerToQueue(task)) {
    rejectTask(task);
  }
  startWorker();
}

function shutdown() {
  stopWorkers();
}
`;

// Symbols that call common names, so that only the rare words weigh.
const FILLER: Record<string, string> = {};
for (let i = 0; i < 8; i++) {
  FILLER[`lib/other_${i}.js`] = `function other${i}(x) {\n  return startWorker(x);\n}\n`;
}

Deno.test("call words", async (t) => {
  await t.step("terms: identifier parts, stemmed, each once", () => {
    deepEqual(identifierTerms("rejectedExecutionHandler"), ["reject", "execut", "handler"]);
    deepEqual(identifierTerms("queue_queue"), ["queue"]);
    deepEqual(callQueryTerms("How does the pool reject a queued task?"), [
      "pool",
      "reject",
      "queu",
      "task",
    ]);
  });

  await t.step("postings count each callee name's terms; lengths and mean length", () => {
    const p = callPostings(
      new Map([["a", new Set(["rejectTask", "offer"])], ["b", new Set(["offer"])]]),
    );
    deepEqual([...p.postings.get("offer")!], [["a", 1], ["b", 1]]);
    equal(p.lengths.get("a"), 3);
    equal(p.avgLength, 2);
  });

  await t.step("a match holds two terms of a longer query; coverage scales the score", () => {
    const p = callPostings(
      new Map([
        ["both", new Set(["rejectTask", "offerToQueue"])],
        ["one", new Set(["rejectAll"])],
        ...Array.from({ length: 6 }, (_, i) => [`f${i}`, new Set(["log"])] as const),
      ]),
    );
    const found = rankCallWords(p, ["reject", "queue", "pool"]);
    deepEqual(found.map((m) => m.id), ["both"]);
    deepEqual(found[0]!.terms, ["reject", "queue"]);
    deepEqual(rankCallWords(p, []), []);
    // The coverage masks of symbol_rank.ts' CALL_COVERAGE: bit i for term i held.
    deepEqual([...callTermMasks(p, ["pool", "reject", "queue"])].sort(), [
      ["both", 0b110],
      ["one", 0b010],
    ]);
  });

  const { ws, repo, close } = await indexedFixture("context", {
    "lib/pool.js": POOL,
    ...FILLER,
  });
  try {
    const index = ws.store.repo(ws.store.resolveRepo(repo));
    const view = new RepoViews(ws.store).view(repo, index);

    await t.step("finds the function by what it calls, not by its name", () => {
      const found = callWordMatches(view, "how is a task rejected when the queue is full");
      equal(found[0]?.id, "lib/pool.js::execute#function", JSON.stringify(found));
      ok(!found.some((m) => m.id.startsWith("lib/other_")), JSON.stringify(found));
    });

    await t.step("CALL_COVERAGE: words only its calls hold raise a match's coverage", () => {
      const query = "execute a task when the queue rejects it";
      const score = (callCoverage: number) =>
        rankSymbolHits(view, { query, maxResults: 10, tuning: { callCoverage } }).hits
          .find((h) => h.symbol.id === "lib/pool.js::execute#function")?.score ?? 0;
      const off = score(0), half = score(0.5), full = score(1);
      ok(off > 0 && half > off && full > half, JSON.stringify({ off, half, full }));
    });

    await t.step("the context lets it enter with its call words", () => {
      const query = "how is a task rejected when the queue is full";
      const on = contextCandidates(view, {
        query,
        tokenBudget: 8000,
        strategy: "combined",
        tuning: { callsWeight: 1 },
      });
      const hit = on.find((c) => c.symbol.id === "lib/pool.js::execute#function");
      ok(hit !== undefined && hit.why.includes("call words"), JSON.stringify(on));
      const off = contextCandidates(view, {
        query,
        tokenBudget: 8000,
        strategy: "combined",
        tuning: { callsWeight: 0 },
      });
      ok(!off.some((c) => c.why.includes("call words")));
    });
  } finally {
    await close();
  }
});

const FLOW = `
function parseHeader(line) {
  return line.split(":");
}

function readRequestHeaders(lines) {
  return lines.map(parseHeader);
}

function trimValue(value) {
  return value.trim();
}

function unrelatedFarAway() {
  return 1;
}

function alsoFar() {
  return 2;
}
`;

Deno.test("same-file neighbours (SIBLING_SHARE, ranked_context.ts)", async (t) => {
  const { ws, repo, close } = await indexedFixture("context", { "lib/flow.js": FLOW });
  try {
    const index = ws.store.repo(ws.store.resolveRepo(repo));
    const view = new RepoViews(ws.store).view(repo, index);
    const query = "how are the request headers read from the lines";
    const ask = (siblingShare: number, siblingSpan = 1) =>
      contextCandidates(view, {
        query,
        tokenBudget: 8000,
        strategy: "combined",
        tuning: { siblingShare, siblingSpan, spreadShare: 0 },
      });

    await t.step("the symbols just before and after a seed enter, scaled by distance", () => {
      const on = ask(0.4);
      const seed = on.find((c) => c.symbol.id === "lib/flow.js::readRequestHeaders#function");
      ok(seed !== undefined, JSON.stringify(on));
      const next = on.find((c) => c.symbol.id === "lib/flow.js::trimValue#function");
      ok(next !== undefined && next.why.startsWith("next to "), JSON.stringify(on));
      // ±1 place: the functions further away stay out.
      ok(!on.some((c) => c.symbol.id === "lib/flow.js::alsoFar#function"), JSON.stringify(on));
    });

    await t.step("share 0 adds none", () => {
      ok(!ask(0).some((c) => c.why.startsWith("next to ")));
    });
  } finally {
    await close();
  }
});
