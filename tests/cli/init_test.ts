/**
 * `codemunch init` (src/cli/init.ts, clients.ts): the config file of each client on Linux, macOS
 * and Windows layouts (an in-memory file system, so Windows paths can be checked anywhere), the
 * merge that keeps every other entry, backups, the policy snippet, dry runs; then the real
 * command on a temporary home folder, and a client started from the written config with no Deno
 * on its PATH, in `/`, as desktop apps start servers.
 */
import { deepEqual, equal, match, ok, throws } from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { clientConfigs, type OsName } from "../../src/cli/clients.ts";
import { InitError, type InitIo, planInit, POLICY_MARKER } from "../../src/cli/init.ts";
import { applyInit } from "../../src/cli/init_apply.ts";
import { describePlan } from "../../src/cli/init_describe.ts";
import { claudeMcpAdd } from "../../src/cli/server_entry.ts";
import { CHECKOUT, resultText, tempProject } from "../e2e/_server.ts";
import { run } from "../docs/_shell.ts";

/** An in-memory file system. */
function memoryIo(files: Record<string, string>, dirs: string[]): InitIo & {
  files: Map<string, string>;
} {
  const f = new Map(Object.entries(files));
  const d = new Set(dirs);
  return {
    files: f,
    exists: (p) => f.has(p) || d.has(p),
    readText: (p) => f.get(p) ?? null,
    writeText: (p, text) => void f.set(p, text),
    copy: (from, to) => void f.set(to, f.get(from)!),
    mkdirp: (p) => void d.add(p),
  };
}

const LAYOUTS: Record<OsName, { env: Record<string, string>; expect: Record<string, string> }> = {
  linux: {
    env: { HOME: "/home/u" },
    expect: {
      "claude-desktop": "/home/u/.config/Claude/claude_desktop_config.json",
      "claude-code": "/home/u/.claude.json",
      cursor: "/home/u/.cursor/mcp.json",
      vscode: "/home/u/.config/Code/User/mcp.json",
      windsurf: "/home/u/.codeium/windsurf/mcp_config.json",
    },
  },
  darwin: {
    env: { HOME: "/Users/u" },
    expect: {
      "claude-desktop": "/Users/u/Library/Application Support/Claude/claude_desktop_config.json",
      "claude-code": "/Users/u/.claude.json",
      cursor: "/Users/u/.cursor/mcp.json",
      vscode: "/Users/u/Library/Application Support/Code/User/mcp.json",
      windsurf: "/Users/u/.codeium/windsurf/mcp_config.json",
    },
  },
  windows: {
    env: { USERPROFILE: "C:\\Users\\u", APPDATA: "C:\\Users\\u\\AppData\\Roaming" },
    expect: {
      "claude-desktop": "C:\\Users\\u\\AppData\\Roaming\\Claude\\claude_desktop_config.json",
      "claude-code": "C:\\Users\\u\\.claude.json",
      cursor: "C:\\Users\\u\\.cursor\\mcp.json",
      vscode: "C:\\Users\\u\\AppData\\Roaming\\Code\\User\\mcp.json",
      windsurf: "C:\\Users\\u\\.codeium\\windsurf\\mcp_config.json",
    },
  },
};

Deno.test("init: each client's config file on Linux, macOS and Windows", () => {
  for (const [os, layout] of Object.entries(LAYOUTS) as [OsName, typeof LAYOUTS.linux][]) {
    const got = Object.fromEntries(
      clientConfigs(os, (n) => layout.env[n]).map((c) => [c.id, c.file]),
    );
    deepEqual(got, layout.expect, os);
  }
  // XDG_CONFIG_HOME moves the Linux desktop apps' files.
  const xdg = clientConfigs("linux", (n) => ({ HOME: "/home/u", XDG_CONFIG_HOME: "/cfg" })[n]);
  equal(xdg.find((c) => c.id === "vscode")!.file, "/cfg/Code/User/mcp.json");
  equal(xdg.find((c) => c.id === "claude-desktop")!.file, "/cfg/Claude/claude_desktop_config.json");
});

for (const os of ["linux", "darwin", "windows"] as OsName[]) {
  Deno.test(`init (${os}): merges into existing configs, keeps other servers, backs up`, async () => {
    const layout = LAYOUTS[os];
    const env = (n: string) => layout.env[n];
    const configs = clientConfigs(os, env);
    const by = (id: string) => configs.find((c) => c.id === id)!;
    const project = os === "windows" ? "C:\\Users\\u\\src\\app" : "/srv/app";
    const checkout = os === "windows" ? "C:\\codemunch" : "/opt/codemunch";
    const deno = os === "windows" ? "C:\\deno\\deno.exe" : "/opt/deno/bin/deno";
    const desktopBefore = JSON.stringify({
      mcpServers: { github: { command: "gh-mcp", args: [] } },
      globalShortcut: "Ctrl+Space",
    });
    const claudeBefore = JSON.stringify({ numStartups: 7, mcpServers: {}, projects: { a: {} } });
    const io = memoryIo({
      [by("claude-desktop").file]: desktopBefore,
      [by("claude-code").file]: claudeBefore,
      [by("vscode").file]: JSON.stringify({ servers: { other: { type: "stdio", command: "x" } } }),
    }, [project, by("cursor").marker, by("vscode").marker]);
    // Windows paths are not this OS's: init resolves folders with node:path, so name them
    // absolute in the host's terms there and check the client entries only.
    const plan = planInit({
      os,
      env,
      cwd: project,
      execPath: deno,
      checkout,
      folders: [project],
      policy: false,
    }, io);
    const status = Object.fromEntries(plan.changes.map((c) => [c.client.id, c.status]));
    deepEqual(status, {
      "claude-desktop": "add",
      "claude-code": "add",
      cursor: "create",
      vscode: "add",
      windsurf: "skip",
    });
    const text = describePlan(plan, os).join("\n");
    match(text, /keeping 1 other: github/);
    match(text, /Windsurf.*\n.*skipped: not installed/);
    const result = await applyInit(plan, "STAMP", null, io);
    equal(result.failed, 0);
    equal(result.backups.length, 3);
    // Backups hold the old text; the new files keep every other key and server.
    equal(io.files.get(`${by("claude-desktop").file}.codemunch-backup-STAMP`), desktopBefore);
    const desktop = JSON.parse(io.files.get(by("claude-desktop").file)!);
    equal(desktop.globalShortcut, "Ctrl+Space");
    deepEqual(Object.keys(desktop.mcpServers), ["github", "codemunch"]);
    const entry = desktop.mcpServers.codemunch;
    equal(entry.command, deno);
    deepEqual(entry.args, [
      "run",
      "--allow-read",
      "--allow-env",
      "--allow-run",
      os === "windows" ? "C:\\codemunch\\scripts\\serve.ts" : "/opt/codemunch/scripts/serve.ts",
      "serve",
    ]);
    equal(entry.env.CODEMUNCH_ALLOWED_ROOTS, project);
    const claude = JSON.parse(io.files.get(by("claude-code").file)!);
    equal(claude.numStartups, 7);
    deepEqual(claude.projects, { a: {} });
    ok(claude.mcpServers.codemunch);
    const vscode = JSON.parse(io.files.get(by("vscode").file)!);
    deepEqual(Object.keys(vscode.servers), ["other", "codemunch"]);
    equal(vscode.servers.codemunch.type, "stdio");
    ok(JSON.parse(io.files.get(by("cursor").file)!).mcpServers.codemunch);
    // Running it again changes nothing.
    const again = planInit({
      os,
      env,
      cwd: project,
      execPath: deno,
      checkout,
      folders: [project],
      policy: false,
    }, io);
    ok(again.changes.every((c) => c.status === "unchanged" || c.status === "skip"));
  });
}

Deno.test("init again with another folder: the allowed folders are merged in every config, and said", async () => {
  const env = (n: string) => ({ HOME: "/home/u" })[n];
  const markers = clientConfigs("linux", env).map((c) => c.marker);
  const io = memoryIo({}, ["/srv/app", "/srv/other", "/srv/app/sub", ...markers]);
  const opts = {
    os: "linux" as const,
    env,
    cwd: "/srv",
    execPath: "/d/deno",
    checkout: "/opt/codemunch",
    policy: false,
  };
  await applyInit(planInit({ ...opts, folders: ["/srv/app"] }, io), "A", null, io);
  const second = planInit({ ...opts, folders: ["/srv/other"] }, io);
  deepEqual(second.roots, ["/srv/app", "/srv/other"]);
  deepEqual([second.rootsKept, second.rootsAdded], [["/srv/app"], ["/srv/other"]]);
  ok(second.changes.every((c) => c.status === "replace"), JSON.stringify(second.changes));
  const text = describePlan(second, "linux").join("\n");
  match(text, /\/srv\/app {2}\(already allowed, kept\)\n {2}\/srv\/other {2}\(added\)/);
  deepEqual(second.index, ["/srv/other"], "only the folder named now is indexed");
  await applyInit(second, "B", null, io);
  for (const c of clientConfigs("linux", env)) {
    const list = JSON.parse(io.files.get(c.file)!)[c.key];
    equal(list.codemunch.env.CODEMUNCH_ALLOWED_ROOTS, "/srv/app:/srv/other", c.id);
  }
  // A folder inside an allowed one is allowed already: nothing to change.
  const inside = planInit({ ...opts, folders: ["/srv/app/sub"] }, io);
  deepEqual(inside.roots, ["/srv/app", "/srv/other"]);
  ok(inside.changes.every((c) => c.status === "unchanged"));
  match(describePlan(inside, "linux").join("\n"), /every folder named is already allowed/);
});

Deno.test("init --hooks: Claude Code's settings get the two hooks, every other setting kept", async () => {
  const env = (n: string) => ({ HOME: "/home/u" })[n];
  const settings = "/home/u/.claude/settings.json";
  const before = {
    model: "opus",
    hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "audit.sh" }] }],
    },
  };
  const io = memoryIo({ [settings]: JSON.stringify(before) }, ["/srv/app", "/home/u/.claude"]);
  const opts = {
    os: "linux" as const,
    env,
    cwd: "/srv/app",
    execPath: "/d/deno",
    checkout: "/opt/codemunch",
    policy: false,
    index: false,
    hooks: true,
  };
  const plan = planInit(opts, io);
  equal(plan.hooks!.file, settings);
  equal(plan.hooks!.change.status, "add");
  match(
    describePlan(plan, "linux").join("\n"),
    /Claude Code hooks.*\n.*\n {2}.*settings\.json\n {2}→ add/,
  );
  await applyInit(plan, "S", null, io);
  const after = JSON.parse(io.files.get(settings)!);
  equal(after.model, "opus");
  deepEqual(after.hooks.PreToolUse[0], before.hooks.PreToolUse[0]);
  const pre = after.hooks.PreToolUse[1];
  equal(pre.matcher, "Read|Grep|Glob");
  equal(
    pre.hooks[0].command,
    "CODEMUNCH_ALLOWED_ROOTS=/srv/app /d/deno run --allow-read --allow-env --allow-run /opt/codemunch/scripts/serve.ts hook pre-tool-use",
  );
  equal(after.hooks.PostToolUse[0].matcher, "Edit|Write|MultiEdit");
  match(after.hooks.PostToolUse[0].hooks[0].command, / hook post-tool-use$/);
  ok(io.files.has(`${settings}.codemunch-backup-S`));
  equal(planInit(opts, io).hooks!.change.status, "unchanged");
  // Another folder: the hooks follow the allowed folders, replaced in place (not duplicated).
  io.mkdirp("/srv/b");
  const more = planInit({ ...opts, folders: ["/srv/b"] }, io);
  equal(more.hooks!.change.status, "replace");
  const merged = JSON.parse(more.hooks!.change.text!);
  equal(merged.hooks.PreToolUse.length, 2);
  match(
    merged.hooks.PreToolUse[1].hooks[0].command,
    /^'?CODEMUNCH_ALLOWED_ROOTS=\/srv\/app:\/srv\/b'? /,
  );
  // Without Claude Code there is nothing to hook into.
  throws(
    () => planInit({ ...opts, clients: ["cursor"] }, io),
    /--hooks adds Claude Code hooks, but Claude Code is not selected/,
  );
});

Deno.test("init: the compiled binary is its own command; broken configs are left alone", () => {
  const env = (n: string) => ({ HOME: "/home/u" })[n];
  const cursor = "/home/u/.cursor/mcp.json";
  const io = memoryIo({ [cursor]: "{ // a comment\n}" }, ["/srv/app"]);
  const plan = planInit({
    os: "linux",
    env,
    cwd: "/srv/app",
    execPath: "/usr/local/bin/codemunch",
    checkout: "/$bunfs/root",
    policy: false,
  }, io);
  deepEqual(plan.server, { command: "/usr/local/bin/codemunch", args: ["serve"] });
  const c = plan.changes.find((x) => x.client.id === "cursor")!;
  equal(c.status, "error");
  match(c.reason!, /not plain JSON/);
  equal(
    claudeMcpAdd(plan, "linux"),
    "claude mcp add -s user codemunch -e CODEMUNCH_ALLOWED_ROOTS=/srv/app -- /usr/local/bin/codemunch serve",
  );
});

Deno.test("init: refuses to open the whole disk or home; --client picks clients", () => {
  const env = (n: string) => ({ HOME: "/home/u" })[n];
  const io = memoryIo({}, ["/", "/home/u", "/srv/app", "/home/u/.cursor", "/home/u/.claude"]);
  const base = { os: "linux" as const, env, execPath: "/d/deno", checkout: "/opt/codemunch" };
  throws(() => planInit({ ...base, cwd: "/" }, io), InitError);
  throws(() => planInit({ ...base, cwd: "/home/u" }, io), /Refusing to let the server read all/);
  throws(() => planInit({ ...base, cwd: "/opt/codemunch" }, io), /codemunch checkout itself/);
  const plan = planInit({ ...base, cwd: "/srv/app", clients: ["cursor"] }, io);
  deepEqual(
    plan.changes.filter((c) => c.status !== "skip").map((c) => c.client.id),
    ["cursor"],
  );
  equal(plan.changes.find((c) => c.client.id === "claude-code")!.reason, "not selected (--client)");
});

Deno.test("init: the agent policy goes to CLAUDE.md / AGENTS.md once", async () => {
  const env = (n: string) => ({ HOME: "/home/u" })[n];
  const io = memoryIo({ "/srv/app/AGENTS.md": "# Agents\n\nBe nice.\n" }, ["/srv/app"]);
  const opts = {
    os: "linux" as const,
    env,
    cwd: "/srv/app",
    execPath: "/d/deno",
    checkout: "/opt/codemunch",
  };
  const plan = planInit(opts, io);
  deepEqual(plan.policy, [{ file: "/srv/app/AGENTS.md", status: "append" }]);
  await applyInit(plan, "S", null, io);
  const text = io.files.get("/srv/app/AGENTS.md")!;
  ok(text.startsWith("# Agents\n\nBe nice.\n\n" + POLICY_MARKER), text);
  match(text, /search_symbols/);
  deepEqual(planInit(opts, io).policy, [{ file: "/srv/app/AGENTS.md", status: "unchanged" }]);
  const fresh = memoryIo({}, ["/srv/b", "/home/u/.claude"]);
  deepEqual(planInit({ ...opts, cwd: "/srv/b" }, fresh).policy, [
    { file: "/srv/b/CLAUDE.md", status: "create" },
  ]);
});

/** Run the launcher (`deno task init` / `deno task cli`) with this environment. */
function launcher(args: string[], env: Record<string, string>, cwd: string) {
  const serve = join(CHECKOUT, "scripts", "serve.ts");
  return run(
    [Deno.execPath(), "run", "--allow-read", "--allow-env", "--allow-run", serve, ...args],
    {
      env,
      cwd,
    },
  );
}

Deno.test("init end to end: dry run, apply, then a client with no deno on PATH finds a symbol", async () => {
  const p = tempProject("codemunch-init-");
  const home = join(p.base, "home");
  Deno.mkdirSync(join(home, ".config", "Claude"), { recursive: true });
  Deno.mkdirSync(join(home, ".cursor"), { recursive: true });
  const cursorFile = join(home, ".cursor", "mcp.json");
  Deno.writeTextFileSync(cursorFile, JSON.stringify({ mcpServers: { other: { command: "o" } } }));
  const env: Record<string, string> = {
    HOME: home,
    PATH: Deno.env.get("PATH") ?? "",
    CODE_INDEX_PATH: p.indexDir,
  };
  if (Deno.env.get("DENO_DIR")) env.DENO_DIR = Deno.env.get("DENO_DIR")!;
  try {
    const dry = await launcher(["init", "--dry-run"], env, p.root);
    equal(dry.code, 0, dry.stderr);
    match(dry.stdout, /Claude Desktop .*claude_desktop_config\.json\n.*→ create it/);
    match(dry.stdout, /Cursor .*mcp\.json\n.*→ add the codemunch entry \(keeping 1 other: other\)/);
    match(dry.stdout, /Dry run: nothing was written/);
    equal(Deno.readTextFileSync(cursorFile).includes("codemunch"), false);
    const noTty = await launcher(["init"], env, p.root);
    equal(noTty.code, 1);
    match(noTty.stdout, /run again with --yes/);

    const applied = await launcher(["init", "--yes"], env, p.root);
    equal(applied.code, 0, applied.stdout + applied.stderr);
    match(applied.stdout, /✓ Cursor: added codemunch in .*\(backup: .*codemunch-backup-/);
    match(applied.stdout, /✓ Indexed local\/project-[0-9a-f]+: \d+ files/);
    match(applied.stdout, /✓ agent policy written to .*CLAUDE\.md/);
    const cursor = JSON.parse(Deno.readTextFileSync(cursorFile));
    deepEqual(Object.keys(cursor.mcpServers), ["other", "codemunch"]);

    // A desktop client: the entry as written, PATH without deno, started in "/".
    const desktop = JSON.parse(
      Deno.readTextFileSync(join(home, ".config", "Claude", "claude_desktop_config.json")),
    );
    const entry = desktop.mcpServers.codemunch;
    ok(entry.command.startsWith("/"), "absolute command");
    const clientEnv: Record<string, string> = {
      PATH: "/usr/bin:/bin",
      HOME: home,
      CODE_INDEX_PATH: p.indexDir,
      ...entry.env,
    };
    if (env.DENO_DIR) clientEnv.DENO_DIR = env.DENO_DIR;
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: clientEnv,
      cwd: "/",
      stderr: "pipe",
    });
    const client = new Client({ name: "desktop-like", version: "0" });
    await client.connect(transport);
    try {
      const list = JSON.parse(resultText(
        await client.callTool({ name: "list_repos", arguments: { format: "json" } }),
      ));
      const repo = list.repos[0].repo;
      const found = JSON.parse(resultText(
        await client.callTool({
          name: "search_symbols",
          arguments: { repo, query: "load_settings", format: "json" },
        }),
      ));
      equal(found.results[0].name, "load_settings");
    } finally {
      await client.close();
    }
  } finally {
    p.dispose();
  }
});
