/**
 * The files derived from the tool declarations are current: `src/server/tools_list.json` (what
 * the stdio server answers `tools/list` with, without loading a tool), the README tools table and
 * `docs/tools.md`. A stale file fails here; `deno task gen` rewrites them (this test never
 * writes). And the HTTP server answers initialize and tools/list like the stdio server.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_HTTP_SETTINGS, serveHttp } from "../../src/server/http.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { INSTRUCTIONS, SERVER_INFO, TOOLS_LIST } from "../../src/server/stdio.ts";
import { Store } from "../../src/store/store.ts";
import { generatedFiles } from "../../scripts/gen.ts";
import { httpExchange } from "../server/_protocol.ts";
import { CHECKOUT } from "./_server.ts";

Deno.test("generated files are current (run `deno task gen` after changing a tool)", async (t) => {
  for (const f of await generatedFiles()) {
    await t.step(f.path, () => {
      const actual = Deno.readTextFileSync(join(CHECKOUT, f.path));
      // A first differing line makes a readable failure; the whole text must match.
      const a = actual.split("\n"), e = f.text.split("\n");
      const at = e.findIndex((line, i) => line !== a[i]);
      equal(
        actual === f.text,
        true,
        `${f.path} is stale: run \`deno task gen\`${
          at === -1
            ? ""
            : ` (line ${at + 1}: expected ${JSON.stringify(e[at])}, found ${
              JSON.stringify(a[at] ?? "(end of file)")
            })`
        }`,
      );
    });
  }
});

Deno.test("the HTTP server's initialize and tools/list answers are the stdio server's", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "codemunch-tools-list-" });
  const runner = new ToolRunner({ store: new Store(dir), log: () => {} });
  const server = await serveHttp(runner, { ...DEFAULT_HTTP_SETTINGS, port: 0 }, () => {});
  try {
    const [init, list] = await httpExchange(server.url, [
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
    ]);
    deepStrictEqual(init!.result, {
      protocolVersion: "2025-06-18",
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true },
      },
      serverInfo: SERVER_INFO,
      instructions: INSTRUCTIONS,
    });
    deepStrictEqual(list!.result, TOOLS_LIST);
  } finally {
    await server.shutdown();
    await runner.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
