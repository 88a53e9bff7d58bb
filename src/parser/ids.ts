/** Symbol ids (`{file}::{qualified_name}#{kind}` with `~N` on duplicates) and content hashes. */
import { createHash } from "node:crypto";

/** The base id of a symbol, before duplicate disambiguation. */
export function symbolId(file: string, qualifiedName: string, kind: string): string {
  return `${file}::${qualifiedName}#${kind}`;
}

/**
 * Append `~1`, `~2`, ... to every id that occurs more than once, numbering in the given (source)
 * order, so the ids stay stable across re-index while the file is unchanged (API.md §4.1).
 */
export function disambiguateIds(ids: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  const seen = new Map<string, number>();
  return ids.map((id) => {
    if (counts.get(id) === 1) return id;
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    return `${id}~${n}`;
  });
}

/** SHA-256 of bytes as lower-case hex. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
