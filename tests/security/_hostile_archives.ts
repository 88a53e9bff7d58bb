/**
 * Hostile GitHub answers, made lazily so a test never holds them: tar headers by hand (any size
 * field, pax records), archives whose entries' bytes are generated as the reader pulls them and
 * gzipped on the way, and endless bodies.
 */
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createGzip } from "node:zlib";

/** A 512-byte ustar header (the size in octal, or base-256 when it does not fit). */
export function tarHeader(name: string, size: number, type = "0"): Uint8Array {
  const h = new Uint8Array(512);
  const put = (at: number, text: string) => h.set(new TextEncoder().encode(text), at);
  put(0, name.slice(0, 99));
  put(100, "0000644\0");
  put(108, "0000000\0");
  put(116, "0000000\0");
  if (size < 8 ** 11) put(124, size.toString(8).padStart(11, "0") + "\0");
  else {
    h[124] = 0x80;
    let v = BigInt(size);
    for (let i = 135; i > 124; i--) {
      h[i] = Number(v & 0xffn);
      v >>= 8n;
    }
  }
  put(136, "00000000000\0");
  put(156, type);
  put(257, "ustar\0");
  put(263, "00");
  h.fill(32, 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  put(148, sum.toString(8).padStart(6, "0") + "\0 ");
  return h;
}

/** A pax extended header block (type `x`) holding these records, padded. */
export function paxHeader(records: Record<string, string>, claimedSize?: number): Uint8Array[] {
  let body = "";
  for (const [k, v] of Object.entries(records)) {
    const rest = ` ${k}=${v}\n`;
    let len = rest.length + 1;
    while (String(len).length + rest.length !== len) len++;
    body += len + rest;
  }
  const bytes = new TextEncoder().encode(body);
  return [tarHeader("pax", claimedSize ?? bytes.length, "x"), _padded(bytes)];
}

function _padded(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(bytes.length / 512) * 512);
  out.set(bytes);
  return out;
}

/** Zeros, `total` bytes (Infinity: endless), in chunks of 64 KB. */
export function* zeros(total: number): Generator<Uint8Array> {
  const chunk = new Uint8Array(65536);
  for (let left = total; left > 0; left -= chunk.length) {
    yield left >= chunk.length ? chunk : chunk.subarray(0, left);
  }
}

/** A tar file entry: header, `content` repeated to `size` bytes, padding. */
export function* fileEntry(name: string, content: Uint8Array): Generator<Uint8Array> {
  yield tarHeader(name, content.length);
  yield _padded(content);
}

/**
 * A gzip stream of the chunks a generator makes, made as the reader pulls them (node:zlib,
 * yielding to the event loop between chunks, so that the test process itself keeps answering
 * while it makes gigabytes).
 */
export function lazyGzip(parts: Iterator<Uint8Array>): ReadableStream<Uint8Array> {
  const gzip = createGzip({ level: 1 });
  const out: Uint8Array[] = [];
  let ended = false;
  gzip.on("data", (c: Uint8Array) => out.push(c));
  gzip.on("end", () => ended = true);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (out.length === 0 && !ended) {
        // About 1 MB per turn of the event loop.
        for (let i = 0; i < 16; i++) {
          const next = parts.next();
          if (next.done) {
            gzip.end();
            await once(gzip, "end").catch(() => {});
            break;
          }
          gzip.write(next.value);
        }
        await new Promise((r) => setTimeout(r, 0));
      }
      if (out.length > 0) controller.enqueue(out.shift()!);
      else controller.close();
    },
    cancel: () => {
      gzip.destroy();
    },
  }, { highWaterMark: 0 });
}

/** A body made of `text` repeated without end. */
export function endless(text: string): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode(text.repeat(Math.ceil(65536 / text.length)));
  return new ReadableStream({ pull: (c) => c.enqueue(chunk) }, { highWaterMark: 0 });
}

/** The git blob SHA of some bytes. */
export function blobSha(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}
