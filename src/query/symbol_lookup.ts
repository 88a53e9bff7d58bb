/**
 * Symbol lookup by what an agent writes (API.md Part A §10): a full id
 * (`file::Qualified.name#kind`), an id without `#kind` (`file::Qualified.name`), a unique
 * `Qualified.name` or a unique plain name. Unknown references fail with the closest ids (exact
 * qualified-name matches first); ambiguous ones with their candidates.
 */
import type { SymbolRecord } from "../parser/types.ts";
import { DetailedToolError } from "../errors.ts";
import { facet, type RepoView } from "./view.ts";
import { SYMBOL_BRIEFS } from "./files.ts";
import { levenshtein } from "./names.ts";
import { symbolRef, SYMBOLS } from "./symbols.ts";

/** The qualified name inside an id: `a.py::A.run#method~1` → `A.run`. */
export function qualifiedNameOfId(id: string): string {
  const sep = id.indexOf("::");
  let rest = sep === -1 ? id : id.slice(sep + 2);
  const hash = rest.lastIndexOf("#");
  if (hash !== -1) rest = rest.slice(0, hash);
  return rest;
}

/** Symbol ids by qualified name and by `file::qualified name` (the id without `#kind`). */
export const QUALIFIED_IDS = facet("qualified-ids", (view) => {
  const byQualified = new Map<string, string[]>();
  const byFileQualified = new Map<string, string[]>();
  const push = (m: Map<string, string[]>, k: string, id: string) => {
    const list = m.get(k);
    if (list === undefined) m.set(k, [id]);
    else list.push(id);
  };
  for (const s of view.get(SYMBOL_BRIEFS)) {
    const q = qualifiedNameOfId(s.id);
    push(byQualified, q, s.id);
    push(byFileQualified, `${s.file}::${q}`, s.id);
  }
  return { byQualified, byFileQualified };
});

/** Most candidates listed in a `symbol_ambiguous` error. */
const _MAX_CANDIDATES = 20;

/**
 * The symbol a reference names — the one lookup every tool uses. Read lazily through the view's
 * {@linkcode SYMBOLS} table (one query per name or file, never the whole repo), in this order:
 * a full id; `file::Qualified.name` (with or without `#kind`); a unique `Qualified.name`; a
 * plain name that is unique as a top-level name, then among every definition of that exact
 * name, then in any letter case. Fails with `symbol_not_found` (with the closest ids) or
 * `symbol_ambiguous` (with the candidates to pass instead).
 */
export function findSymbol(view: RepoView, ref: string): SymbolRecord {
  const table = view.get(SYMBOLS);
  const exact = table.byId(ref);
  if (exact !== undefined) return exact;
  let matches: SymbolRecord[] = [];
  const sep = ref.indexOf("::");
  if (sep !== -1) {
    const qualified = ref.slice(sep + 2).replace(/#[a-z_]+(~\d+)?$/, "");
    matches = table.ofFile(ref.slice(0, sep)).filter((s) => s.qualified_name === qualified);
  } else {
    const named = table.byName(ref.slice(ref.lastIndexOf(".") + 1));
    matches = named.filter((s) => s.qualified_name === ref);
    if (matches.length === 0 && !ref.includes(".")) {
      matches = named.length > 0 ? named : table.byNameIgnoringCase(ref);
    }
  }
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new DetailedToolError(
      "symbol_ambiguous",
      `Ambiguous symbol "${ref}": ${matches.length} definitions in ${view.repo}. Pass one of the candidate ids as symbol_id`,
      { candidates: matches.slice(0, _MAX_CANDIDATES).map(symbolRef) },
    );
  }
  const closest = closestSymbolIds(view, ref);
  const handle = /^@\d/.test(ref) ? ` ${HANDLE_NOTE}` : "";
  throw new DetailedToolError(
    "symbol_not_found",
    `Symbol not found: ${ref}.${handle} Use search_symbols or get_file_outline to find ids${
      closest.length > 0 ? `; closest: ${closest.join(", ")}` : ""
    }`,
    { closest },
  );
}

/**
 * An id copied from a compact (MUNCH) answer with its path still written as a legend handle:
 * `@2::app.route#method`, or `@3views.py::View.get#method` (a handle for a folder).
 */
const HANDLE_ID = /^@(\d+)([^:]*)::(.+)$/;

/** How ids are written in compact answers, for warnings and errors. */
export const HANDLE_NOTE =
  'In compact (MUNCH) answers a path starting "@N" is a legend handle: replace "@N" with the text of the answer\'s "@N=" line.';

/**
 * The full id an id with an unexpanded legend handle stands for, when the rest of it names one
 * symbol: the qualified name and kind after `::`, in a file whose path ends with the text after
 * the handle. Undefined when `ref` has no handle, is itself an id, or names no symbol or several.
 */
export function expandHandleId(view: RepoView, ref: string): string | undefined {
  const m = HANDLE_ID.exec(ref);
  if (m === null || view.get(SYMBOLS).byId(ref) !== undefined) return undefined;
  const [, , tail, rest] = m as unknown as [string, string, string, string];
  const withKind = rest.includes("#");
  const ids = view.get(QUALIFIED_IDS).byQualified.get(qualifiedNameOfId(`x::${rest}`)) ?? [];
  const found = ids.filter((id) => {
    const sep = id.indexOf("::");
    if (withKind && id.slice(sep + 2) !== rest) return false;
    return id.slice(0, sep).endsWith(tail);
  });
  return found.length === 1 ? found[0] : undefined;
}

/**
 * Up to 5 ids close to a reference: symbols whose qualified name is exactly the one asked for
 * (in any file) first, then names in the same file by edit distance, then search hits for the
 * last name part.
 */
export function closestSymbolIds(view: RepoView, ref: string): string[] {
  const index = view.index;
  const sep = ref.indexOf("::");
  const file = sep === -1 ? "" : ref.slice(0, sep);
  const qualified = qualifiedNameOfId(ref).replace(/~\d+$/, "");
  const last = qualified.slice(qualified.lastIndexOf(".") + 1);
  const out: string[] = [];
  out.push(...(view.get(QUALIFIED_IDS).byQualified.get(qualified) ?? []));
  if (file !== "") {
    const inFile = index.symbolsOfFile(file)
      .map((s) => ({ id: s.id, d: levenshtein(s.name.toLowerCase(), last.toLowerCase(), 4) }))
      .filter((x) => x.d <= 4)
      .sort((a, b) => a.d - b.d);
    for (const x of inFile) out.push(x.id);
  }
  if (out.length < 5 && last !== "") {
    for (const hit of index.searchSymbols(last, { limit: 5 })) out.push(hit.symbol.id);
  }
  return [...new Set(out)].slice(0, 5);
}
