/**
 * Text preparation for the symbol search index (FTS5, `porter unicode61`): identifiers are split
 * on camelCase, PascalCase acronyms, digits and snake_case so that `getUserName`, `get_user_name`
 * and a query for "user name" meet on the same tokens.
 */

/**
 * The parts of an identifier, lower-cased: `parseHTTPResponse2` → `parse http response2`,
 * `MAX_SIZE` → `max size`.
 */
export function splitIdentifier(name: string): string[] {
  const parts: string[] = [];
  for (const word of name.split(/[^\p{L}\p{N}]+/u)) {
    if (word === "") continue;
    const pieces = word
      .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
      .split(" ");
    for (const p of pieces) if (p !== "") parts.push(p.toLowerCase());
  }
  return parts;
}

/**
 * The indexed name text of a symbol: the whole name (so an exact query ranks first), the
 * qualified name, and the identifier parts of the name.
 */
export function nameTokens(name: string, qualifiedName: string): string {
  const parts = splitIdentifier(name);
  const whole = name.replace(/[^\p{L}\p{N}]+/gu, "").toLowerCase();
  const tokens = new Set<string>([whole, ...parts]);
  let text = [...tokens].filter((t) => t !== "").join(" ");
  if (qualifiedName !== name) text += " " + qualifiedName;
  return text;
}

/**
 * An FTS5 MATCH expression for a free-text symbol query: every word and every identifier part
 * as a quoted term and a prefix term, OR-ed, so BM25 ranks symbols that match more of them —
 * and match them whole — higher.
 * Returns null when the query has no searchable characters.
 */
export function symbolMatchExpression(query: string): string | null {
  const terms = new Set<string>();
  for (const word of query.split(/\s+/)) {
    const whole = word.replace(/[^\p{L}\p{N}]+/gu, "").toLowerCase();
    if (whole !== "") terms.add(whole);
    for (const part of splitIdentifier(word)) terms.add(part);
  }
  if (terms.size === 0) return null;
  // Each term twice: as a prefix (recall) and exactly, so that whole-token matches score higher.
  // A one-character term only exactly: as a prefix it matches a large share of all symbols (`c` in
  // `func (c *Conn) Read`) and says nothing about relevance.
  return [...terms].map((t) => {
    const q = `"${t.replaceAll('"', '""')}"`;
    return t.length === 1 ? q : `${q} OR ${q}*`;
  }).join(" OR ");
}
