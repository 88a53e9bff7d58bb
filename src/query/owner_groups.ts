/**
 * Owner groups: the members of one type answer a question together. A task question ("How does
 * the pool decide whether to start a worker, queue the task or reject it?") is answered by several
 * methods of one class, each of which shares only a word or two with the question — as many as
 * hundreds of unrelated symbols do. What sets them apart is that, together, the members of their
 * type cover the question's words: `execute` has "task", `addWorker` "worker", `reject` "reject".
 *
 * Each matching symbol belongs to the **group** of its owning type — the outermost type of its
 * qualified name (`ThreadPoolExecutor.Worker.run` → `ThreadPoolExecutor`), in its file, or for Go
 * in its package folder (a Go type's methods may be declared in any file of its package) — and a
 * type belongs to its own group. A group's **coverage** is the share of the question's words that
 * its matching symbols have between them (the union of their word sets, each as `coverage` counts
 * them). A symbol's coverage in the ranking becomes its own coverage moved toward its group's by
 * {@linkcode OWNER_SHARE}: `own + OWNER_SHARE · (group − own)`. A symbol alone in its group, or
 * whose group covers no more words than it does, keeps its coverage; a top-level function has no
 * group.
 *
 * This is the passage-in-document idea of retrieval (a passage's score interpolated with its
 * document's), with the type as the document and word coverage as the score, and one constant.
 */
import { languageForPath } from "../parser/registry.ts";
import { semanticsOf } from "../parser/semantics/mod.ts";

/**
 * How far a symbol's coverage moves toward its group's (0: not at all, 1: the group's). Fitted on
 * the tuning corpora of the retrieval bench (ours), each left out in turn, over 0, 0.25, 0.5, 0.75
 * and 1 (`deno task bench fit-context --grid owner`; BENCHMARKS.md, round 11): 0 (off) — 0.25 tied
 * it, larger shares lowered the tuning objective, lookups most (a lookup's one answer loses its
 * place to the members of a class that shares its words).
 */
export const OWNER_SHARE = 0;

/** A scored symbol as the grouping reads it: its id and the bit mask of the words it has. */
export interface GroupMember {
  id: string;
  /** Bit i: the symbol (or its file's path) has query word i. */
  mask: number;
}

/**
 * The word mask of each symbol's group (the union of its group's masks), by id; a symbol without
 * a group, or alone in it, maps to its own mask.
 *
 * @example Two methods of one class cover the words of both
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { groupMasks } from "./owner_groups.ts";
 * const masks = groupMasks([
 *   { id: "a.py::Pool.execute#method", mask: 0b001 },
 *   { id: "a.py::Pool.add_worker#method", mask: 0b010 },
 *   { id: "a.py::reject#function", mask: 0b100 },
 * ]);
 * equal(masks.get("a.py::Pool.execute#method"), 0b011);
 * equal(masks.get("a.py::reject#function"), 0b100);
 * ```
 */
export function groupMasks(members: readonly GroupMember[]): Map<string, number> {
  const union = new Map<string, number>();
  const keyOf = new Map<string, string | null>();
  for (const m of members) {
    const key = ownerKeyOf(m.id);
    keyOf.set(m.id, key);
    if (key !== null) union.set(key, (union.get(key) ?? 0) | m.mask);
  }
  const out = new Map<string, number>();
  for (const m of members) {
    const key = keyOf.get(m.id)!;
    out.set(m.id, key === null ? m.mask : union.get(key)! | m.mask);
  }
  return out;
}

/**
 * A symbol's coverage with its group's: `own + share · (group − own)` (never below its own).
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { groupCoverage } from "./owner_groups.ts";
 * equal(groupCoverage(0.25, 0.75, 0.5), 0.5);
 * equal(groupCoverage(0.5, 0.5, 0.5), 0.5);
 * ```
 */
export function groupCoverage(own: number, group: number, share = OWNER_SHARE): number {
  return group > own ? own + share * (group - own) : own;
}

/**
 * The group of a symbol id (`file::Qualified.name#kind`): its file (a Go file: its folder) and
 * the first part of its qualified name, when the name has a type part (a member or a type
 * itself); null for a name of one part that is no type, such as a top-level function.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { ownerKeyOf } from "./owner_groups.ts";
 * equal(ownerKeyOf("a/b.py::Pool.Worker.run#method"), "a/b.py::Pool");
 * equal(ownerKeyOf("a/b.py::Pool#class"), "a/b.py::Pool");
 * equal(ownerKeyOf("net/http/server.go::ServeMux.Handle#method"), "net/http/::ServeMux");
 * equal(ownerKeyOf("lib/view.js::View.prototype.render#method"), "lib/view.js::View");
 * equal(ownerKeyOf("a/b.py::run#function"), null);
 * ```
 */
export function ownerKeyOf(id: string): string | null {
  const sep = id.indexOf("::");
  if (sep < 0) return null;
  const file = id.slice(0, sep);
  const rest = id.slice(sep + 2);
  const hash = rest.lastIndexOf("#");
  const qualified = hash < 0 ? rest : rest.slice(0, hash);
  const kind = hash < 0 ? "" : rest.slice(hash + 1).replace(/~\d+$/, "");
  const dot = qualified.indexOf(".");
  if (dot < 0 && !TYPE_KINDS.has(kind)) return null;
  const head = dot < 0 ? qualified : qualified.slice(0, dot);
  return `${_groupPlace(file)}::${head}`;
}

/** Kinds that are types: a symbol of one of these kinds heads its own group. */
export const TYPE_KINDS: ReadonlySet<string> = new Set(["class", "type"]);

/**
 * Where a group lives: its file, or for a language whose unit is a package folder (Go) that
 * folder (`net/http/`).
 */
function _groupPlace(file: string): string {
  const language = languageForPath(file)?.id ?? "";
  return semanticsOf(language).unit === "package_folder"
    ? file.slice(0, file.lastIndexOf("/") + 1)
    : file;
}
