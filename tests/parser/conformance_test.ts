/**
 * One conformance suite for every language: each `fixtures/languages/<lang>/` holds source files
 * and `expected.json` (symbols, imports, calls, known gaps). The parser must reproduce the data
 * exactly, and every symbol's byte range must slice out its source. Each language also has a graph
 * row (`_graph_rows.ts`): the code-graph semantics it declares, and facts of the graph over its
 * fixture.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { isGrammarSpec, LANGUAGES } from "../../src/parser/mod.ts";
import { loadLanguage } from "../../src/parser/loader.ts";
import { type Expected, FIXTURES, listFiles, project, runFixture } from "./_conformance.ts";
import { describeSemantics, GRAPH_ROWS, graphFacts } from "./_graph_rows.ts";
import { indexedView } from "../query/_fixture.ts";

const languageDirs: string[] = [];
for await (const entry of Deno.readDir(FIXTURES)) {
  if (entry.isDirectory) languageDirs.push(entry.name);
}
languageDirs.sort();

Deno.test("every registered language compiles its queries and has a fixture", async (t) => {
  for (const spec of LANGUAGES) {
    await t.step(spec.id, async () => {
      if (isGrammarSpec(spec)) await loadLanguage(spec);
      assert.ok(languageDirs.includes(spec.id), `missing fixtures/languages/${spec.id}/`);
    });
  }
});

for (const lang of languageDirs) {
  Deno.test(`conformance: ${lang}`, async (t) => {
    const dir = new URL(`${lang}/`, FIXTURES);
    const expected = JSON.parse(
      await Deno.readTextFile(new URL("expected.json", dir)),
    ) as Expected;
    assert.equal(expected.language, lang);
    const { results, bytes } = await runFixture(dir);
    assert.deepEqual(
      results.map((r) => r.file),
      Object.keys(expected.files),
      "fixture files differ from expected.json (run tests/parser/update_expected.ts and review)",
    );
    assert.ok(
      results.some((r) => r.language === lang),
      `no file of the fixture is parsed as "${lang}"`,
    );
    for (const result of results) {
      const want = expected.files[result.file]!;
      const got = project(result);
      await t.step(`${result.file}: status`, () => {
        assert.deepEqual([got.language, got.status, got.reason], [
          want.language,
          want.status,
          want.reason,
        ]);
      });
      await t.step(`${result.file}: symbols`, () => assert.deepEqual(got.symbols, want.symbols));
      await t.step(`${result.file}: imports`, () => assert.deepEqual(got.imports, want.imports));
      await t.step(`${result.file}: calls`, () => assert.deepEqual(got.calls, want.calls));
      await t.step(`${result.file}: byte ranges slice out each symbol's source`, () => {
        const file = bytes.get(result.file)!;
        const decoder = new TextDecoder();
        for (const s of result.symbols) {
          const slice = file.slice(s.byte_offset, s.byte_offset + s.byte_length);
          const text = decoder.decode(slice);
          assert.equal(
            createHash("sha256").update(slice).digest("hex"),
            s.content_hash,
            `${s.id}: content_hash`,
          );
          assert.equal(text.split("\n").length, s.end_line - s.line + 1, `${s.id}: line span`);
          // A name written over several lines is one line (line breaks read as one space).
          assert.ok(
            text.replace(/\s*[\r\n\u2028\u2029]\s*/g, " ").includes(s.name),
            `${s.id}: source contains its name`,
          );
          assert.ok(text.includes(s.signature), `${s.id}: source contains its signature`);
          const prefix = decoder.decode(file.slice(0, s.byte_offset));
          assert.equal(prefix.split("\n").length, s.line, `${s.id}: line matches byte_offset`);
          const lines = decoder.decode(file).split("\n");
          const first = lines[s.line - 1]!;
          assert.ok(first.includes(text.split("\n")[0]!), `${s.id}: source starts on its line`);
        }
      });
    }
    await t.step("known gaps are still gaps", () => {
      for (const gap of expected.gaps) {
        assert.ok(gap.reason.trim() !== "", `gap ${gap.value} needs a reason`);
        const r = results.find((x) => x.file === gap.file);
        assert.ok(r !== undefined, `gap names unknown file ${gap.file}`);
        const present = gap.kind === "symbol"
          ? r.symbols.some((s) => s.id === gap.value)
          : gap.kind === "import"
          ? r.imports.some((i) => i.specifier === gap.value)
          : r.calls.some((c) => c.callee === gap.value);
        assert.ok(!present, `gap ${gap.kind} "${gap.value}" is fixed: update expected.json`);
      }
    });
    void listFiles;
  });
}

Deno.test("every registered language has a graph row naming its semantics", async (t) => {
  for (const spec of LANGUAGES) {
    await t.step(spec.id, () => {
      const row = GRAPH_ROWS[spec.id];
      assert.ok(row !== undefined, `no graph row for ${spec.id} in tests/parser/_graph_rows.ts`);
      const declared = spec.semantics === undefined
        ? "defaults"
        : describeSemantics(spec.semantics);
      assert.equal(declared, row.semantics);
    });
  }
});

for (const [lang, row] of Object.entries(GRAPH_ROWS)) {
  if (row.facts === undefined) continue;
  Deno.test(`conformance graph: ${lang}`, async () => {
    const dir = new URL(`${lang}/`, FIXTURES);
    const files = (await listFiles(dir)).filter((f) => f !== "expected.json");
    const tree: Record<string, string> = {};
    for (const f of files) tree[f] = await Deno.readTextFile(new URL(f, dir));
    const { view, close } = await indexedView(tree);
    try {
      const facts = graphFacts(view, files);
      for (const fact of row.facts!) assert.ok(facts.has(fact), `${lang}: missing ${fact}`);
    } finally {
      await close();
    }
  });
}
