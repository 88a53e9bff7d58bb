/**
 * The retrieval bench's scoring (scripts/bench_retrieval.ts): plain P@5, recall within the first
 * ten, and for a whole context, what a packed item covers.
 */
import { deepEqual } from "node:assert/strict";
import { CUT, scoreRanking } from "../../scripts/bench_retrieval.ts";

const answers = ["a.py::C.run#method", "a.py::C.stop#method"];

Deno.test("retrieval scoring: a ranked list against its labels", () => {
  deepEqual(scoreRanking(["a.py::x#function", "a.py::C.stop#method"], answers), {
    recall10: 0.5,
    p5: 0.2,
    p5capped: 0.5,
    rr: 0.5,
  });
});

Deno.test("retrieval scoring: a class packed whole covers its methods, one cut covers only itself", () => {
  deepEqual(scoreRanking(["a.py::C#class"], answers, true).recall10, 1);
  deepEqual(scoreRanking([`${CUT}a.py::C#class`], answers, true).recall10, 0);
  deepEqual(scoreRanking([`${CUT}a.py::C.run#method`], answers, true), {
    recall10: 0.5,
    p5: 0.2,
    p5capped: 0.5,
    rr: 1,
  });
});
