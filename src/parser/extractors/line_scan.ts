/**
 * The engine of our own scanners: languages with no tree-sitter grammar we can load and no parser
 * on npm (Fortran, Ada, VHDL, Tcl, COBOL, assembly, ...) are read line by line from a table of
 * rules (`ScanRules`, one data file per language in `extractors/`). Comments and strings are first
 * blanked out (offsets kept, `blank.ts`), so a rule never matches inside them; a rule matches at a
 * line's first non-blank character and says how far its definition reaches (the line, a `{ }`
 * block, the deeper-indented lines, a closing keyword, or up to the next definition of its level).
 * Nesting follows from the open blocks: the innermost is the parent.
 */
import type { SymbolKind } from "../types.ts";
import type { Extracted, Extractor, SymbolDraft } from "./records.ts";
import { blankSource, type CommentSyntax } from "./blank.ts";
import { matchBrace } from "./scan.ts";

/** How far a definition reaches. */
export type EndRule =
  /** The line, and its continuation lines (`ScanRules.continuation`). */
  | "line"
  /**
   * Up to the `}` matching the first `{` after the match (a `terminator` first: that statement).
   * With `nextLine`, the `{` must be on the match's line or open the next one, else the rule does
   * not apply (AutoHotkey's `Name(x)` alone is a call, `Name(x) {` a definition). With
   * `nameToBrace`, the name is all the text from the match to the `{`, spaces squeezed (a CSS
   * selector list over several lines). Lines before the `{` are part of the header: no rule
   * matches on them.
   */
  | { brace: true; terminator?: string; nextLine?: boolean; nameToBrace?: boolean }
  /** The following lines indented deeper than the definition's own. */
  | "indent"
  /** Up to the next definition of the same or a lower `level`, or its parent's end. */
  | "next"
  /** Up to the end of the command: a newline or `;` outside brackets and braces (Tcl). */
  | "command"
  /**
   * Up to a line matching one of `ScanRules.closers`. With `body`: the definition is a declaration
   * ending at `terminator` unless `body` comes first (Ada's `procedure P;` against `... is`).
   */
  | { keyword: true; body?: RegExp; terminator?: string }
  /** A declaration ending at `terminator` (outside parentheses): `constant X : T := 1;`. */
  | { terminator: string };

/** An open definition or container, as the rules see it. */
export interface OpenBlock {
  tag: string;
  name: string;
  kind: SymbolKind | undefined;
  /** Its rule's `level` (0 without one). */
  level: number;
}

/** One kind of definition. */
export interface DefinitionRule {
  /**
   * Matched at a line's first non-blank character of the blanked text. Group `name` is the
   * symbol's name (read from the source text at the same place), or group `names` a
   * comma-separated list of names, one symbol each (`integer :: a, b(3)`).
   */
  match: RegExp;
  /** The symbol's kind; a function may decide from the match and the parent (`undefined`: none). */
  kind:
    | SymbolKind
    | ((m: RegExpMatchArray, parent: OpenBlock | undefined) => SymbolKind | undefined);
  end: EndRule;
  /** Names this rule's blocks for `within` and closers (or decides from the match). @default the kind */
  tag?: string | ((m: RegExpMatchArray) => string);
  /** Only when the next non-blank line is indented deeper (an indented Sass rule). */
  nextDeeper?: boolean;
  /**
   * Only where the line's first non-blank character is at most this column (0-based, tabs to 8):
   * COBOL's area A (columns 8-11 of a fixed-form line). @default any
   */
  maxIndent?: number;
  /** Only inside a block of one of these tags (`null`: at top level). @default anywhere */
  within?: readonly (string | null)[];
  /** Never inside a block of one of these tags (the frames of CSS `@keyframes`). @default [] */
  notWithin?: readonly string[];
  /** A container only (a COBOL division, an anonymous block): scopes, no symbol. @default false */
  container?: boolean;
  /**
   * Members listed in a `( )` right after the match (an enumeration's literals): each leading name of a comma-separated item is a symbol of this kind, its child.
   */
  members?: SymbolKind;
  /**
   * The level: a definition with `end: "next"` ends where a definition of its level or a lower
   * one starts (any rule with a level).
   */
  level?: number | ((m: RegExpMatchArray) => number);
}

/** A line that closes keyword-closed blocks: `end subroutine f`, `end Name;`. */
export interface CloseRule {
  /**
   * Groups: `name` (pops up to the open block of that name; ignored when none has it), `what`
   * (pops up to the innermost block whose tag is in `tags[what]`). Neither: pops the innermost.
   */
  match: RegExp;
  /** What a `what` group's text (lower-cased, spaces squeezed) closes, by tag. @default the text */
  tags?: Record<string, readonly string[]>;
}

/** An import statement (matched on the source line, not the blanked one). */
export interface ImportRule {
  /** Group `source` (one specifier) or `sources` (a comma-separated list), `names` optional. */
  match: RegExp;
}

/** A language for the line scanner, as data. */
export interface ScanRules {
  comments: CommentSyntax;
  definitions: readonly DefinitionRule[];
  closers?: readonly CloseRule[];
  /** Lines opening an anonymous keyword-closed block (MATLAB's `if`, `for`): closers pop them too. */
  openers?: readonly RegExp[];
  imports?: readonly ImportRule[];
  /** Global patterns over the blanked text; group `name` is the callee, `receiver` optional. */
  calls?: readonly RegExp[];
  /** Callee names that are keywords, not calls. */
  notCalls?: ReadonlySet<string>;
  /** A line ending with this continues on the next (`&` in Fortran, `\` in Tcl). */
  continuation?: string;
  /** Line-comment markers whose lines directly above (or below) a definition are its docstring. */
  doc?: { above?: readonly string[]; below?: readonly string[] };
  /** Cleans an import's specifier as written (`lib\\x.ahk` → `lib/x.ahk`). @default as written */
  cleanSource?: (specifier: string) => string;
  /** Cleans a name as written (quotes, an export marker): `"+"` → `+`. @default trims */
  cleanName?: (name: string) => string;
  /** Names that are keywords: a match naming one is no definition. */
  keywords?: ReadonlySet<string>;
  /**
   * Other rules for a file whose text says so (MATLAB functions closed by `end` or not). Gets the
   * blanked text. @default these rules
   */
  variant?: (blanked: string) => ScanRules | undefined;
}

/** An extractor reading a language with its `ScanRules`. */
export function lineScanner(rules: ScanRules): Extractor {
  const compiled = _compile(rules);
  const variants = new Map<ScanRules, ScanRules>();
  return {
    extract(text, file) {
      const blanked = blankSource(text, rules.comments, file);
      const other = rules.variant?.(blanked);
      if (other === undefined) return _extract(compiled, text, blanked);
      if (!variants.has(other)) variants.set(other, _compile(other));
      return _extract(variants.get(other)!, text, blanked);
    },
  };
}

interface _Block extends OpenBlock {
  draft?: number;
  /** A keyword block found by its `body` keyword, whose body has not started yet. */
  awaitsBody?: boolean;
  /** Known end offset (brace, line, command, terminator), else dynamic. */
  end?: number;
  mode: "known" | "indent" | "next" | "keyword";
  indent: number;
  level: number;
}

interface _Line {
  start: number;
  end: number;
  indent: number;
  first: number;
  /** The blanked text the line is in, and the line's part of it. */
  source: string;
  code: string;
}

function _compile(rules: ScanRules): ScanRules {
  const sticky = (r: RegExp) => new RegExp(r.source, r.flags.replace(/[gydm]/g, "") + "dmy");
  return {
    ...rules,
    definitions: rules.definitions.map((d) => ({ ...d, match: sticky(d.match) })),
    closers: (rules.closers ?? []).map((c) => ({ ...c, match: sticky(c.match) })),
    openers: (rules.openers ?? []).map(sticky),
    imports: (rules.imports ?? []).map((i) => ({ match: sticky(i.match) })),
  };
}

function _extract(rules: ScanRules, text: string, blanked: string): Extracted {
  const found: Extracted = { symbols: [], imports: [], calls: [], errors: [] };
  const lines = _lines(blanked);
  const stack: _Block[] = [];
  const state = { headerEnd: 0 };
  let previousEnd = 0;
  for (const line of lines) {
    if (line.first === line.end) continue;
    _popPassed(stack, found, line, previousEnd);
    if (_close(rules, blanked, text, line, stack, found)) {
      previousEnd = line.end;
      continue;
    }
    _import(rules, text, blanked, line, found);
    if (!_define(rules, text, blanked, line, lines, stack, found, state)) {
      _openAnonymous(rules, blanked, line, stack);
    }
    previousEnd = line.end;
  }
  while (stack.length > 0) _finish(stack.pop()!, found, text.length);
  _calls(rules, blanked, found);
  return found;
}

function _lines(blanked: string): _Line[] {
  const lines: _Line[] = [];
  let start = 0;
  while (start <= blanked.length) {
    let end = blanked.indexOf("\n", start);
    if (end === -1) end = blanked.length;
    let first = start;
    let indent = 0;
    while (first < end && /[ \t\r\f]/.test(blanked[first]!)) {
      indent += blanked[first] === "\t" ? 8 - (indent % 8) : 1;
      first++;
    }
    if (first < end && blanked[end - 1] === "\r") end--;
    const code = blanked.slice(start, end);
    lines.push({ start, end, indent, first: first === end ? end : first, source: blanked, code });
    start = blanked.indexOf("\n", start) === -1
      ? blanked.length + 1
      : blanked.indexOf("\n", start) + 1;
  }
  return lines;
}

/** Close the blocks a line is past: known ends before it, indented blocks it dedents. */
function _popPassed(stack: _Block[], found: Extracted, line: _Line, previousEnd: number): void {
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.mode === "known" && top.end! <= line.start) {
      _finish(stack.pop()!, found, top.end!);
    } else if (top.mode === "indent" && line.indent <= top.indent) {
      _finish(stack.pop()!, found, previousEnd);
    } else {
      return;
    }
  }
}

function _finish(block: _Block, found: Extracted, end: number): void {
  if (block.draft === undefined) return;
  const draft = found.symbols[block.draft]!;
  draft.end = Math.max(draft.start, Math.min(block.end ?? end, end));
}

/** A closing line: pop what it closes (up to and including the named or matching block). */
function _close(
  rules: ScanRules,
  blanked: string,
  text: string,
  line: _Line,
  stack: _Block[],
  found: Extracted,
): boolean {
  for (const closer of rules.closers ?? []) {
    const m = _execLine(closer.match, blanked, line);
    if (m === null) continue;
    const target = _closeTarget(rules, closer, m, text, stack);
    if (target === -1) return m.groups?.name === undefined && m.groups?.what === undefined;
    while (stack.length > target) {
      const block = stack.pop()!;
      _finish(block, found, stack.length === target ? line.end : line.start);
    }
    return true;
  }
  return false;
}

function _closeTarget(
  rules: ScanRules,
  closer: CloseRule,
  m: _LineMatch,
  text: string,
  stack: readonly _Block[],
): number {
  const name = _groupText(m, "name", text);
  const what = m.groups?.what?.toLowerCase().replace(/\s+/g, " ");
  const tags = what === undefined ? undefined : closer.tags?.[what] ?? [what];
  for (let i = stack.length - 1; i >= 0; i--) {
    const block = stack[i]!;
    if (block.mode !== "keyword") continue;
    if (name !== undefined) {
      const clean = rules.cleanName?.(name) ?? name;
      if (block.name.toLowerCase() === clean.toLowerCase()) return i;
    } else if (tags === undefined || tags.includes(block.tag)) {
      return i;
    }
  }
  if (name !== undefined && tags !== undefined) {
    for (let i = stack.length - 1; i >= 0; i--) {
      if (stack[i]!.mode === "keyword" && tags.includes(stack[i]!.tag)) return i;
    }
  }
  return -1;
}

function _openAnonymous(rules: ScanRules, blanked: string, line: _Line, stack: _Block[]): void {
  for (const opener of rules.openers ?? []) {
    if (_execLine(opener, blanked, line) !== null) {
      // The first opener after a definition's head is its own body (AL's `begin`).
      const top = stack[stack.length - 1];
      if (top?.awaitsBody === true) {
        top.awaitsBody = false;
        return;
      }
      stack.push({
        tag: "",
        name: "",
        kind: undefined,
        mode: "keyword",
        indent: line.indent,
        level: 0,
      });
      return;
    }
  }
}

/** The first definition rule matching the line: its symbols and its block. */
function _define(
  rules: ScanRules,
  text: string,
  blanked: string,
  line: _Line,
  lines: readonly _Line[],
  stack: _Block[],
  found: Extracted,
  state: { headerEnd: number },
): boolean {
  if (line.start < state.headerEnd) return false;
  for (const rule of rules.definitions) {
    const inner = _innerOpen(stack);
    if (rule.within !== undefined && !rule.within.includes(inner?.tag ?? null)) continue;
    if (inner !== undefined && rule.notWithin?.includes(inner.tag) === true) continue;
    if (rule.maxIndent !== undefined && line.indent > rule.maxIndent) continue;
    const m = _execLine(rule.match, blanked, line);
    if (m === null) continue;
    const level = typeof rule.level === "function" ? rule.level(m) : rule.level ?? 0;
    // A rule with a level decides its kind by the parent it gets once its level's blocks end.
    const parent = rule.level === undefined ? inner : _innerOpenAfter(stack, level);
    const kind = typeof rule.kind === "function" ? rule.kind(m, parent) : rule.kind;
    if (kind === undefined) continue;
    let names = rule.container === true ? [""] : _names(rules, m, text);
    const open = _headerBrace(rule, blanked, m);
    if (open !== undefined && typeof rule.end === "object" && "nameToBrace" in rule.end) {
      names = [text.slice(line.first, open).replace(/\s+/g, " ").trim()];
    }
    if (names.length === 0 || names.some((n) => rules.keywords?.has(n.toLowerCase()))) continue;
    if (
      typeof rule.end === "object" && "nextLine" in rule.end && !_braceFollows(blanked, line, lines)
    ) continue;
    if (rule.nextDeeper === true && !_deeperFollows(line, lines)) continue;
    if (rule.end === "next" || rule.level !== undefined) _popLevel(stack, found, level, line.start);
    const block = _block(rules, rule, blanked, line, lines, m, kind, names[0]!, level);
    if (!rule.container) {
      const owner = _innerSymbol(stack);
      for (const name of names) {
        const draft = { name, kind, start: line.first, end: block.end ?? line.end };
        block.draft = _push(rules, text, found, draft, owner);
      }
      const after = m.offset + m.index + m[0].length;
      if (rule.members !== undefined) {
        _members(rules, text, blanked, found, block, after, rule.members);
      }
    }
    stack.push(block);
    if (open !== undefined) state.headerEnd = open;
    return true;
  }
  return false;
}

/** Where the `{` of a brace rule's block is, when the rule names its block up to it. */
function _headerBrace(rule: DefinitionRule, blanked: string, m: _LineMatch): number | undefined {
  if (typeof rule.end !== "object" || !("brace" in rule.end)) return undefined;
  const from = m.offset + m.index + m[0].length;
  const stop = _statementEnd(blanked, from, rule.end.terminator, /\{/y);
  return stop.body;
}

/** The names in the first `( )` of a definition: its members (enumeration literals). */
function _members(
  rules: ScanRules,
  text: string,
  blanked: string,
  found: Extracted,
  block: _Block,
  from: number,
  kind: SymbolKind,
): void {
  const owner = found.symbols[block.draft!]!;
  const open = from + /^\s*/.exec(blanked.slice(from, from + 200))![0].length;
  const end = block.end ?? owner.end;
  if (blanked[open] !== "(" || open >= end) return;
  let depth = 0;
  let item = open + 1;
  for (let i = open; i < end; i++) {
    const c = blanked[i]!;
    if (c === "(") depth++;
    else if (c === ")") depth--;
    if ((c === "," && depth === 1) || depth === 0) {
      const m = /^\s*([A-Za-z_$][\w$]*)/.exec(blanked.slice(item, i));
      if (m !== null) {
        const start = item + m[0].length - m[1]!.length;
        _push(
          rules,
          text,
          found,
          { name: m[1]!, kind, start, end: start + m[1]!.length },
          block.draft,
        );
      }
      item = i + 1;
      if (depth === 0) return;
    }
  }
}

function _deeperFollows(line: _Line, lines: readonly _Line[]): boolean {
  const next = lines.slice(lines.indexOf(line) + 1).find((l) => l.first < l.end);
  return next !== undefined && next.indent > line.indent;
}

/** Whether a `{` is on the line or opens the next non-blank one. */
function _braceFollows(blanked: string, line: _Line, lines: readonly _Line[]): boolean {
  if (line.code.includes("{")) return true;
  const next = lines.slice(lines.indexOf(line) + 1).find((l) => l.first < l.end);
  return next !== undefined && blanked[next.first] === "{";
}

function _innerOpen(stack: readonly _Block[]): _Block | undefined {
  for (let i = stack.length - 1; i >= 0; i--) if (stack[i]!.tag !== "") return stack[i];
  return undefined;
}

function _innerSymbol(stack: readonly _Block[]): number | undefined {
  for (let i = stack.length - 1; i >= 0; i--) {
    if (stack[i]!.draft !== undefined) return stack[i]!.draft;
  }
  return undefined;
}

/** The innermost open block left once a definition of level `level` ends those of its level. */
function _innerOpenAfter(stack: readonly _Block[], level: number): _Block | undefined {
  let target = stack.length;
  for (let i = stack.length - 1; i >= 0 && stack[i]!.mode !== "keyword"; i--) {
    if (stack[i]!.mode === "next" && stack[i]!.level >= level) target = i;
  }
  return _innerOpen(stack.slice(0, target));
}

/** A definition of level `level` starts: the `next`-ended blocks of that level or deeper end. */
function _popLevel(stack: _Block[], found: Extracted, level: number, at: number): void {
  let target = -1;
  for (let i = stack.length - 1; i >= 0 && stack[i]!.mode !== "keyword"; i--) {
    if (stack[i]!.mode === "next" && stack[i]!.level >= level) target = i;
  }
  if (target < 0) return;
  while (stack.length > target) _finish(stack.pop()!, found, at);
}

function _block(
  rules: ScanRules,
  rule: DefinitionRule,
  blanked: string,
  line: _Line,
  lines: readonly _Line[],
  m: _LineMatch,
  kind: SymbolKind,
  name: string,
  level: number,
): _Block {
  const tag = typeof rule.tag === "function" ? rule.tag(m) : rule.tag ?? kind;
  const base = { tag, name, kind, indent: line.indent, level };
  const from = m.offset + m.index + m[0].length;
  const end = rule.end;
  if (end === "indent") return { ...base, mode: "indent" };
  if (end === "next") return { ...base, mode: "next" };
  if (end === "line") return { ...base, mode: "known", end: _lineEnd(rules, blanked, line, lines) };
  if (end === "command") {
    return { ...base, mode: "known", end: _commandEnd(blanked, m.offset + m.index) };
  }
  if ("brace" in end) {
    const stop = _statementEnd(blanked, from, end.terminator, /\{/y);
    const open = stop.body;
    return {
      ...base,
      mode: "known",
      end: open === undefined ? stop.end : matchBrace(blanked, open),
    };
  }
  if ("keyword" in end) {
    if (end.body === undefined) return { ...base, mode: "keyword" };
    const stop = _statementEnd(blanked, from, end.terminator, end.body);
    if (stop.body === undefined) return { ...base, mode: "known", end: stop.end };
    return { ...base, mode: "keyword", awaitsBody: true };
  }
  return {
    ...base,
    mode: "known",
    end: _statementEnd(blanked, from, end.terminator, undefined).end,
  };
}

/**
 * From `from`, the first `terminator` outside parentheses (its end), or where `body` matches
 * first (its index, as `body`).
 */
function _statementEnd(
  blanked: string,
  from: number,
  terminator: string | undefined,
  body: RegExp | undefined,
): { end: number; body?: number } {
  const sticky = body === undefined
    ? undefined
    : new RegExp(body.source, body.flags.replace(/[gy]/g, "") + "y");
  let depth = 0;
  for (let i = from; i < blanked.length; i++) {
    const c = blanked[i]!;
    if (c === "(") depth++;
    else if (c === ")") depth = Math.max(0, depth - 1);
    if (depth > 0) continue;
    if (terminator !== undefined && blanked.startsWith(terminator, i)) {
      return { end: i + terminator.length };
    }
    if (
      sticky !== undefined && (i === 0 || !/\w/.test(blanked[i - 1]!) || !/\w/.test(blanked[i]!))
    ) {
      sticky.lastIndex = i;
      if (sticky.test(blanked)) return { end: i, body: i };
    }
  }
  return { end: blanked.length };
}

function _lineEnd(rules: ScanRules, blanked: string, line: _Line, lines: readonly _Line[]): number {
  let index = lines.indexOf(line);
  let current = line;
  const mark = rules.continuation;
  while (mark !== undefined && blanked.slice(current.start, current.end).trimEnd().endsWith(mark)) {
    const next = lines[++index];
    if (next === undefined) break;
    current = next;
  }
  return current.end;
}

function _commandEnd(blanked: string, from: number): number {
  let depth = 0;
  for (let i = from; i < blanked.length; i++) {
    const c = blanked[i]!;
    if (c === "\\") i++;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    else if ((c === "\n" || c === ";") && depth <= 0) return i;
  }
  return blanked.length;
}

function _names(rules: ScanRules, m: _LineMatch, text: string): string[] {
  const clean = rules.cleanName ?? ((n: string) => n.trim());
  const one = _groupText(m, "name", text);
  if (one !== undefined) return [clean(one)].filter((n) => n !== "");
  const list = _groupText(m, "names", text);
  if (list === undefined) return [];
  return _splitTop(list)
    .map((item) => /^\s*([A-Za-z_$][\w$]*)/.exec(item)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(clean);
}

/** A group's text, read from the source (the blanked text has no strings) at the same place. */
function _groupText(m: _LineMatch, group: string, text: string): string | undefined {
  const at = m.indices?.groups?.[group];
  return at === undefined ? undefined : text.slice(m.offset + at[0], m.offset + at[1]);
}

/** A match of a rule on one line (offsets into the line; `offset` is the line's start). */
type _LineMatch = RegExpExecArray & { offset: number };

/** Match `pattern` (sticky) at the line's first non-blank character, within the line only. */
function _execLine(pattern: RegExp, source: string, line: _Line): _LineMatch | null {
  pattern.lastIndex = line.first - line.start;
  const m = pattern.exec(source === line.source ? line.code : source.slice(line.start, line.end));
  return m === null ? null : Object.assign(m, { offset: line.start });
}

function _splitTop(list: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (c === "," && depth === 0) {
      items.push(list.slice(start, i));
      start = i + 1;
    }
  }
  items.push(list.slice(start));
  return items;
}

function _push(
  rules: ScanRules,
  text: string,
  found: Extracted,
  draft: SymbolDraft,
  parent: number | undefined,
): number {
  const docstring = _doc(rules, text, draft.start);
  const full: SymbolDraft = { ...draft, docstring };
  if (parent !== undefined) full.parent = parent;
  found.symbols.push(full);
  return found.symbols.length - 1;
}

function _doc(rules: ScanRules, text: string, at: number): string {
  const below = rules.doc?.below;
  // A marker that is code when followed by something (`#define` in assembly) is no comment there.
  const code = (rules.comments.line ?? []).flatMap((l) =>
    typeof l !== "string" && l.unless !== undefined
      ? [{ marker: l.marker, unless: new RegExp(`^(?:${l.unless.source})`, l.unless.flags) }]
      : []
  );
  const isCode = (raw: string) =>
    code.some((c) => raw.startsWith(c.marker) && c.unless.test(raw.slice(c.marker.length)));
  const doc = below === undefined
    ? ""
    : _commentLines(text, text.indexOf("\n", at), below, 1, isCode);
  if (doc !== "" || rules.doc?.above === undefined) return doc;
  return _commentLines(text, text.lastIndexOf("\n", at - 1) + 1, rules.doc.above, -1, isCode);
}

/**
 * The comment lines next to a line, cleaned of their marker: those right above `from` (a line
 * start, `step` -1) or right below it (a line end, `step` 1), up to the first other line.
 */
function _commentLines(
  text: string,
  from: number,
  markers: readonly string[],
  step: 1 | -1,
  isCode: (raw: string) => boolean,
): string {
  const lines: string[] = [];
  let at = from;
  while (step === -1 ? at > 0 : at !== -1 && at < text.length) {
    const lineStart = step === -1 ? text.lastIndexOf("\n", at - 2) + 1 : at + 1;
    let lineEnd = step === -1 ? at - 1 : text.indexOf("\n", at + 1);
    if (lineEnd === -1) lineEnd = text.length;
    const raw = text.slice(lineStart, lineEnd).trim();
    const marker = markers.find((m) => raw.startsWith(m));
    if (marker === undefined || isCode(raw)) break;
    const clean = raw.slice(marker.length).replace(/^\s/, "").trimEnd();
    if (step === -1) lines.unshift(clean);
    else lines.push(clean);
    at = step === -1 ? lineStart : lineEnd;
  }
  return lines.join("\n").trim();
}

function _import(
  rules: ScanRules,
  text: string,
  blanked: string,
  line: _Line,
  found: Extracted,
): void {
  for (const rule of rules.imports ?? []) {
    const m = _execLine(rule.match, text, line);
    if (m === null) continue;
    const single = _groupText(m, "source", text);
    const sources = single !== undefined
      ? [single]
      : _splitTop(_groupText(m, "sources", text) ?? "");
    const names = _groupText(m, "names", text);
    for (const raw of sources) {
      const written = raw.trim().replace(/^["'<`]|["'>`]$/g, "");
      const specifier = rules.cleanSource?.(written) ?? written;
      if (specifier === "") continue;
      const at = m.offset +
        (m.indices?.groups?.source?.[0] ?? m.indices?.groups?.sources?.[0] ?? 0);
      const record: Extracted["imports"][number] = { specifier, at };
      if (names !== undefined) {
        record.names = _splitTop(names).map((n) => n.trim()).filter((n) => n !== "");
      }
      found.imports.push(record);
    }
    void blanked;
    return;
  }
}

function _calls(rules: ScanRules, blanked: string, found: Extracted): void {
  // A definition's own name on its first line (`Name(x) {`) is no call.
  const lineOf = (at: number) => blanked.lastIndexOf("\n", at - 1);
  const defined = new Set(found.symbols.map((d) => `${lineOf(d.start)}:${d.name}`));
  for (const pattern of rules.calls ?? []) {
    const global = new RegExp(pattern.source, pattern.flags.replace(/[gyd]/g, "") + "gd");
    for (const m of blanked.matchAll(global)) {
      const name = m.groups?.name;
      const at = m.indices?.groups?.name?.[0];
      if (name === undefined || at === undefined || rules.notCalls?.has(name.toLowerCase())) {
        continue;
      }
      if (defined.has(`${lineOf(at)}:${name}`)) continue;
      found.calls.push({ callee: name, receiver: m.groups?.receiver ?? null, at });
    }
  }
}
