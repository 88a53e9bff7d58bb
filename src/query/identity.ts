/**
 * The identity stage of symbol ranking: a query that is a symbol's name or id, spells its name as
 * words, or starts its name, asks for that symbol. The bonus is added to its text score
 * (`symbol_rank.ts`), before the priors.
 *
 * | the query …                                                       | bonus |
 * |-------------------------------------------------------------------|------:|
 * | is the name or the id                                              |    50 |
 * | is the name or the id ignoring case                                |    45 |
 * | spells the name as words (`solve dependencies` → `solve_dependencies`, `add api route` → `addApiRoute`) | 40 |
 * | starts the name (ignoring case)                                    |    30 |
 * | is inside the id (ignoring case)                                   |    20 |
 */
import type { SymbolRecord } from "../parser/types.ts";
import { squashName } from "./name_index.ts";

/** The largest {@linkcode identityBonus}. */
export const MAX_IDENTITY_BONUS = 50;

/** The bonus of a name the query spells as words. */
export const SPELLED_NAME_BONUS = 40;

/**
 * The identity bonus of a symbol for a query (see the module doc).
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { identityBonus } from "./identity.ts";
 * const s = { id: "fastapi/dependencies/utils.py::solve_dependencies#function", name: "solve_dependencies" };
 * equal(identityBonus(s, "solve_dependencies"), 50);
 * equal(identityBonus(s, "solve dependencies"), 40);
 * equal(identityBonus(s, "solve"), 30);
 * equal(identityBonus(s, "utils.py"), 20);
 * ```
 */
export function identityBonus(s: Pick<SymbolRecord, "id" | "name">, query: string): number {
  return identityScorer(query)(s);
}

/**
 * {@linkcode identityBonus} for one query, with what depends on the query alone computed once
 * (a search scores hundreds of candidates).
 */
export function identityScorer(query: string): (s: Pick<SymbolRecord, "id" | "name">) => number {
  const q = query.toLowerCase();
  const words = q.split(/\s+/).filter((w) => w !== "");
  // A query of several words spells a name joined by `_` or run together (the forms the search
  // looks up); one word differs from the name only in separators (`add_api_route` → addApiRoute).
  const joined = words.length >= 2 ? [words.join("_"), words.join("")] : null;
  const sq = joined === null ? squashName(q) : "";
  return (s) => {
    if (s.name === query || s.id === query) return MAX_IDENTITY_BONUS;
    const n = s.name.toLowerCase();
    if (n === q || s.id.toLowerCase() === q) return 45;
    if (
      joined !== null ? n === joined[0] || n === joined[1] : sq.length >= 4 && squashName(n) === sq
    ) {
      return SPELLED_NAME_BONUS;
    }
    if (n.startsWith(q)) return 30;
    if (s.id.toLowerCase().includes(q)) return 20;
    return 0;
  };
}

/** The names a query of 2–6 words spells (`add api route` → `add_api_route`, `addapiroute`). */
export function spelledNames(query: string): string[] {
  const words = query.split(/\s+/).filter((w) => w !== "");
  if (words.length < 2 || words.length > 6) return [];
  return [...new Set([words.join("_"), words.join("")])];
}
