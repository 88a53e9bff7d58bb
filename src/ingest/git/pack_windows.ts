/**
 * Positional reads of a pack through windows: the file is read in aligned blocks as they are
 * first needed and the blocks are kept (least recently used dropped past a budget), as git maps
 * windows of its packs. Reading a pack whole when opened cost more than most reads that follow
 * (5 MB for a 100-commit diff that touches a few hundred objects, on every fresh repository);
 * reading each entry by position costs a system call per object on a long walk.
 */
import type { FileInside } from "../safe_read.ts";

/** How {@linkcode windowed} reads. */
export interface WindowOptions {
  /** @default 64 KiB */
  windowBytes?: number;
  /** Most bytes of windows kept. @default 128 MiB */
  maxBytes?: number;
}

/** A file read through cached windows (same contract as the file's own `readAt`). */
export function windowed(file: FileInside, options: WindowOptions = {}): FileInside {
  const size = options.windowBytes ?? 64 * 1024;
  const max = options.maxBytes ?? 128 * 1024 * 1024;
  const windows = new Map<number, Uint8Array>();
  let held = 0;
  const windowAt = (w: number): Uint8Array => {
    let bytes = windows.get(w);
    if (bytes !== undefined) {
      windows.delete(w);
      windows.set(w, bytes);
      return bytes;
    }
    bytes = file.readAt(w * size, size);
    windows.set(w, bytes);
    held += bytes.length;
    for (const [k, v] of windows) {
      if (held <= max || k === w) break;
      windows.delete(k);
      held -= v.length;
    }
    return bytes;
  };
  return {
    fd: file.fd,
    size: file.size,
    readAt(position: number, length: number): Uint8Array {
      const end = Math.min(position + Math.max(0, length), file.size);
      if (end <= position) return new Uint8Array(0);
      const first = Math.floor(position / size);
      const last = Math.floor((end - 1) / size);
      if (first === last) {
        return windowAt(first).subarray(position - first * size, end - first * size);
      }
      const out = new Uint8Array(end - position);
      for (let w = first; w <= last; w++) {
        const bytes = windowAt(w);
        const from = Math.max(position, w * size);
        const to = Math.min(end, w * size + bytes.length);
        if (to <= from) break; // the file was shorter than when verified
        out.set(bytes.subarray(from - w * size, to - w * size), from - position);
        if (to < Math.min(end, (w + 1) * size)) return out.subarray(0, to - position);
      }
      return out;
    },
    close: () => {
      windows.clear();
      file.close();
    },
  };
}
