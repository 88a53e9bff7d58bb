import { deepEqual, equal, throws } from "node:assert/strict";
import { resolve } from "node:path";
import { defaultIndexDir, expandHome } from "../../src/store/paths.ts";
import { launcherExpandHome, launcherIndexDir, permissionInputs } from "../../scripts/serve.ts";

const ENVS: Record<string, string>[] = [
  {},
  { HOME: "/home/u" },
  { USERPROFILE: "C:\\Users\\u" },
  { HOME: "/home/u", CODE_INDEX_PATH: "~/idx" },
  { HOME: "/home/u", CODE_INDEX_PATH: "~" },
  { HOME: "/home/u", CODE_INDEX_PATH: "" },
  { CODE_INDEX_PATH: "/abs/idx" },
  { CODE_INDEX_PATH: "rel/idx", HOME: "" },
  { HOME: "" },
];

Deno.test("the launcher's index directory and ~ expansion agree with the store's", () => {
  for (const vars of ENVS) {
    const env = (n: string) => vars[n];
    const store = (() => {
      try {
        return defaultIndexDir(env);
      } catch (e) {
        return `error: ${(e as Error).message}`;
      }
    })();
    const launcher = (() => {
      try {
        return launcherIndexDir(env);
      } catch (e) {
        return `error: ${(e as Error).message}`;
      }
    })();
    equal(launcher, store, JSON.stringify(vars));
    for (const p of ["~", "~/a/b", "~x", "/a/~", "a"]) {
      equal(launcherExpandHome(p, env), expandHome(p, env), `${p} ${JSON.stringify(vars)}`);
    }
  }
  throws(() => launcherIndexDir(() => undefined));
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
