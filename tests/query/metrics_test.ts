/**
 * The complexity and hotspot figures (`complexity.ts`, `hotspots.ts`): the assessments at their
 * boundaries, the hotspot score (cyclomatic × ln(1 + churn)), which languages are measured, and
 * the hotspot ranking over a real indexed repo. Expectations by hand.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { complexityAssessment, languageMeasured } from "../../src/query/complexity.ts";
import { hotspotAssessment, hotspots, hotspotScore } from "../../src/query/hotspots.ts";
import { indexedView } from "./_fixture.ts";

Deno.test("complexity: low 1-4, medium 5-10, high 11+; languages with rules are measured", () => {
  deepStrictEqual([1, 4, 5, 10, 11, 40].map(complexityAssessment), [
    "low",
    "low",
    "medium",
    "medium",
    "high",
    "high",
  ]);
  equal(languageMeasured("python"), true);
  equal(languageMeasured("go"), true);
  equal(languageMeasured("markdown"), false);
  equal(languageMeasured("no-such-language"), false);
});

Deno.test("hotspots: score and assessment", () => {
  equal(hotspotScore(5, 0), 0);
  equal(hotspotScore(5, 3), 6.9315); // 5 × ln 4 = 6.93147…
  equal(hotspotScore(1, Math.E - 1), 1);
  deepStrictEqual([0, 3, 3.0001, 10, 10.0001].map(hotspotAssessment), [
    "low",
    "low",
    "medium",
    "medium",
    "high",
  ]);
});

Deno.test("hotspots: ranked by score, then complexity, then id; churn of the file", async () => {
  const branches = (n: number) =>
    Array.from({ length: n }, (_, i) => `    if x == ${i}:\n        return ${i}`).join("\n");
  const t = await indexedView({
    "hot.py": `def hot(x):\n${branches(3)}\n    return -1\n`,
    "cold.py": `def cold(x):\n${branches(6)}\n    return -1\n\ndef flat(x):\n    return x\n`,
  });
  try {
    const churn = new Map([["hot.py", 9], ["cold.py", 1]]);
    const ranked = hotspots(t.view, churn, 1).map((h) => [h.name, h.cyclomatic, h.churn, h.score]);
    deepStrictEqual(ranked, [
      ["hot", 4, 9, 9.2103], // 4 × ln 10
      ["cold", 7, 1, 4.852], // 7 × ln 2
      ["flat", 1, 1, 0.6931],
    ]);
    // Without history every score is 0: the ranking is by complexity.
    deepStrictEqual(hotspots(t.view, null, 2).map((h) => h.name), ["cold", "hot"]);
  } finally {
    await t.close();
  }
});
