/**
 * Two ranking parts of search_symbols: the words of a file's path (`path_terms.ts`: layout words
 * left out, the masks of the query terms a path covers) and file focus (`file_focus.ts`: each
 * file's share of the best matches' score, and the bonus it gives). Expectations by hand.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { pathTermMasks, pathWords } from "../../src/query/path_terms.ts";
import { fileFocus, fileShares } from "../../src/query/file_focus.ts";

Deno.test("pathWords: directory and file words, layout words and extensions left out", () => {
  deepStrictEqual(pathWords("src/utils/index.ts"), []);
  deepStrictEqual(pathWords("net/http/client.go"), ["net", "http", "client"]);
  deepStrictEqual(pathWords("lib/db/io.py"), [], "words under 3 letters and layout words");
  // Only the last extension goes: "stripe.test" is a word of its own and its two parts.
  deepStrictEqual(pathWords("payments/stripe.test.ts"), [
    "payment",
    "stripetest",
    "stripe",
    "test",
  ]);
});

Deno.test("pathTermMasks: bit i when a path word starts with term i (equals it for one letter)", () => {
  const words = new Map([[1, ["http", "client"]], [2, ["x", "server"]]]);
  const mask = pathTermMasks((id) => words.get(id) ?? [], ["cli", "serv", "x", "h"]);
  equal(mask(1), 0b0001); // "cli" starts "client"; "h" is one letter and equals no word
  equal(mask(2), 0b0110);
  equal(mask(3), 0);
});

Deno.test("file focus: shares of the pool's score, and the bonus of the best score", () => {
  const ranked = [
    { file: "a.py", score: 8 },
    { file: "b.py", score: 6 },
    { file: "a.py", score: 4 },
    { file: "c.py", score: 0 }, // no score, no mass
    { file: "b.py", score: 2 },
  ];
  const share = fileShares(ranked);
  deepStrictEqual(["a.py", "b.py", "c.py"].map(share), [0.6, 0.4, 0]);
  const bonus = fileFocus(ranked);
  equal(bonus("a.py"), 0.5 * 0.6 * 8);
  equal(bonus("b.py"), 0.5 * 0.4 * 8);
  equal(fileShares([])("a.py"), 0);
  // Only the 20 best matches count: a file first seen at rank 21 has no share.
  const many = Array.from(
    { length: 21 },
    (_, i) => ({ file: i < 20 ? "top.py" : "late.py", score: 1 }),
  );
  deepStrictEqual([fileShares(many)("top.py"), fileShares(many)("late.py")], [1, 0]);
});
