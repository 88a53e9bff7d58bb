/**
 * Bounded output (API.md Part A §9) of the content tools: token_budget, `_meta.truncated` and a
 * hint whose arguments fetch the rest; signatures cut in outlines; lookups by qualified names
 * (Part A §10); summaries; `tokens_saved` of overviews.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { decode } from "../../mod.ts";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";

async function indexed(files: Record<string, string>) {
  const ws = tempWorkspace("codemunch-bounded-");
  writeTree(ws.root, files);
  const runner = workspaceRunner(ws);
  const r = await runner.call("index_folder", { path: ws.root, format: "json" });
  equal(r.isError, false, r.text);
  const repo = (JSON.parse(r.text) as { repo: string }).repo;
  const call = async (tool: string, args: Record<string, unknown>) => {
    const out = await runner.call(tool, { repo, format: "json", ...args });
    const body = decode(out.text) as Record<string, unknown>;
    return { isError: out.isError, body, meta: (body._meta ?? {}) as Record<string, unknown> };
  };
  return { call, dispose: async () => (await runner.close(), ws.dispose()) };
}

/** A Python file of `n` functions, ~60 bytes a line. */
function bigPython(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(`def function_number_${i}(alpha, beta, gamma):`);
    out.push(`    """Compute the value number ${i} from alpha, beta and gamma."""`);
    out.push(`    return alpha + beta + gamma + ${i}  # padding padding padding`);
    out.push("");
  }
  return out.join("\n");
}

/** The arguments named in a hint: `key=value` pairs. */
function hintArgs(hint: string): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const m of hint.matchAll(/(\w+)=("[^"]*"|\d+)/g)) {
    out[m[1]!] = m[2]!.startsWith('"') ? m[2]!.slice(1, -1) : Number(m[2]);
  }
  return out;
}

Deno.test("get_file_content: cut at whole lines to token_budget; the hint's arguments fetch the rest", async () => {
  const text = bigPython(400);
  const w = await indexed({ "big.py": text });
  try {
    const whole = await w.call("get_file_content", { file_path: "big.py", token_budget: 200_000 });
    equal(whole.meta.truncated, false);
    const first = await w.call("get_file_content", { file_path: "big.py" }); // default 8000
    equal(first.meta.truncated, true);
    ok(String(first.body.content).length <= 8000 * 4);
    const hint = String(first.meta.hint);
    match(hint, /start_line=\d+/);
    const args = hintArgs(hint);
    equal(args.file_path, "big.py");
    equal(args.start_line, (first.body.end_line as number) + 1);
    // Following the hints until done gives the whole file, line for line.
    let content = String(first.body.content);
    let next = args;
    for (let i = 0; i < 10; i++) {
      const part = await w.call("get_file_content", next);
      content += "\n" + String(part.body.content);
      if (part.meta.truncated !== true) break;
      next = hintArgs(String(part.meta.hint));
    }
    equal(content, String(whole.body.content).replace(/\n$/, ""));
  } finally {
    await w.dispose();
  }
});

Deno.test("get_symbol_source: a long source is cut and the hint names the lines; a batch leaves symbols out by id", async () => {
  const body = Array.from({ length: 300 }, (_, i) => `    x${i} = ${i}  # a line of padding text`);
  const w = await indexed({
    "a.py": ["def long_one():", ...body, "    return 0", "", "def short_one():", "    return 1", ""]
      .join("\n"),
  });
  try {
    const r = await w.call("get_symbol_source", {
      symbol_id: "a.py::long_one#function",
      token_budget: 500,
    });
    equal(r.meta.truncated, true);
    equal(r.body.truncated, true);
    ok(String(r.body.source).length <= 500 * 4);
    const args = hintArgs(String(r.meta.hint));
    equal(args.file_path, "a.py");
    equal(args.end_line, r.body.end_line);
    const rest = await w.call("get_file_content", { ...args, token_budget: 200_000 });
    const full = await w.call("get_symbol_source", {
      symbol_id: "a.py::long_one#function",
      token_budget: 200_000,
    });
    equal(full.meta.truncated, false);
    equal(String(r.body.source) + "\n" + String(rest.body.content), full.body.source);

    const batch = await w.call("get_symbol_source", {
      symbol_ids: ["a.py::long_one#function", "a.py::short_one#function"],
      token_budget: 3000,
    });
    equal((batch.body.symbols as unknown[]).length, 1);
    match(String(batch.meta.hint), /symbol_ids=\["a\.py::short_one#function"\]/);
  } finally {
    await w.dispose();
  }
});

Deno.test("get_file_outline: signatures cut and marked, summaries that repeat them left out, symbols past the budget named", async () => {
  const params = Array.from({ length: 80 }, (_, i) => `argument_${i}`).join(", ");
  const w = await indexed({
    "wide.py":
      `def wide(${params}):\n    """Do it."""\n    return 1\n\ndef plain(a):\n    return a\n`,
    "big.py": bigPython(400),
  });
  try {
    const o = await w.call("get_file_outline", { file_path: "wide.py" });
    const [wide, plain] = o.body.symbols as Record<string, unknown>[];
    ok(String(wide!.signature).endsWith(" …") && String(wide!.signature).length < 260);
    equal(wide!.summary, "Do it.");
    equal(plain!.summary, undefined, "the signature fallback repeats the signature");
    match(String(o.meta.hint), /get_symbol_source/);
    equal(o.meta.truncated, false);

    const big = await w.call("get_file_outline", { file_path: "big.py", token_budget: 1000 });
    equal(big.meta.truncated, true);
    const shown = big.body.symbols as { line: number }[];
    ok(shown.length > 0 && shown.length < 400);
    const hint = String(big.meta.hint);
    match(hint, /token_budget/);
    equal(hintArgs(hint).start_line, shown.at(-1)!.line + 4);
  } finally {
    await w.dispose();
  }
});

Deno.test("get_repo_outline: token_budget trims directories; tokens_saved does not count the whole repo", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 60; i++) files[`dir_${i}/m.py`] = bigPython(20);
  const w = await indexed(files);
  try {
    const r = await w.call("get_repo_outline", {});
    equal(r.meta.truncated, false);
    // 60 files of ~3.5 KB: reading them would be ~50k tokens; the outline stands in for a listing.
    ok((r.meta.tokens_saved as number) < 500, String(r.meta.tokens_saved));
    const small = await w.call("get_repo_outline", { token_budget: 100 });
    equal(small.meta.truncated, true);
    ok(Object.keys(small.body.directories as object).length < 40);
    match(String(small.meta.hint), /get_file_tree with a path_prefix/);
  } finally {
    await w.dispose();
  }
});

Deno.test("symbol lookup: Qualified.name and file::Qualified.name without #kind; closest lists exact qualified names first", async () => {
  const w = await indexed({
    "app/models.py":
      "class User:\n    def save(self):\n        pass\n\nclass Team:\n    def save(self):\n        pass\n",
    "app/other.py": "class Account:\n    def close(self):\n        pass\n",
    "lib/more.py": "class Account:\n    def close(self):\n        pass\n",
  });
  try {
    const q = await w.call("get_symbol_source", { symbol_id: "User.save" });
    equal(q.isError, false, JSON.stringify(q.body));
    equal(q.body.id, "app/models.py::User.save#method");
    const f = await w.call("get_symbol_source", { symbol_id: "app/other.py::Account.close" });
    equal(f.body.id, "app/other.py::Account.close#method");
    const wrongKind = await w.call("get_symbol_source", {
      symbol_id: "app/models.py::Team#function",
    });
    equal(wrongKind.body.id, "app/models.py::Team#class");
    const ambiguous = await w.call("get_symbol_source", { symbol_id: "Account.close" });
    equal(ambiguous.body.code, "symbol_ambiguous");
    deepStrictEqual(
      (ambiguous.body.candidates as { id: string }[]).map((c) => c.id).sort(),
      ["app/other.py::Account.close#method", "lib/more.py::Account.close#method"],
    );
    const missing = await w.call("get_symbol_source", {
      symbol_id: "app/gone.py::User.save#method",
    });
    equal(missing.body.code, "symbol_not_found");
    equal((missing.body.closest as string[])[0], "app/models.py::User.save#method");
  } finally {
    await w.dispose();
  }
});

Deno.test("file summaries name public, most-called symbols first, each once", async () => {
  const w = await indexed({
    "m.py": [
      "def _helper():\n    pass\n",
      "def alpha():\n    pass\n",
      "def beta():\n    return omega() + omega()\n",
      "def omega():\n    return 1\n",
    ].join("\n"),
  });
  try {
    const o = await w.call("get_file_outline", { file_path: "m.py" });
    equal(o.body.file_summary, "Contains 4 functions: omega, alpha, beta, ...");
  } finally {
    await w.dispose();
  }
});

Deno.test("file summaries rank by the whole repo's imports and calls at query time", async () => {
  const users = Object.fromEntries(
    [1, 2, 3].map((i) => [`u${i}.py`, "from lib import zeta\n\ndef f():\n    zeta()\n"]),
  );
  const w = await indexed({
    "lib.py": ["alpha", "beta", "gamma", "zeta"].map((n) => `def ${n}():\n    pass\n`).join("\n"),
    ...users,
  });
  try {
    const o = await w.call("get_file_outline", { file_path: "lib.py" });
    equal(o.body.file_summary, "Contains 4 functions: zeta, alpha, beta, ...");
  } finally {
    await w.dispose();
  }
});

Deno.test("search_symbols: detail_level=full is bounded by the default budget, long sources cut at a line", async () => {
  const body = Array.from(
    { length: 3000 },
    (_, i) => `    x${i} = ${i}  # padding padding padding`,
  );
  const w = await indexed({ "a.py": ["def huge_one():", ...body, "    return 0", ""].join("\n") });
  try {
    const r = await w.call("search_symbols", { query: "huge_one", detail_level: "full" });
    const hit = (r.body.results as Record<string, unknown>[])[0]!;
    equal(hit.truncated, true);
    ok(JSON.stringify(r.body).length < 8000 * 4 + 2000);
    equal(r.meta.truncated, true);
    match(String(r.meta.hint), /detail_level=full/);
  } finally {
    await w.dispose();
  }
});
