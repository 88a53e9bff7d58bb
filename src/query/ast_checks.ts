/**
 * The checks of `search_ast`, run over one tree-sitter tree. They never branch on a language
 * name: node types are classified by what they are called across the grammars (a `for_statement`,
 * `for_expression`, `enhanced_for_statement` or `foreach_statement` is a loop; a `catch_clause`,
 * `except_clause`, `rescue` or `catch_block` catches), so a new grammar gets every check it has
 * node types for. One walk of the tree with a cursor runs every check at once.
 */
import type { Node, Tree, TreeCursor } from "web-tree-sitter";
import type { AstCheck, AstPattern, Severity } from "./ast_patterns.ts";
import { semanticsOf } from "../parser/semantics/mod.ts";

/** One match, before the enclosing symbol is attached. */
export interface AstMatch {
  file: string;
  language: string;
  line: number;
  end_line: number;
  column: number;
  snippet: string;
  pattern: string;
  severity: Severity;
  /** Detector extras: callee, function_name, line_count, nesting_depth, value, parameter. */
  extra: Record<string, string | number>;
}

const F_FN = 1, F_LOOP = 2, F_NEST = 4, F_CATCH = 8, F_CALL = 16, F_STRING = 32;
const F_COMMENT = 64, F_NUMBER = 128, F_ASSIGN = 256, F_DECISION = 512, F_CONST = 1024;

const _LOOP =
  /^(?:for|while|do|foreach|loop|repeat|until)(?:_(?:in|of|each|range|statement|expression|loop|stmt))*$|^(?:enhanced_for_statement|for_range_loop|for_in_clause|for_of_clause)$/;
const _NEST =
  /^(?:if|switch|match|try|with|select|unless|guard|expression_switch|type_switch|when|case)_(?:statement|expression)$|^(?:if|unless|case|when)$/;
const _FN =
  /^(?:function_definition|function_declaration|function_item|function_expression|arrow_function|generator_function|generator_function_declaration|method_definition|method_declaration|method|singleton_method|constructor_declaration|func_literal|lambda|lambda_expression|local_function_statement|function_statement|anonymous_function|closure_expression|function)$/;
const _CATCH = /^(?:catch_clause|except_clause|except_group_clause|rescue|catch_block)$/;
const _CALL =
  /^(?:call|call_expression|method_invocation|invocation_expression|function_call|method_call|function_call_expression|member_call_expression|scoped_call_expression|new_expression|object_creation_expression)$/;
const _STRING =
  /^(?:string|string_literal|interpreted_string_literal|raw_string_literal|template_string|encapsed_string|verbatim_string_literal|character_literal|line_string_literal|multi_line_string_literal)$/;
const _NUMBER =
  /^(?:integer|float|number|integer_literal|float_literal|decimal_integer_literal|decimal_floating_point_literal|int_literal|number_literal|numeric_literal|real_literal|hex_integer_literal|imaginary_literal)$/;
const _ASSIGN =
  /^(?:assignment|assignment_expression|augmented_assignment|augmented_assignment_expression|compound_assignment_expr|assignment_statement|operator_assignment)$/;
const _DECISION =
  /^(?:case_clause|switch_case|when_clause|match_arm|conditional_expression|ternary_expression|elif_clause|else_if_clause|boolean_operator|expression_case|type_case|communication_case)$/;
const _CONST =
  /^(?:const_declaration|const_spec|const_item|enum_declaration|enum_item|enum_specifier|enum|decorator|annotation|attribute|attribute_item|default_parameter|typed_default_parameter|subscript|subscript_expression|index_expression|element_reference)$/;

const _typeFlags = new Map<string, number>();

/** The classification of a node type, cached per process. */
function _flags(type: string): number {
  let f = _typeFlags.get(type);
  if (f !== undefined) return f;
  f = 0;
  if (_FN.test(type)) f |= F_FN;
  if (_LOOP.test(type)) f |= F_LOOP | F_NEST | F_DECISION;
  if (_NEST.test(type)) f |= F_NEST | F_DECISION;
  if (_CATCH.test(type)) f |= F_CATCH | F_DECISION;
  if (_CALL.test(type)) f |= F_CALL;
  if (_STRING.test(type)) f |= F_STRING;
  if (type.includes("comment")) f |= F_COMMENT;
  if (_NUMBER.test(type)) f |= F_NUMBER;
  if (_ASSIGN.test(type)) f |= F_ASSIGN;
  if (_DECISION.test(type)) f |= F_DECISION;
  if (_CONST.test(type)) f |= F_CONST;
  _typeFlags.set(type, f);
  return f;
}

/** Numbers that are not "magic". */
const _PLAIN_NUMBERS = new Set(["-1", "0", "1", "2", "10", "100", "1000", "0.0", "1.0", "0.5"]);

/** Callees that run code from a string or a shell (the last two segments, dotted). */
const _EVAL_CALLEES = new Set([
  "eval",
  "execfile",
  "Function",
  "os.system",
  "os.popen",
  "child_process.exec",
  "child_process.execSync",
  "execSync",
  "shell_exec",
  "passthru",
  "proc_open",
  "popen",
  "instance_eval",
  "class_eval",
  "getRuntime().exec",
  "Runtime.exec",
]);

const _SECRET_NAME =
  /(?:pass(?:word|wd|phrase)?|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?|auth[_-]?key)$/i;
const _PLACEHOLDER =
  /^(?:x+|\*+|\.+|changeme|change_me|your[_\- ].*|<.*>|\$\{.*\}|\{\{.*\}\}|%s|example.*|test.*|dummy.*|placeholder.*|todo)$/i;

/** Most characters of a literal or comment a custom regex sees. */
const _MAX_TEXT = 2000;

interface _Frame {
  node: Node | null;
  startRow: number;
  endRow: number;
  nest: number;
  maxNest: number;
  deepAt: { row: number; column: number; endRow: number } | null;
  loop: number;
  maxLoop: number;
  loopAt: { row: number; column: number; endRow: number } | null;
  decisions: number;
  params: Set<string> | null;
}

/** The compiled form of the patterns one walk runs. */
interface _Compiled {
  p: AstPattern;
  re: RegExp | null;
  glob: RegExp | null;
}

/**
 * A parsed file's text as the checks may see it: `slice` gives a node's text and `lines` the
 * lines of snippets, both with secrets redacted (the text as tools serve it), so that no custom
 * `string:`, `comment:` or `call:` pattern matches — or counts — inside a secret.
 */
export interface CheckedText {
  slice(from: number, to: number): string;
  lines(): string[];
}

/** The text itself, for a file without secrets. */
export function plainText(text: string): CheckedText {
  let lines: string[] | null = null;
  return {
    slice: (from, to) => text.slice(from, to),
    lines: () => lines ??= text.split(/\r\n|\r|\n/),
  };
}

/** Each kind of check's compiled patterns. */
type _ByKind = Record<
  | "empty"
  | "bare"
  | "deep"
  | "loops"
  | "god"
  | "evalx"
  | "secret"
  | "todo"
  | "magic"
  | "param"
  | "call"
  | "string"
  | "comment"
  | "lines",
  _Compiled[]
>;

type _Emit = (
  c: _Compiled,
  start: { row: number; column: number },
  endRow: number,
  extra?: Record<string, string | number>,
  snippet?: string,
) => void;

/** The state of one walk: what it looks for, where it is, what it found. */
interface _Walk {
  byKind: _ByKind;
  language: string;
  /** The language's own bare names that run text as code (`LanguageSemantics.codeRunners`). */
  codeRunners: readonly string[];
  emit: _Emit;
  nodeText: (n: Node) => string;
  frames: _Frame[];
  needCallee: boolean;
  needParams: boolean;
  inString: number;
  inConst: number;
}

function _compilePatterns(patterns: readonly AstPattern[]): _ByKind {
  const compiled: _Compiled[] = patterns.map((p) => ({
    p,
    re: p.check.kind === "string" || p.check.kind === "comment"
      ? (p.check.literal
        ? new RegExp(p.check.source.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i")
        : new RegExp(p.check.source, p.check.flags))
      : p.check.kind === "todo_fixme"
      ? /\b(?:TODO|FIXME|XXX|HACK)\b/
      : null,
    glob: p.check.kind === "call" ? _calleeGlob(p.check.glob) : null,
  }));
  const wants = (k: AstCheck["kind"]) => compiled.filter((c) => c.p.check.kind === k);
  return {
    empty: wants("empty_catch"),
    bare: wants("bare_except"),
    deep: wants("deeply_nested"),
    loops: wants("nested_loops"),
    god: wants("god_function"),
    evalx: wants("eval_exec"),
    secret: wants("hardcoded_secret"),
    todo: wants("todo_fixme"),
    magic: wants("magic_number"),
    param: wants("reassigned_param"),
    call: wants("call"),
    string: wants("string"),
    comment: wants("comment"),
    lines: wants("lines"),
  };
}

/** Run `patterns` over one parsed file. */
export function checkTree(
  tree: Tree,
  file: string,
  language: string,
  text: CheckedText,
  patterns: readonly AstPattern[],
): AstMatch[] {
  const byKind = _compilePatterns(patterns);
  const out: AstMatch[] = [];
  const lineText = (row: number) => text.lines()[row] ?? "";
  const emit: _Emit = (c, start, endRow, extra = {}, snippet) => {
    out.push({
      file,
      language,
      line: start.row + 1,
      end_line: endRow + 1,
      column: start.column + 1,
      snippet: (snippet ?? lineText(start.row).trim()).slice(0, 200),
      pattern: c.p.name,
      severity: c.p.severity,
      extra,
    });
  };
  const w: _Walk = {
    byKind,
    language,
    codeRunners: semanticsOf(language).codeRunners ?? [],
    emit,
    nodeText: (n) => text.slice(n.startIndex, n.endIndex),
    frames: [_frame(null, 0, Number.MAX_SAFE_INTEGER)],
    needCallee: byKind.evalx.length + byKind.call.length > 0,
    needParams: byKind.param.length > 0,
    inString: 0,
    inConst: 0,
  };
  const stack: number[] = []; // flags of the entered named nodes (0 for unnamed)
  const cursor: TreeCursor = tree.walk();
  for (;;) {
    const flags = cursor.nodeIsNamed ? _flags(cursor.nodeType) : 0;
    if (flags !== 0) _enter(w, cursor, flags);
    stack.push(flags);
    if (!(flags & F_COMMENT) && cursor.gotoFirstChild()) continue;
    // Leave nodes until one has a next sibling.
    for (;;) {
      _leave(stack.pop()!, w);
      if (cursor.gotoNextSibling()) break;
      if (!cursor.gotoParent()) {
        cursor.delete();
        return out;
      }
    }
  }
}

/** Entering a named node of interest: every check that looks at its kind. */
function _enter(w: _Walk, cursor: TreeCursor, flags: number): void {
  if (flags & F_FN) {
    const node = cursor.currentNode;
    const f = _frame(node, node.startPosition.row, node.endPosition.row);
    if (w.needParams) f.params = _params(node);
    w.frames.push(f);
  }
  const cur = w.frames[w.frames.length - 1]!;
  if (flags & F_NEST) _enterNest(w, cur, cursor);
  if (flags & F_LOOP) _enterLoop(w, cur, cursor);
  if (flags & F_DECISION) cur.decisions++;
  if (flags & F_CONST) w.inConst++;
  if (flags & F_CATCH && w.byKind.empty.length + w.byKind.bare.length > 0) {
    _checkCatch(w, cursor.currentNode);
  }
  if (flags & F_CALL && w.needCallee) _checkCall(w, cursor.currentNode);
  if (flags & F_STRING && w.inString === 0) _checkString(w, cursor.currentNode);
  if (flags & F_COMMENT && w.byKind.todo.length + w.byKind.comment.length > 0) {
    const node = cursor.currentNode;
    const body = w.nodeText(node).slice(0, _MAX_TEXT);
    for (const c of [...w.byKind.todo, ...w.byKind.comment]) {
      if (c.re!.test(body)) w.emit(c, node.startPosition, node.endPosition.row);
    }
  }
  if (flags & F_NUMBER && w.byKind.magic.length > 0 && w.inConst === 0 && w.frames.length > 1) {
    _checkNumber(w, cursor.currentNode);
  }
  if (flags & F_ASSIGN && cur.params !== null && cur.params.size > 0) {
    _checkAssign(w, cur, cursor.currentNode);
  }
  if (flags & F_STRING) w.inString++;
}

function _enterNest(w: _Walk, cur: _Frame, cursor: TreeCursor): void {
  cur.nest++;
  if (cur.nest > cur.maxNest) cur.maxNest = cur.nest;
  if (cur.deepAt !== null) return;
  for (const c of w.byKind.deep) {
    if (cur.nest >= (c.p.check as { min: number }).min) cur.deepAt = _at(cursor);
  }
}

function _enterLoop(w: _Walk, cur: _Frame, cursor: TreeCursor): void {
  cur.loop++;
  if (cur.loop > cur.maxLoop) cur.maxLoop = cur.loop;
  if (cur.loopAt !== null) return;
  for (const c of w.byKind.loops) {
    if (cur.loop >= (c.p.check as { min: number }).min) cur.loopAt = _at(cursor);
  }
}

function _checkCatch(w: _Walk, node: Node): void {
  if (_emptyCatch(node)) {
    for (const c of w.byKind.empty) w.emit(c, node.startPosition, node.endPosition.row);
  }
  if (node.type === "except_clause" && _bareExcept(node)) {
    for (const c of w.byKind.bare) w.emit(c, node.startPosition, node.endPosition.row);
  }
}

function _checkCall(w: _Walk, node: Node): void {
  const callee = _callee(node, w.nodeText);
  if (callee === "") return;
  const last2 = callee.split(".").slice(-2).join(".");
  const last = callee.slice(callee.lastIndexOf(".") + 1);
  const isNew = node.type === "new_expression" || node.type === "object_creation_expression";
  const evalLike = isNew
    ? callee === "Function"
    : _EVAL_CALLEES.has(callee) || _EVAL_CALLEES.has(last2) ||
      (callee === last && (last === "eval" || last === "execfile"));
  if (evalLike || w.codeRunners.includes(callee)) {
    for (const c of w.byKind.evalx) w.emit(c, node.startPosition, node.endPosition.row, { callee });
  }
  for (const c of w.byKind.call) {
    if (c.glob!.test(callee)) w.emit(c, node.startPosition, node.endPosition.row, { callee });
  }
}

function _checkString(w: _Walk, node: Node): void {
  const value = _stringValue(w.nodeText(node));
  for (const c of w.byKind.string) {
    if (c.re!.test(value.slice(0, _MAX_TEXT))) w.emit(c, node.startPosition, node.endPosition.row);
  }
  if (
    w.byKind.secret.length === 0 || value.length < 8 || /\s/.test(value) ||
    _PLACEHOLDER.test(value)
  ) {
    return;
  }
  const name = _assignedName(node);
  if (name === null || !_SECRET_NAME.test(name)) return;
  for (const c of w.byKind.secret) {
    // None of the value's characters: a prefix would be an oracle for the rest.
    w.emit(
      c,
      node.startPosition,
      node.endPosition.row,
      { name },
      `${name} = "…" (literal not shown)`,
    );
  }
}

function _checkNumber(w: _Walk, node: Node): void {
  let value = node.text.replace(/_/g, "");
  const parent = node.parent;
  if (parent !== null && /unary/.test(parent.type) && parent.text.startsWith("-")) {
    value = "-" + value;
  }
  if (_PLAIN_NUMBERS.has(value) || /^0[xob]?0*[01]?$/i.test(value)) return;
  for (const c of w.byKind.magic) w.emit(c, node.startPosition, node.endPosition.row, { value });
}

function _checkAssign(w: _Walk, cur: _Frame, node: Node): void {
  for (const name of _assignedIdentifiers(node)) {
    if (!cur.params!.has(name)) continue;
    for (const c of w.byKind.param) {
      w.emit(c, node.startPosition, node.endPosition.row, { parameter: name });
    }
  }
}

function _at(cursor: TreeCursor): { row: number; column: number; endRow: number } {
  const { row, column } = cursor.startPosition;
  return { row, column, endRow: cursor.endPosition.row };
}

function _frame(node: Node | null, startRow: number, endRow: number): _Frame {
  return {
    node,
    startRow,
    endRow,
    nest: 0,
    maxNest: 0,
    deepAt: null,
    loop: 0,
    maxLoop: 0,
    loopAt: null,
    decisions: 1,
    params: null,
  };
}

/** Leaving a node: close its counters; a function's end runs the checks of its whole body. */
function _leave(flags: number, w: _Walk): void {
  if (flags === 0) return;
  const cur = w.frames[w.frames.length - 1]!;
  if (flags & F_STRING) w.inString--;
  if (flags & F_CONST) w.inConst--;
  if (flags & F_NEST) cur.nest--;
  if (flags & F_LOOP) cur.loop--;
  if (!(flags & F_FN)) return;
  w.frames.pop();
  _functionChecks(w, cur);
}

/** The checks of a whole function: depth, loops, size and complexity. */
function _functionChecks(w: _Walk, cur: _Frame): void {
  const { byKind, emit } = w;
  const start = { row: cur.startRow, column: cur.node?.startPosition.column ?? 0 };
  const lineCount = cur.endRow - cur.startRow + 1;
  const name = _functionName(cur.node);
  for (const c of byKind.deep) {
    if (cur.maxNest >= (c.p.check as { min: number }).min && cur.deepAt !== null) {
      emit(c, cur.deepAt, cur.deepAt.endRow, { function_name: name, nesting_depth: cur.maxNest });
    }
  }
  for (const c of byKind.loops) {
    if (cur.maxLoop >= (c.p.check as { min: number }).min && cur.loopAt !== null) {
      emit(c, cur.loopAt, cur.loopAt.endRow, { function_name: name, nesting_depth: cur.maxLoop });
    }
  }
  for (const c of byKind.god) {
    const g = c.p.check as { maxLines: number; maxComplexity: number };
    if (lineCount > g.maxLines || cur.decisions > g.maxComplexity) {
      emit(c, start, cur.endRow, {
        function_name: name,
        line_count: lineCount,
        complexity: cur.decisions,
      });
    }
  }
  for (const c of byKind.lines) {
    if (lineCount >= (c.p.check as { min: number }).min) {
      emit(c, start, cur.endRow, { function_name: name, line_count: lineCount });
    }
  }
  // A nested function's depth does not add to its parent's, but its statements were walked
  // inside the parent's frame only through this frame: nothing to merge.
}

function _functionName(node: Node | null): string {
  if (node === null) return "";
  const n = node.childForFieldName("name");
  if (n !== null) return n.text;
  const parent = node.parent;
  const target = parent?.childForFieldName("name") ?? parent?.childForFieldName("left");
  return target?.text.slice(0, 80) ?? "<anonymous>";
}

/** The callee of a call node as dotted text (`os.system`, `child_process.exec`, `eval`). */
function _callee(node: Node, nodeText: (n: Node) => string): string {
  const f = node.childForFieldName("function") ?? node.childForFieldName("constructor") ??
    node.childForFieldName("type");
  let text: string;
  if (f !== null) text = nodeText(f);
  else {
    const obj = node.childForFieldName("object") ?? node.childForFieldName("receiver") ??
      node.childForFieldName("scope");
    const name = node.childForFieldName("name") ?? node.childForFieldName("method");
    if (name !== null) text = obj === null ? nodeText(name) : `${nodeText(obj)}.${nodeText(name)}`;
    else text = node.firstNamedChild === null ? "" : nodeText(node.firstNamedChild);
  }
  if (text.length > 200) return "";
  return text.replace(/\s+/g, "").replace(/::|->|\?\./g, ".");
}

/** A dotted-name glob (`*` within and across segments, `?` one character) as a regex. */
function _calleeGlob(glob: string): RegExp {
  let re = "";
  for (const ch of glob) {
    if (ch === "*") re += ".*";
    else if (ch === "?") re += ".";
    else re += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  // `system` also matches `os.system`; `os.system` matches `os.system` exactly.
  return new RegExp(`(?:^|\\.)${re}$`);
}

function _stringValue(text: string): string {
  const m = /^[a-zA-Z]{0,2}(["'`]{1,3})([\s\S]*?)\1$/.exec(text);
  return m === null ? text : m[2]!;
}

/** The name a string literal is assigned or bound to (`x = "…"`, `{x: "…"}`, `x := "…"`). */
function _assignedName(node: Node): string | null {
  let n: Node | null = node;
  for (let hops = 0; hops < 3 && n !== null; hops++) {
    const parent: Node | null = n.parent;
    if (parent === null) return null;
    const key = parent.childForFieldName("left") ?? parent.childForFieldName("key") ??
      parent.childForFieldName("name");
    if (key !== null && key.id !== n.id && key.endIndex <= n.startIndex) {
      const text = key.text.replace(/^["']|["']$/g, "");
      const last = text.split(/[.\s[\]"':>-]+/).filter((x) => x !== "").pop();
      return last ?? null;
    }
    n = parent;
  }
  return null;
}

/** The identifier names of a function's parameters (`self`, `this`, `cls` left out). */
function _params(fn: Node): Set<string> {
  const out = new Set<string>();
  const params = fn.childForFieldName("parameters") ?? fn.childForFieldName("parameter");
  if (params === null) return out;
  const add = (n: Node | null) => {
    if (n !== null && /identifier$/.test(n.type) && !/^(?:self|this|cls)$/.test(n.text)) {
      out.add(n.text);
    }
  };
  if (/identifier$/.test(params.type)) add(params);
  for (const p of params.namedChildren) {
    if (p === null) continue;
    if (/identifier$/.test(p.type)) add(p);
    else {
      add(p.childForFieldName("name") ?? p.childForFieldName("pattern"));
      if (p.firstNamedChild !== null && /identifier$/.test(p.firstNamedChild.type)) {
        add(p.firstNamedChild);
      }
    }
  }
  return out;
}

/** Plain identifiers on the left of an assignment. */
function _assignedIdentifiers(node: Node): string[] {
  const left = node.childForFieldName("left") ?? node.firstNamedChild;
  if (left === null) return [];
  if (/^identifier$/.test(left.type)) return [left.text];
  if (/list|tuple|pattern/.test(left.type)) {
    return left.namedChildren.filter((c) => c !== null && c.type === "identifier").map((c) =>
      c!.text
    );
  }
  return [];
}

const _BODY = /block|body|then|statements|compound_statement|suite/;
const _PARAMISH = /identifier|type|parameter|declaration|exception|variable|pattern|formal|list/;

/** A catch clause whose body holds no statement (comments and `pass` do not count). */
function _emptyCatch(node: Node): boolean {
  const kids = node.namedChildren.filter((c): c is Node => c !== null);
  const body = [...kids].reverse().find((c) => _BODY.test(c.type));
  if (body === undefined) {
    return kids.every((c) => _PARAMISH.test(c.type) || c.type.includes("comment"));
  }
  return body.namedChildren.every((c) =>
    c === null || c.type.includes("comment") || c.type === "pass_statement"
  );
}

/** Python `except:` (no exception type). */
function _bareExcept(node: Node): boolean {
  return node.namedChildren.every((c) =>
    c === null || _BODY.test(c.type) || c.type.includes("comment")
  );
}
