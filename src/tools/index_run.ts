/**
 * What `index_folder` and `index_repo` share around their indexer: argument validation for
 * direct callers (the CLI, tests), the AI summary tier, a parser pool when the caller has none,
 * `indexing_failed` for unexpected failures, and the facts every response may add.
 */
import { z } from "zod";
import { ParserPool } from "../parser/pool.ts";
import type { Store } from "../store/store.ts";
import type { FileParser, IndexOutcome, SymbolSummarizer } from "../ingest/index_local.ts";
import { NO_SUMMARIZER, type SummarizerSettings } from "../summarize/config.ts";
import { openIndexSummarizer } from "../summarize/index_summarizer.ts";
import { ToolError } from "../errors.ts";

/** What an index run needs from its caller. */
export interface IndexRunContext {
  store: Store;
  /** @default NO_SUMMARIZER */
  summarizer?: SummarizerSettings;
  /** A long-lived parser pool; when absent, one is created for the call. */
  parser?: FileParser;
}

/** The response fields index_folder and index_repo share (which appear depends on the mode). */
export const INDEX_FIELDS = {
  success: z.boolean().describe("Always true (a failure is an error result)"),
  repo: z.string().describe("Repo id to pass to the other tools"),
  message: z.string().optional().describe('"No changes detected" when nothing changed'),
  incremental: z.boolean().optional().describe("True when only changes were applied"),
  changed: z.number().int().optional().describe("Files re-parsed because they changed"),
  new: z.number().int().optional().describe("Files added"),
  deleted: z.number().int().optional().describe("Files removed"),
  indexed_at: z.string().optional().describe("When the index was written (ISO 8601)"),
  file_count: z.number().int().optional().describe("Files indexed (full run)"),
  symbol_count: z.number().int().optional().describe("Symbols in the index"),
  file_summary_count: z.number().int().optional().describe("Files with a summary"),
  languages: z.record(z.string(), z.number()).optional().describe("Files per language"),
  files: z.array(z.string()).optional().describe("The first 20 indexed paths"),
  duration_seconds: z.number().describe("Time the run took"),
  discovery_skip_counts: z.record(z.string(), z.number()).optional().describe(
    "Files skipped while walking, by reason (secret, binary, size, ignored, …)",
  ),
  no_symbols_count: z.number().int().optional().describe("Indexed files without symbols"),
  no_symbols_files: z.array(z.string()).optional().describe("Some of them"),
  parse_warnings: z.array(z.string()).optional().describe(
    "Files skipped or partly parsed, and why",
  ),
  warnings: z.array(z.string()).optional().describe("What the caller should know about the run"),
  files_discovered: z.number().int().optional().describe("Files found (when over the file cap)"),
  files_indexed: z.number().int().optional().describe("Files indexed (when over the file cap)"),
  files_skipped_cap: z.number().int().optional().describe("Files left out by the file cap"),
  ai_summaries: z.record(z.string(), z.unknown()).optional().describe(
    "What the AI summary tier did (provider, model, counts)",
  ),
};

/** The facts {@linkcode withOptionalFacts} and {@linkcode runIndex} may add to a response. */
export interface IndexFacts {
  parse_warnings?: string[] | undefined;
  warnings?: string[] | undefined;
  files_discovered?: number | undefined;
  files_indexed?: number | undefined;
  files_skipped_cap?: number | undefined;
  ai_summaries?: Record<string, unknown> | undefined;
}

/** Validate `args` against a tool's schema (`invalid_argument` naming each problem). */
export function parseIndexArgs<S extends z.ZodType>(schema: S, args: unknown): z.infer<S> {
  const parsed = schema.safeParse(args);
  if (!parsed.success) {
    throw new ToolError(
      "invalid_argument",
      `Invalid arguments: ${
        parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")
      }`,
    );
  }
  return parsed.data;
}

/**
 * Run an indexer with the summary tier and a parser, then shape its outcome; the AI tier's
 * warnings join the outcome's, and its report is added as `ai_summaries` unless nothing changed.
 */
export async function runIndex<O extends IndexOutcome, R extends IndexFacts>(
  ctx: IndexRunContext,
  useAiSummaries: boolean | undefined,
  index: (parser: FileParser, summarizer: SymbolSummarizer | undefined) => Promise<O>,
  respond: (outcome: O) => R,
): Promise<R> {
  const ownPool = ctx.parser === undefined ? new ParserPool() : null;
  try {
    const { outcome, aiSummaries } = await summarizedRun(
      ctx.summarizer ?? NO_SUMMARIZER,
      ctx.store.indexDir,
      useAiSummaries,
      (summarizer) => index(ctx.parser ?? ownPool!, summarizer),
      (o) => o.mode !== "unchanged",
    );
    const response = respond(outcome);
    if (aiSummaries !== undefined) response.ai_summaries = aiSummaries;
    return response;
  } catch (e) {
    if (e instanceof ToolError) throw e;
    throw new ToolError(
      "indexing_failed",
      `Indexing failed: ${e instanceof Error ? e.message : String(e)}`,
    );
  } finally {
    await ownPool?.close();
  }
}

/**
 * One index run with the AI summary tier (when configured and `useAi` is not false): `index`
 * gets the summarizer, or none; the tier's warnings join the run's, and its report (for the
 * response's `ai_summaries`) comes back when `changed` says the run stored something.
 */
export async function summarizedRun<O extends { warnings: string[] }>(
  settings: SummarizerSettings,
  indexDir: string,
  useAi: boolean | undefined,
  index: (summarizer: SymbolSummarizer | undefined) => Promise<O>,
  changed: (outcome: O) => boolean,
): Promise<{ outcome: O; aiSummaries: Record<string, unknown> | undefined }> {
  const ai = openIndexSummarizer(settings, indexDir, useAi ?? true);
  try {
    const outcome = await index(ai.summarizer);
    outcome.warnings.push(...ai.warnings);
    return { outcome, aiSummaries: changed(outcome) ? ai.report() : undefined };
  } finally {
    ai.close();
  }
}

/** Add the facts a response carries only when there are some (warnings, the file cap). */
export function withOptionalFacts<R extends IndexFacts>(
  o: IndexOutcome,
  warnings: readonly string[],
  r: R,
): R {
  if (o.parse_warnings.length > 0) r.parse_warnings = o.parse_warnings;
  if (warnings.length > 0) r.warnings = [...warnings];
  if (o.files_skipped_cap > 0) {
    r.files_discovered = o.files_discovered;
    r.files_indexed = o.files_indexed;
    r.files_skipped_cap = o.files_skipped_cap;
  }
  return r;
}
