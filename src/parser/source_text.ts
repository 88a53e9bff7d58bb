/**
 * A file's bytes decoded for tree-sitter, with the map from tree-sitter's UTF-16 indices back to
 * exact UTF-8 byte offsets. Invalid UTF-8 is decoded as Latin-1 (one char per byte) so offsets stay
 * exact; the caller reports that as a partial parse.
 *
 * Lines: every tool numbers lines the same way — a line ends at `\r\n`, `\n` or a lone `\r`
 * (old Mac files); nothing else (form feed, vertical tab, U+2028, U+2029, U+0085 are characters
 * of a line). Tree-sitter counts rows at `\n` only, so the text it parses has each lone `\r`
 * turned into `\n` (same length, same byte offsets): symbol lines then agree with
 * `get_file_content` and `search_text` for every file.
 */
export class SourceText {
  readonly bytes: Uint8Array;
  readonly text: string;
  /** False when the bytes were not valid UTF-8 and were decoded as Latin-1. */
  readonly validUtf8: boolean;
  #offsets: Uint32Array | null = null;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    let text: string;
    let valid = true;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      text = new TextDecoder("latin1").decode(bytes);
      valid = false;
    }
    // A lone CR ends a line as for every other tool (see above); same length, same offsets.
    this.text = text.includes("\r") ? text.replace(/\r(?!\n)/g, "\n") : text;
    this.validUtf8 = valid;
  }

  /** UTF-8 byte offset of a UTF-16 index into `text`. */
  byteOffset(index: number): number {
    if (this.text.length === this.bytes.length) return index;
    this.#offsets ??= _utf16ToUtf8(this.text);
    return this.#offsets[index] ?? this.bytes.length;
  }
}

function _utf16ToUtf8(text: string): Uint32Array {
  const offsets = new Uint32Array(text.length + 1);
  let b = 0;
  for (let i = 0; i < text.length; i++) {
    offsets[i] = b;
    const c = text.charCodeAt(i);
    if (c < 0x80) b += 1;
    else if (c < 0x800) b += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        offsets[i + 1] = b;
        b += 4;
        i++;
      } else b += 3;
    } else b += 3;
  }
  offsets[text.length] = b;
  return offsets;
}

/** A line break: `\r\n`, `\n` or a lone `\r` — the one line rule of every tool. */
export const LINE_BREAK: RegExp = /\r\n|\n|\r/;

/**
 * The lines of a text (a trailing break ends the last line; no line for an empty text).
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { splitLines } from "./source_text.ts";
 * deepEqual(splitLines("a\r\nb\rc\f\u2028d\n"), ["a", "b", "c\f\u2028d"]);
 * ```
 */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(LINE_BREAK);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/**
 * UTF-16 index of the start of every line (`starts[0]` is 0), by the rule of
 * {@linkcode LINE_BREAK}.
 */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/** The 1-based line holding UTF-16 index `at`, given {@linkcode lineStarts}. */
export function lineAt(starts: readonly number[], at: number): number {
  let lo = 0, hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}
