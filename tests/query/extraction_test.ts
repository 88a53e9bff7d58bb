/**
 * Functions worth splitting (src/query/extraction.ts) over real parses with stored complexity: a
 * deeply nested one and one called from several files qualify, with the reasons and the score the
 * module documents; the thresholds and the file filter bound the list.
 */
import { deepEqual, equal } from "node:assert/strict";
import { extractionCandidates } from "../../src/query/extraction.ts";
import { indexedView } from "./_fixture.ts";

const _DEEP = [
  "def deep(x):",
  "    for a in x:",
  "        if a:",
  "            while a:",
  "                if a > 1:",
  "                    a -= 1",
  "                else:",
  "                    break",
  "    return x",
  "",
];
const _SHARED = [
  "def shared(x):",
  "    if x == 1:",
  "        return 1",
  "    if x == 2:",
  "        return 2",
  "    if x == 3:",
  "        return 3",
  "    return 0",
  "",
];

const _FILES = {
  "m/work.py": [..._DEEP, "", ..._SHARED, "", "def simple():", "    return shared(0)", ""].join(
    "\n",
  ),
  "m/u1.py": "from m.work import shared\n\n\ndef u1():\n    return shared(1)\n",
  "m/u2.py": "from m.work import shared\n\n\ndef u2():\n    return shared(2)\n",
};

Deno.test("extraction: nested and shared complex functions, best first", async () => {
  const { view, close } = await indexedView(_FILES);
  try {
    const found = extractionCandidates(view, { file: undefined, minComplexity: 3, minCallers: 2 });
    equal(found.measured, 5);
    deepEqual(
      found.candidates.map((c) => [c.symbol.id, c.callers, c.callerFiles, c.score, c.reasons]),
      [
        // cyclomatic 5 × (1 + ln 1) × (1 + (4 − 2) / 2)
        ["m/work.py::deep#function", 0, 0, 10, ["complex (cyclomatic 5)", "nested (depth 4)"]],
        // cyclomatic 4 × (1 + ln 3): its own file's caller is no caller file.
        ["m/work.py::shared#function", 3, 2, Math.round(4 * (1 + Math.log(3)) * 100) / 100, [
          "complex (cyclomatic 4)",
          "shared (called from 2 files)",
        ]],
      ],
    );
  } finally {
    await close();
  }
});

Deno.test("extraction: the thresholds and the file filter", async () => {
  const { view, close } = await indexedView(_FILES);
  try {
    const ids = (o: { file?: string; minComplexity: number; minCallers: number }) =>
      extractionCandidates(view, { file: o.file, ...o }).candidates.map((c) => c.symbol.id);
    deepEqual(ids({ minComplexity: 3, minCallers: 3 }), ["m/work.py::deep#function"]);
    deepEqual(ids({ minComplexity: 5, minCallers: 2 }), ["m/work.py::deep#function"]);
    deepEqual(ids({ minComplexity: 6, minCallers: 1 }), []);
    deepEqual(ids({ file: "m/u1.py", minComplexity: 1, minCallers: 1 }), []);
    equal(
      extractionCandidates(view, { file: "m/u1.py", minComplexity: 1, minCallers: 1 }).measured,
      1,
    );
  } finally {
    await close();
  }
});
