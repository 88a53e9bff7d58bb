/**
 * The regions of a tree its grammar could not parse, read by a scanner (`GrammarSpec.errorScanner`):
 * the scanner reads the file, and what it finds starting on the lines of a top-level `ERROR` node
 * joins the tree's records, unless the tree already has it. Generic: it knows only the `Extractor`
 * interface and the tree's `ERROR` nodes.
 */
import type { Node, Range, Tree } from "web-tree-sitter";
import type { SymbolKind } from "./types.ts";
import { type Extractor, firstLine } from "./extractors/records.ts";
import { lineAt } from "./source_text.ts";

/** A definition the tree already has, as the scanner's are compared with it. */
export interface KnownSymbol {
  name: string;
  kind: string;
  /** 0-based rows of its first and last line. */
  startRow: number;
  endRow: number;
}

/** A definition the scanner found in an `ERROR` region, not in the tree. */
export interface ScannedSymbol {
  name: string;
  kind: SymbolKind;
  /** UTF-16 range of its source (end exclusive, trailing blanks trimmed). */
  start: number;
  end: number;
  startRow: number;
  endRow: number;
  signature: string;
  docstring: string;
  /** The `ERROR` node it was found in. */
  region: Node;
}

/** An import or call the scanner found in an `ERROR` region (1-based line). */
export interface ScannedImport {
  specifier: string;
  names: string[];
  line: number;
}

export interface ScannedCall {
  start: number;
  callee: string;
  receiver: string | null;
  line: number;
}

/** What the scanner adds to one tree's records. */
export interface ScannedErrors {
  symbols: ScannedSymbol[];
  imports: ScannedImport[];
  calls: ScannedCall[];
}

/** What the tree gave, for the scanner's finds to be compared with. */
export interface TreeRecords {
  symbols: readonly KnownSymbol[];
  imports: readonly { specifier: string; line: number }[];
}

/**
 * Run `scanner` over the `ERROR` regions of `tree`: the whole `text` is scanned (so blocks opened
 * before a region nest what is in it), with everything outside `ranges` blanked when the tree is
 * a part of the file (an embedded `<style>`), and only what starts on a region's lines is kept.
 */
export function scanErrorRegions(
  scanner: Extractor,
  tree: Tree,
  text: string,
  file: string,
  starts: readonly number[],
  ranges: readonly Range[] | undefined,
  known: TreeRecords,
): ScannedErrors {
  const none: ScannedErrors = { symbols: [], imports: [], calls: [] };
  const regions = errorNodes(tree.rootNode);
  if (regions.length === 0) return none;
  let found;
  try {
    found = scanner.extract(ranges === undefined ? text : blankOutside(text, ranges), file);
  } catch {
    return none; // An extractor never throws for bad input; if one does, the tree's records stand.
  }
  const row = (at: number) => lineAt(starts, at) - 1;
  const rows = regions.map((r) => [row(r.startIndex), row(Math.max(r.startIndex, r.endIndex - 1))]);
  const regionOf = (at: number) => {
    const r = row(at);
    const i = rows.findIndex(([first, last]) => first! <= r && r <= last!);
    return i === -1 ? undefined : regions[i];
  };
  const symbols: ScannedSymbol[] = [];
  for (const d of found.symbols) {
    const region = regionOf(d.start);
    if (region === undefined) continue;
    let end = d.end;
    while (end > d.start && /\s/.test(text[end - 1]!)) end--;
    const s: ScannedSymbol = {
      name: d.name,
      kind: d.kind,
      start: d.start,
      end,
      startRow: row(d.start),
      endRow: row(Math.max(d.start, end - 1)),
      signature: d.signature ?? firstLine(text.slice(d.start, end)),
      docstring: d.docstring ?? "",
      region,
    };
    if (!known.symbols.some((k) => sameSymbol(k, s))) symbols.push(s);
  }
  const imports = found.imports
    .filter((i) => regionOf(i.at) !== undefined)
    .map((i) => ({ specifier: i.specifier, names: i.names ?? [], line: row(i.at) + 1 }))
    .filter((i) => !known.imports.some((k) => k.specifier === i.specifier && k.line === i.line));
  const calls = found.calls
    .filter((c) => regionOf(c.at) !== undefined)
    .map((c) => ({
      start: c.at,
      callee: c.callee,
      receiver: c.receiver ?? null,
      line: row(c.at) + 1,
    }));
  return { symbols, imports, calls };
}

/** The top-level `ERROR` nodes of a tree (not those inside another; `MISSING` nodes are no region). */
export function errorNodes(root: Node): Node[] {
  const found: Node[] = [];
  const visit = (node: Node) => {
    if (node.isError) {
      found.push(node);
      return;
    }
    if (!node.hasError) return;
    for (const child of node.children) if (child !== null) visit(child);
  };
  visit(root);
  return found;
}

/**
 * Whether a scanned definition is one the tree has: the same kind and name (letters, digits, `_`
 * and `-` compared: the grammar may keep a combinator or spaces out of a name, `> .a` as `.a`),
 * starting or ending on the same line (a grammar's error recovery may move one end).
 */
export function sameSymbol(known: KnownSymbol, scanned: KnownSymbol): boolean {
  if (known.kind !== scanned.kind) return false;
  if (known.startRow !== scanned.startRow && known.endRow !== scanned.endRow) return false;
  return _nameKey(known.name) === _nameKey(scanned.name);
}

function _nameKey(name: string): string {
  return name.replace(/[^\p{L}\p{N}_-]/gu, "");
}

/** The text with everything outside `ranges` replaced by spaces, line breaks kept. */
export function blankOutside(text: string, ranges: readonly Range[]): string {
  const out: string[] = [];
  let at = 0;
  for (const r of [...ranges].sort((a, b) => a.startIndex - b.startIndex)) {
    if (r.startIndex < at) continue;
    out.push(
      text.slice(at, r.startIndex).replace(/[^\r\n]/g, " "),
      text.slice(r.startIndex, r.endIndex),
    );
    at = r.endIndex;
  }
  out.push(text.slice(at).replace(/[^\r\n]/g, " "));
  return out.join("");
}
