/** The pure parts of the graph read model: base lists of declarations, Go embedding, cycles. */
import { deepStrictEqual } from "node:assert/strict";
import { basesFromSignature, goEmbeds } from "../../src/query/class_bases.ts";
import { stronglyConnected } from "../../src/query/import_graph.ts";

Deno.test("basesFromSignature reads each language's base list", () => {
  const cases: [string, string, [string, string][]][] = [
    ["python", "class A(Base, mod.Mixin, metaclass=Meta):", [["Base", "extends"], [
      "mod.Mixin",
      "extends",
    ]]],
    ["python", "class A:", []],
    ["python", "class A(Generic[T], object):", [["Generic", "extends"]]],
    ["typescript", "export default class A extends B<Map<K, V>> implements C<T>, D", [
      ["B", "extends"],
      ["C", "implements"],
      ["D", "implements"],
    ]],
    ["typescript", "interface I extends J, K", [["J", "extends"], ["K", "extends"]]],
    ["java", "public final class A<T extends Comparable<T>> extends B implements C", [
      ["B", "extends"],
      ["C", "implements"],
    ]],
    ["java", "record Point(int x, int y) implements Shape", [["Shape", "implements"]]],
    ["kotlin", "class A(val x: Int) : B(x), C", [["B", "extends"], ["C", "extends"]]],
    ["csharp", "public class A : B, IC", [["B", "extends"], ["IC", "extends"]]],
    ["cpp", "class A : public B, private ns::C", [["B", "extends"], ["ns.C", "extends"]]],
    ["ruby", "class A < Base::Model", [["Base.Model", "extends"]]],
    ["scala", "class A extends B with C with D", [["B", "extends"], ["C", "mixin"], [
      "D",
      "mixin",
    ]]],
    ["dart", "class A extends B with M implements I", [["B", "extends"], ["M", "mixin"], [
      "I",
      "implements",
    ]]],
  ];
  for (const [language, signature, expected] of cases) {
    deepStrictEqual(
      basesFromSignature(language, signature).map((b) => [b.name, b.relation]),
      expected,
      `${language}: ${signature}`,
    );
  }
});

Deno.test("goEmbeds finds embedded fields and interfaces, not named fields or methods", () => {
  const source = [
    "type S struct {",
    "\tBase",
    '\t*pkg.Other `json:"o"`',
    "\tname string // not embedded",
    "\tsync.Mutex",
    "\tList[int]",
    "}",
  ].join("\n");
  deepStrictEqual(goEmbeds(source).map((b) => b.name), ["Base", "pkg.Other", "sync.Mutex", "List"]);
  deepStrictEqual(
    goEmbeds("type RC interface {\n\tio.Reader\n\tClose() error\n\t~int | ~string\n}").map((b) =>
      b.name
    ),
    ["io.Reader"],
  );
});

Deno.test("stronglyConnected finds every cycle, members sorted, deterministic", () => {
  const edges = new Map([
    ["a", ["b"]],
    ["b", ["c", "d"]],
    ["c", ["a"]],
    ["d", ["e"]],
    ["e", ["d"]],
    ["f", ["a"]],
  ]);
  const components = stronglyConnected(edges).filter((c) => c.length > 1);
  deepStrictEqual(components, [["d", "e"], ["a", "b", "c"]]);
});
