/**
 * Many keywords found in one pass (Aho-Corasick over ASCII, case-insensitive): the secret rules
 * run only on the lines that hold one of their keywords, as gitleaks does, so a file is read once
 * however many rules there are. Non-ASCII characters match no keyword (the keywords are ASCII).
 */

/** A keyword occurrence: where it ends (exclusive) and which keyword it is. */
export interface KeywordHit {
  end: number;
  keyword: number;
}

/** The automaton of a fixed keyword list. */
export class KeywordScanner {
  /** Transitions: `next[state * 128 + char]`. */
  readonly #next: Int32Array;
  /** Per state, the keywords ending there (indexes into `keywords`), via `#outHead`. */
  readonly #out: number[][];
  readonly #hasOut: Uint8Array;
  readonly keywords: readonly string[];

  constructor(keywords: readonly string[]) {
    this.keywords = keywords;
    const goto: Map<number, number>[] = [new Map()];
    const out: number[][] = [[]];
    keywords.forEach((k, index) => {
      let s = 0;
      for (const ch of k.toLowerCase()) {
        const c = ch.charCodeAt(0);
        if (c >= 128) throw new RangeError(`Keyword is not ASCII: "${k}"`);
        let t = goto[s]!.get(c);
        if (t === undefined) {
          t = goto.length;
          goto.push(new Map());
          out.push([]);
          goto[s]!.set(c, t);
        }
        s = t;
      }
      out[s]!.push(index);
    });
    const n = goto.length;
    const next = new Int32Array(n * 128);
    const fail = new Int32Array(n);
    // Breadth first: each state's row is its failure state's row with its own edges on top.
    const queue: number[] = [];
    for (let c = 0; c < 128; c++) {
      const t = goto[0]!.get(c) ?? 0;
      next[c] = t;
      if (t !== 0) queue.push(t);
    }
    for (let qi = 0; qi < queue.length; qi++) {
      const s = queue[qi]!;
      out[s]!.push(...out[fail[s]!]!);
      for (let c = 0; c < 128; c++) {
        const t = goto[s]!.get(c);
        if (t === undefined) next[s * 128 + c] = next[fail[s]! * 128 + c]!;
        else {
          fail[t] = next[fail[s]! * 128 + c]!;
          next[s * 128 + c] = t;
          queue.push(t);
        }
      }
    }
    // Case folding in the table: an upper-case letter moves as its lower-case one.
    for (let st = 0; st < n; st++) {
      for (let c = 65; c <= 90; c++) next[st * 128 + c] = next[st * 128 + c + 32]!;
    }
    this.#next = next;
    this.#out = out;
    this.#hasOut = new Uint8Array(n).map((_, st) => out[st]!.length > 0 ? 1 : 0);
  }

  /**
   * Every occurrence of every keyword in `text`, in order of their ends; `stop` (checked after
   * each hit) ends the scan early.
   */
  scan(
    text: string,
    onHit: (end: number, keyword: number) => void,
    stop: () => boolean = () => false,
  ): void {
    const next = this.#next;
    const hasOut = this.#hasOut;
    let s = 0;
    const n = text.length;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 128) {
        s = 0;
        continue;
      }
      s = next[(s << 7) | c]!;
      if (hasOut[s] === 1) {
        const found = this.#out[s]!;
        for (let k = 0; k < found.length; k++) onHit(i + 1, found[k]!);
        if (stop()) return;
      }
    }
  }
}
