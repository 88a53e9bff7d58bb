/**
 * A file's bytes decoded for tree-sitter, with the map from tree-sitter's UTF-16 indices back to
 * exact UTF-8 byte offsets. Invalid UTF-8 is decoded as Latin-1 (one char per byte) so offsets stay
 * exact; the caller reports that as a partial parse.
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
    this.text = text;
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
