/**
 * What indexing reads (issue 10): a file swapped for a symlink between the walk and the read is
 * refused (the check and the read are about the same file); UTF-16 text with a byte-order mark
 * is decoded; a binary file whose first 8 KB look like text is caught; and line numbers agree
 * across get_file_content, symbols and search_text for CR-only files and for files holding form
 * feed, vertical tab or U+2028.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { indexLocalFolder } from "../../src/ingest/index_local.ts";
import { parseSource } from "../../src/parser/mod.ts";
import type { FileParser } from "../../src/ingest/index_local.ts";
import { tempWorkspace, testConfig, workspaceRunner, writeTree } from "../ingest/_helpers.ts";

Deno.test("indexing: a file swapped for a symlink out of the root mid-index is not read", async () => {
  const ws = tempWorkspace();
  const outside = join(ws.root, "..", "outside.py");
  try {
    writeTree(ws.root, { "a.py": "def a():\n    pass\n", "b.py": "def b():\n    pass\n" });
    Deno.writeTextFileSync(outside, "TOP_SECRET_MARKER = 'from outside the root'\n");
    // The race, made deterministic: while the first file is parsed (after the walk has seen
    // b.py as a regular file, before b.py is read), b.py becomes a symlink out of the root.
    const racing: FileParser = {
      parse(file, bytes) {
        if (file === "a.py") {
          Deno.removeSync(join(ws.root, "b.py"));
          Deno.symlinkSync(outside, join(ws.root, "b.py"));
        }
        return parseSource(file, bytes);
      },
    };
    const outcome = await indexLocalFolder(ws.store, testConfig(), racing, { path: ws.root });
    const index = ws.store.repo(outcome.repo);
    const text = index.fileText("b.py");
    ok(text === undefined || !text.includes("TOP_SECRET_MARKER"), `indexed: ${text}`);
  } finally {
    ws.dispose();
  }
});

Deno.test("indexing: UTF-16 with a BOM is decoded, not skipped as binary", async () => {
  const ws = tempWorkspace();
  try {
    const source = "def hello():\n    return 'héllo'\n";
    const le = new Uint8Array(2 + source.length * 2);
    le.set([0xff, 0xfe]);
    for (let i = 0; i < source.length; i++) {
      le[2 + 2 * i] = source.charCodeAt(i) & 0xff;
      le[3 + 2 * i] = source.charCodeAt(i) >> 8;
    }
    writeTree(ws.root, { "utf16.py": le });
    const runner = workspaceRunner(ws);
    try {
      const r = JSON.parse(
        (await runner.call("index_folder", { path: ws.root, format: "json" })).text,
      );
      const repo = r.repo as string;
      const content = JSON.parse(
        (await runner.call("get_file_content", { repo, file_path: "utf16.py", format: "json" }))
          .text,
      );
      equal(content.content, source);
      const outline = JSON.parse(
        (await runner.call("get_file_outline", { repo, file_path: "utf16.py", format: "json" }))
          .text,
      );
      ok(JSON.stringify(outline).includes("hello"), JSON.stringify(outline).slice(0, 300));
    } finally {
      await runner.close();
    }
  } finally {
    ws.dispose();
  }
});

Deno.test("indexing: a binary file whose first 8 KB look like text is caught", async () => {
  const ws = tempWorkspace();
  try {
    const head = new TextEncoder().encode("x = 1\n".repeat(2000)); // 12 KB of text
    const tail = new Uint8Array(20_000);
    for (let i = 0; i < tail.length; i++) tail[i] = 0x80 + (i * 7919) % 0x7f;
    writeTree(ws.root, { "ok.py": "y = 2\n", "blob.py": new Uint8Array([...head, ...tail]) });
    const runner = workspaceRunner(ws);
    try {
      const r = JSON.parse(
        (await runner.call("index_folder", { path: ws.root, format: "json" })).text,
      );
      const blob = JSON.parse(
        (await runner.call("get_file_content", {
          repo: r.repo,
          file_path: "blob.py",
          format: "json",
        })).text,
      );
      equal(blob.code, "file_not_found", "a binary file is not indexed");
    } finally {
      await runner.close();
    }
  } finally {
    ws.dispose();
  }
});

Deno.test("lines: CR-only, form feed, vertical tab and U+2028 number the same in every tool", async () => {
  const ws = tempWorkspace();
  try {
    writeTree(ws.root, {
      // Old Mac line ends: three lines, the function on line 3.
      "mac.py": "# one\r# two\rdef target_cr():\r    return 1\r",
      // Form feed, vertical tab and U+2028 are characters inside a line, not line breaks.
      "ff.py": "# a\f b\v c\u2028 d\n\ndef target_ff():\n    return 2\n",
    });
    const runner = workspaceRunner(ws);
    try {
      const call = async (name: string, args: Record<string, unknown>) =>
        JSON.parse((await runner.call(name, { ...args, format: "json" })).text);
      const { repo } = await call("index_folder", { path: ws.root });
      const cases: [string, string, number][] = [["mac.py", "target_cr", 3], [
        "ff.py",
        "target_ff",
        3,
      ]];
      for (const [file, name, line] of cases) {
        const outline = await call("get_file_outline", { repo, file_path: file });
        const sym = JSON.stringify(outline);
        ok(sym.includes(name), sym.slice(0, 300));
        const found = await call("search_symbols", { repo, query: name as string });
        const hit = (found.results as { name: string; line: number }[]).find((s) =>
          s.name === name
        );
        equal(hit?.line, line, `${name} symbol line`);
        const text = await call("search_text", { repo, query: `def ${name}` });
        equal(text.results[0].line, line, `${name} search_text line`);
        const content = await call("get_file_content", {
          repo,
          file_path: file,
          start_line: line,
          end_line: line,
        });
        equal(content.content, `def ${name}():`, `${name} get_file_content line`);
        equal(content.line_count, 4);
      }
      const ff = await call("get_file_content", {
        repo,
        file_path: "ff.py",
        start_line: 1,
        end_line: 1,
      });
      deepStrictEqual(ff.content, "# a\f b\v c\u2028 d");
    } finally {
      await runner.close();
    }
  } finally {
    ws.dispose();
  }
});
