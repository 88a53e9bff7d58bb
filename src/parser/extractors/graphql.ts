/**
 * GraphQL, read with the reference implementation's own parser (npm `graphql`): every type of the
 * schema language (object, interface, union, enum, input, scalar, and their `extend`s) is a
 * `type`, its fields and input fields `field`s and its enum values `constant`s; operations
 * (`query Name`, `mutation Name`, `subscription Name`) are `function`s, fragments `template`s,
 * directive definitions `function`s named `@name`. Descriptions are docstrings. Fragment spreads
 * (`...Name`) are references (calls) of the fragment; `#import "./x.graphql"` lines (the
 * graphql-import convention) are imports. A file with a syntax error has no symbols (the parser
 * stops at the first error): it is `partial` with the error.
 */
import { Kind, parse } from "graphql";
import type {
  ASTNode,
  DefinitionNode,
  DocumentNode,
  FieldDefinitionNode,
  InputValueDefinitionNode,
} from "graphql";
import type { CallDraft, Extracted, Extractor, ImportDraft, SymbolDraft } from "./records.ts";

const _TYPES = new Set<string>([
  Kind.OBJECT_TYPE_DEFINITION,
  Kind.OBJECT_TYPE_EXTENSION,
  Kind.INTERFACE_TYPE_DEFINITION,
  Kind.INTERFACE_TYPE_EXTENSION,
  Kind.UNION_TYPE_DEFINITION,
  Kind.UNION_TYPE_EXTENSION,
  Kind.ENUM_TYPE_DEFINITION,
  Kind.ENUM_TYPE_EXTENSION,
  Kind.INPUT_OBJECT_TYPE_DEFINITION,
  Kind.INPUT_OBJECT_TYPE_EXTENSION,
  Kind.SCALAR_TYPE_DEFINITION,
  Kind.SCALAR_TYPE_EXTENSION,
]);

export const extractor: Extractor = {
  extract(text: string): Extracted {
    const found: Extracted = { symbols: [], imports: _imports(text), calls: [], errors: [] };
    let document: DocumentNode;
    try {
      document = parse(text);
    } catch (e) {
      found.errors.push(e instanceof Error ? e.message : String(e));
      return found;
    }
    for (const definition of document.definitions) _definition(definition, found);
    _spreads(document, found.calls);
    return found;
  },
};

function _definition(node: DefinitionNode, found: Extracted): void {
  const symbols = found.symbols;
  const loc = node.loc;
  if (loc === undefined) return;
  const description = "description" in node ? node.description?.value ?? "" : "";
  if (_TYPES.has(node.kind) && "name" in node && node.name !== undefined) {
    const parent = symbols.length;
    symbols.push(_draft(node.name.value, "type", node, description));
    const members: readonly (FieldDefinitionNode | InputValueDefinitionNode)[] = "fields" in node
      ? node.fields ?? []
      : [];
    for (const f of members) symbols.push({ ..._draft(f.name.value, "field", f), parent });
    if ("values" in node) {
      for (const v of node.values ?? []) {
        symbols.push({ ..._draft(v.name.value, "constant", v), parent });
      }
    }
  } else if (node.kind === Kind.OPERATION_DEFINITION && node.name !== undefined) {
    symbols.push(_draft(node.name.value, "function", node, description));
  } else if (node.kind === Kind.FRAGMENT_DEFINITION) {
    symbols.push(_draft(node.name.value, "template", node, description));
  } else if (node.kind === Kind.DIRECTIVE_DEFINITION) {
    symbols.push(_draft(`@${node.name.value}`, "function", node, description));
  }
}

function _draft(
  name: string,
  kind: SymbolDraft["kind"],
  node: ASTNode,
  docstring = "description" in node ? (node.description as { value?: string })?.value ?? "" : "",
): SymbolDraft {
  // A definition's range starts at its description: the signature is the line after it.
  const description = "description" in node
    ? (node.description as ASTNode | undefined)?.loc
    : undefined;
  const draft: SymbolDraft = { name, kind, start: node.loc!.start, end: node.loc!.end, docstring };
  if (description !== undefined) draft.signature = _signatureAfter(node, description.end);
  return draft;
}

function _signatureAfter(node: ASTNode, from: number): string {
  const body = node.loc!.source.body.slice(from, node.loc!.end).trimStart();
  const nl = body.search(/\r?\n/);
  return (nl === -1 ? body : body.slice(0, nl)).replace(/\s*\{\s*$/, "").trimEnd();
}

/** Fragment spreads anywhere in the document: references of the fragment. */
function _spreads(document: DocumentNode, calls: CallDraft[]): void {
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const v of value) visit(v);
      return;
    }
    if (value === null || typeof value !== "object") return;
    const node = value as { kind?: string; name?: { value: string }; loc?: { start: number } };
    if (node.kind === Kind.FRAGMENT_SPREAD && node.name !== undefined && node.loc !== undefined) {
      calls.push({ callee: node.name.value, at: node.loc.start });
    }
    for (const [key, child] of Object.entries(value)) {
      if (key !== "loc" && typeof child === "object") visit(child);
    }
  };
  visit(document.definitions);
}

/** `#import "./fragments.graphql"` and `# import * from "x.graphql"` lines. */
function _imports(text: string): ImportDraft[] {
  const found: ImportDraft[] = [];
  const re = /^[ \t]*#[ \t]*import[ \t]+(?:([\w*, \t]+?)[ \t]+from[ \t]+)?["']([^"']+)["']/gm;
  for (const m of text.matchAll(re)) {
    const names = m[1]?.split(",").map((n) => n.trim()).filter((n) => n !== "") ?? [];
    found.push({ specifier: m[2]!, names, at: m.index });
  }
  return found;
}
