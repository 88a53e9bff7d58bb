/**
 * What a symbol is embedded as, and the key its vector is stored under. The text names the
 * symbol (kind, qualified name, file), its signature and its documentation (the docstring, else
 * a summary that says more than the signature), each bounded so that the text fits a small
 * model's window (all-MiniLM-L6-v2 reads 256 tokens). The key hashes the provider identity with
 * the text: a symbol whose text is unchanged after a re-index keeps its vector, and a change of
 * provider or model never mixes vectors of two models.
 */
import { createHash } from "node:crypto";
import type { SymbolRecord } from "../parser/types.ts";
import { summaryRepeatsSignature } from "../parser/summary.ts";

/** Most characters of the signature in the text. */
const _SIGNATURE_CHARS = 300;
/** Most characters of the documentation in the text. */
const _DOC_CHARS = 500;

/**
 * The text a symbol is embedded as.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { embedText } from "./embed_text.ts";
 * const s = { kind: "function", qualified_name: "parseConfig", file: "src/config.ts",
 *   signature: "function parseConfig(text: string): Config", docstring: "Parse a config file.",
 *   summary: "Parse a config file." } as const;
 * equal(embedText(s as never),
 *   "function parseConfig (src/config.ts)\nfunction parseConfig(text: string): Config\nParse a config file.");
 * ```
 */
export function embedText(s: SymbolRecord): string {
  const doc = s.docstring.trim() !== ""
    ? s.docstring.trim()
    : summaryRepeatsSignature(s)
    ? ""
    : s.summary.trim();
  const parts = [
    `${s.kind} ${s.qualified_name} (${s.file})`,
    _cut(s.signature.trim(), _SIGNATURE_CHARS),
    _cut(doc, _DOC_CHARS),
  ];
  return parts.filter((p) => p !== "").join("\n");
}

/** The storage key of a text's vector for a provider identity: 16 bytes of SHA-256, as hex. */
export function embedKey(identity: string, text: string): string {
  return createHash("sha256").update(identity).update("\0").update(text).digest("hex").slice(0, 32);
}

function _cut(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max);
}
