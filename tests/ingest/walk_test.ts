import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { languageForPath } from "../../src/parser/mod.ts";
import { walkFolder, type WalkOptions } from "../../src/ingest/walk.ts";
import { isSecretFile, looksBinary } from "../../src/ingest/filters.ts";
import { tempWorkspace, writeTree } from "./_helpers.ts";

const options: WalkOptions = { languageOf: (p) => languageForPath(p)?.id };
Deno.test(".gitignore files apply at every level, deeper ones overriding", () => {
  const ws = tempWorkspace();
  try {
    writeTree(ws.root, {
      ".gitignore": "*.gen.py\nout/\n",
      "a.py": "x = 1\n",
      "a.gen.py": "x = 1\n",
      "out/b.py": "x = 1\n",
      "pkg/.gitignore": "local_*.py\n!keep.gen.py\n",
      "pkg/local_x.py": "x = 1\n",
      "pkg/keep.gen.py": "x = 1\n",
      "pkg/drop.gen.py": "x = 1\n",
      "pkg/deep/.gitignore": "/only_here.py\n",
      "pkg/deep/only_here.py": "x = 1\n",
      "pkg/deep/sub/only_here.py": "x = 1\n",
      "pkg/deep/local_y.py": "x = 1\n",
    });
    const result = walkFolder(ws.root, options);
    deepEqual(result.files.map((f) => f.path), [
      "a.py",
      "pkg/deep/sub/only_here.py",
      "pkg/keep.gen.py",
    ]);
    equal(result.skipCounts.gitignore, 6);
  } finally {
    ws.dispose();
  }
});

Deno.test("extra ignore patterns and default skipped directories", () => {
  const ws = tempWorkspace();
  try {
    writeTree(ws.root, {
      "src/a.py": "x = 1\n",
      "src/legacy/b.py": "x = 1\n",
      "node_modules/m/index.js": "x = 1\n",
      ".git/hooks/h.py": "x = 1\n",
      "vendor/v.go": "package v\n",
      "fixtures/f.py": "x = 1\n",
      "migrations/0001.py": "x = 1\n",
      "dist/app.min.js": "x=1\n",
      "yarn.lock": "",
    });
    const result = walkFolder(ws.root, { ...options, extraIgnorePatterns: ["legacy/"] });
    deepEqual(result.files.map((f) => f.path), ["fixtures/f.py", "migrations/0001.py", "src/a.py"]);
    equal(result.skipCounts.extra_ignore, 1);
    equal(result.skipCounts.skip_dir, 4);
  } finally {
    ws.dispose();
  }
});

Deno.test("security filters on hostile fixtures", async (t) => {
  const ws = tempWorkspace();
  try {
    const outside = Deno.realPathSync(Deno.makeTempDirSync());
    writeTree(outside, { "stolen.py": "SECRET = 1\n" });
    writeTree(ws.root, {
      "ok.py": "x = 1\n",
      ".env": "API_KEY=abc\n",
      ".env.production": "API_KEY=abc\n",
      "config/id_rsa": "-----BEGIN OPENSSH PRIVATE KEY-----\n",
      "config/id_ed25519.pub": "ssh-ed25519 AAAA\n",
      "certs/server.pem": "-----BEGIN CERTIFICATE-----\n",
      "certs/tls.key": "k\n",
      "credentials.json": "{}\n",
      "service-account-prod.json": "{}\n",
      "app_secrets.py": "TOKEN = 1\n",
      "docs/secrets.md": "# how we handle secrets\n",
      "big.py": "x = 1\n".repeat(2 * 1024 * 1024 / 6),
      "image.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
    });
    Deno.symlinkSync("/etc", join(ws.root, "etc_link"));
    Deno.symlinkSync(join(outside, "stolen.py"), join(ws.root, "stolen_link.py"));
    Deno.symlinkSync(join(ws.root, "ok.py"), join(ws.root, "inside_link.py"));
    Deno.symlinkSync(join(ws.root, "loop_b"), join(ws.root, "loop_a.py"));
    Deno.symlinkSync(join(ws.root, "loop_a.py"), join(ws.root, "loop_b"));
    Deno.mkdirSync(join(ws.root, "dir"));
    Deno.symlinkSync(join(ws.root, "dir"), join(ws.root, "dir", "self"));

    await t.step("symlinks are skipped by default", () => {
      const r = walkFolder(ws.root, options);
      // Docs are indexed (as Markdown); `*secret*` does not apply to them (API.md §4.3).
      deepEqual(r.files.map((f) => f.path), ["docs/secrets.md", "ok.py"]);
      equal(r.skipCounts.symlink, 6);
    });

    await t.step(
      "with follow_symlinks, only files inside the root are taken; loops and dirs never",
      () => {
        const r = walkFolder(ws.root, { ...options, followSymlinks: true });
        deepEqual(r.files.map((f) => f.path), ["docs/secrets.md", "inside_link.py", "ok.py"]);
        equal(r.files[1]!.absolute, join(ws.root, "ok.py"));
        equal(r.skipCounts.symlink_escape, 2); // /etc and stolen.py
        equal(r.skipCounts.symlink, 3); // the loop (2) and the symlinked directory dir/self
        ok(r.warnings.some((w) => w.startsWith("Skipped symlink escape: etc_link")));
      },
    );

    await t.step("secrets, binaries by extension and oversized files are counted", () => {
      const r = walkFolder(ws.root, options);
      equal(r.skipCounts.secret, 9);
      equal(r.skipCounts.binary, 1);
      equal(r.skipCounts.too_large, 1);
      ok(r.warnings.includes("Skipped secret file: .env"));
      ok(r.warnings.includes("Skipped secret file: config/id_rsa"));
      ok(!r.warnings.some((w) => w.includes("docs/secrets.md")));
    });
    Deno.removeSync(outside, { recursive: true });
  } finally {
    ws.dispose();
  }
});

Deno.test("the file cap keeps priority directories, then shallow paths", () => {
  const ws = tempWorkspace();
  try {
    writeTree(ws.root, {
      "a/b/c/deep.py": "x = 1\n",
      "top.py": "x = 1\n",
      "src/core.py": "x = 1\n",
      "zz.py": "x = 1\n",
    });
    const r = walkFolder(ws.root, { ...options, maxFiles: 2 });
    deepEqual(r.files.map((f) => f.path), ["src/core.py", "top.py"]);
    equal(r.skipCounts.file_limit, 2);
    equal(r.discovered, 4);
    ok(r.warnings.some((w) => w.startsWith("File cap reached: indexed 2 of 4 files")));
  } finally {
    ws.dispose();
  }
});

Deno.test("secret names", () => {
  for (
    const name of [
      ".env",
      ".ENV.local",
      "id_rsa",
      "id_ecdsa.old",
      "x.pem",
      "a.p12",
      ".npmrc",
      ".netrc",
      "service-account.json",
      "db.secrets",
      "client_secret.py",
    ]
  ) {
    equal(isSecretFile(name), true, name);
  }
  for (const name of ["env.py", "environment.ts", "secrets.md", "keys.py", "id_rsa_parser.go"]) {
    equal(isSecretFile(name), false, name);
  }
});

Deno.test("binary detection by content", () => {
  const enc = new TextEncoder();
  equal(
    looksBinary(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])),
    true,
  );
  equal(looksBinary(enc.encode("plain text\n")), false);
  equal(
    looksBinary(
      new Uint8Array([...enc.encode("# caf"), 0xe9, ...enc.encode(" latin-1 comment\n")]),
    ),
    false,
  );
  equal(looksBinary(new Uint8Array(Array.from({ length: 400 }, (_, i) => 0x80 + (i % 64)))), true);
  // A multi-byte character cut at the 8 KB sniffing boundary is not evidence of binary.
  const text = enc.encode("é".repeat(5000));
  equal(looksBinary(text), false);
});
