/**
 * Context bundles (src/query/context_bundle.ts) over a small package indexed for real: the source,
 * the imports it uses, its class, callees, callers and siblings, each counted in the report; the
 * budget spent in that order and never exceeded, a source cut to whole lines, signatures only with
 * `compact`, and the Markdown rendering.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { estimateTokens } from "../../src/query/budget.ts";
import { type Bundle, bundleMarkdown, contextBundle } from "../../src/query/context_bundle.ts";
import { indexedView } from "./_fixture.ts";

const _FILES = {
  "shop/money.py": "def to_cents(x):\n    return round(x * 100)\n",
  "shop/cart.py": [
    "import os",
    "from shop.money import to_cents",
    "",
    "",
    "class Cart:",
    "    def total(self, items):",
    '        """Sum the items in cents."""',
    "        return sum(to_cents(i) for i in items)",
    "",
    "    def clear(self):",
    "        return None",
    "",
    "",
    "def report(cart):",
    "    return cart.total([1])",
    "",
  ].join("\n"),
  "shop/app.py": "from shop.cart import Cart\n\n\ndef main():\n    return Cart().total([2])\n",
};

const _ID = "shop/cart.py::Cart.total#method";

function _related(b: Bundle): string[] {
  return b.related.map((r) => `${r.relation} ${r.id}${r.resolution ? ` ${r.resolution}` : ""}`);
}

Deno.test("context_bundle: a method with everything around it", async () => {
  const { view, symbol, close } = await indexedView(_FILES);
  try {
    const b = contextBundle(view, [symbol(_ID)], {
      budget: 10_000,
      strategy: "core_first",
      includeImporters: true,
    });
    equal(b.symbols.length, 1);
    equal(b.symbols[0]!.cut, false);
    equal(b.symbols[0]!.source, view.index.symbolSource(_ID));
    // Only the import the body uses.
    deepEqual(b.imports.map((i) => `${i.line} ${i.text} ${i.used_by}`), [
      `2 from shop.money import to_cents ${_ID}`,
    ]);
    // One relation at a time; the callers call through receivers of no known type: by name.
    deepEqual(_related(b), [
      "class shop/cart.py::Cart#class",
      "calls shop/money.py::to_cents#function resolved",
      "caller shop/app.py::main#function by_name",
      "caller shop/cart.py::report#function by_name",
      "sibling shop/cart.py::Cart.clear#method",
    ]);
    deepEqual(b.importers, [{ symbol_id: _ID, file: "shop/app.py" }]);
    deepEqual(b.report.map((r) => r.section), [
      "source",
      "imports",
      "class",
      "calls",
      "caller",
      "sibling",
      "importers",
    ]);
    ok(b.report.every((r) => r.left_out === 0));
    equal(b.totalTokens, b.report.reduce((n, r) => n + r.tokens, 0));
    const md = bundleMarkdown(b);
    ok(
      md.startsWith(
        `## ${_ID}\n\nshop/cart.py:6-8\n\nImports:\n\`\`\`\nfrom shop.money import to_cents\n\`\`\``,
      ),
    );
    ok(md.includes("Class:\n- `class Cart` — shop/cart.py::Cart#class"));
    ok(md.includes("Imported by: shop/app.py"));
  } finally {
    await close();
  }
});

Deno.test("context_bundle: the budget is spent in order and never exceeded", async () => {
  const { view, symbol, close } = await indexedView(_FILES);
  try {
    const full = contextBundle(view, [symbol(_ID)], {
      budget: 10_000,
      strategy: "core_first",
      includeImporters: false,
    });
    const source = full.report[0]!.tokens;
    // Room for the source and nothing more: every other section is left out.
    const tight = contextBundle(view, [symbol(_ID)], {
      budget: source,
      strategy: "core_first",
      includeImporters: false,
    });
    equal(tight.symbols[0]!.cut, false);
    equal(tight.totalTokens, source);
    deepEqual(tight.imports, []);
    deepEqual(tight.related, []);
    ok(tight.report.slice(1).every((r) => r.included === 0 && r.left_out > 0));
    // Less than the source: whole lines of it, marked as cut, within the budget.
    const cut = contextBundle(view, [symbol(_ID)], {
      budget: source - 6,
      strategy: "core_first",
      includeImporters: false,
    });
    const s = cut.symbols[0]!;
    equal(s.cut, true);
    ok(s.source.endsWith("\n…"));
    ok(full.symbols[0]!.source.startsWith(s.source.slice(0, -2)));
    ok(cut.totalTokens <= source - 6);
    deepEqual(cut.report[0], { section: "source", included: 1, left_out: 0, tokens: s.tokens });
    equal(s.tokens, estimateTokens(s));
  } finally {
    await close();
  }
});

Deno.test("context_bundle: compact gives signatures; most_relevant orders by centrality", async () => {
  const { view, symbol, close } = await indexedView(_FILES);
  try {
    const compact = contextBundle(view, [symbol(_ID)], {
      budget: 10_000,
      strategy: "compact",
      includeImporters: false,
    });
    equal(compact.symbols[0]!.source, `${symbol(_ID).signature}\n…`);
    equal(compact.symbols[0]!.cut, true);
    const two = [
      symbol("shop/cart.py::report#function"),
      symbol("shop/money.py::to_cents#function"),
    ];
    const kept = contextBundle(view, two, {
      budget: 10_000,
      strategy: "core_first",
      includeImporters: false,
    });
    deepEqual(kept.symbols.map((s) => s.name), ["report", "to_cents"]);
    const ranked = contextBundle(view, two, {
      budget: 10_000,
      strategy: "most_relevant",
      includeImporters: false,
    });
    deepEqual(ranked.symbols.map((s) => s.name).sort(), ["report", "to_cents"]);
  } finally {
    await close();
  }
});
