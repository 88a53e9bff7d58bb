/**
 * The `search_ast` worker: reads each file's stored bytes from the index (read-only), parses it
 * with its grammar and runs the checks. It lives in a worker so that the server's thread never
 * waits on a parse or on a custom regex: the caller terminates it at the time budget.
 */
/// <reference lib="deno.worker" />
import { Parser } from "web-tree-sitter";
import { loadGrammar } from "../parser/loader.ts";
import { languageById } from "../parser/registry.ts";
import { SourceText } from "../parser/source_text.ts";
import { RepoIndex, SCAN_MMAP_BYTES } from "../store/repo_index.ts";
import { type CheckedText, checkTree, plainText } from "./ast_checks.ts";
import { hasSecretHint, SecretMap, servedText } from "./secrets.ts";
import type { AstWorkerReply, AstWorkerRequest } from "./ast_search.ts";

/** Longest a single file's parse may take before it is skipped. */
const _PARSE_MS = 3_000;

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

self.onmessage = async (e: MessageEvent<AstWorkerRequest>) => {
  const { dbPath, files, patterns } = e.data;
  const index = RepoIndex.open(dbPath, { mmapBytes: SCAN_MMAP_BYTES });
  const parsers = new Map<string, Parser | null>();
  try {
    for (const f of files) {
      const reply: AstWorkerReply = { type: "file", path: f.path, matches: [], skipped: null };
      try {
        const spec = languageById(f.language);
        const bytes = index.fileBytes(f.path);
        if (spec === undefined || bytes === undefined || spec.extractor !== undefined) {
          reply.skipped = "not parseable";
        } else {
          let parser = parsers.get(spec.id);
          if (parser === undefined) {
            try {
              const grammar = spec.regions?.grammar ?? spec.grammar;
              const module = spec.regions !== undefined
                ? spec.regions.grammarModule
                : spec.grammarModule;
              const language = await loadGrammar(grammar, module);
              parser = new Parser();
              parser.setLanguage(language);
            } catch {
              parser = null;
            }
            parsers.set(spec.id, parser);
          }
          if (parser === null) reply.skipped = "grammar failed to load";
          else {
            const source = new SourceText(bytes);
            const deadline = performance.now() + _PARSE_MS;
            const tree = parser.parse(source.text, null, {
              progressCallback: () => performance.now() > deadline,
            });
            if (tree === null) reply.skipped = "parse timed out";
            else {
              try {
                const matches = checkTree(tree, f.path, spec.id, _checked(source.text), patterns);
                if (matches.length > 0) {
                  const symbols = index.symbolsOfFile(f.path);
                  for (const m of matches) {
                    let best: (typeof symbols)[number] | undefined;
                    for (const s of symbols) {
                      if (s.line <= m.line && m.line <= s.end_line && s.kind !== "import") {
                        if (
                          best === undefined || s.end_line - s.line <= best.end_line - best.line
                        ) {
                          best = s;
                        }
                      }
                    }
                    reply.matches.push(
                      best === undefined ? { ...m } : {
                        ...m,
                        enclosing_symbol: best.id,
                        symbol_kind: best.kind,
                      },
                    );
                  }
                }
              } finally {
                tree.delete();
              }
            }
          }
        }
      } catch (err) {
        reply.skipped = `error: ${err instanceof Error ? err.message : String(err)}`;
      }
      self.postMessage(reply);
    }
  } finally {
    index.close();
  }
  self.postMessage({ type: "done" } satisfies AstWorkerReply);
};
