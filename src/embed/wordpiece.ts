/**
 * BERT's WordPiece tokenizer (uncased, as all-MiniLM-L6-v2 and most sentence-transformers BERT
 * models use it), from a `vocab.txt` of one token per line: control characters dropped, CJK
 * ideographs split apart, lowercased, accents stripped (NFD without combining marks), split on
 * whitespace and punctuation, then each word cut greedily into the longest vocabulary pieces
 * (`##` continues a word); a word with no cut, or longer than 100 characters, is `[UNK]`.
 * Sequences are `[CLS] … [SEP]`, cut to `maxLength` tokens.
 */

/** The most characters of a word WordPiece cuts (BERT's `max_input_chars_per_word`). */
const _MAX_WORD_CHARS = 100;

/** A WordPiece tokenizer over one vocabulary. */
export class WordPiece {
  readonly #vocab: Map<string, number>;
  readonly #unk: number;
  /** `[CLS]`'s id. */
  readonly cls: number;
  /** `[SEP]`'s id. */
  readonly sep: number;
  /** `[PAD]`'s id. */
  readonly pad: number;
  /** Longest sequence, `[CLS]` and `[SEP]` included. */
  readonly maxLength: number;

  /** A tokenizer over the lines of `vocab.txt`. Throws when a special token is missing. */
  constructor(vocabText: string, maxLength = 256) {
    this.#vocab = new Map();
    const lines = vocabText.split(/\r?\n/);
    if (lines.at(-1) === "") lines.pop();
    for (const [i, token] of lines.entries()) {
      if (!this.#vocab.has(token)) this.#vocab.set(token, i);
    }
    const id = (t: string) => {
      const v = this.#vocab.get(t);
      if (v === undefined) throw new RangeError(`The vocabulary has no ${t} token`);
      return v;
    };
    this.#unk = id("[UNK]");
    this.cls = id("[CLS]");
    this.sep = id("[SEP]");
    this.pad = this.#vocab.get("[PAD]") ?? 0;
    if (!(maxLength >= 2)) throw new RangeError(`maxLength must be at least 2: ${maxLength}`);
    this.maxLength = maxLength;
  }

  /** Vocabulary size. */
  get size(): number {
    return this.#vocab.size;
  }

  /** The token ids of `text`: `[CLS]`, its pieces (cut to fit), `[SEP]`. */
  encode(text: string): number[] {
    const ids = [this.cls];
    const room = this.maxLength - 1;
    for (const word of basicTokens(text)) {
      for (const piece of this.#pieces(word)) {
        if (ids.length >= room) break;
        ids.push(piece);
      }
      if (ids.length >= room) break;
    }
    ids.push(this.sep);
    return ids;
  }

  /** The pieces of one word (greedy longest match first). */
  #pieces(word: string): number[] {
    const chars = [...word];
    if (chars.length > _MAX_WORD_CHARS) return [this.#unk];
    const out: number[] = [];
    let start = 0;
    while (start < chars.length) {
      let end = chars.length;
      let found: number | undefined;
      while (start < end) {
        const sub = (start > 0 ? "##" : "") + chars.slice(start, end).join("");
        found = this.#vocab.get(sub);
        if (found !== undefined) break;
        end--;
      }
      if (found === undefined) return [this.#unk];
      out.push(found);
      start = end;
    }
    return out;
  }
}

/**
 * BERT's basic tokenization of uncased models: the words and punctuation marks of `text`.
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { basicTokens } from "./wordpiece.ts";
 * deepEqual(basicTokens("Héllo, parseURL()!"), ["hello", ",", "parseurl", "(", ")", "!"]);
 * ```
 */
export function basicTokens(text: string): string[] {
  let cleaned = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0 || cp === 0xfffd || (_isControl(ch) && !/\s/.test(ch))) continue;
    cleaned += _isCjk(cp) ? ` ${ch} ` : /\s/.test(ch) ? " " : ch;
  }
  const out: string[] = [];
  for (const raw of cleaned.split(" ")) {
    if (raw === "") continue;
    const word = raw.toLowerCase().normalize("NFD").replace(/\p{Mn}/gu, "");
    let current = "";
    for (const ch of word) {
      if (_isPunctuation(ch)) {
        if (current !== "") out.push(current);
        out.push(ch);
        current = "";
      } else current += ch;
    }
    if (current !== "") out.push(current);
  }
  return out;
}

function _isControl(ch: string): boolean {
  return /\p{Cc}|\p{Cf}/u.test(ch);
}

/** ASCII symbols count as punctuation too (BERT: `$`, `+`, `^`, `` ` ``, …). */
function _isPunctuation(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  if ((cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96)) return true;
  if (cp >= 123 && cp <= 126) return true;
  return /\p{P}/u.test(ch);
}

function _isCjk(cp: number): boolean {
  return (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) || (cp >= 0x2a700 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0x2f800 && cp <= 0x2fa1f);
}
