/**
 * The functions of our TypeScript sources, measured as STYLE.md counts them: lines from the
 * first to the last line of the function, and nesting — the deepest chain of blocks inside it
 * (its own body is depth 0; every `{ }` block of an `if`, loop, `try`, `switch` or a nested
 * function adds one). Parsed with tree-sitter's TypeScript grammar, the one the indexer uses.
 */
import { Parser } from "web-tree-sitter";
import type { Node } from "web-tree-sitter";
import { loadGrammar } from "../../src/parser/loader.ts";

/** One function as measured. */
export interface FunctionSize {
  /** Repo-relative path. */
  file: string;
  /** `name` or `Class.method`, or `<arrow>@line` for an unnamed function. */
  name: string;
  line: number;
  lines: number;
  depth: number;
}

const _FUNCTIONS = new Set([
  "function_declaration",
  "generator_function_declaration",
  "method_definition",
  "arrow_function",
  "function_expression",
  "function",
  "generator_function",
]);

/** Blocks that add a nesting level. */
const _BLOCKS = new Set(["statement_block", "switch_body", "class_body"]);

function _nameOf(n: Node): string {
  const own = n.childForFieldName("name")?.text;
  if (own !== undefined) {
    const cls = _enclosingClass(n);
    return cls === null ? own : `${cls}.${own}`;
  }
  // `const f = () => …`, `f: () => …`, `{ f() {} }`
  const p = n.parent;
  if (p?.type === "variable_declarator") return p.childForFieldName("name")?.text ?? "<anon>";
  if (p?.type === "pair") return p.childForFieldName("key")?.text ?? "<anon>";
  if (p?.type === "public_field_definition") return p.childForFieldName("name")?.text ?? "<anon>";
  return `<anon>@${n.startPosition.row + 1}`;
}

function _enclosingClass(n: Node): string | null {
  for (let p = n.parent; p !== null; p = p.parent) {
    if (p.type === "class_declaration" || p.type === "class") {
      return p.childForFieldName("name")?.text ?? null;
    }
  }
  return null;
}

/** Deepest block nesting under `body` (its own block is 0). */
function _depth(body: Node): number {
  let max = 0;
  const walk = (n: Node, d: number) => {
    for (const c of n.namedChildren) {
      if (c === null) continue;
      const deeper = _BLOCKS.has(c.type) ? d + 1 : d;
      if (deeper > max) max = deeper;
      walk(c, deeper);
    }
  };
  walk(body, 0);
  return max;
}

let _parser: Parser | undefined;

/** Every function of a TypeScript source, nested ones included. */
export async function functionSizes(file: string, source: string): Promise<FunctionSize[]> {
  if (_parser === undefined) {
    const language = await loadGrammar("typescript");
    _parser = new Parser();
    _parser.setLanguage(language);
  }
  const tree = _parser.parse(source);
  if (tree === null) throw new Error(`Cannot parse ${file}`);
  const out: FunctionSize[] = [];
  const visit = (n: Node) => {
    if (_FUNCTIONS.has(n.type)) {
      const body = n.childForFieldName("body");
      out.push({
        file,
        name: _nameOf(n),
        line: n.startPosition.row + 1,
        lines: n.endPosition.row - n.startPosition.row + 1,
        depth: body === null ? 0 : _depth(body),
      });
    }
    for (const c of n.namedChildren) if (c !== null) visit(c);
  };
  visit(tree.rootNode);
  tree.delete();
  return out;
}
