/**
 * OpenAPI 3 and Swagger 2 documents (YAML or JSON), read by npm `yaml`: each path is a `class`
 * (`/users/{id}`) whose operations are `method`s named by their `operationId`, else by method and
 * path (`GET /users/{id}`); each schema (`components.schemas`, Swagger's `definitions`) is a
 * `type` with its `properties` as `field`s; the other reusable components (parameters, responses,
 * request bodies, headers, security schemes, examples, links, callbacks) are `constant`s. A
 * `summary` or `description` is the docstring. Every `$ref` is a reference (call) of what it
 * names (`User` for `#/components/schemas/User`), and a `$ref` into another file is an import of
 * that file. Servers, tags and `info` are not symbols.
 */
import type { Extracted, Extractor } from "./records.ts";
import { get, pairRange, pairs, readYaml, text, type YamlNode } from "./yaml_tree.ts";

const _METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

export const extractor: Extractor = {
  extract(source: string): Extracted {
    const { root, errors } = readYaml(source);
    const found: Extracted = { symbols: [], imports: [], calls: [], errors };
    _paths(get(root, "paths"), found);
    const components = get(root, "components");
    for (const section of pairs(components)) {
      const name = text(section.key);
      if (name === "schemas") _schemas(section.value, found);
      else _constants(section.value, found);
    }
    _schemas(get(root, "definitions"), found);
    _constants(get(root, "parameters"), found);
    _constants(get(root, "responses"), found);
    _refs(root, found);
    return found;
  },
};

function _docOf(node: unknown): string {
  return text(get(node, "summary")) ?? text(get(node, "description")) ?? "";
}

function _paths(paths: YamlNode | null | undefined, found: Extracted): void {
  for (const path of pairs(paths)) {
    const name = text(path.key);
    if (name === undefined) continue;
    const [start, end] = pairRange(path);
    const parent = found.symbols.length;
    found.symbols.push({
      name,
      kind: "class",
      start,
      end,
      signature: name,
      docstring: _docOf(path.value),
    });
    for (const op of pairs(path.value)) {
      const method = text(op.key)?.toLowerCase();
      if (method === undefined || !_METHODS.has(method)) continue;
      const [s, e] = pairRange(op);
      const opName = text(get(op.value, "operationId")) ?? text(op.key)!;
      found.symbols.push({
        name: opName,
        kind: "function",
        start: s,
        end: e,
        parent,
        docstring: _docOf(op.value),
      });
    }
  }
}

function _schemas(schemas: YamlNode | null | undefined, found: Extracted): void {
  for (const schema of pairs(schemas)) {
    const name = text(schema.key);
    if (name === undefined) continue;
    const [start, end] = pairRange(schema);
    const parent = found.symbols.length;
    found.symbols.push({
      name,
      kind: "type",
      start,
      end,
      docstring: _docOf(schema.value),
    });
    for (const property of pairs(get(schema.value, "properties"))) {
      const field = text(property.key);
      if (field === undefined) continue;
      const [s, e] = pairRange(property);
      found.symbols.push({
        name: field,
        kind: "field",
        start: s,
        end: e,
        parent,
        docstring: _docOf(property.value),
      });
    }
  }
}

function _constants(section: YamlNode | null | undefined, found: Extracted): void {
  for (const entry of pairs(section)) {
    const name = text(entry.key);
    if (name === undefined) continue;
    const [start, end] = pairRange(entry);
    found.symbols.push({ name, kind: "constant", start, end, docstring: _docOf(entry.value) });
  }
}

/** Every `$ref`: a reference of its target, and an import when it points into another file. */
function _refs(root: YamlNode | null, found: Extracted): void {
  const files = new Set<string>();
  const visit = (node: unknown): void => {
    for (const p of pairs(node)) {
      const ref = text(p.key) === "$ref" ? text(p.value) : undefined;
      if (ref !== undefined) {
        const at = (p.value as YamlNode).range?.[0] ?? 0;
        const [file, pointer = ""] = ref.split("#", 2) as [string, string?];
        const callee = pointer.slice(pointer.lastIndexOf("/") + 1) || file;
        found.calls.push({ callee: decodeURIComponent(callee), at });
        if (file !== "" && !files.has(file)) {
          files.add(file);
          found.imports.push({ specifier: file, at });
        }
      } else visit(p.value);
    }
    if (node !== null && typeof node === "object" && "items" in node) {
      for (const item of (node as { items: unknown[] }).items) {
        if (item !== null && typeof item === "object" && !("key" in item)) visit(item);
      }
    }
  };
  visit(root);
}
