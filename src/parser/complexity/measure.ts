/**
 * Complexity of a function from its tree: cyclomatic complexity, the deepest nesting of control
 * structures and the parameter count, by a language's `ComplexityRules` (data: node types of its
 * grammar). The rules are compiled once per grammar into flags by node type id, so measuring is
 * one cursor walk of the function's nodes, stopping at the functions nested in it.
 */
import type { Language, Node } from "web-tree-sitter";
import type { ComplexityRules } from "../language_spec.ts";
import type { SymbolComplexity } from "../types.ts";

const _BRANCH = 1;
const _NESTING = 2;
const _FUNCTION = 4;
const _FORM = 8;
const _LIST = 16;
const _SKIP = 32;
const _ITEM = 64;
const _UNWRAP = 128;
const _OPTEXT = 256;
const _WRAPPER = 512;

/** A language's complexity rules as flags by node type id. */
export interface CompiledComplexity {
  /** Flags (`_BRANCH`, `_NESTING`, ...) of each node type id. */
  readonly flags: Uint16Array;
  /** Named operator type id → the texts with which it opens a path. */
  readonly operatorTexts: ReadonlyMap<number, ReadonlySet<string>>;
  /** Operator token id → the parent type ids in which it opens a path. */
  readonly operators: ReadonlyMap<number, ReadonlySet<number>>;
  /** Nesting type id → parent type ids in which it continues the parent's level. */
  readonly chains: ReadonlyMap<number, ReadonlySet<number>>;
  readonly formBranches: ReadonlySet<string>;
  readonly formNesting: ReadonlySet<string>;
  readonly formFunctions: ReadonlySet<string>;
  readonly nameField: string | null;
  readonly single: readonly string[];
  readonly skipFields: ReadonlySet<string>;
}

/**
 * Compile rules for a grammar; a type or field the grammar does not have is a `SyntaxError`
 * naming the language and the name (a bug in the spec, like a query that does not compile).
 */
export function compileComplexity(
  language: Language,
  specId: string,
  rules: ComplexityRules,
): CompiledComplexity {
  const named = new Map<string, number[]>();
  const anonymous = new Map<string, number[]>();
  for (let id = 0; id < language.nodeTypeCount; id++) {
    const type = language.nodeTypeForId(id);
    if (type === null || type === "") continue;
    const into = language.nodeTypeIsNamed(id) ? named : anonymous;
    into.set(type, [...into.get(type) ?? [], id]);
  }
  const fail = (what: string, name: string): never => {
    throw new SyntaxError(
      `Cannot compile complexity rules of language "${specId}": the grammar has no ${what} "${name}"`,
    );
  };
  const ids = (type: string): number[] => named.get(type) ?? fail("node type", type);
  const flags = new Uint16Array(language.nodeTypeCount + 1);
  const mark = (types: readonly string[] | undefined, flag: number) => {
    for (const t of types ?? []) for (const id of ids(t)) flags[id]! |= flag;
  };
  mark(rules.branches, _BRANCH);
  mark(rules.nesting, _NESTING);
  mark(rules.functions, _FUNCTION);
  mark(rules.forms?.nodeTypes, _FORM);
  mark(rules.chainWrappers, _WRAPPER);
  mark(rules.parameters.lists, _LIST);
  mark(rules.parameters.skip, _SKIP);
  mark(rules.parameters.items, _ITEM);
  mark(rules.parameters.unwrap, _UNWRAP);
  const operators = new Map<number, Set<number>>();
  for (const [parent, tokens] of Object.entries(rules.operators ?? {})) {
    const parents = ids(parent);
    for (const token of tokens) {
      for (const id of anonymous.get(token) ?? fail("operator", token)) {
        const set = operators.get(id) ?? new Set<number>();
        for (const p of parents) set.add(p);
        operators.set(id, set);
      }
    }
  }
  const operatorTexts = new Map<number, Set<string>>();
  for (const [type, texts] of Object.entries(rules.operatorTexts ?? {})) {
    for (const id of ids(type)) {
      flags[id]! |= _OPTEXT;
      operatorTexts.set(id, new Set([...operatorTexts.get(id) ?? [], ...texts]));
    }
  }
  const chains = new Map<number, Set<number>>();
  for (const [parent, children] of Object.entries(rules.chains ?? {})) {
    const parents = ids(parent);
    for (const child of children) {
      for (const id of ids(child)) {
        const set = chains.get(id) ?? new Set<number>();
        for (const p of parents) set.add(p);
        chains.set(id, set);
      }
    }
  }
  const p = rules.parameters;
  for (
    const field of [
      ...p.single ?? [],
      ...p.skipFields ?? [],
      ...(p.nameField === undefined ? [] : [p.nameField]),
    ]
  ) {
    if (language.fieldIdForName(field) === null) fail("field", field);
  }
  const forms = rules.forms;
  return {
    flags,
    operators,
    operatorTexts,
    chains,
    formBranches: new Set(forms?.branches ?? []),
    formNesting: new Set(forms?.nesting ?? forms?.branches ?? []),
    formFunctions: new Set(forms?.functions ?? []),
    nameField: p.nameField ?? null,
    single: p.single ?? [],
    skipFields: new Set(["body", ...p.skipFields ?? []]),
  };
}

/** Whether a node is a function by the rules (a function type, or a form with a function head). */
export function isFunctionNode(node: Node, rules: CompiledComplexity): boolean {
  const f = rules.flags[node.typeId] ?? 0;
  if (f & _FUNCTION) return true;
  return (f & _FORM) !== 0 && rules.formFunctions.has(_head(node));
}

/**
 * The function node of a definition: the function around its body (`@body`) inside the
 * definition, else the body when that is a function, else the node itself, else its first
 * function descendant (a `const f = () => …` declaration); the node itself when none is found.
 */
export function functionOf(node: Node, body: Node | null, rules: CompiledComplexity): Node {
  // The function around the body first: a curried arrow's body is itself a function
  // (`const f = (a) => (b) => …`), and the definition is the outer one, as ESLint measures it.
  if (body !== null) {
    for (let n = body.parent; n !== null && n.startIndex >= node.startIndex; n = n.parent) {
      if (isFunctionNode(n, rules)) return n;
      if (n.id === node.id) break;
    }
  }
  // A body that is itself a function with none around it in the definition: a Haskell
  // signature whose equation is its `@body`.
  if (body !== null && isFunctionNode(body, rules)) return body;
  if (isFunctionNode(node, rules)) return node;
  // The head of the definition only (not its body), a few levels down.
  const queue: [Node, number][] = [[node, 0]];
  for (let steps = 0; queue.length > 0 && steps < 64; steps++) {
    const [n, depth] = queue.shift()!;
    for (let i = 0; i < n.namedChildCount; i++) {
      const c = n.namedChild(i);
      if (c === null || n.fieldNameForNamedChild(i) === "body") continue;
      if (isFunctionNode(c, rules)) return c;
      if (depth < 2) queue.push([c, depth + 1]);
    }
  }
  return node;
}

/**
 * The metrics of one function node. Its paths are those of `body` when the body is not inside
 * the function node (Dart keeps a function's signature and body as siblings).
 */
export function measureFunction(
  fn: Node,
  body: Node | null,
  rules: CompiledComplexity,
): SymbolComplexity {
  const outside = body !== null &&
    (body.startIndex >= fn.endIndex || body.endIndex <= fn.startIndex);
  return { ..._paths(outside ? body : fn, rules), param_count: _parameters(fn, rules) };
}

/** Cyclomatic complexity and nesting: one walk, not entering nested functions. */
function _paths(fn: Node, rules: CompiledComplexity): Omit<SymbolComplexity, "param_count"> {
  let cyclomatic = 1;
  let maxNesting = 0;
  const cursor = fn.walk();
  try {
    if (!cursor.gotoFirstChild()) return { cyclomatic, max_nesting: 0 };
    // By depth below the function: the nesting level of the node there and its type id.
    const levels: number[] = [0];
    const types: number[] = [fn.typeId];
    let depth = 1;
    for (;;) {
      const id = cursor.nodeTypeId;
      const parent = types[depth - 1]!;
      const f = rules.flags[id] ?? 0;
      let level = levels[depth - 1]!;
      let descend = true;
      if (!cursor.nodeIsNamed) {
        if (rules.operators.get(id)?.has(parent)) cyclomatic++;
      } else if (f & _FUNCTION) {
        descend = false;
      } else {
        let branch = (f & _BRANCH) !== 0;
        let nests = (f & _NESTING) !== 0;
        if (f & _FORM) {
          const head = _head(cursor.currentNode);
          if (rules.formFunctions.has(head)) descend = false;
          branch ||= rules.formBranches.has(head);
          nests ||= rules.formNesting.has(head);
        }
        if (f & _OPTEXT && rules.operatorTexts.get(id)?.has(cursor.nodeText)) branch = true;
        if (branch && descend) cyclomatic++;
        if (nests && descend && !_chained(id, types, depth, rules)) {
          level++;
          if (level > maxNesting) maxNesting = level;
        }
      }
      levels[depth] = level;
      types[depth] = id;
      if (descend && cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent() || --depth === 0) return { cyclomatic, max_nesting: maxNesting };
      }
    }
  } finally {
    cursor.delete();
  }
}

/** Whether a nesting structure continues its parent's level (`else if`), wrappers looked through. */
function _chained(id: number, types: number[], depth: number, rules: CompiledComplexity): boolean {
  const parents = rules.chains.get(id);
  if (parents === undefined) return false;
  let k = depth - 1;
  while (k > 0 && (rules.flags[types[k]!] ?? 0) & _WRAPPER) k--;
  return parents.has(types[k]!);
}

/**
 * Parameters: a single-parameter field (or the list in it), else the entries of the first list
 * in the head, else the function's own parameter children (`items`).
 */
function _parameters(fn: Node, rules: CompiledComplexity): number {
  const list = _firstList(fn, rules);
  if (typeof list === "number") return list;
  if (list !== null) return _count(list, rules);
  let n = 0;
  for (const c of fn.namedChildren) if (c !== null && (rules.flags[c.typeId] ?? 0) & _ITEM) n++;
  return n;
}

/**
 * The first parameter list under `from`, breadth first, not in its body or skipped fields; or 1
 * for a node on the way that has a single-parameter field (`x => x`).
 */
function _firstList(from: Node, rules: CompiledComplexity): Node | number | null {
  const queue: Node[] = [from];
  for (let steps = 0; queue.length > 0 && steps < 64; steps++) {
    const n = queue.shift()!;
    for (const field of rules.single) {
      const one = n.childForFieldName(field);
      if (one !== null) return (rules.flags[one.typeId] ?? 0) & _LIST ? one : 1;
    }
    for (let i = 0; i < n.namedChildCount; i++) {
      const c = n.namedChild(i);
      if (c === null) continue;
      const field = n.fieldNameForNamedChild(i);
      if (field !== null && rules.skipFields.has(field)) continue;
      if ((rules.flags[c.typeId] ?? 0) & _LIST) {
        const only = c.namedChildCount === 1 ? c.namedChild(0) : null;
        if (only !== null && (rules.flags[only.typeId] ?? 0) & _UNWRAP) {
          return _firstList(only, rules) ?? c;
        }
        return c;
      }
      if (!isFunctionNode(c, rules)) queue.push(c);
    }
  }
  return null;
}

function _count(list: Node, rules: CompiledComplexity): number {
  let n = 0;
  for (const c of list.namedChildren) {
    if (c === null || c.isExtra || (rules.flags[c.typeId] ?? 0) & _SKIP) continue;
    const names = rules.nameField === null ? 0 : c.childrenForFieldName(rules.nameField).length;
    n += Math.max(1, names);
  }
  return n;
}

/** The head word of a form: the text of its first child that is no bracket, when short. */
function _head(node: Node): string {
  for (let i = 0; i < node.childCount; i++) {
    const c = node.child(i);
    if (c === null || c.isExtra || (!c.isNamed && /^[(\[{#'`^@]+$/.test(c.type))) continue;
    return c.endIndex - c.startIndex > 40 ? "" : c.text;
  }
  return "";
}
