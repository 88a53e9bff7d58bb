/**
 * The parts of npm `yaml`'s document model the OpenAPI and Ansible extractors walk: mappings,
 * sequences and scalars with their character ranges.
 */
import { isMap, isScalar, isSeq, parseDocument } from "yaml";
import type { Document, Node as YamlNode, Pair, YAMLMap } from "yaml";

export type { YamlNode };

/** Parse YAML (or JSON); syntax errors are collected, what was read is kept. */
export function readYaml(text: string): { root: YamlNode | null; errors: string[] } {
  const doc: Document = parseDocument(text, { uniqueKeys: false, prettyErrors: false });
  return {
    root: (doc.contents as YamlNode | null) ?? null,
    errors: doc.errors.map((e) => e.message),
  };
}

/** The pairs of a mapping (none for any other node). */
export function pairs(node: unknown): Pair<YamlNode, YamlNode | null>[] {
  return isMap(node) ? (node as YAMLMap<YamlNode, YamlNode | null>).items : [];
}

/** The items of a sequence (none for any other node). */
export function items(node: unknown): YamlNode[] {
  return isSeq(node) ? node.items as YamlNode[] : [];
}

/** A scalar's value as text, else undefined. */
export function text(node: unknown): string | undefined {
  if (!isScalar(node)) return undefined;
  const v = node.value;
  return v === null || v === undefined ? undefined : String(v);
}

/** The value of a mapping's key `name`. */
export function get(node: unknown, name: string): YamlNode | null | undefined {
  return pairs(node).find((p) => text(p.key) === name)?.value;
}

/** Where a pair starts (its key) and ends (its value's end). */
export function pairRange(pair: Pair<YamlNode, YamlNode | null>): [number, number] {
  const start = (pair.key as YamlNode | null)?.range?.[0] ?? 0;
  const end = pair.value?.range?.[2] ?? (pair.key as YamlNode | null)?.range?.[2] ?? start;
  return [start, end];
}

/** A node's range `[start, end)`. */
export function range(node: YamlNode | null | undefined): [number, number] {
  return [node?.range?.[0] ?? 0, node?.range?.[2] ?? 0];
}
