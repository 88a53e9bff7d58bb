/**
 * `src/parser/LANGUAGES.md` against the language table of the code (`LANGUAGES`, the registry):
 * every language is listed with where its parser comes from, under that parser's licence, and
 * which extractor reads it — a grammar's npm package (or `grammars/`, built or copied by us) in
 * the grammar tables, an npm parser with its licence, or one of our scanners by its module — and
 * every language those tables name is one of the registry's.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { isGrammarSpec, LANGUAGES } from "../../src/parser/mod.ts";
import type { GrammarSpec, LanguageSpec } from "../../src/parser/mod.ts";
import { CHECKOUT } from "../e2e/_server.ts";

interface _Table {
  header: string[];
  rows: string[][];
}

/** The Markdown tables of a document: header cells and body rows, cells trimmed. */
function tables(text: string): _Table[] {
  const found: _Table[] = [];
  const lines = text.split("\n");
  const cells = (line: string) =>
    line.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i]!.startsWith("|") || !/^\|\s*-{3,}/.test(lines[i + 1]!)) continue;
    const table: _Table = { header: cells(lines[i]!), rows: [] };
    for (i += 2; i < lines.length && lines[i]!.startsWith("|"); i++) {
      table.rows.push(cells(lines[i]!));
    }
    found.push(table);
  }
  return found;
}

/** The language ids a first cell names: `erb, ejs (host)` → erb, ejs. */
function ids(cell: string): string[] {
  return cell.replace(/\([^)]*\)/g, "").split(",").map((s) => s.trim().toLowerCase())
    .filter((s) => s !== "");
}

/** The npm package a grammar's `.wasm` comes from, or `grammars/` for the ones we build or copy. */
function packageOf(module: string | undefined): string {
  if (module === undefined) return "tree-sitter-wasms";
  if (module.startsWith("codemunch-grammars/")) return "grammars/";
  const parts = module.split("/");
  return module.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/** A licence named in parentheses: `(MIT)`, `(Apache-2.0)`, `(MIT, in its package.json)`. */
const LICENCE = /\((?:MIT|Apache-2\.0|BSD-[23]-Clause|ISC|Unlicense|CC0-1\.0)\b/;

const doc = tables(Deno.readTextFileSync(join(CHECKOUT, "src/parser/LANGUAGES.md")));
const grammarTables = doc.filter((t) => t.header[2] === "upstream grammar (licence)");
const ours = grammarTables.filter((t) => /^(npm source package|copied from)/.test(t.header[1]!));
const scanners = doc.filter((t) => t.header[1] === "scanner");
const npmParsers = doc.filter((t) => t.header[1] === "npm parser (version, licence)");

/** Where the doc says a grammar spec's parser comes from, or why not. */
function grammarRow(spec: GrammarSpec): string | undefined {
  const sources = [packageOf(spec.grammarModule)];
  if (spec.regions !== undefined) sources.push(packageOf(spec.regions.grammarModule));
  for (const table of grammarTables) {
    for (const row of table.rows) {
      if (!ids(row[0]!).includes(spec.id)) continue;
      const named = sources.some((p) =>
        p === "grammars/" ? ours.includes(table) : row[1]!.includes(`\`${p}\``)
      );
      if (named && LICENCE.test(row[2]!)) return undefined;
    }
  }
  return `${spec.id}: no grammar-table row names ${sources.join(" or ")} with a licence`;
}

/** Whether the doc names an extractor spec's scanner module, or its npm parser and licence. */
function extractorRow(spec: LanguageSpec & { extractor: string }): string | undefined {
  const scanned = scanners.some((t) =>
    t.rows.some((r) => ids(r[0]!).includes(spec.id) && r[1] === `\`${spec.extractor}.ts\``)
  );
  const parsed = npmParsers.some((t) =>
    t.rows.some((r) => ids(r[0]!).includes(spec.id) && /`[^`]+`/.test(r[1]!) && LICENCE.test(r[1]!))
  );
  return scanned || parsed
    ? undefined
    : `${spec.id}: no scanner or npm-parser row (${spec.extractor})`;
}

Deno.test("LANGUAGES.md: every language of the registry with its source, licence and extractor", () => {
  assert.ok(grammarTables.length >= 3 && scanners.length === 1 && npmParsers.length === 1);
  const problems: string[] = [];
  for (const spec of LANGUAGES) {
    const problem = isGrammarSpec(spec)
      ? grammarRow(spec)
      : extractorRow(spec as LanguageSpec & { extractor: string });
    if (problem !== undefined) problems.push(problem);
    // A grammar's error scanner is one of our scanners too: listed with its module.
    if (isGrammarSpec(spec) && spec.errorScanner !== undefined) {
      const listed = scanners[0]!.rows.some((r) =>
        ids(r[0]!).includes(spec.id) && r[1] === `\`${spec.errorScanner}.ts\``
      );
      if (!listed) problems.push(`${spec.id}: error scanner ${spec.errorScanner}.ts not listed`);
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("LANGUAGES.md: every language its source tables name is one of the registry's", () => {
  const known = new Set(LANGUAGES.map((l) => l.id));
  const named = [...grammarTables, ...scanners, ...npmParsers]
    .flatMap((t) => t.rows.flatMap((r) => ids(r[0]!)));
  assert.deepEqual(named.filter((id) => !known.has(id)), []);
});
