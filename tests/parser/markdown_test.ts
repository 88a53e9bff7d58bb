/**
 * The Markdown scanner (src/parser/extractors/markdown.ts) against the tree-sitter block grammar
 * it replaced (`MARKDOWN_GRAMMAR`, the real grammar): the same symbol records, every field, for
 * the CommonMark cases below and for every Markdown file of this repository.
 */
import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { parseWithSpec } from "../../src/parser/parse.ts";
import { markdown, MARKDOWN_GRAMMAR } from "../../src/parser/languages/markdown.ts";
import { parseSource } from "../../src/parser/mod.ts";

const _enc = new TextEncoder();

/** Block structures that decide what is a heading and where a section ends. */
const _CASES: Record<string, string> = {
  "sections, setext, code": "# Title\n\nintro\n\n## Install\n\ntext\n### From source\n\nmore\n\n" +
    "Setext\n======\n\n```\n# not\n```\n    # indented\n# Closing ##\n",
  "list items and block quotes": "# A  #\n\n- # In list\n  text\n\n> # In quote\n> ## Sub\n\n" +
    "Para\nline two\n---\n\n## B ##   \n#no\n   ### Three spaces\n    # four\n",
  "fences": "# One\n~~~md\n# not a heading\n~~~\n````\n```\n# still code\n````\n## Two\n" +
    "```js\nunclosed\n# in code\n",
  "HTML blocks": "# H\n<div>\n# inside html\n</div>\n\n# After\n<!--\n# comment\n-->\n## Sub\n" +
    "<script>\n# js\n</script>\n### Last\n",
  "front matter": "---\ntitle: x\n# not\n---\n# Real\ntext\n",
  "tabs": "#\tTab heading\n\t# code\n-\t# item head\n\n>\t# quoted\n",
  "empty and closed headings": "#\n## \n# #\n### Closed ###\ntext\n#hashtag\n",
  "setext against breaks and lists": "Multi\nline heading\n===\n\n- item\n---\n\nPara\n  ---\n" +
    "text\n***\nNot\n- - -\n",
  "nested containers": "> quote\n> > # deep\n> > text\n> # shallow\n\n1. # one\n   ## sub\n" +
    "2. two\n\n   # para of two\n# top\n",
  "CRLF": "# A\r\n\r\ntext\r\n## B\r\nmore\r\n",
  "lazy continuation": "> # Q\n> para\nlazy line\n# Out\n- item\ncontinued\n## Sub\n",
  "indented code": "# A\n\n    code\n\n    # code head\n\n# B\npara\n    # not code\n",
  "ordered lists": "text\n2. not a list\n# H\n1) item\n   # in item\n10. ten\n",
  "a list closed by a less indented heading": "### Fixed\n\n - a\n - b\n\n ### Changed\n - c\n",
  "whitespace-only lines": "### A\n\ntext\n    \n### B\n \n## C\n",
  "non-ASCII": "# Ünïcødé 😀 title\n\n## 子見出し\n\ntext 😀\n",
};

Deno.test("markdown: the scanner makes the grammar's records for each block structure", async (t) => {
  for (const [name, text] of Object.entries(_CASES)) {
    await t.step(name, async () => {
      const bytes = _enc.encode(text);
      const grammar = await parseWithSpec(MARKDOWN_GRAMMAR, "doc.md", bytes);
      const scanner = await parseWithSpec(markdown, "doc.md", bytes);
      deepEqual(scanner.symbols, grammar.symbols);
      deepEqual([scanner.status, scanner.imports, scanner.calls], ["ok", [], []]);
    });
  }
});

Deno.test("markdown: the scanner makes the grammar's records for this repository's documents", async () => {
  const root = new URL("../../", import.meta.url).pathname;
  const files: string[] = [];
  for (const dir of [".", "docs", "src/parser"]) {
    for (const e of Deno.readDirSync(join(root, dir))) {
      if (e.isFile && e.name.endsWith(".md")) files.push(join(dir, e.name));
    }
  }
  equal(files.length >= 5, true);
  for (const file of files) {
    const bytes = Deno.readFileSync(join(root, file));
    const grammar = await parseWithSpec(MARKDOWN_GRAMMAR, file, bytes);
    const scanner = await parseWithSpec(markdown, file, bytes);
    deepEqual(scanner.symbols, grammar.symbols, file);
    equal(scanner.symbols.length > 0, true, file);
  }
});

Deno.test("markdown: the registry reads .md with the scanner", async () => {
  const r = await parseSource("README.md", _enc.encode("# Install\n\n## From source\n"));
  deepEqual(r.symbols.map((s) => [s.qualified_name, s.kind, s.line, s.end_line]), [
    ["Install", "type", 1, 3],
    ["Install.From source", "type", 3, 3],
  ]);
});
