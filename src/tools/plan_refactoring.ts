/** `plan_refactoring`: a rename's or a move's exact edits (docs/api.md). */
import { z } from "zod";
import { ToolError } from "../errors.ts";
import { planMove } from "../query/move_plan.ts";
import { type PlanEdit, renameEdits } from "../query/refactor_edits.ts";
import type { Collision } from "../query/rename_checks.ts";
import { SYMBOLS } from "../query/symbols.ts";
import type { RepoView } from "../query/view.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf, table } from "./define.ts";
import { graphMeta, SYMBOL_HEADING, symbolHeading } from "./graph_args.ts";
import {
  analyseMove,
  analyseRename,
  collisionRows,
  COLLISIONS,
  type RenameAnalysis,
  unknownRows,
  UNKNOWNS,
  verdictOf,
} from "./rename_args.ts";

const _description =
  "Plan a rename or a move as exact edits an agent can apply: file, line and column range (1-based, code points, end exclusive; positions refer to the files before any edit: apply each file's edits last to first), the text there now and the new text. rename (new_name): the definition, references, imports, re-exports and strings holding the name alone (certainty check). move (new_file; Python, JavaScript/TypeScript modules, Go within its package): the definition cut and written to new_file with the imports it needs, every importer's import pointed at it. Lists collisions, unknowns and sites to change by hand (manual).";

const _args = {
  symbol: z.string().describe("Symbol id (or a unique qualified or plain name)"),
  refactor_type: z.enum(["rename", "move", "extract", "signature"]).describe(
    "rename or move (extract and signature are not planned)",
  ),
  new_name: z.string().optional().describe("rename: the new name"),
  new_file: z.string().optional().describe("move: the repo-relative file to move it to"),
  new_signature: z.string().optional().describe("Not used (signature is not planned)"),
  depth: z.number().int().min(1).max(3).optional().describe("Not used (accepted)"),
  max_results: z.number().int().min(1).max(5000).optional().describe(
    "Most edit rows (default 1000, 1..5000)",
  ),
};

/** Validated arguments. */
export type PlanRefactoringArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  refactor_type: z.enum(["rename", "move"]).describe("What was planned"),
  symbol: SYMBOL_HEADING,
  new_name: z.string().optional().describe("rename: the new name"),
  new_file: z.string().optional().describe("move: the new file"),
  new_file_exists: z.boolean().optional().describe("move: whether new_file exists already"),
  safe: z.boolean().describe("No collision"),
  verdict: z.enum(["safe", "review", "unsafe"]).describe(
    "unsafe: a collision; review: unknowns or manual sites; safe: neither",
  ),
  edit_count: z.number().int().describe("Edits (all of them)"),
  file_count: z.number().int().describe("Files edited"),
  edits: table("e", {
    file: z.string().describe("File"),
    line: z.number().int().describe("First line"),
    col: z.number().int().describe("First column"),
    end_line: z.number().int().describe("Last line"),
    end_col: z.number().int().describe("Column just past the range"),
    kind: z.enum(["replace", "insert", "delete", "create"]).describe(
      "create: a new file whose text is new",
    ),
    old: z.string().describe("The text there now"),
    new: z.string().describe("The text to write"),
    certainty: z.enum(["certain", "likely", "check"]).describe(
      "certain (bound), likely (unique name), check (a string: confirm)",
    ),
    reason: z.string().describe("Which site or step"),
  }, { intern: ["file", "kind", "certainty", "reason", "old", "new"] }).describe(
    "The edits, by file and position",
  ),
  manual: table("m", {
    file: z.string().describe("File"),
    line: z.number().int().describe("Line"),
    text: z.string().describe("The line, trimmed"),
    reason: z.string().describe("What to check"),
  }, { intern: ["file", "reason"] }).describe("Sites to look at by hand (not in the edits)"),
  collisions: COLLISIONS,
  unknowns: UNKNOWNS,
};

const _meta = { truncated: META.truncated, hint: META.hint };

type _Manual = { file: string; line: number; text: string; reason: string };

function _renameManual(a: RenameAnalysis): _Manual[] {
  return a.found.sites.filter((s) => s.certainty === "ambiguous" || s.certainty === "mention")
    .map((s) => ({
      file: s.file,
      line: s.line,
      text: s.text,
      reason: s.certainty === "ambiguous"
        ? "a code use that may be another definition of the name"
        : `a ${s.role} mention`,
    }));
}

/** A move's collision: the new file defines the name already. */
function _moveCollisions(view: RepoView, name: string, newFile: string): Collision[] {
  return view.get(SYMBOLS).ofFile(newFile).filter((s) => s.parent === null && s.name === name)
    .map((s) => ({
      scope: "same_scope" as const,
      file: s.file,
      line: s.line,
      existing: s.id,
      detail: `${newFile} defines ${s.kind} ${name} already`,
    }));
}

function _required(value: string | undefined, name: string, type: string): string {
  if (value === undefined || value.trim() === "") {
    throw new ToolError(
      "invalid_argument",
      `Missing argument "${name}": refactor_type ${type} needs it`,
    );
  }
  return value.trim();
}

/** The plan. */
export async function handler(
  ctx: ToolContext,
  args: PlanRefactoringArgs,
): Promise<ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>>> {
  const type = args.refactor_type;
  if (type === "extract" || type === "signature") {
    throw new ToolError(
      "invalid_argument",
      `refactor_type ${type} is not planned: use rename or move (get_extraction_candidates finds what to split)`,
    );
  }
  const { repo, view } = openRepo(ctx, args.repo);
  const max = args.max_results ?? 1000;
  const warnings = [
    ...(args.depth !== undefined ? ["depth is accepted and not used"] : []),
    ...(args.new_signature !== undefined ? ["new_signature is not used by rename or move"] : []),
  ];
  let edits: PlanEdit[];
  let manual: _Manual[];
  let a: RenameAnalysis;
  const extra: { new_name?: string; new_file?: string; new_file_exists?: boolean } = {};
  if (type === "rename") {
    const newName = _required(args.new_name, "new_name", "rename");
    a = await analyseRename(view, args.symbol, newName);
    edits = renameEdits(a.found.sites, a.symbol.name, newName);
    manual = _renameManual(a);
    extra.new_name = newName;
  } else {
    const newFile = _required(args.new_file, "new_file", "move").replace(/^\.\//, "");
    a = await analyseMove(view, args.symbol);
    const move = planMove(view, a.symbol, a.found, newFile);
    a.collisions = _moveCollisions(view, a.symbol.name, newFile);
    edits = move.edits;
    manual = move.manual;
    Object.assign(extra, { new_file: newFile, new_file_exists: move.newFileExists });
  }
  const verdict = verdictOf(a) === "safe" && manual.length > 0 ? "review" : verdictOf(a);
  return {
    response: {
      repo,
      refactor_type: type,
      symbol: symbolHeading(a.symbol),
      ...extra,
      safe: a.collisions.length === 0,
      verdict,
      edit_count: edits.length,
      file_count: new Set(edits.map((e) => e.file)).size,
      edits: edits.slice(0, max).map((e) => ({
        file: e.file,
        line: e.line,
        col: e.col,
        end_line: e.endLine,
        end_col: e.endCol,
        kind: e.kind,
        old: e.old,
        new: e.new,
        certainty: e.certainty,
        reason: e.reason,
      })),
      manual: manual.slice(0, max),
      collisions: collisionRows(a.collisions.slice(0, max)),
      unknowns: unknownRows(a.unknowns),
    },
    repo,
    meta: graphMeta(
      edits.length > max || manual.length > max || a.collisions.length > max,
      `The plan is cut at ${max} rows: raise max_results (up to 5000) before applying it`,
    ),
    warnings,
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "plan_refactoring",
  title: "Plan a refactoring",
  summary: "a rename's or a move's exact file/line/column edits, verified against the index",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "rp1" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
