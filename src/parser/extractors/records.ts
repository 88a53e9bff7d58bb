/**
 * What an extractor of `extractors/` hands back, and how it becomes a `ParseResult`: the same
 * records, ids, byte ranges, hashes, nesting and summaries the tree-sitter extractor makes, so the
 * store and the tools cannot tell which parser read a file.
 */
import type { CallRecord, ImportRecord, ParseResult, SymbolKind, SymbolRecord } from "../types.ts";
import type { SourceText } from "../source_text.ts";
import { lineAt, lineStarts } from "../source_text.ts";
import { disambiguateIds, sha256Hex, symbolId } from "../ids.ts";
import { symbolSummary } from "../summary.ts";

/** One definition an extractor found; offsets are UTF-16 indexes into the decoded text. */
export interface SymbolDraft {
  name: string;
  kind: SymbolKind;
  /** Where its source starts and ends (end exclusive). */
  start: number;
  end: number;
  /** Index in the same draft list of the enclosing definition, if any (it must come earlier). */
  parent?: number;
  /** Declaration text; the first line of the source when unset. */
  signature?: string;
  docstring?: string;
  decorators?: string[];
  /**
   * What is cut from the end of the range: trailing whitespace, or only trailing newlines (as the
   * tree-sitter extractor cuts a node's, for a scanner that stands in for a grammar).
   * @default "whitespace"
   */
  trimEnd?: "whitespace" | "newlines";
}

/** One call or reference, at a UTF-16 index; its caller is the innermost draft around it. */
export interface CallDraft {
  callee: string;
  receiver?: string | null;
  at: number;
}

/** One import, at a UTF-16 index. */
export interface ImportDraft {
  specifier: string;
  names?: string[];
  at: number;
}

/** Everything an extractor read from one file. */
export interface Extracted {
  symbols: SymbolDraft[];
  imports: ImportDraft[];
  calls: CallDraft[];
  /** Syntax errors the parser reported (the file is then `partial`, with what it recovered). */
  errors: string[];
}

/** An extractor: reads one file's text with a language's own parser. Never throws for bad input. */
export interface Extractor {
  extract(text: string, file: string): Extracted;
}

/** The `ParseResult` of what an extractor found in a file. */
export function buildResult(
  language: string,
  file: string,
  source: SourceText,
  found: Extracted,
): ParseResult {
  const text = source.text;
  const starts = lineStarts(text);
  const qualified: string[] = [];
  const kinds: SymbolKind[] = [];
  for (const [i, d] of found.symbols.entries()) {
    const parent = d.parent === undefined ? undefined : found.symbols[d.parent];
    if (d.parent !== undefined && (parent === undefined || d.parent >= i)) {
      throw new RangeError(
        `Cannot build symbols: parent ${d.parent} of "${d.name}" is not earlier`,
      );
    }
    qualified.push(d.parent === undefined ? d.name : `${qualified[d.parent]}.${d.name}`);
    const inType = parent !== undefined && (parent.kind === "class" || parent.kind === "type");
    kinds.push(d.kind === "function" && inType ? "method" : d.kind);
  }
  const ids = disambiguateIds(
    found.symbols.map((_, i) => symbolId(file, qualified[i]!, kinds[i]!)),
  );
  const symbols = found.symbols.map((d, i): SymbolRecord => {
    let end = d.end;
    const trim = d.trimEnd === "newlines" ? /[\r\n]/ : /\s/;
    while (end > d.start && trim.test(text[end - 1]!)) end--;
    const byteOffset = source.byteOffset(d.start);
    const byteEnd = source.byteOffset(end);
    const signature = d.signature ?? firstLine(text.slice(d.start, end));
    const docstring = d.docstring ?? "";
    const kind = kinds[i]!;
    return {
      id: ids[i]!,
      file,
      name: d.name,
      qualified_name: qualified[i]!,
      kind,
      language,
      signature,
      docstring,
      summary: symbolSummary({ kind, name: d.name, signature, docstring }),
      decorators: d.decorators ?? [],
      keywords: [],
      parent: d.parent === undefined ? null : ids[d.parent]!,
      line: lineAt(starts, d.start),
      end_line: lineAt(starts, Math.max(d.start, end - 1)),
      byte_offset: byteOffset,
      byte_length: byteEnd - byteOffset,
      content_hash: sha256Hex(source.bytes.subarray(byteOffset, byteEnd)),
    };
  });
  const imports: ImportRecord[] = found.imports.map((i) => ({
    specifier: i.specifier,
    names: i.names ?? [],
    line: lineAt(starts, i.at),
    resolved: null,
  }));
  const calls: CallRecord[] = found.calls
    .slice()
    .sort((a, b) => a.at - b.at)
    .map((c) => ({
      callee: c.callee,
      receiver: c.receiver ?? null,
      caller: _innermost(found.symbols, ids, c.at),
      line: lineAt(starts, c.at),
    }));
  const problems: string[] = [];
  if (!source.validUtf8) problems.push("invalid UTF-8: decoded as Latin-1");
  if (found.errors.length > 0) problems.push(`syntax errors: ${found.errors.length}`);
  return {
    file,
    language,
    status: problems.length > 0 ? "partial" : "ok",
    reason: problems.length > 0 ? problems.join("; ") : null,
    symbols,
    imports,
    calls,
  };
}

/** A definition's first line, without a trailing `{`, `:`, `;` or `,`: a signature by default. */
export function firstLine(text: string): string {
  const nl = text.search(/\r?\n/);
  const line = (nl === -1 ? text : text.slice(0, nl)).trimEnd();
  return /[{:;,]$/.test(line) ? line.slice(0, -1).trimEnd() : line;
}

function _innermost(drafts: readonly SymbolDraft[], ids: readonly string[], at: number) {
  let best = -1;
  for (const [i, d] of drafts.entries()) {
    if (
      d.start <= at && at < d.end &&
      (best === -1 || d.end - d.start <= drafts[best]!.end - drafts[best]!.start)
    ) {
      best = i;
    }
  }
  return best === -1 ? null : ids[best]!;
}
