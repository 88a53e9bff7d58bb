/**
 * The code-graph semantics of each language family (`LanguageSpec.semantics`), and the lookup the
 * query layer uses: {@linkcode semanticsOf} a language id, with explicit defaults for a language
 * that declares none.
 */
import { DEFAULT_SEMANTICS, type LanguageSemantics } from "../language_spec.ts";
import { languageById } from "../registry.ts";

const _memo = new Map<string, LanguageSemantics>();

/**
 * The semantics of a language id: its spec's, else {@linkcode DEFAULT_SEMANTICS} with the id as
 * its family (also for an id no spec has: a text-only language).
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { semanticsOf } from "./mod.ts";
 * equal(semanticsOf("go").unit, "package_folder");
 * equal(semanticsOf("tsx").family, semanticsOf("javascript").family);
 * equal(semanticsOf("sql").family, "sql");
 * ```
 */
export function semanticsOf(language: string): LanguageSemantics {
  let hit = _memo.get(language);
  if (hit === undefined) {
    hit = languageById(language)?.semantics ?? { ...DEFAULT_SEMANTICS, family: language };
    _memo.set(language, hit);
  }
  return hit;
}
