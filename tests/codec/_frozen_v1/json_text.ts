/** JSON text for `json` cells and `__json.` blobs: `JSON.stringify`, except that `-0` stays `-0`. */
import { type JsonObject, type JsonValue, setKey } from "../../../src/codec/types.ts";

/** Serialize compactly, keeping negative zero (which `JSON.stringify` writes as `0`). */
export function stringifyJson(value: JsonValue): string {
  const text = JSON.stringify(value);
  return _hasNegativeZero(value) ? _stringifySlow(value) : text;
}

function _hasNegativeZero(value: JsonValue): boolean {
  if (typeof value === "number") return Object.is(value, -0);
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some(_hasNegativeZero);
  for (const k in value) if (_hasNegativeZero(value[k]!)) return true;
  return false;
}

function _stringifySlow(value: JsonValue): string {
  if (typeof value === "number" && Object.is(value, -0)) return "-0";
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) return "[" + value.map(_stringifySlow).join(",") + "]";
  return "{" +
    Object.keys(value).map((k) => JSON.stringify(k) + ":" + _stringifySlow(value[k]!)).join(",") +
    "}";
}

/**
 * `JSON.parse`, guarded against a V8 defect (seen in Deno 2.9.6 / V8 15.0; Node 20 is fine):
 * once an object shape has been parsed with a key such as `"\\"`, a later object of the same
 * shape whose key at that position is another escape (`"\t"`, `"\n"`, `"\u0000"`) comes back
 * with the earlier key. Texts with an escaped key go through a small parser that builds objects
 * itself; every other text goes to `JSON.parse`.
 */
export function parseJson(text: string): JsonValue {
  if (!text.includes("\\") || !_hasEscapedKey(text)) return JSON.parse(text);
  return new _Parser(text).document();
}

// Every `"` outside a string starts one, so scanning string tokens from the start stays aligned;
// a string followed by `:` is a key.
const STRING_TOKEN = /"(?:[^"\\]|\\.)*"\s*(:?)/gs;

function _hasEscapedKey(text: string): boolean {
  STRING_TOKEN.lastIndex = 0;
  for (let m = STRING_TOKEN.exec(text); m !== null; m = STRING_TOKEN.exec(text)) {
    if (m[1] === ":" && m[0].includes("\\")) return true;
  }
  return false;
}

const NUMBER_TOKEN = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// deno-lint-ignore no-control-regex -- JSON forbids raw control characters in strings
const STRING_AT = /"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

class _Parser {
  #text: string;
  #i = 0;

  constructor(text: string) {
    this.#text = text;
  }

  document(): JsonValue {
    const v = this.#value();
    this.#ws();
    if (this.#i !== this.#text.length) this.#fail("unexpected text after JSON");
    return v;
  }

  #ws(): void {
    const t = this.#text;
    while (this.#i < t.length) {
      const c = t.charCodeAt(this.#i);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
      this.#i++;
    }
  }

  #value(): JsonValue {
    this.#ws();
    const t = this.#text;
    const c = t[this.#i];
    if (c === "{") {
      this.#i++;
      const out: JsonObject = {};
      this.#ws();
      if (t[this.#i] === "}") {
        this.#i++;
        return out;
      }
      while (true) {
        this.#ws();
        const key = this.#string();
        this.#ws();
        if (t[this.#i++] !== ":") this.#fail('expected ":"');
        setKey(out, key, this.#value());
        this.#ws();
        const d = t[this.#i++];
        if (d === "}") return out;
        if (d !== ",") this.#fail('expected "," or "}"');
      }
    }
    if (c === "[") {
      this.#i++;
      const out: JsonValue[] = [];
      this.#ws();
      if (t[this.#i] === "]") {
        this.#i++;
        return out;
      }
      while (true) {
        out.push(this.#value());
        this.#ws();
        const d = t[this.#i++];
        if (d === "]") return out;
        if (d !== ",") this.#fail('expected "," or "]"');
      }
    }
    if (c === '"') return this.#string();
    for (const [word, value] of [["true", true], ["false", false], ["null", null]] as const) {
      if (t.startsWith(word, this.#i)) {
        this.#i += word.length;
        return value;
      }
    }
    NUMBER_TOKEN.lastIndex = this.#i;
    const m = NUMBER_TOKEN.exec(t);
    if (m === null) return this.#fail("unexpected character");
    this.#i += m[0].length;
    return JSON.parse(m[0]);
  }

  #string(): string {
    STRING_AT.lastIndex = this.#i;
    const m = STRING_AT.exec(this.#text);
    if (m === null) return this.#fail("invalid string");
    this.#i += m[0].length;
    // A lone string literal is parsed as a value, which the defect does not touch.
    return JSON.parse(m[0]);
  }

  #fail(what: string): never {
    throw new SyntaxError(`${what} in JSON at position ${this.#i}`);
  }
}
