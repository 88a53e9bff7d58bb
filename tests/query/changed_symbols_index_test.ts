/**
 * The indexed side of a change (src/query/changed_symbols.ts, symbolsFromIndex): the stored
 * symbols are taken when the bytes are the indexed file's, also for a file whose words look like a
 * secret's (`key`, `token`), not for other bytes of the same size (the stored SHA-256 differs), and
 * not when a stored signature was redacted.
 */
import { deepEqual, equal } from "node:assert/strict";
import { parseSource } from "../../src/parser/mod.ts";
import { redactSecrets } from "../../src/parser/secrets.ts";
import type { SymbolRecord } from "../../src/parser/types.ts";
import { symbolsFromIndex } from "../../src/query/changed_symbols.ts";
import { sha256Hex } from "../../src/parser/ids.ts";

const _enc = new TextEncoder();

async function _indexOf(files: Record<string, string>) {
  const bytes = new Map<string, Uint8Array>();
  const symbols = new Map<string, SymbolRecord[]>();
  for (const [path, text] of Object.entries(files)) {
    const b = _enc.encode(text);
    bytes.set(path, b);
    symbols.set(path, (await parseSource(path, b)).symbols);
  }
  return {
    symbols,
    index: {
      file: (p: string) => {
        const b = bytes.get(p);
        return b === undefined ? undefined : { size: b.length, hash: sha256Hex(b) };
      },
      symbolsOfFile: (p: string) => symbols.get(p) ?? [],
    },
  };
}

const _SOURCE = "def refresh_token(key):\n    return key + 1\n";

Deno.test("changed symbols: the indexed bytes give the stored symbols, words like key/token included", async () => {
  const { index, symbols } = await _indexOf({ "auth.py": _SOURCE });
  const known = symbolsFromIndex(index);
  deepEqual(known("auth.py", _enc.encode(_SOURCE)), symbols.get("auth.py"));
});

Deno.test("changed symbols: other bytes or an unindexed file are parsed again", async () => {
  const { index } = await _indexOf({ "auth.py": _SOURCE });
  const known = symbolsFromIndex(index);
  equal(known("auth.py", _enc.encode(_SOURCE.replace("+ 1", "+ 2"))), undefined);
  equal(known("other.py", _enc.encode(_SOURCE)), undefined);
});

Deno.test("changed symbols: a stored signature that was redacted is not taken", async () => {
  const { index, symbols } = await _indexOf({ "auth.py": _SOURCE });
  const first = symbols.get("auth.py")![0]!;
  first.signature = redactSecrets(`def f(key="AKIAIOSFODNN7EXAMPLE"):`).text;
  equal(first.signature.includes("[REDACTED:"), true);
  equal(symbolsFromIndex(index)("auth.py", _enc.encode(_SOURCE)), undefined);
});
