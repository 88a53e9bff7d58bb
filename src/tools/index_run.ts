/**
 * What `index_folder` and `index_repo` share around their indexer: argument validation for
 * direct callers (the CLI, tests), the AI summary tier, a parser pool when the caller has none,
 * `indexing_failed` for unexpected failures, and the facts every response may add.
 */
import type { z } from "zod";
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
export async function runIndex<O extends IndexOutcome>(
  ctx: IndexRunContext,
  useAiSummaries: boolean | undefined,
  index: (parser: FileParser, summarizer: SymbolSummarizer | undefined) => Promise<O>,
  respond: (outcome: O) => Record<string, unknown>,
): Promise<Record<string, unknown>> {
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
export function withOptionalFacts(
  o: IndexOutcome,
  warnings: readonly string[],
  r: Record<string, unknown>,
): Record<string, unknown> {
  if (o.parse_warnings.length > 0) r.parse_warnings = o.parse_warnings;
  if (warnings.length > 0) r.warnings = warnings;
  if (o.files_skipped_cap > 0) {
    r.files_discovered = o.files_discovered;
    r.files_indexed = o.files_indexed;
    r.files_skipped_cap = o.files_skipped_cap;
  }
  return r;
}
