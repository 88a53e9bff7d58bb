/**
 * Shared by the conformance test and `update_expected.ts`: parse every file of a fixture
 * directory `fixtures/languages/<lang>/`, resolve imports across it, and project the results onto
 * the fields that `expected.json` pins.
 */
import { posix } from "node:path";
import {
  type CallRecord,
  type ImportRecord,
  type ParseResult,
  parseSource,
  resolveImports,
  type SymbolRecord,
} from "../../src/parser/mod.ts";

export const FIXTURES = new URL("../../fixtures/languages/", import.meta.url);

/** The pinned part of a symbol (byte range and hash are checked against the file instead). */
export type ExpectedSymbol = Omit<
  SymbolRecord,
  "file" | "language" | "byte_offset" | "byte_length" | "content_hash"
>;

export interface ExpectedFile {
  language: string;
  status: ParseResult["status"];
  reason: string | null;
  symbols: ExpectedSymbol[];
  imports: ImportRecord[];
  calls: CallRecord[];
}

/** A known gap: something a perfect extractor would produce and we do not, with the reason. */
export interface Gap {
  file: string;
  /** `symbol`: no symbol has this id; `import`: no import has this specifier; `call`: no call has this callee. */
  kind: "symbol" | "import" | "call";
  value: string;
  reason: string;
}

export interface Expected {
  language: string;
  files: Record<string, ExpectedFile>;
  gaps: Gap[];
}

/** Every file under a directory, as sorted POSIX paths relative to it. */
export async function listFiles(dir: URL, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(new URL(prefix, dir))) {
    const rel = prefix + entry.name;
    if (entry.isDirectory) out.push(...await listFiles(dir, rel + "/"));
    else if (entry.isFile) out.push(rel);
  }
  return out.sort();
}

export interface FixtureRun {
  results: ParseResult[];
  bytes: Map<string, Uint8Array>;
}

/** Parse and resolve every source file of a fixture directory. */
export async function runFixture(dir: URL): Promise<FixtureRun> {
  const files = (await listFiles(dir)).filter((f) => f !== "expected.json");
  const bytes = new Map<string, Uint8Array>();
  const results: ParseResult[] = [];
  for (const f of files) {
    const b = await Deno.readFile(new URL(f, dir));
    bytes.set(f, b);
    const r = await parseSource(f, b);
    if (r.reason !== "unsupported file type") results.push(r);
  }
  const decoder = new TextDecoder();
  resolveImports(results, new Set(files), (p) => {
    const b = bytes.get(posix.normalize(p));
    return b === undefined ? undefined : decoder.decode(b);
  });
  return { results, bytes };
}

export function project(result: ParseResult): ExpectedFile {
  return {
    language: result.language,
    status: result.status,
    reason: result.reason,
    symbols: result.symbols.map((s) => ({
      id: s.id,
      name: s.name,
      qualified_name: s.qualified_name,
      kind: s.kind,
      signature: s.signature,
      docstring: s.docstring,
      summary: s.summary,
      decorators: s.decorators,
      keywords: s.keywords,
      parent: s.parent,
      line: s.line,
      end_line: s.end_line,
    })),
    imports: result.imports,
    calls: result.calls,
  };
}

/** Render expected data with one record per line, so a review reads it like a table. */
export function formatExpected(expected: Expected): string {
  const rows = (items: readonly unknown[], indent: string) =>
    items.length === 0
      ? "[]"
      : "[\n" + items.map((i) => indent + "  " + JSON.stringify(i)).join(",\n") + "\n" + indent +
        "]";
  const files = Object.entries(expected.files).map(([name, f]) =>
    `    ${JSON.stringify(name)}: {\n` +
    `      "language": ${JSON.stringify(f.language)},\n` +
    `      "status": ${JSON.stringify(f.status)},\n` +
    `      "reason": ${JSON.stringify(f.reason)},\n` +
    `      "symbols": ${rows(f.symbols, "      ")},\n` +
    `      "imports": ${rows(f.imports, "      ")},\n` +
    `      "calls": ${rows(f.calls, "      ")}\n` +
    `    }`
  );
  return "{\n" +
    `  "language": ${JSON.stringify(expected.language)},\n` +
    `  "files": {\n${files.join(",\n")}\n  },\n` +
    `  "gaps": ${rows(expected.gaps, "  ")}\n` +
    "}\n";
}
