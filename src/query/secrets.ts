/**
 * Secrets as the tools serve them: the rules of `src/parser/secrets.ts`, and a per-file map that
 * answers for any window of a file (a line range, a symbol with context lines, a search hit's
 * line) with exactly the spans the whole file has there, so every tool hides the same characters.
 */
import {
  keySpans,
  mergeSpans,
  redactRange,
  type SecretSpan,
  secretSpans,
} from "../parser/secrets.ts";

export {
  hasSecret,
  hasSecretHint,
  redactRange,
  redactSecrets,
  type SecretSpan,
  secretSpans,
  servedText,
} from "../parser/secrets.ts";

/**
 * The secrets of one file, for tools that serve windows of it. Private key blocks are found once
 * in the whole file (a window inside a key holds no header); every other kind never spans lines
 * and is found in the whole lines the window touches — the same spans as in the whole file,
 * whatever the window's edges, so that a search over many files pays only for the lines it
 * returns and the index (built from the whole file) agrees with what is served.
 */
export class SecretMap {
  readonly #text: string;
  #keys: SecretSpan[] | null = null;

  constructor(text: string) {
    this.#text = text;
  }

  /** The spans that touch `[from, to)`, in whole-text positions. */
  spansIn(from: number, to: number): SecretSpan[] {
    const text = this.#text;
    this.#keys ??= text.includes("PRIVATE KEY") ? keySpans(text) : [];
    const lineStart = _lineStart(text, from);
    const lineEnd = _lineEnd(text, Math.max(from, to - 1));
    const local = secretSpans(text.slice(lineStart, lineEnd)).filter((s) =>
      s.end + lineStart > from && s.start + lineStart < to
    ).map((s) => ({ start: s.start + lineStart, end: s.end + lineStart, type: s.type }));
    const keys = this.#keys.filter((k) => k.end > from && k.start < to);
    return keys.length === 0 ? local : mergeSpans([...keys, ...local]);
  }

  /** `[from, to)` of the text with its secrets redacted. */
  redacted(from: number, to: number): string {
    return redactRange(this.#text, this.spansIn(from, to), from, to);
  }
}

/** Where the line holding position `at` starts (after a `\n` or a lone `\r`). */
function _lineStart(text: string, at: number): number {
  for (let i = at - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i + 1;
  }
  return 0;
}

/** Where the line holding position `at` ends (at its break, or the end of the text). */
function _lineEnd(text: string, at: number): number {
  for (let i = at; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i;
  }
  return text.length;
}
