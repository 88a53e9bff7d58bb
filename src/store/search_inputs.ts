/**
 * What the search indexes are built from: a file's text and its symbols' texts with every secret
 * redacted, as the tools serve them. The trigram postings (`search_text`'s candidate files and so
 * its `files_searched`), the symbols' FTS5 rows and BM25 terms (`search_symbols`, ranked context)
 * and the stored signatures, docstrings and summaries never hold a secret's characters, so no
 * query can tell a secret's next character from a wrong one by what it finds or counts (issue 25).
 * The stored content itself stays exact (byte offsets, hashes); tools redact it by position.
 *
 * `REDACTION_RULES` names the rule set: when it changes, an index built with other rules has its
 * search inputs derived again (`rederiveSearchInputs`).
 */
import { hasSecretHint, redactRange, secretSpans } from "../parser/secrets.ts";
import type { DatabaseSync } from "./sqlite.ts";

/** The rule set's version, stored in meta `redaction_rules` (bump when the rules change). */
export const REDACTION_RULES = "2";

const _decoder = new TextDecoder();
const _encoder = new TextEncoder();

/**
 * The bytes the text index is built from: the content itself when it holds no secret, else its
 * text with every secret replaced, line by line, by `[REDACTED:<type>]`.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { searchBytes } from "./search_inputs.ts";
 * const bytes = new TextEncoder().encode('k = "ghp_0123456789abcdefghijABCDEFGHIJ012345"');
 * equal(new TextDecoder().decode(searchBytes(bytes)), 'k = "[REDACTED:github_token]"');
 * ```
 */
export function searchBytes(content: Uint8Array): Uint8Array {
  if (!_mayHold(content)) return content;
  const text = _decoder.decode(content);
  const spans = secretSpans(text);
  return spans.length === 0 ? content : _encoder.encode(redactRange(text, spans));
}

/** A symbol's or file's searchable text (signature, docstring, summary) with secrets redacted. */
export function searchField(text: string): string {
  if (text === "" || !hasSecretHint(text)) return text;
  const spans = secretSpans(text);
  return spans.length === 0 ? text : redactRange(text, spans);
}

/**
 * A quick byte-level first check (no decoding): whether the content has a byte sequence every
 * rule's match contains one of; most files have none and are indexed as they are.
 */
function _mayHold(content: Uint8Array): boolean {
  // Decoding is cheap next to the rules; the rules' own first check decides.
  return hasSecretHint(_decoder.decode(content));
}

/**
 * Derive the search inputs again from the stored rows, inside the caller's transaction: the
 * stored signatures, docstrings and summaries redacted, then the symbols' FTS5 index rebuilt.
 * (The symbol terms and the text postings are rebuilt by their own fill functions.)
 */
export function redactStoredFields(db: DatabaseSync): void {
  const update = db.prepare(
    "UPDATE symbols SET signature = ?, docstring = ?, summary = ? WHERE rowid = ?",
  );
  const rows = db.prepare("SELECT rowid, signature, docstring, summary FROM symbols")
    .iterate() as Iterable<
      { rowid: number; signature: string; docstring: string; summary: string }
    >;
  const changed: [string, string, string, number][] = [];
  for (const r of rows) {
    const next = [searchField(r.signature), searchField(r.docstring), searchField(r.summary)];
    if (next[0] !== r.signature || next[1] !== r.docstring || next[2] !== r.summary) {
      changed.push([next[0]!, next[1]!, next[2]!, r.rowid]);
    }
  }
  for (const c of changed) update.run(...c);
  const files = db.prepare("SELECT id, summary FROM files").all() as {
    id: number;
    summary: string;
  }[];
  const updateFile = db.prepare("UPDATE files SET summary = ? WHERE id = ?");
  for (const f of files) {
    const s = searchField(f.summary);
    if (s !== f.summary) updateFile.run(s, f.id);
  }
  db.exec("INSERT INTO symbols_fts(symbols_fts) VALUES('rebuild')");
}
