/**
 * What check_rename_safe and plan_refactoring share: the analysis of a rename (the symbol looked
 * up, the new name checked, its sites, collisions and unknowns) and the tables that show them.
 */
import { z } from "zod";
import { ToolError } from "../errors.ts";
import type { SymbolRecord } from "../parser/types.ts";
import {
  type Collision,
  invalidName,
  renameCollisions,
  renameUnknowns,
  type Unknown,
} from "../query/rename_checks.ts";
import { type RenameSites, renameSites } from "../query/rename_sites.ts";
import { findSymbol } from "../query/symbol_lookup.ts";
import type { RepoView } from "../query/view.ts";
import { table } from "./define.ts";

/** Most files that write the name a rename reads (the rest are an `unscanned` unknown). */
export const MAX_RENAME_FILES = 2000;

/** A rename, analysed. */
export interface RenameAnalysis {
  symbol: SymbolRecord;
  found: RenameSites;
  collisions: Collision[];
  unknowns: Unknown[];
}

/** Analyse renaming `symbolRef` to `newName`; a bad new name is `invalid_argument`. */
export async function analyseRename(
  view: RepoView,
  symbolRef: string,
  newName: string,
): Promise<RenameAnalysis> {
  const symbol = findSymbol(view, symbolRef);
  if (newName === symbol.name) {
    throw new ToolError(
      "invalid_argument",
      `new_name is ${symbol.name}'s current name: give a different name`,
    );
  }
  const problem = invalidName(symbol.language, newName);
  if (problem !== null) {
    throw new ToolError("invalid_argument", `Invalid new_name: ${problem}`);
  }
  const found = await renameSites(view, symbol, MAX_RENAME_FILES);
  const collisions = await renameCollisions(view, found, newName);
  return { symbol, found, collisions, unknowns: renameUnknowns(view, found) };
}

/** The sites and unknowns of a symbol's name, for a move (no new name, no collisions). */
export async function analyseMove(view: RepoView, symbolRef: string): Promise<RenameAnalysis> {
  const symbol = findSymbol(view, symbolRef);
  const found = await renameSites(view, symbol, MAX_RENAME_FILES);
  const unknowns = renameUnknowns(view, found).filter((u) =>
    u.kind !== "ambiguous" && u.kind !== "string"
  );
  return { symbol, found, collisions: [], unknowns };
}

/** The collisions table. */
export const COLLISIONS = table("c", {
  scope: z.enum(["same_scope", "class_hierarchy", "importer_scope", "shadowing"]).describe(
    "Where the new name is taken",
  ),
  file: z.string().describe("File"),
  line: z.number().int().describe("Line"),
  existing: z.string().describe("The definition's id, or the line already writing the name"),
  detail: z.string().describe("What collides"),
}, { intern: ["scope", "file"] }).describe("Where the new name is already taken");

/** The unknowns table. */
export const UNKNOWNS = table("k", {
  kind: z.enum(["ambiguous", "public_api", "reflection", "override", "string", "unscanned"])
    .describe("What cannot be known statically"),
  file: z.string().nullable().describe("File, when one"),
  line: z.number().int().nullable().describe("Line, when one"),
  detail: z.string().describe("What to check"),
}, { intern: ["kind", "file"] }).describe("What the index cannot decide: check by hand");

/** The collision rows. */
export function collisionRows(collisions: Collision[]) {
  return collisions.map((c) => ({ ...c }));
}

/** The unknown rows. */
export function unknownRows(unknowns: Unknown[]) {
  return unknowns.map((u) => ({ ...u }));
}

/** safe (nothing collides or is unknown), review (nothing collides), unsafe (a collision). */
export function verdictOf(a: RenameAnalysis): "safe" | "review" | "unsafe" {
  if (a.collisions.length > 0) return "unsafe";
  const mentions = a.found.sites.some((s) => s.certainty === "mention");
  return a.unknowns.length > 0 || mentions ? "review" : "safe";
}
