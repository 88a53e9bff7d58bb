/**
 * One file's matching lines for `search_text`: the query compiled once, a whole-text scan to find
 * candidate lines fast, each candidate checked on its own line (a line matches only by itself),
 * and — when redaction is on — on the line as it would be served, so that no match is reported
 * inside a redacted secret (a regex cannot rebuild a secret one character at a time).
 *
 * Pure and synchronous: it runs in the matcher worker (`text_search_worker.ts`), where a
 * pathological regex can be stopped by terminating the worker.
 */
import { Buffer } from "node:buffer";
import { lineAt, lineStarts } from "../parser/source_text.ts";
import { hasSecretHint, redactRange, SecretMap } from "./secrets.ts";

/** A compiled query. */
export interface CompiledQuery {
  /** Finds candidates in a whole text (`g` and `m` flags). */
  scan: RegExp;
  /** Decides whether one line matches (no `g`: stateless). */
  line: RegExp;
  /** Whether a scan hit must be checked on its line alone (not for a one-line literal). */
  verify?: boolean;
}

function _escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A quick test of whether stored bytes can hold a match at all, for a literal made only of ASCII
 * characters (no line break); null for any other query. It runs the literal on the bytes read as
 * Latin-1 — one byte per character, no UTF-8 decoding, a one-byte string the regex engine scans
 * fastest — which finds exactly the files whose text has a match: an ASCII literal matches only
 * ASCII bytes, UTF-8 never encodes an ASCII character other than as itself, and (without the `u`
 * flag) no character from U+0080 to U+00FF folds to an ASCII one. Most trigram candidates of a
 * phrase hold all its trigrams but not the phrase; they are dropped without being decoded.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { asciiLiteralProbe } from "./text_scan.ts";
 * const probe = asciiLiteralProbe("Server Handler", false, false)!;
 * equal(probe(new TextEncoder().encode("é // http server handler")), true);
 * equal(probe(new TextEncoder().encode("server\nhandler")), false);
 * equal(asciiLiteralProbe("café", false, false), null);
 * ```
 */
export function asciiLiteralProbe(
  query: string,
  isRegex: boolean,
  caseSensitive: boolean,
): ((bytes: Uint8Array) => boolean) | null {
  // deno-lint-ignore no-control-regex -- ASCII is the point
  if (isRegex || !/^[\x00-\x7f]*$/.test(query) || /[\r\n]/.test(query) || query === "") {
    return null;
  }
  const pattern = new RegExp(_escape(query), caseSensitive ? "" : "i");
  return (bytes) =>
    pattern.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"));
}

/**
 * Compile a query: a literal is escaped; a regex is taken as JavaScript writes it. Throws a
 * `SyntaxError` for an invalid regex (the tool reports it as `invalid_argument`).
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { compileTextQuery } from "./text_scan.ts";
 * equal(compileTextQuery("a.b", false, false).line.test("A.B"), true);
 * equal(compileTextQuery("a.b", false, true).line.test("axb"), false);
 * ```
 */
export function compileTextQuery(
  query: string,
  isRegex: boolean,
  caseSensitive: boolean,
): CompiledQuery {
  const source = isRegex ? query : _escape(query);
  const flags = caseSensitive ? "" : "i";
  return {
    scan: new RegExp(source, "gm" + flags),
    line: new RegExp(source, flags),
    verify: isRegex || /[\r\n]/.test(query),
  };
}

/** What {@linkcode scanText} found in one file. */
export interface FileScan {
  /** Matching lines in the file. */
  count: number;
  /** The first matching lines (1-based), at most `keep` of them. */
  lines: number[];
  /** True when the deadline stopped the scan inside this file. */
  timedOut: boolean;
}

/** Options of {@linkcode scanText}. */
export interface ScanOptions {
  /** Most line numbers kept (all are counted). */
  keep: number;
  /** `performance.now()` after which the scan stops. */
  deadline: number;
  /** Check matches against the redacted line (default true). */
  redact?: boolean;
}

/**
 * The matching lines of one text, by the line rule of every tool (`\r\n`, `\n`, lone `\r`).
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { compileTextQuery, scanText } from "./text_scan.ts";
 * const q = compileTextQuery("b", false, false);
 * deepEqual(scanText("a\rb\r\nb b\nc", q, { keep: 10, deadline: Infinity }), {
 *   count: 2,
 *   lines: [2, 3],
 *   timedOut: false,
 * });
 * ```
 */
export function scanText(text: string, query: CompiledQuery, options: ScanOptions): FileScan {
  const { scan, line } = query;
  const redact = options.redact ?? true;
  const out: FileScan = { count: 0, lines: [], timedOut: false };
  // A literal without a line break matches a line exactly where the whole-text scan finds it; a
  // regex is checked on its line alone (it may match across a break, or anchor at a U+2028).
  const verify = query.verify ?? true;
  // Lines end at \n (a \r before it is part of the break); a file with a lone \r (old Mac
  // line ends) takes the general path of lineStarts.
  const loneCr = text.includes("\r") && /\r(?!\n)/.test(text);
  let starts: number[] | null = null;
  let secrets: SecretMap | undefined;
  let keyed: boolean | undefined;
  let lineNo = 1;
  let counted = 0; // offset up to which line breaks are counted into lineNo
  let steps = 0;
  scan.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = scan.exec(text)) !== null) {
    let start: number, end: number, next: number;
    if (loneCr) {
      starts ??= lineStarts(text);
      lineNo = lineAt(starts, m.index);
      start = starts[lineNo - 1]!;
      next = lineNo < starts.length ? starts[lineNo]! : text.length;
      end = next;
      if (lineNo < starts.length) {
        if (text.charCodeAt(end - 1) === 10) end--;
        if (text.charCodeAt(end - 1) === 13) end--;
      }
    } else {
      start = m.index === 0 ? 0 : text.lastIndexOf("\n", m.index - 1) + 1;
      const nl = text.indexOf("\n", m.index);
      next = nl === -1 ? text.length : nl + 1;
      end = nl === -1 ? text.length : nl;
      if (end > start && text.charCodeAt(end - 1) === 13) end--;
    }
    // A zero-length match after a trailing line break is on no line.
    if (start >= text.length) break;
    const lineText = verify || redact ? text.slice(start, end) : "";
    let matches = !verify || line.test(lineText);
    if (matches && redact) {
      // Check the line as it is served: no match inside a redacted secret (no oracle). Only a
      // private key spans lines; any other secret is found in the line itself.
      keyed ??= text.includes("PRIVATE KEY");
      if (keyed || hasSecretHint(lineText)) {
        secrets ??= new SecretMap(text);
        const spans = secrets.spansIn(start, end);
        if (spans.length > 0) matches = line.test(redactRange(text, spans, start, end));
      }
    }
    if (matches) {
      out.count++;
      if (out.lines.length < options.keep) {
        if (!loneCr) {
          for (
            let i = text.indexOf("\n", counted);
            i !== -1 && i < start;
            i = text.indexOf("\n", i + 1)
          ) {
            lineNo++;
          }
          counted = start;
        }
        out.lines.push(lineNo);
      }
    }
    if (next >= text.length) break;
    scan.lastIndex = next;
    if ((++steps & 63) === 0 && performance.now() > options.deadline) {
      out.timedOut = true;
      break;
    }
  }
  return out;
}
