/**
 * Tier-1 encoder specs: small data that tells the MUNCH encoder how a tool's response is laid
 * out — which lists become which tables (tag, column order, interned columns), which scalars come
 * first, and which nested shapes are flattened into a table and back. The encoder stays lossless
 * whatever the response holds: keys and columns a spec does not name are encoded generically, and
 * a transform whose preconditions do not hold is simply not applied.
 *
 * @module
 */

/** One table of a tier-1 spec. */
export interface TableSpec {
  /** Single tag character `a`–`z`. */
  tag: string;
  /** Dotted key path of the list in the (transformed) response. */
  key: string;
  /** Preferred column order; columns present in the rows but not listed follow in first-seen order. */
  columns: readonly string[];
  /** Columns whose string values are interned through the legend. */
  intern?: readonly string[];
}

/**
 * `group`: a list of `{[by]: string, [child]: [rows]}` is flattened into table `into`, one row per
 * child with the `by` value prepended (search_text's file → matches).
 */
export interface GroupTransform {
  /** The reshaping. */
  kind: "group";
  /** Dotted key path of the reshaped value in the response. */
  key: string;
  /** Key of the table the rows go into. */
  into: string;
  /** Key naming each group (its lead column). */
  by: string;
  /** Key of each group's list of rows. */
  child: string;
}

/**
 * `split`: a list of `{[by]: value, [child]: [rows]}` becomes two tables — the list itself as rows
 * `{[by]: value, [child]: <number of child rows>}`, and `into` holding every child row in order
 * (search_text's files and their matching lines: each file is written once, no column repeats
 * it per line).
 */
export interface SplitTransform {
  /** The reshaping. */
  kind: "split";
  /** Dotted key path of the reshaped value in the response. */
  key: string;
  /** Key of the table the rows go into. */
  into: string;
  /** Key naming each group (its lead column). */
  by: string;
  /** Key of each group's list of rows. */
  child: string;
}

/** `tree`: a list of nodes with optional non-empty `children` lists, flattened in preorder with a `__depth` column. */
export interface TreeTransform {
  /** The reshaping. */
  kind: "tree";
  /** Dotted key path of the reshaped value in the response. */
  key: string;
  /** Key of each node's list of child nodes. */
  children: string;
}

/**
 * `dict`: an object `{k: v}` with at least 32 entries becomes rows `{[keyColumn]: k, [valueColumn]: v}`
 * in key order (smaller maps are cheaper as dotted keys or a JSON blob).
 */
export interface DictTransform {
  /** The reshaping. */
  kind: "dict";
  /** Dotted key path of the reshaped value in the response. */
  key: string;
  /** Column holding each entry's key. */
  keyColumn: string;
  /** Column holding each entry's value. */
  valueColumn: string;
}

/**
 * `lines`: a list of `{[by]: string, [child]: [matches]}` becomes table `into` with one row per
 * line, as grep prints them: each row names its file (`by`) first, then `line` and `text`; when
 * the matches carry context lists (`before`/`after`, lists of strings), those lines are rows of
 * their own, marked `-` (before) and `+` (after) in column `mark`, and the match rows `:`
 * (search_text's files, matches and context lines).
 */
export interface LinesTransform {
  /** The reshaping. */
  kind: "lines";
  /** Dotted key path of the reshaped value in the response. */
  key: string;
  /** Key of the table the rows go into. */
  into: string;
  /** Key naming each group (its lead column). */
  by: string;
  /** Key of each group's list of rows. */
  child: string;
  /** Key of a match's list of lines before it. */
  before: string;
  /** Key of a match's list of lines after it. */
  after: string;
  /** Column marking a row as a match (`:`) or context before (`-`) / after (`+`). */
  mark: string;
}

/**
 * `forest`: a list of `{[by]: string, [child]: [tree nodes], ...}` (a batched file outline)
 * becomes two tables — the list itself with `child` replaced by its number of nodes, and `into`
 * holding every node of every tree in preorder, each row naming its `by` value first and its
 * depth (`__depth`) second: one table of symbols with a file column.
 */
export interface ForestTransform {
  /** The reshaping. */
  kind: "forest";
  /** Dotted key path of the reshaped value in the response. */
  key: string;
  /** Key of the table the rows go into. */
  into: string;
  /** Key naming each group (its lead column). */
  by: string;
  /** Key of each group's list of rows. */
  child: string;
  /** Key of each node's list of child nodes. */
  children: string;
}

/** A reversible reshaping applied before encoding and undone after decoding. */
export type Transform =
  | GroupTransform
  | SplitTransform
  | TreeTransform
  | DictTransform
  | LinesTransform
  | ForestTransform;

/** A tier-1 encoder: the data that specializes the generic encoder for one tool. */
export interface EncoderSpec {
  /** Encoding id written in the header (`ss1`, `fo1`, …). */
  id: string;
  /** MCP tool name. */
  tool: string;
  /** Preferred order of scalar keys (dotted paths); others follow in response order. */
  scalars: readonly string[];
  /** The tables its responses' lists become. */
  tables: readonly TableSpec[];
  /** Reshapings of extended MUNCH (`__xf`), undone by a decoder that has this spec. */
  transforms?: readonly Transform[];
}

/** The reserved column added by the `tree` transform. */
export const DEPTH_COLUMN = "__depth";
