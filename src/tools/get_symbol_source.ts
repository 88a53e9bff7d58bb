/**
 * `get_symbol_source` (aliases `get_symbol`, `get_symbols`): the exact source of symbols by id,
 * sliced by byte offset from the stored file content (API.md §1.6).
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import type { SymbolRecord } from "../parser/types.ts";
import type { RepoIndex } from "../store/repo_index.ts";
import { DetailedToolError, ToolError } from "../errors.ts";
import { bytesOfFiles, freshnessChecker, markFreshness } from "../query/files.ts";
import { levenshtein } from "../query/names.ts";
import { redactRange, secretSpans } from "../query/secrets.ts";
import { splitLines } from "../parser/source_text.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";

/** Tool name. */
export const name = "get_symbol_source";

/** Other names of this tool (the reference architecture's `get_symbol` and `get_symbols`). */
export const aliases = ["get_symbol", "get_symbols"] as const;

/** Tool description shown to agents. */
export const description =
  "Get the exact source code of one symbol (symbol_id) or several (symbol_ids), by the ids that search_symbols and get_file_outline return — only those lines, not the whole file. Optionally with surrounding lines (context_lines) and a hash check against the index (verify).";

/** Input schema. */
export const inputSchema = z.object({
  repo: z.string().describe("Repo id from list_repos (or a bare name that identifies one repo)"),
  symbol_id: z.string().optional().describe(
    'Symbol id, e.g. "src/app.py::App.run#method" (a plain name works when it is unique)',
  ),
  symbol_ids: z.array(z.string()).optional().describe(
    "Several symbol ids (batch); use instead of symbol_id",
  ),
  verify: z.boolean().optional().describe(
    "Re-hash the source and report content_verified (default false)",
  ),
  context_lines: z.number().int().min(0).max(50).optional().describe(
    "Lines of the file to add before and after the symbol (0-50, default 0)",
  ),
});

/** Validated arguments. */
export type GetSymbolSourceArgs = z.infer<typeof inputSchema>;

/** Annotations for MCP clients. */
export const annotations = { readOnlyHint: true, openWorldHint: false } as const;

/**
 * Find a symbol by id; a string without `::` is also tried as a symbol name. Fails with
 * `symbol_not_found` (with the closest ids) or `symbol_ambiguous` (with the candidates).
 */
export function findSymbol(index: RepoIndex, repo: string, id: string): SymbolRecord {
  const exact = index.symbol(id);
  if (exact !== undefined) return exact;
  if (!id.includes("::")) {
    const byName = index.symbolsByName(id);
    if (byName.length === 1) return byName[0]!;
    if (byName.length > 1) {
      const candidates = byName.slice(0, 20).map((s) => ({
        id: s.id,
        kind: s.kind,
        file: s.file,
        line: s.line,
      }));
      throw new DetailedToolError(
        "symbol_ambiguous",
        `Ambiguous symbol "${id}": ${byName.length} definitions in ${repo}. Pass one of the candidate ids as symbol_id`,
        { candidates },
      );
    }
  }
  const closest = closestSymbolIds(index, id);
  throw new DetailedToolError(
    "symbol_not_found",
    `Symbol not found: ${id}. Use search_symbols or get_file_outline to find ids${
      closest.length > 0 ? `; closest: ${closest.join(", ")}` : ""
    }`,
    { closest },
  );
}

/** Up to 5 ids of symbols whose name is closest to the name inside `id`. */
export function closestSymbolIds(index: RepoIndex, id: string): string[] {
  const sep = id.indexOf("::");
  const file = sep === -1 ? "" : id.slice(0, sep);
  let name = sep === -1 ? id : id.slice(sep + 2);
  name = name.replace(/#.*$/, "").replace(/~\d+$/, "");
  const last = name.slice(name.lastIndexOf(".") + 1);
  const out: string[] = [];
  if (file !== "") {
    const inFile = index.symbolsOfFile(file)
      .map((s) => ({ id: s.id, d: levenshtein(s.name.toLowerCase(), last.toLowerCase(), 4) }))
      .filter((x) => x.d <= 4)
      .sort((a, b) => a.d - b.d);
    for (const x of inFile) out.push(x.id);
  }
  if (out.length < 5 && last !== "") {
    for (const hit of index.searchSymbols(last, { limit: 5 })) out.push(hit.symbol.id);
  }
  return [...new Set(out)].slice(0, 5);
}

const _decoder = new TextDecoder();

function _entry(
  index: RepoIndex,
  s: SymbolRecord,
  verify: boolean,
  contextLines: number,
  redact: boolean,
): Record<string, unknown> {
  const bytes = index.symbolBytes(s.id) ?? new Uint8Array();
  let source = _decoder.decode(bytes);
  // Tokens never span lines: the envelope redacts them in what is served. A private key block
  // does, so a symbol or context lines inside one are redacted by position in the whole file.
  const fileText = redact || contextLines > 0 ? index.fileText(s.file) ?? "" : "";
  const spans = redact && fileText.includes("PRIVATE KEY") ? secretSpans(fileText) : [];
  if (spans.length > 0) {
    const fileBytes = index.fileBytes(s.file) ?? new Uint8Array();
    const start = _decoder.decode(fileBytes.subarray(0, s.byte_offset)).length;
    source = redactRange(fileText, spans, start, start + source.length);
  }
  const entry: Record<string, unknown> = {
    id: s.id,
    kind: s.kind,
    name: s.name,
    file: s.file,
    line: s.line,
    end_line: s.end_line,
    signature: s.signature,
    decorators: s.decorators,
    docstring: s.docstring,
    content_hash: s.content_hash,
    source,
  };
  if (contextLines > 0) {
    const lines = splitLines(spans.length > 0 ? redactRange(fileText, spans) : fileText);
    entry.context_before = lines.slice(Math.max(0, s.line - 1 - contextLines), s.line - 1)
      .join("\n");
    entry.context_after = lines.slice(s.end_line, s.end_line + contextLines).join("\n");
  }
  if (verify && bytes.length > 0) {
    entry.content_verified = s.content_hash === ""
      ? null
      : createHash("sha256").update(bytes).digest("hex") === s.content_hash;
  }
  return entry;
}

/** One symbol as a flat object, or `{symbols, errors}` for `symbol_ids`. */
export function handler(ctx: ToolContext, args: GetSymbolSourceArgs): ToolOutput {
  const single = args.symbol_id;
  const batch = args.symbol_ids;
  if (single !== undefined && batch !== undefined) {
    throw new ToolError("invalid_argument", "Provide symbol_id or symbol_ids, not both");
  }
  if (single === undefined && batch === undefined) {
    throw new ToolError(
      "invalid_argument",
      "Provide symbol_id (string) or symbol_ids (array of strings): ids come from search_symbols or get_file_outline",
    );
  }
  const { repo, index, view } = openRepo(ctx, args.repo);
  const verify = args.verify ?? false;
  const contextLines = args.context_lines ?? 0;
  const check = freshnessChecker(view);
  if (single !== undefined) {
    const s = findSymbol(index, repo, single);
    const entry = _entry(index, s, verify, contextLines, ctx.redact !== false);
    const freshness = markFreshness([entry], check);
    return {
      response: entry,
      rawBytes: bytesOfFiles(view, [s.file]),
      repo,
      meta: { symbol_count: 1, ...(freshness === null ? {} : { freshness }) },
    };
  }
  const symbols: Record<string, unknown>[] = [];
  const errors: Record<string, unknown>[] = [];
  const files: string[] = [];
  for (const id of batch!) {
    try {
      const s = findSymbol(index, repo, id);
      symbols.push(_entry(index, s, verify, contextLines, ctx.redact !== false));
      files.push(s.file);
    } catch (e) {
      if (!(e instanceof ToolError)) throw e;
      errors.push({ id, error: e.message });
    }
  }
  const freshness = markFreshness(symbols, check);
  return {
    response: { symbols, errors },
    rawBytes: bytesOfFiles(view, files),
    repo,
    meta: { symbol_count: symbols.length, ...(freshness === null ? {} : { freshness }) },
  };
}
