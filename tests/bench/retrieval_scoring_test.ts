/**
 * The retrieval bench's scoring (scripts/bench_retrieval.ts): plain P@5, recall within the first
 * ten, and for a whole context, what a packed item covers.
 */
import { deepEqual } from "node:assert/strict";
import { covers, CUT, scoreRanking } from "../../scripts/bench_retrieval.ts";

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

Deno.test("retrieval scoring: with line spans, a type covers only what its source holds", () => {
  const spans: Record<string, { file: string; line: number; end_line: number }> = {
    "t.go::T#type": { file: "t.go", line: 3, end_line: 5 },
    // A Go method is declared apart from its type: the type's source does not hold it.
    "t.go::T.M#method": { file: "t.go", line: 7, end_line: 9 },
    "a.py::C#class": { file: "a.py", line: 1, end_line: 20 },
    "a.py::C.run#method": { file: "a.py", line: 4, end_line: 8 },
  };
  const spanOf = (id: string) => spans[id];
  deepEqual(covers("t.go::T#type", "t.go::T.M#method"), true);
  deepEqual(covers("t.go::T#type", "t.go::T.M#method", spanOf), false);
  deepEqual(covers("a.py::C#class", "a.py::C.run#method", spanOf), true);
  deepEqual(covers(`${CUT}a.py::C#class`, "a.py::C.run#method", spanOf), false);
  deepEqual(scoreRanking(["t.go::T#type"], ["t.go::T.M#method"], true, spanOf).recall10, 0);
});
