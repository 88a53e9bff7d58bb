/**
 * An independent truth of what renaming a JavaScript definition must change, for
 * `deno task bench health --rename`: ESLint's parser (espree) over every `.js`/`.cjs`/`.mjs` file,
 * without tree-sitter and without codemunch's index.
 *
 * Candidates: function declarations, classes, class methods and functions assigned to a property
 * (`app.render = function render(…)`, `exports.parse = …`) whose name is bound exactly once in the
 * tree — no other definition, variable, parameter, import, object-literal key, class field or
 * property assignment of the name — that are not properties of JavaScript's or Node's built-in
 * objects (a `.call` or `.end` may be Node's), and whose name is written at least once more.
 * Their sites are every Identifier token of the name (strings holding it are counted apart).
 */
import * as espree from "espree";
import http from "node:http";
import { EventEmitter } from "node:events";
import { Readable, Writable } from "node:stream";

/** One candidate with its sites (`[file, line, col]`, col 1-based in code points). */
export interface JsTruth {
  file: string;
  line: number;
  name: string;
  kind: string;
  sites: [string, number, number][];
  strings: number;
}

interface _Node {
  type: string;
  [key: string]: unknown;
}

interface _Token {
  type: string;
  value: string;
  loc: { start: { line: number; column: number } };
}

const _OPTIONS = { ecmaVersion: "latest", loc: true, range: true } as const;

function _parse(code: string): { ast: _Node; tokens: _Token[] } | null {
  const text = code.replace(/^#!.*/, (m) => " ".repeat(m.length));
  for (const sourceType of ["module", "script"] as const) {
    try {
      const ast = espree.parse(text, { ..._OPTIONS, sourceType }) as unknown as _Node;
      const tokens = espree.tokenize(text, { ..._OPTIONS, sourceType }) as unknown as _Token[];
      return { ast, tokens };
    } catch {
      // the other source type
    }
  }
  return null;
}

/** Names of built-in objects' properties (uses of them are not the repo's). */
function _external(): Set<string> {
  const out = new Set<string>(Object.getOwnPropertyNames(globalThis));
  const protos: object[] = [
    Object.prototype,
    Array.prototype,
    String.prototype,
    Function.prototype,
    Promise.prototype,
    Number.prototype,
    Map.prototype,
    Set.prototype,
    Date.prototype,
    RegExp.prototype,
    Error.prototype,
    JSON,
    Math,
    console,
    Buffer.prototype,
    Buffer,
    http,
    http.IncomingMessage.prototype,
    http.ServerResponse.prototype,
    http.Server.prototype,
    Object,
    Array,
    String,
    Number,
    Promise,
    Reflect,
    Symbol,
    Date,
    EventEmitter.prototype,
    Readable.prototype,
    Writable.prototype,
  ];
  for (const p of protos) {
    for (let o: object | null = p; o !== null; o = Object.getPrototypeOf(o)) {
      for (const n of Object.getOwnPropertyNames(o)) out.add(n);
    }
  }
  return out;
}

function _walk(
  node: unknown,
  visit: (n: _Node, parent: _Node | null) => void,
  parent: _Node | null = null,
) {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const n of node) _walk(n, visit, parent);
    return;
  }
  const n = node as _Node;
  if (typeof n.type !== "string") return;
  visit(n, parent);
  for (const [k, v] of Object.entries(n)) {
    if (k !== "loc" && k !== "range" && typeof v === "object") _walk(v, visit, n);
  }
}

const _FUNCTION = new Set(["FunctionExpression", "ArrowFunctionExpression", "ClassExpression"]);

function _name(n: unknown): string | null {
  const node = n as _Node | null;
  if (node === null || node === undefined) return null;
  if (node.type === "Identifier") return node.name as string;
  return null;
}

/** The definitions and other bindings of one file. */
function _bindings(ast: _Node) {
  const defs: { name: string; kind: string; line: number }[] = [];
  const other: string[] = [];
  const own = new Set<_Node>();
  const line = (n: _Node) => (n.loc as { start: { line: number } }).start.line;
  _walk(ast, (n) => {
    switch (n.type) {
      case "FunctionDeclaration":
      case "ClassDeclaration": {
        const id = _name(n.id);
        if (id !== null) {
          defs.push({
            name: id,
            kind: n.type === "ClassDeclaration" ? "class" : "function",
            line: line(n),
          });
        }
        break;
      }
      case "MethodDefinition":
      case "PropertyDefinition": {
        const key = n.computed ? null : _name(n.key);
        if (key === null) break;
        if (n.type === "MethodDefinition") defs.push({ name: key, kind: "method", line: line(n) });
        else other.push(key);
        break;
      }
      case "AssignmentExpression": {
        const left = n.left as _Node;
        const right = n.right as _Node;
        if (left.type !== "MemberExpression" || left.computed) {
          if (left.type === "Identifier") other.push(left.name as string);
          break;
        }
        const prop = _name(left.property);
        if (prop === null) break;
        if (_FUNCTION.has(right.type)) {
          defs.push({ name: prop, kind: "method", line: line(n) });
          if (right.id !== null && right.id !== undefined) own.add(right.id as _Node);
        } else other.push(prop);
        break;
      }
      case "FunctionExpression":
      case "ClassExpression": {
        const id = n.id as _Node | null;
        if (id !== null && id !== undefined && !own.has(id)) other.push(id.name as string);
        for (const p of (n.params as _Node[] | undefined) ?? []) _patternNames(p, other);
        break;
      }
      case "VariableDeclarator":
        _patternNames(n.id as _Node, other);
        break;
      case "Property":
        if (!n.computed && _name(n.key) !== null && !n.shorthand) other.push(_name(n.key)!);
        break;
      case "ImportSpecifier":
      case "ImportDefaultSpecifier":
      case "ImportNamespaceSpecifier":
        other.push(_name(n.local) ?? "");
        break;
      case "CatchClause":
        if (n.param) _patternNames(n.param as _Node, other);
        break;
    }
    if (n.type === "FunctionDeclaration" || n.type === "ArrowFunctionExpression") {
      for (const p of (n.params as _Node[] | undefined) ?? []) _patternNames(p, other);
    }
  });
  return { defs, other };
}

function _patternNames(p: _Node, out: string[]): void {
  _walk(p, (n, parent) => {
    if (n.type !== "Identifier") return;
    if (parent?.type === "Property" && parent.key === n && !parent.shorthand) return;
    if (parent?.type === "AssignmentPattern" && parent.right === n) return;
    if (parent?.type === "MemberExpression") return;
    out.push(n.name as string);
  });
}

function _files(root: string, rel = ""): string[] {
  const out: string[] = [];
  for (
    const e of [...Deno.readDirSync(`${root}/${rel}`)].sort((a, b) => (a.name < b.name ? -1 : 1))
  ) {
    const path = rel === "" ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory && !e.name.startsWith(".") && e.name !== "node_modules") {
      out.push(..._files(root, path));
    } else if (e.isFile && /\.[cm]?js$/.test(e.name)) out.push(path);
  }
  return out;
}

/** Identifier tokens of `name` in every file, with code-point columns. */
function _sites(parsed: Map<string, { tokens: _Token[]; lines: string[] }>, name: string) {
  const sites: [string, number, number][] = [];
  let strings = 0;
  for (const [file, { tokens, lines }] of parsed) {
    for (const t of tokens) {
      if (t.type === "Identifier" && t.value === name) {
        const { line, column } = t.loc.start;
        sites.push([file, line, [...(lines[line - 1] ?? "").slice(0, column)].length + 1]);
      } else if (t.type === "String" && t.value.slice(1, -1) === name) strings++;
    }
  }
  return { sites, strings };
}

/** The candidates of a tree and their sites. */
export function jsCandidates(root: string): JsTruth[] {
  const parsed = new Map<string, { tokens: _Token[]; lines: string[] }>();
  const defs: (JsTruth & { line: number })[] = [];
  const other = new Map<string, number>();
  const count = new Map<string, number>();
  for (const file of _files(root)) {
    const text = Deno.readTextFileSync(`${root}/${file}`);
    const p = _parse(text);
    if (p === null) continue;
    parsed.set(file, { tokens: p.tokens, lines: text.split("\n") });
    const b = _bindings(p.ast);
    for (const d of b.defs) {
      defs.push({ file, ...d, sites: [], strings: 0 });
      count.set(d.name, (count.get(d.name) ?? 0) + 1);
    }
    for (const n of b.other) other.set(n, (other.get(n) ?? 0) + 1);
  }
  const external = _external();
  const out: JsTruth[] = [];
  for (const d of defs) {
    if (count.get(d.name) !== 1 || other.has(d.name) || external.has(d.name) || d.name.length < 4) {
      continue;
    }
    const { sites, strings } = _sites(parsed, d.name);
    if (sites.length < 2) continue;
    out.push({ ...d, sites, strings });
  }
  return out;
}

/** Identifier tokens of `name` left in the tree. */
export function jsTokenCount(root: string, name: string): number {
  const parsed = new Map<string, { tokens: _Token[]; lines: string[] }>();
  for (const file of _files(root)) {
    const text = Deno.readTextFileSync(`${root}/${file}`);
    const p = _parse(text);
    if (p !== null) parsed.set(file, { tokens: p.tokens, lines: text.split("\n") });
  }
  return _sites(parsed, name).sites.length;
}
