/**
 * `deno task bench markdown`: our Markdown scanner (`src/parser/extractors/markdown.ts`) against
 * the tree-sitter block grammar it replaced (`MARKDOWN_GRAMMAR`), in one run: every `.md` /
 * `.markdown` file under the roots is read by both (in turns, file by file), and the report says
 * how many files get exactly the same symbol records (every field), which differ and how, and the
 * parse time of each (median of the rounds, summed over files) with the load average.
 *
 *   deno task bench markdown [--roots DIR,DIR] [--rounds 3] [--show 5] [--json FILE]
 *
 * Default roots: this checkout, `corpora/` and `/usr/share/doc` (Debian's packages' READMEs and
 * changelogs); `node_modules/` is included when present (the READMEs of our npm dependencies).
 */
import { join } from "node:path";
import { parseWithSpec } from "../src/parser/parse.ts";
import { markdown, MARKDOWN_GRAMMAR } from "../src/parser/languages/markdown.ts";
import type { ParseResult } from "../src/parser/types.ts";
import { loadAverages, markdownTable, median, parseFlags, writeJson } from "./bench_util.ts";

/** The Markdown files under a root (symlinks not followed), sorted. */
function _files(root: string, out: string[]): void {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(root)];
  } catch {
    return;
  }
  for (const e of entries) {
    const path = join(root, e.name);
    if (e.isDirectory && e.name !== ".git") _files(path, out);
    else if (e.isFile && /\.(?:md|markdown)$/i.test(e.name)) out.push(path);
  }
}

/** The first record that differs between the two results, as a line for the report. */
function _firstDifference(a: ParseResult, b: ParseResult): string {
  if (a.symbols.length !== b.symbols.length) {
    return `${a.symbols.length} symbols against ${b.symbols.length}`;
  }
  for (const [i, s] of a.symbols.entries()) {
    const t = b.symbols[i]!;
    for (const key of Object.keys(s) as (keyof typeof s)[]) {
      if (JSON.stringify(s[key]) !== JSON.stringify(t[key])) {
        return `${s.qualified_name}: ${key} ${JSON.stringify(s[key])} against ${
          JSON.stringify(t[key])
        }`;
      }
    }
  }
  return `status ${a.status} (${a.reason}) against ${b.status} (${b.reason})`;
}

async function _timed(f: () => Promise<ParseResult>): Promise<[ParseResult, number]> {
  const t = performance.now();
  const r = await f();
  return [r, performance.now() - t];
}

export async function main(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  const rounds = Number(flags.get("rounds") ?? 3);
  const show = Number(flags.get("show") ?? 5);
  const roots = flags.get("roots")?.split(",") ??
    [".", "corpora", "/usr/share/doc"];
  const files: string[] = [];
  for (const root of roots) _files(root, files);
  const unique = [...new Set(files)].sort();
  const load = [loadAverages()];
  let bytes = 0, symbols = 0, same = 0, statusOnly = 0;
  let grammarMs = 0, scannerMs = 0;
  const differing: { file: string; difference: string }[] = [];
  for (const file of unique) {
    const data = Deno.readFileSync(file);
    bytes += data.length;
    const ts: number[] = [], sc: number[] = [];
    let a: ParseResult | undefined, b: ParseResult | undefined;
    for (let r = 0; r < rounds; r++) {
      let ms;
      [a, ms] = await _timed(() => parseWithSpec(MARKDOWN_GRAMMAR, file, data));
      ts.push(ms);
      [b, ms] = await _timed(() => parseWithSpec(markdown, file, data));
      sc.push(ms);
    }
    grammarMs += median(ts);
    scannerMs += median(sc);
    symbols += a!.symbols.length;
    if (JSON.stringify(a!.symbols) !== JSON.stringify(b!.symbols)) {
      differing.push({ file, difference: _firstDifference(a!, b!) });
    } else if (a!.status !== b!.status) statusOnly++;
    else same++;
  }
  load.push(loadAverages());
  console.log(
    `Markdown: ${unique.length} files (${(bytes / 1024 / 1024).toFixed(2)} MB, ${symbols} ` +
      `symbols by the grammar) under ${roots.join(", ")}; median of ${rounds} rounds in turns; ` +
      `${load.join(" -> ")}\n`,
  );
  console.log(markdownTable(["reader", "files with the same records", "parse ms", "KB/ms"], [
    ["tree-sitter-markdown (block grammar)", "-", grammarMs, bytes / 1024 / grammarMs],
    [
      "our scanner",
      `${same + statusOnly} of ${unique.length} (${statusOnly} differ in status only)`,
      scannerMs,
      bytes / 1024 / scannerMs,
    ],
  ]));
  console.log(`\nscanner / grammar: ${(scannerMs / grammarMs).toFixed(3)}x the time`);
  for (const d of differing.slice(0, show)) console.log(`differs: ${d.file}: ${d.difference}`);
  if (differing.length > show) console.log(`... and ${differing.length - show} more`);
  await writeJson(flags, {
    roots,
    files: unique.length,
    bytes,
    symbols,
    same,
    statusOnly,
    differing,
    grammarMs,
    scannerMs,
    load,
  });
}
