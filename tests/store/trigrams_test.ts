import { deepEqual, equal } from "node:assert/strict";
import fc from "fast-check";
import { regexLiterals, trigramQuery, TrigramSet } from "../../src/store/trigrams.ts";

Deno.test("trigram tokens", async (t) => {
  const set = new TrigramSet();
  const enc = new TextEncoder();

  await t.step("distinct case-folded byte trigrams, first-seen order", () => {
    deepEqual(set.collect(enc.encode("abcABC")), [
      0x616263,
      0x626361,
      0x636162,
    ]);
    deepEqual(set.collect(enc.encode("ab")), []);
  });

  await t.step("the bit set is cleared between files", () => {
    set.collect(enc.encode("xyzxyz"));
    deepEqual(set.collect(enc.encode("xyz")), [0x78797a]);
  });

  await t.step("every query trigram of a substring is in the document (superset property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.nat(), fc.nat(), (text, a, b) => {
        const from = Math.min(a, b) % (text.length + 1);
        const to = Math.max(a, b) % (text.length + 1);
        const needle = text.slice(from, to);
        const doc = new Set(set.document(enc.encode(text.toUpperCase())).trim().split(" "));
        const q = trigramQuery(needle);
        if (q !== null) { for (const tok of q.split(" ")) equal(doc.has(tok), true); }
      }),
    );
  });

  await t.step("superset property with spaces, tabs and newlines", () => {
    const text = fc.stringMatching(/^[ab \t\nC]{0,60}$/);
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (text, a, b) => {
        const from = Math.min(a, b) % (text.length + 1);
        const to = Math.max(a, b) % (text.length + 1);
        const doc = new Set(set.collect(enc.encode(text.toUpperCase())));
        const q = trigramQuery(text.slice(from, to));
        if (q !== null) { for (const tok of q.split(" ")) equal(doc.has(parseInt(tok, 36)), true); }
      }),
    );
  });

  await t.step("short, whitespace-only and non-ASCII-only needles do not narrow", () => {
    equal(trigramQuery("ab"), null);
    equal(trigramQuery("ééé"), null);
    equal(trigramQuery("a  b\tc"), null);
    equal(
      trigramQuery("func main"),
      ["fun", "unc", "c m", "mai", "ain"].map((t) =>
        ((t.charCodeAt(0) << 16) | (t.charCodeAt(1) << 8) | t.charCodeAt(2)).toString(36)
      ).join(" "),
    );
  });

  await t.step(
    "trigrams with whitespace are not indexed, but for a lone space in the middle",
    () => {
      deepEqual(set.collect(enc.encode("ab\tcd\nef")), []);
      deepEqual(set.collect(enc.encode("ab cd  ef\n")), [0x622063]);
      deepEqual(set.collect(enc.encode(" abc")), [0x616263]);
    },
  );
});

Deno.test("regexLiterals finds only fragments every match must contain", async (t) => {
  await t.step("plain literal runs", () => {
    deepEqual(regexLiterals("def\\s+handle_request"), ["def", "handle_request"]);
  });
  await t.step("optional characters end a run", () => {
    deepEqual(regexLiterals("colou?r_name"), ["colo", "r_name"]);
  });
  await t.step("top-level alternation gives no narrowing", () => {
    deepEqual(regexLiterals("foo|bar"), []);
  });
  await t.step("groups and classes are skipped", () => {
    deepEqual(regexLiterals("get(User|Group)Name[0-9]+suffix"), ["get", "Name", "suffix"]);
  });
  await t.step("escaped metacharacters are literal", () => {
    deepEqual(regexLiterals("a\\.b\\(c"), ["a.b(c"]);
  });
});
