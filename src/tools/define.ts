/**
 * `defineTool`: a tool is declared once — name, title, a one-line summary, the description an
 * agent reads, its zod arguments (every limit lives there: the runner clamps an out-of-range
 * number to it and says so in `_meta.warnings`), how it takes `repo`, the fields of its response
 * and `_meta` (typed: the handler's return type is checked against them), annotations, and
 * optional `prewarm` / `afterRun` hooks. Everything else is derived from the declarations in
 * `src/tools/mod.ts`: the MUNCH layout the server hands the codec ({@linkcode Tool.layout}),
 * the advertised tool list (`src/server/tools_list.json`), the README tools table and
 * `docs/tools.md` (`deno task gen`; a test fails when a generated file is stale), the tool lists
 * of the tests, and the conformance suite every tool runs through.
 *
 * ## Adding a tool
 *
 * One file `src/tools/<name>.ts` and one line in the list of `src/tools/mod.ts`
 * (`import("./<name>.ts"),`):
 *
 * ```ts ignore
 * import { z } from "zod";
 * import { defineTool, rows } from "./define.ts";
 * import { openRepo } from "./context.ts";
 *
 * export const tool = defineTool({
 *   name: "count_files",
 *   title: "Count files",
 *   summary: "how many files each language has",
 *   description: "Count the indexed files of a repo per language. Use it to ...",
 *   repo: "optional",
 *   args: {
 *     min: z.number().int().min(0).max(1000).optional().describe("Least count listed (default 0)"),
 *   },
 *   output: {
 *     fields: {
 *       repo: z.string().describe("Repo id"),
 *       languages: rows({
 *         language: z.string().describe("Language id"),
 *         files: z.number().int().describe("Indexed files of that language"),
 *       }).describe("One row per language, most files first"),
 *     },
 *   },
 *   annotations: { readOnlyHint: true, openWorldHint: false },
 *   run(ctx, args) {
 *     const { repo, index } = openRepo(ctx, args.repo); // args.repo: string, args.min: number | undefined
 *     const languages = Object.entries(index.meta().languages)
 *       .filter(([, n]) => n >= (args.min ?? 0))
 *       .map(([language, files]) => ({ language, files }));
 *     return { response: { repo, languages }, repo }; // checked against output.fields
 *   },
 * });
 * ```
 *
 * Then `deno task gen` (tool list, README table, docs/tools.md) and `deno task test`: the
 * conformance suite (`tests/tools/conformance_test.ts`) runs the new tool through its cases.
 *
 * ## Output fields
 *
 * `output.fields` lists every top-level field of the response with a zod type and a description;
 * `output.meta` the tool's own `_meta` fields (the envelope adds `timing_ms`, `repo`,
 * `tokens_saved`, … to every answer). A list of records is a row table: {@linkcode rows} for a
 * plain one, {@linkcode table} for one with a MUNCH layout (a tag letter, the columns written
 * first, the interned columns), which only a tool with an `output.encoding` id may declare. A
 * nested object (`z.object`, `z.record`) travels as a JSON blob in MUNCH: prefer rows.
 *
 * @module
 */
import { z } from "zod";
import type { ToolContext, ToolOutput } from "./context.ts";

/** MCP tool annotations. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * How a tool takes `repo`: `"none"` (it works on paths or on every repo), `"optional"` (a `repo`
 * argument, listed first, that may be left out: the runner fills it in from an absolute path
 * argument, the only indexed repo or the server's folder, see `default_repo.ts`), `"required"`
 * (the same argument, never inferred: for a tool that deletes, e.g. `invalidate_cache`).
 */
export type RepoMode = "none" | "optional" | "required";

/** The shape of a declaration's arguments or fields: names to zod types. */
export type Shape = Record<string, z.ZodType>;

/** The MUNCH layout of a row table (see {@linkcode table}). */
export interface TableLayout {
  /** Tag letter `a`–`z` of the table in a MUNCH payload. */
  tag: string;
  /** Columns written first, in this order; the others follow as the rows have them. */
  order: readonly string[];
  /** Columns whose strings go through the legend; absent: every string column. */
  intern?: readonly string[];
}

/**
 * The row schema and the layout of every declared table, by its array schema's definition (zod
 * methods such as `.describe()` return a new schema that shares the definition).
 */
const _tables = new WeakMap<object, { row: z.ZodObject<Shape>; layout?: TableLayout }>();

/** The declared table a field is, if it is one. */
function _tableOf(
  schema: z.ZodType,
): { row: z.ZodObject<Shape>; layout?: TableLayout } | undefined {
  return _tables.get(unwrapped(schema)._zod.def);
}

/**
 * A row table without a MUNCH layout: a list of flat records with these columns (strings,
 * numbers, booleans or null; a v1 table holds nothing else).
 */
export function rows<S extends Shape>(columns: S): z.ZodArray<z.ZodObject<S>> {
  const row = z.object(columns);
  const list = z.array(row);
  _tables.set(list._zod.def, { row: row as unknown as z.ZodObject<Shape> });
  return list;
}

/**
 * A row table with a MUNCH layout: tag letter `tag`, the columns written first (`order`, default
 * the declared column order), and the interned columns (`intern`, default every string column).
 */
export function table<S extends Shape>(
  tag: string,
  columns: S,
  layout: { order?: readonly string[]; intern?: readonly string[] } = {},
): z.ZodArray<z.ZodObject<S>> {
  const list = rows(columns);
  const entry = _tables.get(list._zod.def)!;
  entry.layout = {
    tag,
    order: layout.order ?? Object.keys(columns),
    ...(layout.intern !== undefined ? { intern: layout.intern } : {}),
  };
  return list;
}

/**
 * A reshaping of extended MUNCH (`#MUNCH/1x`), as the codec's `Transform` defines it (the tools
 * know no codec: `src/server/codec_spec.ts` hands these to it, and fails to type-check when the
 * two drift apart). `tree`: a list of nodes with `children` flattened in preorder with a
 * `__depth` column; `dict`: an object of 32+ entries as rows; `group`/`split`/`lines`/`forest`:
 * grouped rows (see `src/codec/spec.ts`).
 */
export type Reshape =
  | { kind: "tree"; key: string; children: string }
  | { kind: "dict"; key: string; keyColumn: string; valueColumn: string }
  | { kind: "group" | "split"; key: string; into: string; by: string; child: string }
  | {
    kind: "lines";
    key: string;
    into: string;
    by: string;
    child: string;
    before: string;
    after: string;
    mark: string;
  }
  | { kind: "forest"; key: string; into: string; by: string; child: string; children: string };

/** One laid-out table of a tool's MUNCH layout. */
export interface LaidOutTable {
  tag: string;
  /** The response field (or the key a reshaping makes). */
  key: string;
  /** Columns written first, in this order. */
  columns: readonly string[];
  /** Interned columns; absent: every string column. */
  intern?: readonly string[];
}

/** A tool's MUNCH layout, derived from its declaration (the codec's tier-1 spec, less `tool`). */
export interface MunchLayout {
  /** Encoding id (`ss1`, …; the header's `enc` with extensions). */
  id: string;
  /** Scalar fields written first, in this order. */
  scalars: readonly string[];
  tables: readonly LaidOutTable[];
  transforms?: readonly Reshape[];
}

/** What a declaration says about its response. */
export interface OutputSpec<F extends Shape, M extends Shape> {
  /**
   * Every top-level response field. With an `encoding`, the scalar fields (strings, numbers,
   * booleans) come first on the MUNCH scalar line in this order, the others after them.
   */
  fields: F;
  /** The tool's own `_meta` fields (objects are flattened to `<field>_<key>` by the envelope). */
  meta?: M;
  /**
   * The tool's MUNCH encoding id (`ss1`, …: the header's `enc` with extensions) and the
   * reshapings of extended MUNCH; without it the tool encodes with the generic layout.
   */
  encoding?: {
    id: string;
    transforms?: readonly Reshape[];
    /** Layouts of the tables a reshaping makes (a `dict` field becomes rows). */
    reshaped?: readonly LaidOutTable[];
  };
}

/** The response object a tool with these fields returns. */
export type ResponseOf<F extends Shape> = z.infer<z.ZodObject<F>>;

/** The `_meta` fields a tool with these meta fields may return (each optional). */
export type MetaOf<M extends Shape> = { [K in keyof M]?: z.infer<M[K]> };

/** One row of a declared table field. */
export type RowOf<T> = T extends z.ZodType<infer L> ? NonNullable<L> extends (infer R)[] ? R : never
  : never;

/**
 * The arguments a handler receives: the declared ones, plus `repo` when the tool takes one
 * (always a string: an omitted optional one is filled in before the handler runs).
 */
export type ArgsOf<A extends Shape, R extends RepoMode> =
  & z.infer<z.ZodObject<A>>
  & (R extends "none" ? unknown : { repo: string });

/** A tool declaration (see the module doc). */
export interface ToolDeclaration<
  A extends Shape,
  F extends Shape,
  M extends Shape,
  R extends RepoMode,
> {
  /** MCP tool name: lowercase words joined by `_`. */
  name: string;
  /** A few words for people (tools/list `title`). */
  title: string;
  /** What it is for, in one line (the README table and `codemunch tools`). */
  summary: string;
  /** What an agent reads to choose the tool: starts with a verb, says when to use it. */
  description: string;
  /** Other names that call the same tool. */
  aliases?: readonly string[];
  repo: R;
  /** How the `repo` argument is described. @default "Repo id (see list_repos)" */
  repoDescription?: string;
  /** The arguments besides `repo` and `format`, every one `.describe()`d. */
  args: A;
  output: OutputSpec<F, M>;
  annotations: ToolAnnotations;
  /** The handler: validated arguments in, the response and its `_meta` out. */
  run(
    ctx: ToolContext,
    args: ArgsOf<A, R>,
  ): ToolOutput<ResponseOf<F>, MetaOf<M>> | Promise<ToolOutput<ResponseOf<F>, MetaOf<M>>>;
  /** Work worth doing for `repo` while the server is idle (caches the next call would build). */
  prewarm?(ctx: ToolContext, repo: string): void;
  /** Runs after a successful call, before the envelope (e.g. watch the folder just indexed). */
  afterRun?(
    ctx: ToolContext,
    args: ArgsOf<A, R>,
    out: ToolOutput<ResponseOf<F>, MetaOf<M>>,
  ): void | Promise<void>;
}

/** A declared tool, as the registry, the runner and the generators see it. */
export interface Tool {
  readonly name: string;
  readonly title: string;
  readonly summary: string;
  readonly description: string;
  readonly aliases: readonly string[];
  readonly repo: RepoMode;
  /** The full argument schema: `repo` first (when taken), then the declared arguments. */
  readonly inputSchema: z.ZodObject<Shape>;
  readonly annotations: ToolAnnotations;
  /** The declared response fields. */
  readonly fields: Readonly<Shape>;
  /** The declared `_meta` fields. */
  readonly meta: Readonly<Shape>;
  /** The declared row tables: field name → row schema and MUNCH layout. */
  readonly tables: ReadonlyMap<string, { row: z.ZodObject<Shape>; layout?: TableLayout }>;
  /** The MUNCH layout derived from the declaration (the server passes it to the codec). */
  readonly layout: MunchLayout | undefined;
  run(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolOutput>;
  prewarm?(ctx: ToolContext, repo: string): void;
  afterRun?(ctx: ToolContext, args: Record<string, unknown>, out: ToolOutput): void | Promise<void>;
}

/** `_meta` fields many tools declare, described once. */
export const META = {
  truncated: z.boolean().describe(
    "Whether the answer was cut to its limits; hint says how to get the rest",
  ),
  hint: z.string().describe("How to get what was left out, or to narrow the query"),
  symbol_count: z.number().int().describe("Symbols the answer covers"),
  freshness: z.object({
    fresh: z.number().int(),
    edited_uncommitted: z.number().int(),
    stale_index: z.number().int(),
  }).describe(
    "Rows per `_freshness` value, sent only when a row is not fresh (as freshness_fresh, freshness_edited_uncommitted, freshness_stale_index)",
  ),
} as const;

/** The `repo` argument of a tool that takes one. */
export const REPO_DESCRIPTION = "Repo id (see list_repos)";

/** The `repo` argument of a tool that may infer it. */
export const OPTIONAL_REPO_DESCRIPTION = "Repo id (see list_repos); omitted: inferred";

const _NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const _TAG = /^[a-z]$/;

/** A declaration mistake, thrown when the module declaring the tool loads. */
function _fail(tool: string, problem: string): never {
  throw new TypeError(`Invalid declaration of tool "${tool}": ${problem}`);
}

/** The inner type of an optional/nullable/default wrapper. */
export function unwrapped(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let i = 0; i < 8; i++) {
    const def = s._zod.def as { type: string; innerType?: z.ZodType };
    if (
      (def.type === "optional" || def.type === "nullable" || def.type === "default") &&
      def.innerType !== undefined
    ) {
      s = def.innerType;
    } else break;
  }
  return s;
}

function _checkArgs(name: string, args: Shape, repo: RepoMode): void {
  for (const [key, schema] of Object.entries(args)) {
    if (!_NAME.test(key)) _fail(name, `argument "${key}" is not a snake_case name`);
    if (key === "format") _fail(name, `"format" is every tool's argument: do not declare it`);
    if (key === "repo") _fail(name, `declare "repo" with the repo mode, not as an argument`);
    if ((schema.description ?? "") === "") {
      _fail(name, `argument "${key}" has no .describe() text`);
    }
  }
  if (repo !== "none" && repo !== "optional" && repo !== "required") {
    _fail(name, `unknown repo mode "${repo}"`);
  }
}

function _checkTables(name: string, output: OutputSpec<Shape, Shape>): void {
  const tags = new Set<string>();
  for (const [key, schema] of Object.entries(output.fields)) {
    const t = _tableOf(schema);
    if (t?.layout === undefined) continue;
    if (output.encoding === undefined) {
      _fail(name, `table "${key}" has a MUNCH layout but output.encoding is not declared`);
    }
    const { tag, order, intern } = t.layout;
    if (!_TAG.test(tag)) _fail(name, `table "${key}" has tag "${tag}": use one letter a-z`);
    if (tags.has(tag)) _fail(name, `tag "${tag}" is used by two tables`);
    tags.add(tag);
    const columns = new Set(Object.keys(t.row.shape));
    // A tree reshaping (extended MUNCH) adds a depth column its layout may place.
    const tree = output.encoding?.transforms?.some((x) => x.kind === "tree" && x.key === key);
    for (const c of [...order, ...(intern ?? [])]) {
      if (!columns.has(c) && !(tree && c === "__depth")) {
        _fail(name, `table "${key}" lays out column "${c}", which it does not declare`);
      }
    }
  }
  const made = new Set(
    (output.encoding?.transforms ?? []).map((x) => "into" in x ? x.into : x.key),
  );
  for (const t of output.encoding?.reshaped ?? []) {
    if (!made.has(t.key)) _fail(name, `reshaped table "${t.key}" is made by no transform`);
    if (!_TAG.test(t.tag) || tags.has(t.tag)) {
      _fail(name, `reshaped table "${t.key}": bad or used tag`);
    }
    tags.add(t.tag);
  }
}

function _layout(output: OutputSpec<Shape, Shape>): MunchLayout | undefined {
  if (output.encoding === undefined) return undefined;
  const scalars: string[] = [];
  const tables: LaidOutTable[] = [];
  for (const [key, schema] of Object.entries(output.fields)) {
    const inner = unwrapped(schema);
    const t = _tableOf(schema);
    if (t !== undefined) {
      if (t.layout !== undefined) {
        tables.push({
          tag: t.layout.tag,
          key,
          columns: t.layout.order,
          ...(t.layout.intern !== undefined ? { intern: t.layout.intern } : {}),
        });
      }
      continue;
    }
    // Scalars come first in the declared order; a key no v1 payload carries is left to JSON.
    const type = inner._zod.def.type;
    const scalar = type === "string" || type === "number" || type === "boolean" ||
      type === "enum" || type === "literal";
    if (scalar && /^[A-Za-z0-9_$/+-]+$/.test(key)) scalars.push(key);
  }
  return {
    id: output.encoding.id,
    scalars,
    tables: [...tables, ...(output.encoding.reshaped ?? [])],
    ...(output.encoding.transforms !== undefined ? { transforms: output.encoding.transforms } : {}),
  };
}

/**
 * Declare a tool (see the module doc). Throws `TypeError` for a declaration mistake: a name that
 * is not snake_case, an argument without a description, a table layout naming an undeclared
 * column, two tables with one tag.
 */
export function defineTool<
  A extends Shape,
  F extends Shape,
  M extends Shape = Record<never, z.ZodType>,
  R extends RepoMode = RepoMode,
>(decl: ToolDeclaration<A, F, M, R>): Tool {
  const { name } = decl;
  if (!_NAME.test(name)) _fail(name, "the name must be lowercase words joined by _");
  for (const a of decl.aliases ?? []) {
    if (!_NAME.test(a)) _fail(name, `alias "${a}" is not snake_case`);
  }
  if (decl.description.length < 40) {
    _fail(name, "the description must tell an agent when to use it");
  }
  _checkArgs(name, decl.args, decl.repo);
  const output = decl.output as OutputSpec<Shape, Shape>;
  _checkTables(name, output);
  const shape: Shape = decl.repo === "none" ? { ...decl.args } : {
    repo: decl.repo === "optional"
      ? z.string().optional().describe(decl.repoDescription ?? OPTIONAL_REPO_DESCRIPTION)
      : z.string().describe(decl.repoDescription ?? REPO_DESCRIPTION),
    ...decl.args,
  };
  const tables = new Map<string, { row: z.ZodObject<Shape>; layout?: TableLayout }>();
  for (const [key, schema] of Object.entries(output.fields)) {
    const t = _tableOf(schema);
    if (t !== undefined) tables.set(key, t);
  }
  const run = decl.run as unknown as Tool["run"];
  const afterRun = decl.afterRun as Tool["afterRun"];
  return {
    name,
    title: decl.title,
    summary: decl.summary,
    description: decl.description,
    aliases: decl.aliases ?? [],
    repo: decl.repo,
    inputSchema: z.object(shape),
    annotations: decl.annotations,
    fields: output.fields,
    meta: output.meta ?? {},
    tables,
    layout: _layout(output),
    run: async (ctx, args) => await run(ctx, args),
    ...(decl.prewarm !== undefined ? { prewarm: decl.prewarm } : {}),
    ...(afterRun !== undefined ? { afterRun } : {}),
  };
}
