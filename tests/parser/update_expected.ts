/**
 * Regenerate `fixtures/languages/<lang>/expected.json` from what the parser produces now, keeping
 * the recorded gaps. Review the diff by eye before committing: the expected data must be what a
 * correct extractor produces, not whatever came out.
 *
 *   deno run --allow-read --allow-write --allow-env tests/parser/update_expected.ts python go
 */
import { type Expected, FIXTURES, formatExpected, project, runFixture } from "./_conformance.ts";

if (import.meta.main) {
  for (const lang of Deno.args) {
    const dir = new URL(`${lang}/`, FIXTURES);
    const path = new URL("expected.json", dir);
    let gaps: Expected["gaps"] = [];
    try {
      gaps = (JSON.parse(await Deno.readTextFile(path)) as Expected).gaps;
    } catch {
      // first run: no expected data yet
    }
    const { results } = await runFixture(dir);
    const expected: Expected = {
      language: lang,
      files: Object.fromEntries(results.map((r) => [r.file, project(r)])),
      gaps,
    };
    await Deno.writeTextFile(path, formatExpected(expected));
    console.error(`wrote ${path.pathname}`);
  }
}
