/**
 * `text_scan.ts`, the per-file matcher of search_text: literal and regex queries, the line rule
 * (`\n`, `\r\n`, a lone `\r`), counting past the kept lines, and no match inside a secret the
 * served text redacts. Expectations written by hand from the texts.
 */
import { deepStrictEqual, equal, throws } from "node:assert/strict";
import { asciiLiteralProbe, compileTextQuery, scanText } from "../../src/query/text_scan.ts";

const all = { keep: 100, deadline: Infinity };

Deno.test("scanText: a literal, case-insensitive unless asked, one row per line", () => {
  const text = "alpha\nBeta beta\nGAMMA\r\nbeta\n";
  deepStrictEqual(scanText(text, compileTextQuery("beta", false, false), all), {
    count: 2,
    lines: [2, 4],
    timedOut: false,
  });
  deepStrictEqual(scanText(text, compileTextQuery("Beta", false, true), all).lines, [2]);
  deepStrictEqual(scanText(text, compileTextQuery("gamma", false, false), all).lines, [3]);
  // The dot of a literal is a dot.
  equal(scanText("a.b\naxb\n", compileTextQuery("a.b", false, false), all).count, 1);
});

Deno.test("scanText: a regex matches within one line; lone CR ends a line", () => {
  const q = compileTextQuery("b\\s+c", true, false);
  deepStrictEqual(scanText("a b\nc\nb  c\n", q, all).lines, [3]);
  deepStrictEqual(scanText("x\ry\rxy\r", compileTextQuery("^x", true, false), all).lines, [1, 3]);
  deepStrictEqual(scanText("one\r\ntwo\r\n", compileTextQuery("o$", true, false), all).lines, [2]);
});

Deno.test("scanText: every match counted, at most keep lines listed", () => {
  const text = Array.from({ length: 30 }, (_, i) => `line ${i} hit`).join("\n");
  const r = scanText(text, compileTextQuery("hit", false, false), { keep: 5, deadline: Infinity });
  equal(r.count, 30);
  deepStrictEqual(r.lines, [1, 2, 3, 4, 5]);
});

Deno.test("scanText: no match inside a redacted secret; the rest of the line still matches", () => {
  const text = 'name = "aws"\nkey = "AKIAIOSFODNN7EXAMPLE"  # aws key\n';
  const inSecret = compileTextQuery("IOSFODNN", false, false);
  equal(scanText(text, inSecret, all).count, 0);
  equal(scanText(text, inSecret, { ...all, redact: false }).count, 1);
  deepStrictEqual(scanText(text, compileTextQuery("aws", false, false), all).lines, [1, 2]);
});

Deno.test("compileTextQuery: an invalid regex is a SyntaxError; asciiLiteralProbe only for ASCII literals", () => {
  throws(() => compileTextQuery("(unclosed", true, false), SyntaxError);
  const probe = asciiLiteralProbe("Hit Me", false, true)!;
  equal(probe(new TextEncoder().encode("x Hit Me y")), true);
  equal(probe(new TextEncoder().encode("x hit me y")), false);
  equal(asciiLiteralProbe("a.*", true, false), null);
  equal(asciiLiteralProbe("", false, false), null);
  equal(asciiLiteralProbe("two\nlines", false, false), null);
});
