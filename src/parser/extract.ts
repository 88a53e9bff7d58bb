/**
 * The one generic extractor: runs a language's definitions, imports and calls queries over a
 * tree and turns the captures into records. It knows only the `LanguageSpec` interface and the
 * standard capture names (see `LANGUAGES.md`); it never branches on a language.
 */
import type { Node, Query, QueryCapture, QueryMatch, Range, Tree } from "web-tree-sitter";
import { definitionsQuery, type LoadedLanguage } from "./loader.ts";
import type { DocCommentRule } from "./language_spec.ts";
import type { CallRecord, ImportRecord, ParseResult, SymbolKind, SymbolRecord } from "./types.ts";
import type { SourceText } from "./source_text.ts";
import { disambiguateIds, sha256Hex, symbolId } from "./ids.ts";
import { symbolSummary } from "./summary.ts";
import { type CompiledComplexity, functionOf, measureFunction } from "./complexity/measure.ts";
import { lineStarts } from "./source_text.ts";
import {
  scanErrorRegions,
  type ScannedCall,
  type ScannedErrors,
  type ScannedSymbol,
} from "./error_scan.ts";

/** Limits that keep one file within a time and memory bound. */
export interface ExtractLimits {
  /**
   * Files larger than this many bytes are skipped.
   * @default 10_000_000
   */
  maxBytes?: number;
  /**
   * Parsing is cancelled (the file skipped) after this many milliseconds.
   * @default 20_000
   */
  timeoutMs?: number;
  /**
   * A file whose longest line exceeds this many characters while its average line is longer than
   * `minifiedAverageLine` is treated as minified and skipped.
   * @default 5_000
   */
  minifiedLongestLine?: number;
  /** @default 300 */
  minifiedAverageLine?: number;
  /**
   * Only the symbols (imports and calls come back empty): the definitions query alone is run,
   * not the imports and calls patterns, for a reader that needs no more (changed symbols). The
   * symbols are the same as a full parse's; a language with an `errorScanner` is read in full.
   * @default false
   */
  symbolsOnly?: boolean;
  /**
   * Measure each function's complexity (`SymbolRecord.complexity`). Off for a reader that only
   * compares symbols (the old side of a change): it is a tenth of a symbols-only parse.
   * @default true
   */
  complexity?: boolean;
}

/** Internal draft of one definition while captures are merged. */
interface _Draft {
  node: Node;
  kind: SymbolKind | "container" | "namespace";
  name: Node | null;
  scope: Node | null;
  body: Node | null;
  declaration: Node | null;
  docs: Node[];
  decorators: Node[];
  /** The spec's `decoratorsRunWithBody`: calls inside `decorators` are the definition's own. */
  decoratorsRunWithBody: boolean;
  /** Doc comment rule of the language whose tree holds the node. */
  docRule: DocCommentRule | undefined;
  /** The spec's `nameTrim`: removed from the `@name` text. */
  nameTrim: RegExp | undefined;
  /** Complexity rules of the language whose tree holds the node, or null. */
  complexity: CompiledComplexity | null;
  /**
   * A definition the spec's `errorScanner` read in an `ERROR` node (`node`): its name, rows,
   * signature and docstring are the scanner's, not read from the tree.
   */
  scanned?: ScannedSymbol;
  start: number;
  end: number;
  // filled while building
  qualified: string;
  enclosing: _Draft | null;
  index: number;
}

/** Skip reason when the file should not be parsed at all, else null. */
export function precheck(text: SourceText, limits: ExtractLimits = {}): string | null {
  const maxBytes = limits.maxBytes ?? 10_000_000;
  if (text.bytes.length > maxBytes) {
    return `file too large: ${text.bytes.length} bytes (limit ${maxBytes})`;
  }
  const longestLimit = limits.minifiedLongestLine ?? 5_000;
  const averageLimit = limits.minifiedAverageLine ?? 300;
  const s = text.text;
  if (s.length > longestLimit) {
    let lines = 1;
    let longest = 0;
    let from = 0;
    for (let nl = s.indexOf("\n"); nl !== -1; nl = s.indexOf("\n", from)) {
      longest = Math.max(longest, nl - from);
      from = nl + 1;
      lines++;
    }
    longest = Math.max(longest, s.length - from);
    const average = s.length / lines;
    if (longest > longestLimit && average > averageLimit) {
      return `minified: longest line ${longest} chars, average ${Math.round(average)}`;
    }
  }
  return null;
}

/** Parse one file with a loaded language and extract its symbols, imports and calls. */
export function extractFile(
  loaded: LoadedLanguage,
  file: string,
  source: SourceText,
  limits: ExtractLimits = {},
): ParseResult {
  const language = loaded.spec.id;
  const result: ParseResult = {
    file,
    language,
    status: "ok",
    reason: null,
    symbols: [],
    imports: [],
    calls: [],
  };
  const timeoutMs = limits.timeoutMs ?? 20_000;
  const deadline = performance.now() + timeoutMs;
  // Called by the parser every few hundred operations; reading the clock every 32nd call is enough.
  let ticks = 0;
  const progressCallback = () => (++ticks & 31) === 0 && performance.now() > deadline;

  const base = loaded;
  const trees: Tree[] = [];
  try {
    // The outer tree: the region host's (Vue's template), or the file's own when it has no regions.
    let outer: Tree | null = null;
    let includedRanges: Range[] | undefined;
    if (loaded.regions !== null) {
      outer = loaded.regions.parser.parse(source.text, null, { progressCallback });
      if (outer === null) {
        loaded.regions.parser.reset();
        return _skip(result, `parse timed out after ${timeoutMs} ms`);
      }
      trees.push(outer);
      const found = _regions(loaded.regions.query, outer, loaded.regions.variants);
      loaded = found.language ?? loaded;
      includedRanges = found.ranges;
    }
    const parts: _Part[] = [];
    if (includedRanges === undefined || includedRanges.length > 0) {
      const tree = _parse(loaded, source, progressCallback, includedRanges);
      if (typeof tree === "string") return _skip(result, tree.replace("%", String(timeoutMs)));
      trees.push(tree);
      parts.push(
        includedRanges === undefined ? { loaded, tree } : { loaded, tree, ranges: includedRanges },
      );
      outer ??= tree;
    }
    if (base.macroBodies !== null && parts[0]?.loaded === base) {
      const failed = _parseMacroBodies(
        base,
        base.macroBodies,
        source,
        progressCallback,
        parts[0].tree,
        trees,
        parts,
      );
      if (failed !== undefined) return _skip(result, failed.replace("%", String(timeoutMs)));
    }
    for (const embed of base.embeds) {
      if (outer === null) {
        // Only embeds: the file's own grammar still finds their regions.
        const tree = _parse(base, source, progressCallback, undefined);
        if (typeof tree === "string") return _skip(result, tree.replace("%", String(timeoutMs)));
        trees.push(tree);
        outer = tree;
      }
      const found = _regions(embed.query, outer, embed.variants);
      if (found.ranges.length === 0) continue;
      const language = found.language ?? embed.language;
      const tree = _parse(language, source, progressCallback, found.ranges);
      if (typeof tree === "string") return _skip(result, tree.replace("%", String(timeoutMs)));
      trees.push(tree);
      parts.push({ loaded: language, tree, ranges: found.ranges });
    }
    _markPartial(result, parts, source);
    _records(result, parts, file, source, limits.symbolsOnly === true, limits.complexity !== false);
  } finally {
    for (const tree of trees) tree.delete();
  }
  return result;
}

/** A file with invalid UTF-8 or syntax errors (outside macro bodies) is `partial`, saying why. */
function _markPartial(result: ParseResult, parts: readonly _Part[], source: SourceText): void {
  const problems: string[] = [];
  if (!source.validUtf8) problems.push("invalid UTF-8: decoded as Latin-1");
  const errors = parts.reduce(
    (n, p) =>
      n + (p.tolerant !== true && p.tree.rootNode.hasError ? _countErrors(p.tree.rootNode) : 0),
    0,
  );
  if (errors > 0) problems.push(`syntax errors: ${errors}`);
  if (problems.length > 0) {
    result.status = "partial";
    result.reason = problems.join("; ");
  }
}

/**
 * The symbols, imports and calls of the parsed parts: the queries' matches, and what the error
 * scanner of a part's language reads in its `ERROR` regions.
 */
function _records(
  result: ParseResult,
  parts: readonly _Part[],
  file: string,
  source: SourceText,
  symbolsOnly: boolean,
  complexity: boolean,
) {
  // An error scanner reads the imports the tree gave: such a language is read in full.
  const only = symbolsOnly && parts.every((p) => p.loaded.errorScanner === null);
  const { drafts, imports, calls } = _matchParts(parts, only);
  const treeImports = _collectImports(imports);
  const scanned = _scanErrors(parts, drafts, treeImports, file, source);
  for (const s of scanned.symbols) drafts.push(_scannedDraft(s));
  if (parts.length > 1 || scanned.symbols.length > 0) {
    drafts.sort((a, b) => a.start - b.start || b.end - a.end);
  }
  result.symbols = _buildSymbols(result.language, drafts, file, source);
  if (complexity) _measureComplexity(drafts, result.symbols);
  result.imports = scanned.imports.length === 0
    ? treeImports
    : [...treeImports, ...scanned.imports.map((i) => ({ ...i, resolved: null }))]
      .sort((a, b) => a.line - b.line);
  result.calls = _collectCalls(calls, drafts, result.symbols, scanned.calls);
}

/** What the `errorScanner` of each part's language reads in the part's `ERROR` regions. */
function _scanErrors(
  parts: readonly _Part[],
  drafts: readonly _Draft[],
  imports: readonly ImportRecord[],
  file: string,
  source: SourceText,
): ScannedErrors {
  const all: ScannedErrors = { symbols: [], imports: [], calls: [] };
  let starts: number[] | undefined;
  for (const part of parts) {
    const scanner = part.loaded.errorScanner;
    if (scanner === null || part.tolerant === true || !part.tree.rootNode.hasError) continue;
    starts ??= lineStarts(source.text);
    const known = drafts.filter((d) => d.kind !== "container" && d.kind !== "namespace")
      .map((d) => ({
        name: _nameText(d),
        kind: d.kind,
        startRow: d.node.startPosition.row,
        endRow: d.node.endPosition.row,
      }));
    const found = scanErrorRegions(scanner, part.tree, source.text, file, starts, part.ranges, {
      symbols: [...known, ...all.symbols],
      imports: [...imports, ...all.imports],
    });
    all.symbols.push(...found.symbols);
    all.imports.push(...found.imports);
    all.calls.push(...found.calls);
  }
  return all;
}

/** A scanned definition as a draft of the tree's, nested by range with the others. */
function _scannedDraft(s: ScannedSymbol): _Draft {
  return {
    node: s.region,
    kind: s.kind,
    name: s.region,
    scope: null,
    body: null,
    declaration: null,
    docs: [],
    decorators: [],
    decoratorsRunWithBody: false,
    docRule: undefined,
    nameTrim: undefined,
    complexity: null,
    scanned: s,
    start: s.start,
    end: s.end,
    qualified: "",
    enclosing: null,
    index: -1,
  };
}

/**
 * One walk of each tree for all three queries (the definitions query alone for `symbolsOnly`);
 * each match belongs to one of them: the definition drafts of every part, and the import and call
 * matches.
 */
function _matchParts(parts: readonly _Part[], symbolsOnly: boolean) {
  const drafts: _Draft[] = [];
  const imports: QueryMatch[] = [];
  const calls: QueryMatch[] = [];
  for (const part of parts) {
    const definitions: QueryMatch[] = [];
    const query = symbolsOnly ? definitionsQuery(part.loaded) : part.loaded.combined;
    for (const match of query.matches(part.tree.rootNode)) {
      const first = match.captures[0]?.name ?? "";
      if (match.captures.some((c) => c.name === "reference.call")) calls.push(match);
      else if (first === "import" || first.startsWith("import.")) imports.push(match);
      else if (match.captures.some((c) => c.name === "import")) imports.push(match);
      else definitions.push(match);
    }
    drafts.push(..._collectDefinitions(definitions, part.loaded));
  }
  return { drafts, imports, calls };
}

/** One parsed tree of a file and the language that reads it. */
interface _Part {
  loaded: LoadedLanguage;
  tree: Tree;
  /** A macro body's tree: its syntax errors do not make the file partial. */
  tolerant?: boolean;
  /** The ranges of the file the tree was parsed from (a region or embedded part). */
  ranges?: Range[];
}

/**
 * Parse the macro bodies of a tree again with the file's language, and theirs in turn (4 levels
 * at most), adding each tree to `parts`; a string says why a parse failed.
 */
function _parseMacroBodies(
  loaded: LoadedLanguage,
  query: Query,
  source: SourceText,
  progressCallback: () => boolean,
  root: Tree,
  trees: Tree[],
  parts: _Part[],
): string | undefined {
  let host = root;
  for (let depth = 0; depth < 4; depth++) {
    const { ranges } = _regions(query, host, new Map());
    if (ranges.length === 0) return undefined;
    const tree = _parse(loaded, source, progressCallback, ranges);
    if (typeof tree === "string") return tree;
    trees.push(tree);
    parts.push({ loaded, tree, tolerant: true });
    host = tree;
  }
  return undefined;
}

/** The text the grammar parses: `text` with the spec's `parseBlanks` matches made spaces. */
function _parseText(blanks: RegExp | undefined, text: string): string {
  if (blanks === undefined) return text;
  return text.replace(blanks, (m) => m.replace(/[^\r\n]/g, " "));
}

/**
 * Parse the source (or only `ranges` of it) with a loaded language; a string says why not (`%`
 * stands for the timeout).
 */
function _parse(
  loaded: LoadedLanguage,
  source: SourceText,
  progressCallback: () => boolean,
  ranges: Range[] | undefined,
): Tree | string {
  let tree: Tree | null;
  try {
    tree = loaded.parser.parse(
      _parseText(loaded.spec.parseBlanks, source.text),
      null,
      ranges === undefined ? { progressCallback } : { progressCallback, includedRanges: ranges },
    );
  } catch (e) {
    loaded.parser.reset();
    return `parser failed: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (tree === null) {
    // A cancelled parse leaves state behind that would resume on the next parse.
    loaded.parser.reset();
    return "parse timed out after % ms";
  }
  return tree;
}

/**
 * The `@region` ranges a region query finds in a tree, and the variant its `@region.language`
 * capture (`lang="ts"`) selects, if any.
 */
function _regions(
  query: Query,
  tree: Tree,
  variants: ReadonlyMap<string, LoadedLanguage>,
): { ranges: Range[]; language: LoadedLanguage | undefined } {
  const captures = query.captures(tree.rootNode);
  const named = captures.find((c) => c.name === "region.language");
  const language = named === undefined ? undefined : variants.get(_stripSpecifier(named.node.text));
  const ranges: Range[] = [];
  for (const c of captures) {
    // `@region.inner`: the inside of the node, without its first and last child (the brackets).
    const inner = c.name === "region.inner";
    if (c.name !== "region" && !inner) continue;
    const first = inner ? c.node.firstChild : c.node;
    const last = inner ? c.node.lastChild : c.node;
    if (first === null || last === null) continue;
    const start = inner ? first.endIndex : first.startIndex;
    const end = inner ? last.startIndex : last.endIndex;
    if (end <= start) continue;
    ranges.push({
      startIndex: start,
      endIndex: end,
      startPosition: inner ? first.endPosition : first.startPosition,
      endPosition: inner ? last.startPosition : last.endPosition,
    });
  }
  return { ranges, language };
}

function _skip(result: ParseResult, reason: string): ParseResult {
  result.status = "skipped";
  result.reason = reason;
  return result;
}

/** Count ERROR and MISSING nodes, descending only into subtrees that contain errors. */
function _countErrors(root: Node): number {
  let count = 0;
  const cursor = root.walk();
  try {
    let descend = true;
    for (;;) {
      const node = cursor.currentNode;
      if (descend) {
        if (node.isError || node.isMissing) count++;
        if (node.hasError && !node.isError && cursor.gotoFirstChild()) continue;
      }
      if (cursor.gotoNextSibling()) {
        descend = true;
        continue;
      }
      if (!cursor.gotoParent()) break;
      descend = false;
    }
  } finally {
    cursor.delete();
  }
  return count;
}

// ---------------------------------------------------------------------------------------------
// Definitions

function _collectDefinitions(matches: readonly QueryMatch[], loaded: LoadedLanguage): _Draft[] {
  const { docComments: docRule, nameTrim } = loaded.spec;
  const decoratorsRunWithBody = loaded.spec.decoratorsRunWithBody ?? false;
  const complexity = loaded.complexity;
  const byNode = new Map<number, _Draft>();
  for (const match of matches) {
    let target: QueryCapture | undefined;
    for (const c of match.captures) {
      if (c.name.startsWith("definition.") || c.name === "container" || c.name === "namespace") {
        target = c;
        break;
      }
    }
    if (target === undefined) continue;
    const kind = target.name === "container" || target.name === "namespace"
      ? target.name
      : target.name.slice("definition.".length) as SymbolKind;
    const key = target.node.id;
    let draft = byNode.get(key);
    if (draft === undefined) {
      draft = {
        node: target.node,
        kind,
        name: null,
        scope: null,
        body: null,
        declaration: null,
        docs: [],
        decorators: [],
        decoratorsRunWithBody,
        docRule,
        nameTrim,
        complexity,
        start: target.node.startIndex,
        end: target.node.endIndex,
        qualified: "",
        enclosing: null,
        index: -1,
      };
      byNode.set(key, draft);
    }
    for (const c of match.captures) {
      switch (c.name) {
        case "name":
          draft.name ??= c.node;
          break;
        case "scope":
          draft.scope ??= c.node;
          break;
        case "body":
          draft.body ??= c.node;
          break;
        case "declaration":
          draft.declaration ??= c.node;
          break;
        case "doc":
          if (!draft.docs.some((d) => d.id === c.node.id)) draft.docs.push(c.node);
          break;
        case "decorator":
          if (!draft.decorators.some((d) => d.id === c.node.id)) draft.decorators.push(c.node);
          break;
      }
    }
  }
  const drafts = [...byNode.values()].filter((d) => d.name !== null);
  for (const d of drafts) {
    d.decorators.sort((a, b) => a.startIndex - b.startIndex);
    d.docs.sort((a, b) => a.startIndex - b.startIndex);
    // A symbol's source includes decorators written before it.
    for (const dec of d.decorators) d.start = Math.min(d.start, dec.startIndex);
    // So do a signature start (`@declaration`) before the node and a body (`@body`) after it:
    // some grammars keep them as siblings of the declaration (Dart's `const` or function body).
    if (d.declaration !== null) d.start = Math.min(d.start, d.declaration.startIndex);
    if (d.body !== null) d.end = Math.max(d.end, d.body.endIndex);
  }
  drafts.sort((a, b) => a.start - b.start || b.end - a.end);
  return drafts;
}

function _sameBody(a: _Draft, b: _Draft): boolean {
  return a.body !== null && b.body !== null && a.body.startIndex === b.body.startIndex &&
    a.body.endIndex === b.body.endIndex;
}

function _buildSymbols(
  language: string,
  drafts: _Draft[],
  file: string,
  source: SourceText,
): SymbolRecord[] {
  const stack: _Draft[] = [];
  const symbols: _Draft[] = [];
  for (const d of drafts) {
    while (stack.length > 0 && stack[stack.length - 1]!.end <= d.start) stack.pop();
    let outer = stack[stack.length - 1] ?? null;
    // A function expression named like the definition around it (`defineGetter(req, "ip",
    // function ip() {})`) is that definition, not a second one.
    if (outer !== null && _sameBody(outer, d) && _nameText(outer) === _nameText(d)) continue;
    // Two names for one function (`res.set = res.header = function header() {}`) are siblings:
    // the inner name is not a member of the outer one.
    while (outer !== null && _sameBody(outer, d)) outer = outer.enclosing;
    d.enclosing = outer;
    const name = _nameText(d);
    const prefix = outer === null ? "" : `${outer.qualified}.`;
    d.qualified = d.scope !== null
      ? `${prefix}${_scopeText(d.scope, d.name!, source.text)}.${name}`
      : prefix + name;
    if (
      d.kind === "function" && (d.scope !== null ||
        (outer !== null &&
          (outer.kind === "class" || outer.kind === "type" || outer.kind === "container")))
    ) {
      d.kind = "method";
    }
    stack.push(d);
    if (d.kind !== "container" && d.kind !== "namespace") {
      d.index = symbols.length;
      symbols.push(d);
    }
  }

  const ids = disambiguateIds(symbols.map((d) => symbolId(file, d.qualified, d.kind)));
  const typeIds = new Map<string, string>();
  symbols.forEach((d, i) => {
    if ((d.kind === "class" || d.kind === "type") && !typeIds.has(d.qualified)) {
      typeIds.set(d.qualified, ids[i]!);
    }
  });

  return symbols.map((d, i): SymbolRecord => {
    let parent: string | null = null;
    if (d.scope !== null) {
      const q = d.qualified.slice(0, d.qualified.length - _nameText(d).length - 1);
      parent = typeIds.get(q) ?? null;
    } else if (d.enclosing !== null) {
      parent = d.enclosing.index === -1
        ? typeIds.get(d.enclosing.qualified) ?? null
        : ids[d.enclosing.index] ?? null;
    }
    const { startRow, endRow } = _rows(d, source.text);
    const byteOffset = source.byteOffset(d.start);
    const byteEnd = source.byteOffset(d.end);
    const content = source.bytes.subarray(byteOffset, byteEnd);
    const endLine = Math.max(endRow, startRow) + 1;
    const kind = d.kind as SymbolKind;
    const name = _nameText(d);
    const signature = d.scanned?.signature ?? _signature(source.text, d);
    const docstring = _docstring(d);
    return {
      id: ids[i]!,
      file,
      name,
      qualified_name: d.qualified,
      kind,
      language,
      signature,
      docstring,
      summary: symbolSummary({ kind, name, signature, docstring }),
      decorators: d.decorators.map((n) => n.text.trim()),
      keywords: [],
      parent,
      line: startRow + 1,
      end_line: endLine,
      byte_offset: byteOffset,
      byte_length: byteEnd - byteOffset,
      content_hash: sha256Hex(content),
    };
  });
}

/**
 * A draft's first and last rows (0-based); a range ending after a newline is cut back to the
 * line before it.
 */
function _rows(d: _Draft, text: string): { startRow: number; endRow: number } {
  if (d.scanned !== undefined) return { startRow: d.scanned.startRow, endRow: d.scanned.endRow };
  const endPosition = d.body !== null && d.body.endIndex > d.node.endIndex
    ? d.body.endPosition
    : d.node.endPosition;
  // Some grammars end a node after its newline (`#define`): keep the range on its own lines.
  let endRow = endPosition.row;
  while (d.end > d.start && (text[d.end - 1] === "\n" || text[d.end - 1] === "\r")) {
    if (text[d.end - 1] === "\n") endRow--;
    d.end--;
  }
  return { startRow: _rowAt(text, d.start, d.node), endRow };
}

/** The `@doc` captures, else the doc comments before the definition, else the scanner's. */
function _docstring(d: _Draft): string {
  if (d.scanned !== undefined) return d.scanned.docstring;
  if (d.docs.length > 0) return _joinDocs(d.docs);
  return d.docRule === undefined ? "" : _precedingDoc(d, d.docRule);
}

/** The complexity of each function and method whose language has rules, from its draft's tree. */
function _measureComplexity(drafts: readonly _Draft[], symbols: SymbolRecord[]): void {
  for (const d of drafts) {
    const s = d.index === -1 || d.complexity === null ? undefined : symbols[d.index];
    if (s === undefined || (s.kind !== "function" && s.kind !== "method")) continue;
    s.complexity = measureFunction(
      functionOf(d.node, d.body, d.complexity!),
      d.body,
      d.complexity!,
    );
  }
}

/** 0-based row of a UTF-16 index: the node's row, or earlier when decorators extend the range. */
function _rowAt(text: string, index: number, node: Node): number {
  if (index === node.startIndex) return node.startPosition.row;
  let row = node.startPosition.row;
  for (let i = index; i < node.startIndex; i++) if (text.charCodeAt(i) === 10) row--;
  return row;
}

function _nameText(d: _Draft): string {
  if (d.scanned !== undefined) return d.scanned.name;
  // A name is one line: a CSS selector list or a heading written over several lines reads as
  // one (`a:link,\n  a:visited` → `a:link, a:visited`), so its id can be typed, passed as an
  // argument and carried in a table cell.
  const text = d.name!.text.trim().replace(/\s*[\r\n\u2028\u2029]\s*/g, " ");
  return d.nameTrim === undefined ? text : text.replace(d.nameTrim, "");
}

/**
 * A written qualifier (`ns::Foo`, `*Server`) as a dotted name (`ns.Foo`, `Server`). A `@scope`
 * that encloses the `@name` (a whole `a::B::C::f`) stands for the text before the name.
 */
function _scopeText(scope: Node, name: Node, text: string): string {
  const raw = scope.startIndex <= name.startIndex && name.endIndex <= scope.endIndex
    ? text.slice(scope.startIndex, name.startIndex)
    : scope.text;
  return raw.replace(/\s+/g, "").replace(/::|->/g, ".").replace(/^[*&.]+|[.]+$/g, "");
}

/** Declaration text: from the declaration start to the body (or the first line when no body). */
function _signature(text: string, d: _Draft): string {
  let start = (d.declaration ?? d.node).startIndex;
  // Leading decorators inside the node (Java annotations in modifiers) are not the signature.
  for (let moved = true; moved;) {
    moved = false;
    while (start < d.end && /\s/.test(text[start]!)) start++;
    for (const dec of d.decorators) {
      if (dec.startIndex === start && dec.endIndex < d.end) {
        start = dec.endIndex;
        moved = true;
      }
    }
  }
  let sig: string;
  if (d.body !== null && d.body.startIndex >= start) {
    // End at the last token before the body, so comments between them stay out.
    let end = d.body.startIndex;
    let prev = d.body.previousSibling;
    while (prev !== null && prev.isExtra) prev = prev.previousSibling;
    if (prev !== null && prev.endIndex > start) end = Math.min(end, prev.endIndex);
    sig = text.slice(start, end);
  } else {
    sig = text.slice(start, d.end);
    const nl = sig.indexOf("\n");
    if (nl !== -1) sig = sig.slice(0, nl);
  }
  sig = sig.trimEnd();
  if (/[{:;,]$|\s=$/.test(sig)) sig = sig.slice(0, -1).trimEnd();
  return sig;
}

/** Doc comments written directly above a definition (no blank line in between). */
function _precedingDoc(d: _Draft, rule: DocCommentRule): string {
  let anchor: Node = d.node;
  const wrappers = rule.wrapperTypes ?? [];
  // Comments above a wrapper (`export`, `template <...>`, an ungrouped Go `type`) document it.
  for (
    let p = anchor.parent;
    p !== null && wrappers.includes(p.type) && _ownsWrapper(anchor, d.decorators, rule.nodeTypes);
    p = p.parent
  ) anchor = p;
  let first: Node | undefined = d.decorators[0];
  if (d.declaration !== null && d.declaration.startIndex < (first ?? anchor).startIndex) {
    first = d.declaration;
  }
  if (first !== undefined && first.startIndex < anchor.startIndex) {
    // Decorators before the definition are siblings of it (or of its wrapper): start above them.
    let top: Node = first;
    while (top.parent !== null && top.parent.id !== anchor.parent?.id) top = top.parent;
    if (top.startIndex < anchor.startIndex) anchor = top;
  }
  const skip = rule.skipTypes ?? [];
  const comments: Node[] = [];
  let row = anchor.startPosition.row;
  for (let prev = anchor.previousNamedSibling; prev !== null; prev = prev.previousNamedSibling) {
    if (skip.includes(prev.type)) {
      // Whitespace the grammar keeps as a node (XML's `CharData`) is stepped over as if absent.
      if (!_isBlank(prev)) row = prev.startPosition.row;
      continue;
    }
    if (!rule.nodeTypes.includes(prev.type)) break;
    if (prev.endPosition.row < row - 1 && !_detachedDoc(prev, comments.length, rule)) break;
    // A comment that ends on the line of an earlier statement is a trailing comment of it.
    let before = prev.previousNamedSibling;
    while (before !== null && skip.includes(before.type) && _isBlank(before)) {
      before = before.previousNamedSibling;
    }
    // (A node ending at column 0, like an `#import` line with its newline, ends on the row before.)
    if (
      before !== null && before.endPosition.row === prev.startPosition.row &&
      before.endPosition.column > 0
    ) break;
    comments.unshift(prev);
    row = prev.startPosition.row;
  }
  const prefixes = rule.prefixes;
  const docs = prefixes === undefined
    ? comments
    : comments.filter((c) => prefixes.some((p) => c.text.startsWith(p)));
  return _joinDocs(docs);
}

/**
 * Whether a comment separated from what follows by blank lines still documents it: the nearest
 * comment only, written as a doc comment of the language (`detachedPrefixes`), and not a file
 * header (`@license`, `@module`, `@file`, a copyright notice).
 */
function _detachedDoc(comment: Node, found: number, rule: DocCommentRule): boolean {
  if (found > 0) return false;
  const text = comment.text;
  if (!(rule.detachedPrefixes ?? []).some((p) => text.startsWith(p))) return false;
  return !/@(?:license|module|file|fileoverview|packageDocumentation|preserve)\b|copyright/i.test(
    text,
  );
}

/** Whether a node is only whitespace (a text node between two elements). */
function _isBlank(node: Node): boolean {
  return node.text.trim() === "";
}

/**
 * The cleaned text of consecutive doc comment nodes, one after another. An empty comment line
 * (`//` alone, between two paragraphs of line comments) stays as one blank line; blank lines at
 * the start and end go.
 */
function _joinDocs(nodes: readonly Node[]): string {
  const lines: string[] = [];
  for (const n of nodes) {
    const text = cleanDoc(n.text);
    if (text === "" && (lines.length === 0 || lines[lines.length - 1] === "")) continue;
    lines.push(text);
  }
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines.join("\n");
}

/**
 * Whether the comments above a wrapper belong to `node`: not when a comment of its own precedes it
 * inside the wrapper, nor when a sibling of its own type does (the second spec of a grouped Go
 * `type (...)`). Decorators are looked through.
 */
function _ownsWrapper(node: Node, decorators: readonly Node[], comments: string[]): boolean {
  let prev = node.previousNamedSibling;
  while (prev !== null && decorators.some((d) => d.id === prev!.id)) {
    prev = prev.previousNamedSibling;
  }
  return prev === null || (!comments.includes(prev.type) && prev.type !== node.type);
}

/**
 * Clean a doc comment or docstring: strip comment markers (`/** *\/`, `///`, `//!`, `//`, `#`,
 * `--`, `;`, `\*`, `!`, `(** *)`, `<!-- -->`) or string quotes, then remove the common indentation and blank edges.
 */
export function cleanDoc(raw: string): string {
  let t = raw.replace(/\r\n?/g, "\n").trim();
  const quoted = /^[rRuUbBfF]{0,2}("""|'''|"|')([\s\S]*)\1$/.exec(t);
  let lines: string[];
  if (quoted) {
    lines = quoted[2]!.split("\n");
  } else if (/^\/\*/.test(t) || /^\(\*/.test(t)) {
    t = t.replace(/^(\/\*+!?|\(\*+)/, "").replace(/(\*+\/|\*+\))$/, "");
    lines = t.split("\n").map((l) => l.replace(/^\s*\*(?!\/) ?/, ""));
  } else if (/^<!--/.test(t)) {
    // SGML/XML comments (DTD, XML): `<!-- ... -->`, one or several in a row.
    lines = t.replace(/^<!--\s?/, "").replace(/\s?-->$/, "").replace(/\s*-->\s*<!--\s?/g, "\n")
      .split("\n");
  } else if (/^\{-/.test(t)) {
    // Haskell/Elm block comments, `{-| ... -}` for docs.
    lines = t.replace(/^\{-\|? ?/, "").replace(/-\}$/, "").split("\n");
  } else {
    lines = t.split("\n").map((l) =>
      // `-- |` and `-- ^` are Haddock's doc markers.
      // `\*` is TLA+'s line comment, `!` one of Java `.properties`.
      l.replace(/^\s*(\/\/[\/!]?|#+|--+ ?[|^]?|;+|%+|\\\*|!+) ?/, "")
    );
  }
  // Common indentation of the lines after the first (the first follows the opening marker).
  let indent = Infinity;
  for (const l of lines.slice(1)) {
    if (l.trim() === "") continue;
    indent = Math.min(indent, l.length - l.trimStart().length);
  }
  if (indent !== Infinity) lines = [lines[0]!, ...lines.slice(1).map((l) => l.slice(indent))];
  lines = lines.map((l) => l.trimEnd());
  lines[0] = lines[0]!.trim();
  while (lines.length > 0 && lines[0] === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------
// Imports and calls

function _stripSpecifier(text: string): string {
  const t = text.trim();
  const m = /^(["'`<])([\s\S]*)(["'`>])$/.exec(t);
  return m ? m[2]! : t;
}

function _collectImports(matches: readonly QueryMatch[]): ImportRecord[] {
  const records = new Map<string, ImportRecord & { _start: number }>();
  for (const match of matches) {
    let statement: Node | undefined;
    let sourceNode: Node | undefined;
    const names: string[] = [];
    for (const c of match.captures) {
      if (c.name === "import") statement = c.node;
      else if (c.name === "import.source") sourceNode = c.node;
      else if (c.name === "import.name") names.push(c.node.text.trim());
      // A whole module bound to another name (Python's `import a.b as d`): written as
      // ECMAScript's namespace import is, `* as d`.
      else if (c.name === "import.alias") names.push(`* as ${c.node.text.trim()}`);
      // A word list (Perl's `qw(sum max)`) is one node: one name per word.
      else if (c.name === "import.names") {
        names.push(...c.node.text.split(/\s+/).filter((w) => w !== ""));
      }
    }
    if (statement === undefined || sourceNode === undefined) continue;
    const specifier = _stripSpecifier(sourceNode.text);
    const key = `${statement.id}\u0000${sourceNode.startIndex}`;
    let record = records.get(key);
    if (record === undefined) {
      record = {
        specifier,
        names: [],
        line: statement.startPosition.row + 1,
        resolved: null,
        _start: sourceNode.startIndex,
      };
      records.set(key, record);
    }
    for (const n of names) if (!record.names.includes(n)) record.names.push(n);
  }
  return [...records.values()]
    .sort((a, b) => a._start - b._start)
    .map(({ specifier, names, line, resolved }) => ({ specifier, names, line, resolved }));
}

function _collectCalls(
  matches: readonly QueryMatch[],
  drafts: _Draft[],
  symbols: SymbolRecord[],
  scanned: readonly ScannedCall[],
): CallRecord[] {
  const found: { start: number; callee: string; receiver: string | null; line: number }[] = [];
  const seen = new Set<number>();
  // A match with `@reference.call` and no `@name` marks a node inside which no call is recorded
  // (definition heads or type specs that parse as calls: Elixir's `def f(x)`, `@spec f(t) :: t`).
  const excluded: Node[] = [];
  for (const match of matches) {
    if (match.captures.some((c) => c.name === "callee")) continue;
    const region = match.captures.find((c) => c.name === "reference.call");
    if (region !== undefined) excluded.push(region.node);
  }
  const isExcluded = (n: Node) =>
    excluded.some((x) => n.startIndex >= x.startIndex && n.endIndex <= x.endIndex);
  for (const match of matches) {
    let call: Node | undefined;
    let name: Node | undefined;
    let receiver: Node | undefined;
    for (const c of match.captures) {
      if (c.name === "reference.call") call = c.node;
      else if (c.name === "callee") name = c.node;
      else if (c.name === "receiver") receiver = c.node;
    }
    if (call === undefined || name === undefined || seen.has(call.id) || isExcluded(call)) continue;
    seen.add(call.id);
    found.push({
      start: call.startIndex,
      callee: name.text.trim(),
      receiver: receiver === undefined ? null : _receiverText(receiver.text),
      line: call.startPosition.row + 1,
    });
  }
  // The error scanner's calls, but one the tree has on the same line.
  const treeCalls = new Set(found.map((f) => `${f.line}:${f.callee}`));
  found.push(...scanned.filter((c) => !treeCalls.has(`${c.line}:${c.callee}`)));
  found.sort((a, b) => a.start - b.start);
  // Sweep calls and symbol ranges together; the innermost open symbol is the caller.
  const ranges = drafts.filter((d) => d.index !== -1);
  const stack: number[] = [];
  let next = 0;
  const calls: CallRecord[] = [];
  for (const f of found) {
    while (next < ranges.length && ranges[next]!.start <= f.start) {
      const d = ranges[next]!;
      while (stack.length > 0 && ranges[stack[stack.length - 1]!]!.end <= d.start) stack.pop();
      stack.push(next++);
    }
    while (stack.length > 0 && ranges[stack[stack.length - 1]!]!.end <= f.start) stack.pop();
    // A decorator's call (`@app.get("/x")`) runs where the definition is written, not in its
    // body: its caller is the symbol around the decorated one (or the file), unless the spec's
    // decorators run with the body.
    let depth = stack.length;
    while (depth > 0 && _inDecorator(ranges[stack[depth - 1]!]!, f.start)) depth--;
    const top = stack[depth - 1];
    const owner = top === undefined ? undefined : ranges[top];
    calls.push({
      callee: f.callee,
      receiver: f.receiver,
      caller: owner === undefined ? null : symbols[owner.index]!.id,
      line: f.line,
    });
  }
  return calls;
}

function _inDecorator(d: _Draft, at: number): boolean {
  return !d.decoratorsRunWithBody &&
    d.decorators.some((dec) => at >= dec.startIndex && at < dec.endIndex);
}

function _receiverText(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > 200 ? t.slice(0, 200) : t;
}
