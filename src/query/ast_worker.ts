/**
 * The `search_ast` worker (a `node:worker_threads` worker lent by `search_pool.ts`): reads each
 * file's stored bytes from the index (read-only), parses it with its grammar and runs the checks.
 * It lives in a worker so that the server's thread never waits on a parse or on a custom regex:
 * the caller terminates it at the time budget. Grammars stay loaded between scans.
 *
 * In: {@linkcode AstWorkerRequest}. Out: one `file` reply per file, then `done` (or `error`); a
 * `grammar` reply each time a grammar had to be loaded first, with the time it took.
 */
import { searchPort } from "./search_port.ts";
import { innermostSpan } from "./enclosing.ts";
import { Parser } from "web-tree-sitter";
import { loadGrammar } from "../parser/loader.ts";
import { languageById } from "../parser/registry.ts";
import type { GrammarSpec } from "../parser/language_spec.ts";
import { SourceText } from "../parser/source_text.ts";
import { RepoIndex, SCAN_MMAP_BYTES } from "../store/repo_index.ts";
import { type AstMatch, type CheckedText, checkTree, plainText } from "./ast_checks.ts";
import type { AstPattern } from "./ast_patterns.ts";
import type { AstResult, AstWorkerReply, AstWorkerRequest } from "./ast_search.ts";
import { hasSecretHint, SecretMap, servedText } from "./secrets.ts";

/** Where this worker answers (its pool port, see `search_port.ts`). */
const _port = searchPort();

/** Longest a single file's parse may take before it is skipped. */
const _PARSE_MS = 3_000;

/** A parser per language, made once per worker (null: the grammar failed to load). */
const _parsers = new Map<string, Parser | null>();

async function _parserFor(spec: GrammarSpec, id: number): Promise<Parser | null> {
  let parser = _parsers.get(spec.id);
  if (parser !== undefined) return parser;
  const started = performance.now();
  try {
    const grammar = spec.regions?.grammar ?? spec.grammar;
    const module = spec.regions !== undefined ? spec.regions.grammarModule : spec.grammarModule;
    // Loading the grammar initialises web-tree-sitter: a Parser can be made only after it.
    const language = await loadGrammar(grammar, module);
    parser = new Parser();
    parser.setLanguage(language);
  } catch {
    parser = null;
  }
  _parsers.set(spec.id, parser);
  // Compiling a grammar is a once-per-worker cost, not the scan's: the caller's budget allows it.
  const reply: AstWorkerReply = { type: "grammar", id, ms: performance.now() - started };
  _port?.postMessage(reply);
  return parser;
}

/** The file's text as the checks see it: secrets redacted by position (no oracle on them). */
function _checked(text: string): CheckedText {
  if (!hasSecretHint(text)) return plainText(text);
  const served = servedText(text);
  if (served === text) return plainText(text);
  const secrets = new SecretMap(text);
  let lines: string[] | null = null;
  return {
    slice: (from, to) => secrets.redacted(from, to),
    lines: () => lines ??= served.split(/\r\n|\r|\n/),
  };
}

/** A match with its innermost enclosing symbol (imports left out). */
function _enclosed(
  m: AstMatch,
  symbols: readonly { id: string; kind: string; line: number; end_line: number }[],
): AstResult {
  const best = innermostSpan(symbols.filter((s) => s.kind !== "import"), m.line);
  return best === null ? { ...m } : { ...m, enclosing_symbol: best.id, symbol_kind: best.kind };
}

/** Parse one file and run the checks; the reply says why a file was skipped. */
async function _scanFile(
  index: RepoIndex,
  file: { path: string; language: string },
  patterns: AstPattern[],
  id: number,
): Promise<AstWorkerReply> {
  const reply: AstWorkerReply = { type: "file", id, path: file.path, matches: [], skipped: null };
  const spec = languageById(file.language);
  const bytes = index.fileBytes(file.path);
  if (spec === undefined || bytes === undefined || spec.extractor !== undefined) {
    return { ...reply, skipped: "not parseable" };
  }
  const parser = await _parserFor(spec, id);
  if (parser === null) return { ...reply, skipped: "grammar failed to load" };
  const source = new SourceText(bytes);
  const deadline = performance.now() + _PARSE_MS;
  const tree = parser.parse(source.text, null, {
    progressCallback: () => performance.now() > deadline,
  });
  if (tree === null) return { ...reply, skipped: "parse timed out" };
  try {
    const matches = checkTree(tree, file.path, spec.id, _checked(source.text), patterns);
    if (matches.length > 0) {
      const symbols = index.symbolsOfFile(file.path);
      reply.matches = matches.map((m) => _enclosed(m, symbols));
    }
  } finally {
    tree.delete();
  }
  return reply;
}

/** One scan: every file in turn, a reply each, then `done`. */
async function _run(request: AstWorkerRequest): Promise<void> {
  const port = _port!;
  const index = RepoIndex.open(request.dbPath, { mmapBytes: SCAN_MMAP_BYTES });
  try {
    for (const f of request.files) {
      let reply: AstWorkerReply;
      try {
        reply = await _scanFile(index, f, request.patterns, request.id);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        reply = {
          type: "file",
          id: request.id,
          path: f.path,
          matches: [],
          skipped: `error: ${message}`,
        };
      }
      port.postMessage(reply);
    }
  } finally {
    index.close();
  }
  port.postMessage({ type: "done", id: request.id } satisfies AstWorkerReply);
}

// `_port` is null only when this module is loaded outside a worker: nothing to answer then.
_port?.on("message", (request: AstWorkerRequest) => {
  _run(request).catch((e) => {
    _port!.postMessage(
      {
        type: "error",
        id: request.id,
        message: e instanceof Error ? e.message : String(e),
      } satisfies AstWorkerReply,
    );
  });
});
// Loaded: the scan's time budget starts now, not while this module (and the index) loaded.
_port?.postMessage({ type: "ready" });
