/**
 * Tool profiles and `disabled_tools` (issue 28, "frugal"): what each profile lists and what a
 * session pays for it in cl100k tokens of the `tools/list` answer (core ≤ 3,500, full ≤ 12,000),
 * the settings from the environment and `config.jsonc`, and a call of a tool that is not served —
 * over stdio (a real server process started as a client config starts it) and Streamable HTTP.
 */
import { deepStrictEqual, equal, match, ok, throws } from "node:assert/strict";
import { join } from "node:path";
import { encode } from "gpt-tokenizer/encoding/cl100k_base";
import { McpProtocol, type Message } from "../../src/server/protocol.ts";
import { TOOLS_LIST } from "../../src/server/stdio.ts";
import {
  CORE_TOOLS,
  isServed,
  STANDARD_TOOLS,
  TOOL_PROFILES,
  type ToolVisibility,
  toolVisibilityFrom,
} from "../../src/server/tool_profile.ts";
import { DEFAULT_HTTP_SETTINGS, serveHttp } from "../../src/server/http.ts";
import { DEFAULT_SETTINGS } from "../../src/server/config.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { Store } from "../../src/store/store.ts";
import { TOOLS } from "../../src/tools/mod.ts";
import { connect, tempProject } from "../e2e/_server.ts";
import { httpExchange } from "./_protocol.ts";

/** Token targets of `tools/list` per profile (issue 28). */
const TOKEN_LIMITS: Record<string, number> = { core: 3_500, full: 12_000 };

/** The `tools/list` answer of a protocol serving `tools`. */
async function listed(tools: ToolVisibility): Promise<{ tools: { name: string }[] }> {
  const protocol = new McpProtocol({ runner: () => Promise.reject(new Error("unused")), tools });
  let answer: Message | undefined;
  await protocol.receive({ jsonrpc: "2.0", id: 1, method: "tools/list" }, {
    send: (m) => (answer = m as Message, Promise.resolve()),
  });
  return answer!.result as { tools: { name: string }[] };
}

Deno.test("tool profiles: core ⊂ standard ⊂ full, and what each costs in tokens", async () => {
  const sizes: string[] = [];
  let previous: string[] = [];
  for (const profile of TOOL_PROFILES) {
    const result = await listed({ profile, disabled: [] });
    const names = result.tools.map((t) => t.name);
    ok(previous.every((n) => names.includes(n)), `${profile} holds the smaller profile`);
    previous = names;
    const tokens = encode(JSON.stringify(result)).length;
    sizes.push(`${profile}: ${names.length} tools, ${tokens} tokens`);
    const limit = TOKEN_LIMITS[profile];
    if (limit !== undefined) ok(tokens <= limit, `${profile}: ${tokens} tokens > ${limit}`);
  }
  console.log(`tools/list (cl100k): ${sizes.join("; ")}`);
  // Every registered tool is in full; core is the reference's core bundle, as far as we have it.
  deepStrictEqual(previous, TOOLS.map((t) => t.name));
  const core = (await listed({ profile: "core", disabled: [] })).tools.map((t) => t.name);
  deepStrictEqual(core, TOOLS.map((t) => t.name).filter((n) => CORE_TOOLS.includes(n)));
  ok(
    !core.includes("invalidate_cache"),
    "invalidate_cache is standard, not core (the reference's)",
  );
  ok(STANDARD_TOOLS.every((n) => !CORE_TOOLS.includes(n)));
});

Deno.test("tools/list: aliases are callable but not listed; disabled tools are not listed", async () => {
  const names = TOOLS_LIST.tools.map((t) => t.name);
  ok(!names.includes("get_symbol") && !names.includes("get_symbols"));
  equal(new Set(names).size, names.length);
  const without = await listed({ profile: "full", disabled: ["search_text", "no_such_tool"] });
  deepStrictEqual(without.tools.map((t) => t.name), names.filter((n) => n !== "search_text"));
  ok(!isServed({ profile: "core", disabled: [] }, "get_call_hierarchy"));
});

Deno.test("tool visibility from the environment and config.jsonc (the file wins)", () => {
  const env = (vars: Record<string, string>) => (n: string) => vars[n];
  deepStrictEqual(toolVisibilityFrom(env({}), null), { profile: "full", disabled: [] });
  deepStrictEqual(
    toolVisibilityFrom(
      env({ JCODEMUNCH_TOOL_PROFILE: " Core ", JCODEMUNCH_DISABLED_TOOLS: "a, b,," }),
      null,
    ),
    { profile: "core", disabled: ["a", "b"] },
  );
  const config = `{
    // the reference's keys, with comments and trailing commas
    "tool_profile": "standard", /* a block comment */
    "disabled_tools": ["test_summarizer", "index_repo",],
    "url": "http://x//y",
  }`;
  deepStrictEqual(
    toolVisibilityFrom(env({ JCODEMUNCH_TOOL_PROFILE: "core" }), config),
    { profile: "standard", disabled: ["test_summarizer", "index_repo"] },
  );
  throws(
    () => toolVisibilityFrom(env({ JCODEMUNCH_TOOL_PROFILE: "tiny" }), null),
    /JCODEMUNCH_TOOL_PROFILE: expected one of core, standard, full, got "tiny"/,
  );
  throws(() => toolVisibilityFrom(env({}), '{"disabled_tools": 3}'), /disabled_tools in config/);
  throws(() => toolVisibilityFrom(env({}), "{not json"), /Invalid config.jsonc/);
});

Deno.test("stdio server process: the core profile from the environment, a disabled tool from config.jsonc", async () => {
  const project = tempProject("codemunch-profile-");
  Deno.mkdirSync(project.indexDir, { recursive: true });
  Deno.writeTextFileSync(
    join(project.indexDir, "config.jsonc"),
    '{\n  // left out\n  "disabled_tools": ["search_text"],\n}\n',
  );
  const { client, close } = await connect(project.root, project.indexDir, {
    JCODEMUNCH_TOOL_PROFILE: "core",
  });
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t: { name: string }) => t.name);
    deepStrictEqual(
      names,
      TOOLS.map((t) => t.name).filter((n) => CORE_TOOLS.includes(n) && n !== "search_text"),
    );
    const outside = await client.callTool({ name: "get_call_hierarchy", arguments: {} });
    equal(outside.isError, true);
    const body = JSON.parse((outside.content as { text: string }[])[0]!.text);
    equal(body.code, "tool_disabled");
    match(body.error, /not in the "core" tool profile.*JCODEMUNCH_TOOL_PROFILE=standard/);
    const disabled = await client.callTool({ name: "search_text", arguments: {} });
    match((disabled.content as { text: string }[])[0]!.text, /disabled by disabled_tools/);
    // An alias of a served tool answers (here: a validation error, not tool_disabled).
    const alias = await client.callTool({ name: "get_symbol", arguments: {} });
    ok(!(alias.content as { text: string }[])[0]!.text.includes("tool_disabled"));
  } finally {
    await close();
    project.dispose();
  }
});

Deno.test("HTTP serves the runner's profile: the same list as stdio", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "codemunch-profile-http-" });
  const tools: ToolVisibility = { profile: "core", disabled: ["get_file_tree"] };
  const runner = new ToolRunner({
    store: new Store(join(dir, "index")),
    settings: { ...DEFAULT_SETTINGS, tools },
    log: () => {},
  });
  const server = await serveHttp(runner, { ...DEFAULT_HTTP_SETTINGS, port: 0 }, () => {});
  try {
    const [, list, call] = await httpExchange(server.url, [
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "get_file_tree", arguments: { repo: "x" } },
      },
    ]);
    deepStrictEqual(list!.result, await listed(tools));
    const text = (call!.result as { content: { text: string }[] }).content[0]!.text;
    equal(JSON.parse(text).code, "tool_disabled");
    // The server's own calls are not limited (the guide prompt), and the guide names only the
    // served tools.
    const guide = JSON.parse((await runner.call("jcodemunch_guide", { format: "json" })).text);
    ok(String(guide.guide).includes("get_file_outline"));
    ok(!String(guide.guide).includes("get_file_tree"), "a disabled tool is not in the guide");
    ok(
      !String(guide.guide).includes("get_call_hierarchy"),
      "a standard tool is not in core's guide",
    );
  } finally {
    await server.shutdown();
    await runner.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
