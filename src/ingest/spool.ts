/**
 * A download's file contents kept on disk instead of in memory: a tarball's files are written
 * to one temporary file as they are decompressed, and read back one at a time when the
 * pipeline parses them. Memory then stays flat however large the archive (a 3.6 MB tarball of
 * 6,000 files of 500 KB held 3 GB in memory before, issue 25); the file lives in the index
 * directory (the only place the server may write) and is removed when the run ends.
 */
import { join } from "node:path";

/** Where a kept file's bytes are in the spool. */
interface _Extent {
  at: number;
  length: number;
}

/** Files appended to one temporary file, read back by path. */
export class ContentSpool {
  readonly path: string;
  readonly #file: Deno.FsFile;
  readonly #extents = new Map<string, _Extent>();
  #size = 0;
  #closed = false;

  private constructor(path: string, file: Deno.FsFile) {
    this.path = path;
    this.#file = file;
  }

  /** A new, empty spool in `dir` (created if needed). */
  static create(dir: string): ContentSpool {
    Deno.mkdirSync(dir, { recursive: true });
    const name = `.spool-${Deno.pid}-${crypto.randomUUID()}.tmp`;
    const path = join(dir, name);
    const file = Deno.openSync(path, { read: true, write: true, createNew: true });
    return new ContentSpool(path, file);
  }

  /** Bytes written so far (kept or not). */
  get size(): number {
    return this.#size;
  }

  /**
   * Start appending one file; `data` takes its chunks in order, `end(keep)` records it under
   * `path` when `keep` (a file whose check failed is left unrecorded).
   */
  append(path: string): { data(chunk: Uint8Array): void; end(keep: boolean): void } {
    const at = this.#size;
    return {
      data: (chunk) => {
        let off = 0;
        while (off < chunk.length) off += this.#file.writeSync(chunk.subarray(off));
        this.#size += chunk.length;
      },
      end: (keep) => {
        if (keep) this.#extents.set(path, { at, length: this.#size - at });
      },
    };
  }

  /** Whether a file was kept. */
  has(path: string): boolean {
    return this.#extents.has(path);
  }

  /** A kept file's bytes, or undefined. */
  read(path: string): Uint8Array | undefined {
    const e = this.#extents.get(path);
    if (e === undefined) return undefined;
    const out = new Uint8Array(e.length);
    this.#file.seekSync(e.at, Deno.SeekMode.Start);
    let got = 0;
    while (got < e.length) {
      const n = this.#file.readSync(out.subarray(got));
      if (n === null || n === 0) throw new Error(`The spool ${this.path} ended early`);
      got += n;
    }
    this.#file.seekSync(0, Deno.SeekMode.End);
    return out;
  }

  /** Close and remove the file (idempotent). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#extents.clear();
    try {
      this.#file.close();
    } finally {
      try {
        Deno.removeSync(this.path);
      } catch { /* already gone */ }
    }
  }
}
