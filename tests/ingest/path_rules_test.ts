/**
 * `PathRules` must say exactly what a full walk says, path by path: every file of a tree full of
 * rule cases is checked both ways.
 */
import { deepStrictEqual } from "node:assert/strict";
import { join } from "node:path";
import { languageForPath } from "../../src/parser/mod.ts";
import { PathRules } from "../../src/ingest/path_rules.ts";
import { walkFolder } from "../../src/ingest/walk.ts";
import { tempWorkspace, writeTree } from "./_helpers.ts";

function allFiles(root: string, rel = ""): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(join(root, rel))) {
    const child = rel === "" ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory) out.push(...allFiles(root, child));
    else out.push(child);
  }
  return out.sort();
}

Deno.test("path rules agree with the walk on every file", () => {
  const ws = tempWorkspace("codemunch-rules-");
  try {
    writeTree(ws.root, {
      ".gitignore": "*.log\nbuild_out/\n/only_root.py\n!keep.log\n",
      "a.py": "def a(): pass\n",
      "only_root.py": "x = 1\n",
      "sub/only_root.py": "x = 1\n",
      "x.log": "log\n",
      "keep.log": "log\n",
      "build_out/gen.py": "def g(): pass\n",
      "node_modules/pkg/index.js": "function f() {}\n",
      "src/.gitignore": "secret_dir/\n*.ts\n!keep.ts\n",
      "src/main.ts": "export function m() {}\n",
      "src/keep.ts": "export function k() {}\n",
      "src/secret_dir/x.py": "def x(): pass\n",
      "src/deep/more/file.go": "package more\nfunc F() {}\n",
      "src/deep/more/file.ts": "export const z = 1;\n",
      ".env": "TOKEN=1\n",
      "server.pem": "-----BEGIN-----\n",
      "app.min.js": "function a(){}\n",
      "img.png": "not really\n",
      "README.md": "# readme\n",
      "big.py": "x = 1\n".repeat(40_000),
      "ignored_by_extra/a.py": "def e(): pass\n",
    });
    Deno.symlinkSync(join(ws.root, "a.py"), join(ws.root, "link.py"));
    const options = {
      languageOf: (p: string) => languageForPath(p)?.id,
      maxFileBytes: 100_000,
      extraIgnorePatterns: ["ignored_by_extra/"],
    };
    for (const followSymlinks of [false, true]) {
      const walk = walkFolder(ws.root, { ...options, followSymlinks });
      const walked = new Set(walk.files.map((f) => f.path));
      const rules = new PathRules(ws.root, { ...options, followSymlinks });
      for (const rel of allFiles(ws.root)) {
        const v = rules.check(rel);
        deepStrictEqual(
          [rel, v.kind === "index"],
          [rel, walked.has(rel)],
          `followSymlinks=${followSymlinks}: ${JSON.stringify(v)}`,
        );
        if (v.kind === "index") {
          const w = walk.files.find((f) => f.path === rel)!;
          deepStrictEqual(v.file, w);
        }
      }
    }
    const rules = new PathRules(ws.root, options);
    deepStrictEqual(rules.check("gone/away.py"), { kind: "missing" });
    deepStrictEqual(rules.check("../etc/passwd"), { kind: "skip", reason: "path_traversal" });
    deepStrictEqual(rules.check("x.log"), { kind: "skip", reason: "gitignore" });
    deepStrictEqual(rules.check("big.py"), { kind: "skip", reason: "too_large" });
  } finally {
    ws.dispose();
  }
});
