/**
 * The Claude Code hooks of `init --hooks`, run as Claude Code runs them: `init` writes
 * `~/.claude/settings.json` in a temporary home, and each hook's command from that file is run
 * with `sh -c`, the event as JSON on stdin and no deno on PATH; its exit code and stdout are what
 * Claude Code reads.
 */
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { CHECKOUT, tempProject } from "../e2e/_server.ts";
import { run } from "../docs/_shell.ts";

/** A Python module well over the hook's 4 KB threshold. */
function bigModule(): string {
  return Array.from(
    { length: 80 },
    (_, i) =>
      `def handler_${i}(request):\n    """Handle case ${i}."""\n    return request * ${i}\n`,
  ).join("\n");
}

Deno.test("hooks as Claude Code runs them: a hint before Read/Grep/Glob, a re-index after Edit", async (t) => {
  const p = tempProject("codemunch-hooks-");
  const home = join(p.base, "home");
  Deno.mkdirSync(join(home, ".claude"), { recursive: true });
  const big = join(p.root, "python", "handlers.py");
  Deno.writeTextFileSync(big, bigModule());
  const env: Record<string, string> = {
    HOME: home,
    PATH: Deno.env.get("PATH") ?? "",
    CODE_INDEX_PATH: p.indexDir,
  };
  if (Deno.env.get("DENO_DIR")) env.DENO_DIR = Deno.env.get("DENO_DIR")!;
  // What Claude Code's hook shell has: no deno on PATH.
  const hookEnv = { ...env, PATH: "/usr/bin:/bin" };
  try {
    const init = await run([
      Deno.execPath(),
      "run",
      "--allow-read",
      "--allow-env",
      "--allow-run",
      join(CHECKOUT, "scripts", "serve.ts"),
      "init",
      p.root,
      "--client",
      "claude-code",
      "--hooks",
      "--no-policy",
      "--yes",
    ], { env, cwd: p.root });
    equal(init.code, 0, init.stdout + init.stderr);
    match(init.stdout, /✓ Claude Code hooks: created .*settings\.json/);
    const settings = JSON.parse(Deno.readTextFileSync(join(home, ".claude", "settings.json")));
    const pre: string = settings.hooks.PreToolUse[0].hooks[0].command;
    const post: string = settings.hooks.PostToolUse[0].hooks[0].command;
    const hook = (command: string, event: Record<string, unknown> | string) =>
      run(["sh", "-c", command], {
        env: hookEnv,
        cwd: p.root,
        stdin: typeof event === "string" ? event : JSON.stringify({
          session_id: "s1",
          transcript_path: join(home, "t.jsonl"),
          cwd: p.root,
          ...event,
        }),
      });
    const context = (stdout: string) => {
      const out = JSON.parse(stdout);
      return out.hookSpecificOutput.additionalContext as string;
    };

    await t.step(
      "Read of a whole indexed file: the outline call instead, the read goes on",
      async () => {
        const r = await hook(pre, {
          hook_event_name: "PreToolUse",
          tool_name: "Read",
          tool_input: { file_path: big },
        });
        equal(r.code, 0, r.stderr);
        const out = JSON.parse(r.stdout);
        equal(out.hookSpecificOutput.hookEventName, "PreToolUse");
        equal(out.hookSpecificOutput.permissionDecision, undefined, "never blocks a Read");
        match(
          context(r.stdout),
          /python\/handlers\.py is indexed \(80 symbols.*get_file_outline \{"repo":"local\/project-[0-9a-f]+","file_path":"python\/handlers\.py"\}/,
        );
      },
    );
    await t.step(
      "silent: a targeted read, a small file, a file outside every index, bad input",
      async () => {
        const quiet = [
          { tool_name: "Read", tool_input: { file_path: big, offset: 10, limit: 20 } },
          { tool_name: "Read", tool_input: { file_path: join(p.root, "python", "sample.py") } },
          { tool_name: "Read", tool_input: { file_path: join(CHECKOUT, "README.md") } },
          { tool_name: "Bash", tool_input: { command: "ls" } },
        ];
        for (const event of quiet) {
          const r = await hook(pre, { hook_event_name: "PreToolUse", ...event });
          equal(r.code, 0, r.stderr);
          equal(r.stdout, "", JSON.stringify(event));
        }
        const garbage = await hook(pre, "not json");
        equal(garbage.code, 0);
        equal(garbage.stdout, "");
      },
    );
    await t.step(
      "Grep and Glob in the indexed folder: search_text, search_symbols, get_file_tree",
      async () => {
        const grep = await hook(pre, {
          hook_event_name: "PreToolUse",
          tool_name: "Grep",
          tool_input: { pattern: "handler_7", path: join(p.root, "python") },
        });
        equal(grep.code, 0, grep.stderr);
        match(
          context(grep.stdout),
          /search_text \{"repo":"local\/project-[0-9a-f]+","query":"handler_7","is_regex":true,"file_pattern":"python\/\*\*"\}/,
        );
        match(context(grep.stdout), /search_symbols \{"repo":".*","query":"handler_7"\}/);
        const glob = await hook(pre, {
          hook_event_name: "PreToolUse",
          tool_name: "Glob",
          tool_input: { pattern: "**/*.py" },
        });
        equal(glob.code, 0, glob.stderr);
        match(context(glob.stdout), /get_file_tree \{"repo":"local\/project-[0-9a-f]+"\}/);
      },
    );
    await t.step("Edit: the file is re-indexed, the next search sees the edit", async () => {
      Deno.writeTextFileSync(
        big,
        bigModule() + "\ndef freshly_added_handler(request):\n    return request\n",
      );
      const r = await hook(post, {
        hook_event_name: "PostToolUse",
        tool_name: "Edit",
        tool_input: { file_path: big, old_string: "x", new_string: "y" },
        tool_response: { filePath: big, success: true },
      });
      equal(r.code, 0, r.stderr);
      equal(r.stdout, "");
      const search = await run([
        "sh",
        "-c",
        `${pre.replace(/ hook pre-tool-use$/, "")} search freshly_added_handler`,
      ], {
        env: hookEnv,
        cwd: p.root,
      });
      equal(search.code, 0, search.stderr);
      equal(JSON.parse(search.stdout).results[0].name, "freshly_added_handler");
      const outside = await hook(post, {
        hook_event_name: "PostToolUse",
        tool_name: "Write",
        tool_input: { file_path: join(p.base, "notes.txt"), content: "x" },
      });
      equal(outside.code, 0);
      equal(outside.stdout, "");
    });
    ok(true);
  } finally {
    p.dispose();
  }
});
