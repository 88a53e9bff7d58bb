/**
 * Language rules the query layer reads as data (issue 26 item 3), not from a language's name:
 * `search_ast`'s `eval_exec` flags a bare `exec(...)` only where the language's semantics list it
 * as a code runner (Python), and a lower-case name reads as private only under the `capitalized`
 * privacy rule (Go's).
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { indexedFixture } from "./_fixture.ts";
import { isPrivateName } from "../../src/query/priors.ts";
import { semanticsOf } from "../../src/parser/semantics/mod.ts";

Deno.test("eval_exec: a bare exec() runs code in Python only", async () => {
  const { runner, repo, close } = await indexedFixture("ast", {
    "extra/run.py": "def run(code):\n    exec(code)\n",
    "extra/shell.js": "function shell(cmd) {\n  exec(cmd);\n  return eval(cmd);\n}\n",
  });
  try {
    const r = await runner.call("search_ast", {
      repo,
      pattern: "eval_exec",
      file_pattern: "extra/*",
      format: "json",
    });
    equal(r.isError, false, r.text);
    const found = (JSON.parse(r.text).matches as { file: string; line: number }[])
      .map((m) => `${m.file}:${m.line}`).sort();
    deepStrictEqual(found, ["extra/run.py:2", "extra/shell.js:3"]);
  } finally {
    await close();
  }
});

Deno.test("private names: the leading _ or #, and lower case under capitalized privacy", () => {
  equal(semanticsOf("go").privacy, "capitalized");
  equal(semanticsOf("python").privacy, "public");
  const cases: [string, "public" | "capitalized", boolean][] = [
    ["_helper", "public", true],
    ["#field", "public", true],
    ["helper", "public", false],
    ["helper", "capitalized", true],
    ["Helper", "capitalized", false],
    ["_Helper", "capitalized", true],
    ["ünicode", "capitalized", false], // only a-z starts a package-private Go name here
  ];
  for (const [name, privacy, expected] of cases) {
    equal(isPrivateName(name, privacy), expected, `${name} under ${privacy}`);
  }
});
