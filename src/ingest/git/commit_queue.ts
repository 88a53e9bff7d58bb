/** Commits by commit date, newest first (ties: first pushed first), as git's date-ordered walk. */
import type { CommitRecord } from "../../parser/git/objects.ts";

/** Commits by commit date, newest first (ties: first pushed first), as git's date-ordered queue. */
export class CommitQueue {
  readonly #heap: { c: CommitRecord; n: number }[] = [];
  #counter = 0;

  get size(): number {
    return this.#heap.length;
  }

  push(c: CommitRecord): void {
    const h = this.#heap;
    h.push({ c, n: this.#counter++ });
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!_before(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  pop(): CommitRecord | undefined {
    const h = this.#heap;
    if (h.length === 0) return undefined;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      for (let i = 0;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < h.length && _before(h[l]!, h[m]!)) m = l;
        if (r < h.length && _before(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top.c;
  }
}

function _before(a: { c: CommitRecord; n: number }, b: { c: CommitRecord; n: number }): boolean {
  const d = a.c.committer.time - b.c.committer.time;
  return d > 0 || (d === 0 && a.n < b.n);
}
