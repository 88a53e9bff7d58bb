/** Bounded output helpers (src/query/budget.ts): the cut signature, lines in a budget, the budget. */
import { equal, ok } from "node:assert/strict";
import fc from "fast-check";
import {
  CUT_MARK,
  cutSignature,
  estimateTokens,
  fitLines,
  SIGNATURE_MAX_CHARS,
  TokenBudget,
} from "../../src/query/budget.ts";

Deno.test("cutSignature: short signatures stay, long ones end at a token boundary with the mark", () => {
  equal(cutSignature("def f(a, b)").cut, false);
  const sig = "def solve_dependencies(*, request: Request, dependant: Dependant, body: Optional[" +
    "Union[Dict[str, Any], FormData]] = None, background_tasks: Optional[BackgroundTasks] = None" +
    ", response: Optional[Response] = None, dependency_overrides_provider: Optional[Any] = None" +
    ", dependency_cache: Optional[Dict[Tuple[Callable[..., Any], Tuple[str]], Any]] = None)";
  const c = cutSignature(sig);
  ok(c.cut);
  ok(c.text.endsWith(CUT_MARK));
  const kept = c.text.slice(0, -CUT_MARK.length);
  ok(kept.length <= SIGNATURE_MAX_CHARS);
  ok(sig.startsWith(kept));
  // The next character of the original is not a word character glued to the last kept one.
  const next = sig[kept.length]!;
  const last = kept.at(-1)!;
  ok(!(/\w/.test(next) && /\w/.test(last)), `cut inside a word: ...${kept.slice(-10)}|${next}`);
});

Deno.test("cutSignature: never inside a word or a surrogate pair (property)", () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fc.constantFrom("alpha", "b", "(", ", ", " ", "😀", "x_y", "=")), {
        maxLength: 200,
      }),
      fc.integer({ min: 8, max: 120 }),
      (parts, max) => {
        const text = parts.join("");
        const c = cutSignature(text, max);
        if (!c.cut) return text.length <= max;
        const kept = c.text.slice(0, -CUT_MARK.length);
        const code = kept.charCodeAt(kept.length - 1);
        return text.startsWith(kept) && kept.length <= max && !(code >= 0xd800 && code <= 0xdbff);
      },
    ),
  );
});

Deno.test("estimateTokens: bytes / 4, rounded up, of text, numbers and JSON", () => {
  equal(estimateTokens(""), 0);
  equal(estimateTokens("abcde"), 2);
  equal(estimateTokens("é"), 1); // two bytes
  equal(estimateTokens(4001), 1001);
  equal(estimateTokens({ a: "b" }), 3); // {"a":"b"} is 9 bytes
});

Deno.test("fitLines: whole lines in the budget; one huge line is cut", () => {
  const lines = ["aaaa", "bbbb", "cccc"];
  const f = fitLines(lines, 2); // 8 bytes: "aaaa" + "\n" + "bbbb" is 9
  equal(f.text, "aaaa");
  equal(f.kept, 1);
  equal(f.cut, true);
  equal(fitLines(lines, 100).cut, false);
  const huge = fitLines(["x ".repeat(1000)], 10);
  equal(huge.kept, 0);
  ok(huge.cut && huge.text.length < 100);
});

Deno.test("TokenBudget: the first item always fits, later ones only while there is room", () => {
  const b = new TokenBudget(5);
  ok(b.take(50));
  ok(!b.take(1));
  equal(b.skipped, 1);
  equal(b.remaining, 0);
  const c = new TokenBudget(10);
  ok(c.take("abcdefgh")); // 2 tokens
  ok(c.fits(8));
  ok(!c.fits(9));
});
