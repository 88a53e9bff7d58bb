import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { resolve } from "node:path";
import { defaultIndexDir, expandHome } from "../../src/store/paths.ts";
import {
  childArgs,
  childEnv,
  packagesInstalled,
  permissionInputs,
  SERVER_V8_FLAGS,
} from "../../scripts/serve.ts";

Deno.test("the index directory and ~ expansion (shared by the store, the server and the launcher)", () => {
  const cases: [Record<string, string>, string][] = [
    [{}, "error"],
    [{ HOME: "/home/u" }, "/home/u/.code-index"],
    [{ HOME: "/home/u/" }, "/home/u/.code-index"],
    [
      { USERPROFILE: "C:\\Users\\u" },
      `C:\\Users\\u${Deno.build.os === "windows" ? "\\" : "/"}.code-index`,
    ],
    [{ HOME: "/home/u", CODE_INDEX_PATH: "~/idx" }, "/home/u/idx"],
    [{ HOME: "/home/u", CODE_INDEX_PATH: "~" }, "/home/u"],
    [{ HOME: "/home/u", CODE_INDEX_PATH: "" }, "/home/u/.code-index"],
    [{ CODE_INDEX_PATH: "/abs/idx" }, "/abs/idx"],
    [{ CODE_INDEX_PATH: "rel/idx", HOME: "" }, "rel/idx"],
    [{ HOME: "" }, "error"],
  ];
  for (const [vars, expected] of cases) {
    const env = (n: string) => vars[n];
    if (expected === "error") {
      throws(() => defaultIndexDir(env), /set CODE_INDEX_PATH or HOME/);
    } else equal(defaultIndexDir(env), expected, JSON.stringify(vars));
  }
  const env = (n: string) => ({ HOME: "/home/u" } as Record<string, string>)[n];
  deepEqual(
    ["~", "~/a/b", "~x", "/a/~", "a"].map((p) => expandHome(p, env)),
    ["/home/u", "/home/u/a/b", "~x", "/a/~", "a"],
  );
});

Deno.test("permissionInputs: roots, index directory and checkout", () => {
  const vars: Record<string, string> = {
    HOME: "/home/u",
    CODEMUNCH_ALLOWED_ROOTS: "~/src:/srv/code",
    CODE_INDEX_PATH: "idx",
  };
  const inputs = permissionInputs((n) => vars[n], "/work/dir");
  deepEqual(inputs.roots, ["/home/u/src", "/srv/code"]);
  equal(inputs.indexDir, "/work/dir/idx");
  equal(inputs.checkout, resolve(new URL("../..", import.meta.url).pathname));
});

Deno.test("the server may reach only the GitHub API and archive hosts and the summarizer's host", async () => {
  const { netHosts } = await import("../../scripts/serve.ts");
  const hosts = (vars: Record<string, string>) => netHosts((n) => vars[n]);
  deepEqual(hosts({}), ["api.github.com", "codeload.github.com"]);
  deepEqual(hosts({ GITHUB_API_URL: "https://ghe.corp.example/api/v3" }), ["ghe.corp.example"]);
  deepEqual(hosts({ ANTHROPIC_API_KEY: "k" }), [
    "api.github.com",
    "codeload.github.com",
    "api.anthropic.com",
  ]);
  deepEqual(hosts({ OPENAI_API_BASE: "http://localhost:11434/v1" }), [
    "api.github.com",
    "codeload.github.com",
    "localhost:11434",
  ]);
  // A remote summarizer without the opt-in is refused, so its host is not allowed either.
  deepEqual(hosts({ OPENAI_API_BASE: "https://llm.example.com/v1" }), [
    "api.github.com",
    "codeload.github.com",
  ]);
});

Deno.test("unset allowed roots mean the start folder everywhere, and none in / or home", async () => {
  const { allowedRoots } = await import("../../src/ingest/allowed_roots.ts");
  const { ingestConfigFromEnv } = await import("../../src/ingest/config.ts");
  const home = (n: string) => ({ HOME: "/home/u" } as Record<string, string>)[n];
  for (
    const [cwd, roots] of [
      ["/home/u/src/app", ["/home/u/src/app"]],
      ["/", []],
      ["/home/u", []],
    ] as [string, string[]][]
  ) {
    deepEqual(allowedRoots(home, cwd).roots, roots, cwd);
    // The launcher's read permission and the server's check agree.
    deepEqual(permissionInputs(home, cwd).roots, roots, cwd);
    deepEqual(ingestConfigFromEnv(home, cwd).allowedRoots, roots, cwd);
  }
  const set = (n: string) => ({ HOME: "/home/u", CODEMUNCH_ALLOWED_ROOTS: "~/a:b" })[n];
  deepEqual(allowedRoots(set, "/").roots, ["/home/u/a", "/b"]);
  deepEqual(allowedRoots(set, "/").source, "env");
});

Deno.test("launcher: --cached-only once installed; init gets write access", () => {
  const inputs = permissionInputs((n) => ({ HOME: "/home/u" })[n], "/srv/app");
  const serve = childArgs(inputs, []);
  equal(serve.at(-1), "serve");
  ok(serve.some((a) => a.startsWith("--allow-read=/srv/app,")));
  equal(serve.includes("--cached-only"), packagesInstalled(inputs.checkout));
  // The server's V8 flags come before the script (after it they would be the script's arguments).
  ok(serve.indexOf(SERVER_V8_FLAGS) > 0 && serve.indexOf(SERVER_V8_FLAGS) < serve.length - 2);
  const init = childArgs(inputs, ["init", "--dry-run"]);
  ok(init.includes("--allow-write") && init.includes("--allow-read"));
  deepEqual(init.slice(-2), ["init", "--dry-run"]);
  equal(packagesInstalled("/no/such/checkout"), false);
});

Deno.test("launcher: the child gets the resolved roots and at most two malloc arenas", () => {
  const inputs = permissionInputs((n) => ({ HOME: "/home/u" })[n], "/srv/app");
  deepEqual(childEnv(inputs, () => undefined), {
    CODEMUNCH_ALLOWED_ROOTS: "/srv/app",
    MALLOC_ARENA_MAX: "2",
  });
  // A value the user set is inherited as it is; no roots, no roots variable.
  const none = permissionInputs((n) => ({ HOME: "/home/u" })[n], "/");
  deepEqual(childEnv(none, (n) => ({ MALLOC_ARENA_MAX: "4" })[n]), {});
});
