/**
 * The compact form in which a worker posts a `ParseResult` to the pool. Structured cloning many
 * small objects is costly on both sides (serialise in the worker, deserialise on the caller's
 * thread), and a result repeats a lot: every symbol carries the file path and language, every
 * call its caller's full symbol id. Here a symbol is one array without those two, and calls are
 * one flat array with the caller as the index of its symbol: about a third of the bytes and half
 * the clone time on the Go standard library. `decodeResult` gives back an equal `ParseResult`.
 */
import type { CallRecord, ImportRecord, ParseResult, SymbolKind, SymbolRecord } from "./types.ts";

/** One symbol: the `SymbolRecord` fields in `_SYMBOL_FIELDS` order, without file and language. */
type _WireSymbol = [
  string,
  string,
  string,
  SymbolKind,
  string,
  string,
  string,
  string[],
  string[],
  string | null,
  number,
  number,
  number,
  number,
  string,
  /** `complexity` as `[cyclomatic, max_nesting, param_count]`, or null when absent. */
  [number, number, number] | null,
];

/** A `ParseResult` as posted by a worker. */
export interface WireResult {
  /** Tells a `WireResult` from a plain `ParseResult` (which has no such key). */
  compact: true;
  file: string;
  language: string;
  status: ParseResult["status"];
  reason: string | null;
  symbols: _WireSymbol[];
  imports: ImportRecord[];
  /**
   * Four values per call: callee, receiver, caller (index into `symbols`, -1 for none, or the id
   * itself when it is not one of the file's symbols), line.
   */
  calls: (string | number | null)[];
}

/**
 * The compact form of a result (see the module doc), or the result itself in the unexpected case
 * that a symbol's file or language differs from the result's.
 */
export function encodeResult(r: ParseResult): WireResult | ParseResult {
  for (const s of r.symbols) if (s.file !== r.file || s.language !== r.language) return r;
  const index = new Map<string, number>();
  const symbols: _WireSymbol[] = new Array(r.symbols.length);
  for (let i = 0; i < r.symbols.length; i++) {
    const s = r.symbols[i]!;
    index.set(s.id, i);
    symbols[i] = [
      s.id,
      s.name,
      s.qualified_name,
      s.kind,
      s.signature,
      s.docstring,
      s.summary,
      s.decorators,
      s.keywords,
      s.parent,
      s.line,
      s.end_line,
      s.byte_offset,
      s.byte_length,
      s.content_hash,
      s.complexity === undefined
        ? null
        : [s.complexity.cyclomatic, s.complexity.max_nesting, s.complexity.param_count],
    ];
  }
  const calls: (string | number | null)[] = new Array(r.calls.length * 4);
  let k = 0;
  for (const c of r.calls) {
    calls[k++] = c.callee;
    calls[k++] = c.receiver;
    calls[k++] = c.caller === null ? -1 : index.get(c.caller) ?? c.caller;
    calls[k++] = c.line;
  }
  return {
    compact: true,
    file: r.file,
    language: r.language,
    status: r.status,
    reason: r.reason,
    symbols,
    imports: r.imports,
    calls,
  };
}

/** The `ParseResult` an `encodeResult` output stands for. */
export function decodeResult(w: WireResult | ParseResult): ParseResult {
  if (!("compact" in w)) return w;
  const file = w.file;
  const language = w.language;
  const symbols: SymbolRecord[] = new Array(w.symbols.length);
  for (let i = 0; i < w.symbols.length; i++) {
    const a = w.symbols[i]!;
    const symbol: SymbolRecord = {
      id: a[0],
      file,
      name: a[1],
      qualified_name: a[2],
      kind: a[3],
      language,
      signature: a[4],
      docstring: a[5],
      summary: a[6],
      decorators: a[7],
      keywords: a[8],
      parent: a[9],
      line: a[10],
      end_line: a[11],
      byte_offset: a[12],
      byte_length: a[13],
      content_hash: a[14],
    };
    const m = a[15];
    if (m !== null) symbol.complexity = { cyclomatic: m[0], max_nesting: m[1], param_count: m[2] };
    symbols[i] = symbol;
  }
  const c = w.calls;
  const calls: CallRecord[] = new Array(c.length / 4);
  for (let i = 0, k = 0; k < c.length; i++, k += 4) {
    const caller = c[k + 2]!;
    calls[i] = {
      callee: c[k] as string,
      receiver: c[k + 1] as string | null,
      caller: typeof caller === "number" ? (caller === -1 ? null : symbols[caller]!.id) : caller,
      line: c[k + 3] as number,
    };
  }
  return {
    file,
    language,
    status: w.status,
    reason: w.reason,
    symbols,
    imports: w.imports,
    calls,
  };
}
