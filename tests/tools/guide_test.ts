/**
 * `jcodemunch_guide`: the guide names every tool the server serves, in one line each, and no
 * workflow step names a tool it does not serve.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { guideText } from "../../src/tools/jcodemunch_guide.ts";
import { TOOLS } from "../../src/tools/mod.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { Store } from "../../src/store/store.ts";

/** Tool names written as code in a text. */
function namedTools(text: string): Set<string> {
  return new Set([...text.matchAll(/`([a-z][a-z0-9_]+)[` ]/g)].map((m) => m[1]!));
}

Deno.test("jcodemunch_guide: every served tool in one line, the workflow first", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "codemunch-guide-" });
  const runner = new ToolRunner({ store: new Store(dir) });
  try {
    const r = await runner.call("jcodemunch_guide", { format: "json" });
    equal(r.isError, false, r.text);
    const body = JSON.parse(r.text) as { guide: string; tool_count: number };
    equal(body.tool_count, TOOLS.length);
    for (const t of TOOLS) match(body.guide, new RegExp(`^- \`${t.name}\`: `, "m"), t.name);
    const workflow = body.guide.slice(0, body.guide.indexOf("## Every tool"));
    match(workflow, /resolve_repo \{"path"/);
    const names = new Set(TOOLS.map((t) => t.name));
    const unknown = [...namedTools(workflow)].filter((n) => n.includes("_") && !names.has(n));
    // Argument names are written as code too; only tool names may look like tools.
    deepEqual(
      unknown.filter((n) =>
        !/^(path_prefix|symbol_ids|file_pattern|is_regex|context_lines|start_line|end_line)$/.test(
          n,
        )
      ),
      [],
    );
  } finally {
    await runner.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("jcodemunch_guide: a step naming a tool the server does not serve is left out", () => {
  const few = guideText(TOOLS.filter((t) => t.name !== "get_ranked_context"));
  ok(!few.includes("get_ranked_context"), few);
  match(few, /search_symbols/);
  const none = guideText([]);
  ok(!none.includes("## Find and read code"), "an emptied section goes with its heading");
  match(none, /## Reading answers/);
});
