/**
 * The small name rules several tools share: the closest paths of a `file_not_found`
 * (`names.ts`), the edit distance with a cut-off, the innermost symbol of a line (`enclosing.ts`),
 * name squashing and trigrams (`name_index.ts`), the identity bonus of a query
 * (`identity.ts`), and words and whole-word counts (`mentions.ts`). Expectations by hand.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { closestPaths, levenshtein } from "../../src/query/names.ts";
import { enclosingSymbol, enclosingTable, innermostSpan } from "../../src/query/enclosing.ts";
import { squashName, trigrams } from "../../src/query/name_index.ts";
import { identityBonus, spelledNames } from "../../src/query/identity.ts";
import { countWord, definitionSpan, fileStem, forEachWord } from "../../src/query/mentions.ts";
import type { SymbolRecord } from "../../src/parser/types.ts";

Deno.test("closestPaths: same file name first, then a path holding it, then few edits", () => {
  const paths = ["src/app.ts", "lib/app.ts", "src/apple.ts", "src/main.ts", "docs/readme.md"];
  deepStrictEqual(closestPaths(paths, "app.ts", 5), ["src/app.ts", "lib/app.ts"]);
  deepStrictEqual(closestPaths(paths, "web/APP.TS", 1), ["src/app.ts"]);
  deepStrictEqual(closestPaths(paths, "apple", 5), ["src/apple.ts"]);
  deepStrictEqual(closestPaths(paths, "src/mian.ts", 2), ["src/main.ts", "src/app.ts"]);
  deepStrictEqual(closestPaths(paths, "something/else/entirely.go", 3), []);
});

Deno.test("levenshtein: edits, and max + 1 once the distance must exceed max", () => {
  equal(levenshtein("", ""), 0);
  equal(levenshtein("abc", ""), 3);
  equal(levenshtein("flaw", "lawn"), 2);
  equal(levenshtein("abcdef", "abcdef", 0), 0);
  equal(levenshtein("abcdef", "abcxyz", 1), 2);
  equal(levenshtein("a", "abcdefgh", 3), 4, "length gap alone exceeds max");
});

Deno.test("enclosing: the shortest span holding the line; on a tie the later start, then the first", () => {
  const spans = [
    { id: "Class", line: 1, end_line: 20 },
    { id: "Class.a", line: 2, end_line: 8 },
    { id: "Class.b", line: 5, end_line: 11 }, // as long as Class.a, starts later
    { id: "Class.b.dup", line: 5, end_line: 11 },
    { id: "inner", line: 6, end_line: 6 },
  ];
  equal(enclosingSymbol(spans, 3), "Class.a");
  equal(enclosingSymbol(spans, 5), "Class.b");
  equal(enclosingSymbol(spans, 6), "inner");
  equal(enclosingSymbol(spans, 15), "Class");
  equal(enclosingSymbol(spans, 21), null);
  equal(innermostSpan(spans, 9)?.id, "Class.b");
  const table = enclosingTable(spans, 22);
  for (let line = 1; line <= 22; line++) {
    const i = table[line]!;
    equal(i === -1 ? null : spans[i]!.id, enclosingSymbol(spans, line), `line ${line}`);
  }
});

Deno.test("name_index: squashed names and padded trigrams", () => {
  equal(squashName("Add_API-Route"), "addapiroute");
  equal(squashName("été_2"), "été2");
  deepStrictEqual([...trigrams("ab")].sort(), ["  a", " ab", "ab "].sort());
  equal(trigrams("abcd").size, 5); // "  a", " ab", "abc", "bcd", "cd "
});

Deno.test("identity: the bonus tiers of a query for a symbol", () => {
  const s = { id: "web/router.py::add_api_route#function", name: "add_api_route" };
  equal(identityBonus(s, "add_api_route"), 50);
  equal(identityBonus(s, s.id), 50);
  equal(identityBonus(s, "ADD_API_ROUTE"), 45);
  equal(identityBonus(s, "add api route"), 40);
  equal(identityBonus(s, "addApiRoute"), 40);
  equal(identityBonus(s, "add_api"), 30);
  equal(identityBonus(s, "router.py"), 20);
  equal(identityBonus(s, "delete"), 0);
  deepStrictEqual(spelledNames("add api route"), ["add_api_route", "addapiroute"]);
  deepStrictEqual(spelledNames("route"), []);
  deepStrictEqual(spelledNames("a b c d e f g"), []);
});

Deno.test("mentions: words, whole-word counts, file stems and a definition's preamble", () => {
  const words: string[] = [];
  forEachWord("obj.run_all($x, 'y2') -> z", (w) => words.push(w));
  deepStrictEqual(words, ["obj", "run_all", "$x", "y2", "z"]);
  equal(countWord("foo foo_bar foo.x (foo) xfoo foo", "foo"), 4);
  equal(countWord("", "foo"), 0);
  equal(fileStem("a/b/c.test.ts"), "c");
  equal(fileStem(".env"), ".env");
  equal(fileStem("Makefile"), "Makefile");
  const lines = ["import x", "", "# Adds.", "@cached", "def add(a):", "    return a", ""];
  const s = { line: 5, end_line: 6 } as SymbolRecord;
  deepStrictEqual(definitionSpan(lines, s), [3, 6]);
  deepStrictEqual(definitionSpan(lines, { line: 1, end_line: 1 } as SymbolRecord), [1, 1]);
});
