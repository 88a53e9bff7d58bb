/** BERT's uncased WordPiece: basic splitting, greedy longest pieces, [UNK], the length cap. */
import { deepEqual, equal, throws } from "node:assert/strict";
import { basicTokens, WordPiece } from "../../src/embed/wordpiece.ts";

const VOCAB = [
  "[PAD]",
  "[UNK]",
  "[CLS]",
  "[SEP]",
  "un",
  "##aff",
  "##able",
  "parse",
  "##r",
  "(",
  ")",
  "中",
  "文",
];

Deno.test("wordpiece: basic tokens split punctuation, CJK, accents, case", () => {
  deepEqual(basicTokens("  Unaffable\tPARSER()\n"), ["unaffable", "parser", "(", ")"]);
  deepEqual(basicTokens("中文x"), ["中", "文", "x"]);
  deepEqual(basicTokens("naïve café"), ["naive", "cafe"]);
  deepEqual(basicTokens("a\u0000b\u200bc"), ["abc"]);
});

Deno.test("wordpiece: greedy longest-match pieces with ## continuations, [UNK] for the rest", () => {
  const wp = new WordPiece(VOCAB.join("\n") + "\n", 8);
  deepEqual(
    wp.encode("unaffable parser()"),
    [2, 4, 5, 6, 7, 8, 9, 3],
    "cut at maxLength with [SEP] kept",
  );
  deepEqual(wp.encode("unaffable"), [2, 4, 5, 6, 3]);
  deepEqual(wp.encode("xyz 中"), [2, 1, 11, 3]);
  deepEqual(wp.encode("a".repeat(101)), [2, 1, 3], "a word over 100 characters is [UNK]");
  deepEqual(wp.encode(""), [2, 3]);
  equal(wp.size, VOCAB.length);
  throws(() => new WordPiece("a\nb\n"), /no \[UNK\] token/);
});
