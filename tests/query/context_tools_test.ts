/**
 * get_ranked_context and get_context_bundle over fixtures/context: what is chosen and why, the
 * budget (never exceeded, for every question of the retrieval bench at several budgets), the
 * related signatures of a bundle, markdown, and compact output decoding to the same object.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { decode } from "../../mod.ts";
import { indexedFixture } from "./_fixture.ts";
import { RELEVANCE_FLOOR } from "../../src/query/context_pack.ts";
import { loadQuestionSets } from "../../scripts/bench_retrieval.ts";

interface Item {
  symbol_id: string;
  why: string;
  cut: boolean;
  tokens: number;
  source: string;
}

Deno.test("get_ranked_context and get_context_bundle", async (t) => {
  const { runner, repo, close } = await indexedFixture("context");
  try {
    const call = async (tool: string, args: Record<string, unknown>, format = "json") => {
      const r = await runner.call(tool, { repo, format, ...args });
      equal(r.isError, false, r.text);
      return decode(r.text) as Record<string, unknown>;
    };

    await t.step("ranked context: best first, with reasons, containers cut", async () => {
      const body = await call("get_ranked_context", {
        query: "total price of the cart with tax",
        token_budget: 450,
      });
      const items = body.context_items as Item[];
      // The file most of the best matches are in (shop/cart.py) lifts its symbols (file focus;
      // the constant TAX_RATE, a data kind, weighs little in a description and adds little to
      // shop/prices.py's share); the class holds methods packed already, so only its signature
      // and docstring come.
      deepEqual(items.slice(0, 4).map((i) => [i.symbol_id, i.cut]), [
        ["shop/cart.py::Cart.total#method", false],
        ["shop/cart.py::Cart.total_with_coupon#method", false],
        ["shop/prices.py::price_with_tax#function", false],
        ["shop/cart.py::Cart#class", true],
      ]);
      ok(items[0]!.why.startsWith("text relevance"), items[0]!.why);
      ok(items[0]!.why.includes("file focus +"), items[0]!.why);
      const wide = await call("get_ranked_context", {
        query: "total price of the cart with tax",
        token_budget: 2000,
      });
      // A neighbour that is no text match enters at half its seed's score, and says whose.
      const discount = (wide.context_items as Item[]).find((i) =>
        i.symbol_id === "shop/prices.py::discount#function"
      );
      ok(discount?.why.startsWith("called by total_with_coupon,"), discount?.why);
      const cart = (wide.context_items as Item[]).find((i) =>
        i.symbol_id === "shop/cart.py::Cart#class"
      );
      ok(cart !== undefined);
      // A text match that calls the best one gains a share of its score, and says so.
      const coupon = (wide.context_items as Item[]).find((i) =>
        i.symbol_id === "shop/cart.py::Cart.total_with_coupon#method"
      );
      ok(/, calls total \+\d/.test(coupon?.why ?? ""), coupon?.why);
      // Nothing scoring below RELEVANCE_FLOOR of the best is packed, and the answer says why it
      // stopped.
      const items2 = wide.context_items as (Item & { score: number })[];
      for (const i of items2) ok(i.score >= RELEVANCE_FLOOR * items2[0]!.score, i.symbol_id);
      ok(["relevance", "budget", "candidates"].includes(
        String((wide._meta as Record<string, unknown>).stopped),
      ));
      // The class holds methods packed already: its signature, docstring and outline come.
      equal(cart.cut, true);
      equal(
        cart.source,
        "class Cart\nItems a customer is about to buy.\n  def __init__(self)\n" +
          "  def add(self, item, amount)\n  def total(self)\n  def total_with_coupon(self, percent)\n…",
      );
      equal(body.total_tokens, items.reduce((n, i) => n + i.tokens, 0));
      ok((body.total_tokens as number) <= 450);
      equal(body.token_estimate, "utf8_bytes/4");
      equal((body._meta as Record<string, unknown>).truncated, true);
    });

    await t.step("ranked context: a graph neighbour says whose neighbour it is", async () => {
      const body = await call("get_ranked_context", { query: "checkout flow", token_budget: 2000 });
      const items = body.context_items as Item[];
      equal(items[0]!.symbol_id, "checkout.py::checkout#function");
      const charge = items.find((i) => i.symbol_id === "checkout.py::charge#function");
      ok(charge !== undefined, JSON.stringify(items.map((i) => i.symbol_id)));
    });

    await t.step("ranked context: include_kinds and scope filter", async () => {
      const body = await call("get_ranked_context", {
        query: "stock reserve restock",
        include_kinds: ["function"],
        scope: "shop/*",
      });
      const items = body.context_items as (Item & { kind: string; file: string })[];
      ok(items.length >= 2);
      ok(items.every((i) => i.kind === "function" && i.file.startsWith("shop/")));
    });

    await t.step("the budget is never exceeded on any bench question", async () => {
      const questions = loadQuestionSets().flatMap((s) => s.questions.map((q) => q.q));
      ok(questions.length >= 75, `${questions.length} questions`);
      for (const budget of [100, 180, 400, 8000]) {
        for (const q of questions) {
          const body = await call("get_ranked_context", { query: q, token_budget: budget });
          const items = body.context_items as Item[];
          const sum = items.reduce((n, i) => n + i.tokens, 0);
          ok(sum <= budget, `${q} @${budget}: ${sum}`);
          equal(body.total_tokens, sum);
          for (const i of items) {
            const { tokens: _, ...rest } = i;
            ok(
              Math.ceil(
                new TextEncoder().encode(JSON.stringify({ ...rest, tokens: i.tokens }))
                  .length / 4,
              ) <= i.tokens + 1,
            );
          }
        }
      }
    });

    await t.step(
      "context bundle: source, used imports, class, callees, callers, siblings",
      async () => {
        const body = await call("get_context_bundle", {
          symbol_id: "Cart.total",
          include_callers: true,
          include_budget_report: true,
        });
        deepEqual((body.symbols as Item[]).map((s) => [s.symbol_id, s.cut]), [
          ["shop/cart.py::Cart.total#method", false],
        ]);
        deepEqual(body.imports, [{
          file: "shop/cart.py",
          line: 2,
          text: "from shop.prices import discount, price_with_tax",
          used_by: "shop/cart.py::Cart.total#method",
        }]);
        deepEqual(
          (body.related as Record<string, unknown>[]).map((r) => `${r.relation} ${r.id}`),
          [
            "class shop/cart.py::Cart#class",
            "calls shop/prices.py::price_with_tax#function",
            "caller checkout.py::checkout#function",
            "caller shop/cart.py::Cart.total_with_coupon#method",
            "sibling shop/cart.py::Cart.__init__#method",
            "sibling shop/cart.py::Cart.add#method",
            "sibling shop/cart.py::Cart.total_with_coupon#method",
          ],
        );
        deepEqual(body.importers, [{
          symbol_id: "shop/cart.py::Cart.total#method",
          file: "checkout.py",
        }]);
        deepEqual(
          (body.budget_report as { section: string }[]).map((r) => r.section),
          ["source", "imports", "class", "calls", "caller", "sibling", "importers"],
        );
      },
    );

    await t.step("context bundle: a small budget cuts, never overflows, and says so", async () => {
      const body = await call("get_context_bundle", {
        symbol_ids: ["shop/cart.py::Cart#class", "checkout.py::checkout#function"],
        token_budget: 100,
        budget_strategy: "core_first",
      });
      ok((body.total_tokens as number) <= 100, String(body.total_tokens));
      const meta = body._meta as Record<string, unknown>;
      equal(meta.truncated, true);
      ok(String(meta.hint).includes("token_budget"));
    });

    await t.step("context bundle: markdown, compact and unknown ids", async () => {
      const md = await call("get_context_bundle", {
        symbol_id: "shop/stock.py::reserve#function",
        output_format: "markdown",
      });
      ok(
        String(md.markdown).startsWith("## shop/stock.py::reserve#function\n"),
        String(md.markdown),
      );
      ok(String(md.markdown).includes("Called by:\n- `def add(self, item, amount)`"));
      const json = await call("get_context_bundle", { symbol_id: "Cart.add" });
      const compact = await call("get_context_bundle", { symbol_id: "Cart.add" }, "compact");
      delete json._meta;
      delete compact._meta;
      deepEqual(compact, json);
      const mixed = await call("get_context_bundle", { symbol_ids: ["Cart.add", "nope_nothing"] });
      equal((mixed.symbols as unknown[]).length, 1);
      equal((mixed.errors as { id: string }[])[0]!.id, "nope_nothing");
      const r = await runner.call("get_context_bundle", { repo, symbol_id: "nope_nothing" });
      equal(r.isError, true);
      equal(JSON.parse(r.text).code, "symbol_not_found");
    });
  } finally {
    await close();
  }
});
