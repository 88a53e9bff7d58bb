import { deepEqual, equal, ok } from "node:assert/strict";
import { buildPrompt, parseReply } from "../../src/summarize/prompt.ts";

Deno.test("the prompt lists symbols as numbered kind: signature lines", () => {
  const prompt = buildPrompt([
    { kind: "function", signature: "def f(\n    x,\n    y)" },
    { kind: "class", signature: "class A(" + "B, ".repeat(200) + ")" },
  ]);
  const lines = prompt.split("\n");
  ok(lines.includes("1. function: def f( x, y)"));
  const second = lines.find((l) => l.startsWith("2. class: "))!;
  equal(second.length, "2. class: ".length + 300, "signatures are cut at 300 characters");
  ok(prompt.includes('"N. summary"'));
});

Deno.test("replies are read tolerantly", async (t) => {
  await t.step("numbering styles, bullets, bold, prose and blank lines", () => {
    deepEqual(
      parseReply(
        [
          "Sure, here you go:",
          "",
          "1. Adds numbers.",
          "- 2) Parses input",
          "**3.** Opens a file",
          "4: Closes it",
          "  5 - Deletes",
          "Hope that helps!",
        ].join("\n"),
        5,
      ),
      ["Adds numbers.", "Parses input", "Opens a file", "Closes it", "Deletes"],
    );
  });
  await t.step("missing, extra, repeated and out-of-range numbers", () => {
    deepEqual(parseReply("2. Second\n2. Again\n7. Extra\n0. Zero\n", 3), [
      undefined,
      "Second",
      undefined,
    ]);
  });
  await t.step("quotes and long lines", () => {
    deepEqual(parseReply('1. "Quoted summary"\n2. ' + "x".repeat(300), 2), [
      "Quoted summary",
      "x".repeat(120),
    ]);
  });
  await t.step("an empty reply", () => deepEqual(parseReply("", 2), [undefined, undefined]));
});
