/** get_tectonic_map: modules from coupling, deterministic, bounded; louvain on known graphs. */
import { deepEqual, equal, ok } from "node:assert/strict";
import { decode } from "../../mod.ts";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";
import { louvain } from "../../src/query/tectonic.ts";

/** Two packages of three tightly coupled modules, one import between them, and a loner. */
const FILES: Record<string, string> = {
  "shop/cart.py":
    "from shop.prices import price_of\nfrom shop.stock import reserve\n\nclass Cart:\n    def add(self, item):\n        reserve(item)\n        return price_of(item)\n",
  "shop/prices.py":
    "from shop.stock import level\n\ndef price_of(item):\n    return 10 if level(item) else 12\n",
  "shop/stock.py":
    "from shop.prices import price_of\n\ndef level(item):\n    return 1\n\ndef reserve(item):\n    return price_of(item)\n",
  "mail/send.py":
    "from mail.render import render\nfrom mail.queue import enqueue\n\ndef send(msg):\n    enqueue(render(msg))\n",
  "mail/render.py": "from mail.queue import enqueue\n\ndef render(msg):\n    return str(msg)\n",
  "mail/queue.py":
    "from mail.render import render\nfrom shop.cart import Cart\n\ndef enqueue(x):\n    return render(x)\n",
  "tools/lonely.py": "def alone():\n    return 0\n",
};

Deno.test("get_tectonic_map: packages become modules, named, coupled, deterministic", async (t) => {
  const ws = tempWorkspace("codemunch-tectonic-");
  writeTree(ws.root, FILES);
  const runner = workspaceRunner(ws);
  try {
    const indexed = await runner.call("index_folder", { path: ws.root, format: "json" });
    equal(indexed.isError, false, indexed.text);
    const repo = JSON.parse(indexed.text).repo as string;
    const call = async (args: Record<string, unknown> = {}, format = "json") => {
      const r = await runner.call("get_tectonic_map", { repo, format, ...args });
      equal(r.isError, false, r.text);
      return decode(r.text) as Record<string, unknown>;
    };
    const first = await call();
    await t.step("two modules, one per package, the loner isolated", () => {
      const { _meta: _, ...body } = first;
      deepEqual(body, {
        repo,
        plate_count: 2,
        file_count: 7,
        plates: [
          {
            plate_id: 1,
            name: "mail (enqueue)",
            anchor: "mail/queue.py",
            file_count: 3,
            cohesion: 0.617,
            majority_directory: "mail",
            drifter_count: 0,
          },
          {
            plate_id: 2,
            name: "shop (price_of)",
            anchor: "shop/prices.py",
            file_count: 3,
            cohesion: 0.667,
            majority_directory: "shop",
            drifter_count: 0,
          },
        ],
        // Member files and couplings are checked exactly in the next step.
        members: body.members,
        couplings: [{ from: 1, to: 2, weight: 0.25 }],
        drifter_summary: [],
        isolated_count: 1,
        isolated_files: ["tools/lonely.py"],
        signals_used: ["structural", "calls", "shared_dependencies"],
      });
    });
    await t.step("members, names and couplings", () => {
      const members = first.members as { plate_id: number; file: string }[];
      deepEqual(
        members.filter((m) => m.plate_id === 1).map((m) => m.file).sort(),
        ["mail/queue.py", "mail/render.py", "mail/send.py"],
      );
      deepEqual(
        members.filter((m) => m.plate_id === 2).map((m) => m.file).sort(),
        ["shop/cart.py", "shop/prices.py", "shop/stock.py"],
      );
      const plates = first.plates as { name: string; anchor: string; cohesion: number }[];
      deepEqual(plates.map((p) => [p.name, p.anchor, p.cohesion]), [
        ["mail (enqueue)", "mail/queue.py", 0.617],
        ["shop (price_of)", "shop/prices.py", 0.667],
      ]);
      const couplings = first.couplings as { from: number; to: number; weight: number }[];
      equal(couplings.length, 1);
      deepEqual([couplings[0]!.from, couplings[0]!.to], [1, 2]);
      equal(couplings[0]!.weight, 0.25);
    });
    await t.step("the same index gives the same map; compact decodes to it", async () => {
      const again = await call();
      delete again._meta;
      const compact = await call({}, "compact");
      delete compact._meta;
      const { _meta: _, ...body } = first;
      deepEqual(again, body);
      deepEqual(compact, body);
    });
    await t.step("bounded: max_plates and max_files_per_plate cut with a hint", async () => {
      const cut = await call({ max_plates: 1, max_files_per_plate: 1, min_plate_size: 3 });
      equal((cut.plates as unknown[]).length, 1);
      equal((cut.members as unknown[]).length, 1);
      equal(cut.plate_count, 2);
      const meta = cut._meta as Record<string, unknown>;
      equal(meta.truncated, true);
      ok(String(meta.hint).includes("max_plates"), String(meta.hint));
    });
    await t.step("min_plate_size moves small modules to isolated files", async () => {
      const big = await call({ min_plate_size: 4 });
      equal(big.plate_count, 0);
      equal(big.isolated_count, 7);
    });
  } finally {
    await runner.close();
    ws.dispose();
  }
});

Deno.test("louvain: two cliques joined by one edge split in two, in any input order", () => {
  const edges: [string, string][] = [
    ["a", "b"],
    ["b", "c"],
    ["a", "c"],
    ["x", "y"],
    ["y", "z"],
    ["x", "z"],
    ["c", "x"],
  ];
  const weights = new Map<string, Map<string, number>>();
  for (const [p, q] of edges) {
    for (const [u, v] of [[p, q], [q, p]]) {
      if (!weights.has(u!)) weights.set(u!, new Map());
      weights.get(u!)!.set(v!, 1);
    }
  }
  const nodes = ["a", "b", "c", "x", "y", "z"];
  const c = louvain(nodes, weights);
  equal(c[0], c[1]);
  equal(c[1], c[2]);
  equal(c[3], c[4]);
  equal(c[4], c[5]);
  ok(c[0] !== c[3]);
  deepEqual(louvain(nodes, weights), c);
});
