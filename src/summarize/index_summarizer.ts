/**
 * The summarizer of one index run, as the index tools set it up: the AI tier when a provider is
 * configured, `JCODEMUNCH_USE_AI_SUMMARIES` allows it and the call's `use_ai_summaries` is not
 * false; otherwise none (docstring and signature summaries only), with a warning when a
 * configured provider was refused.
 */
import { AiSummarizer } from "./ai_summarizer.ts";
import { SummaryCache } from "./cache.ts";
import type { SummarizerSettings } from "./config.ts";

/** The summarizer for a run, what to tell the user, and how to release it. */
export interface IndexSummarizer {
  summarizer: AiSummarizer | undefined;
  warnings: string[];
  /** What the AI tier did, for the response (undefined when it was off). */
  report(): Record<string, unknown> | undefined;
  close(): void;
}

/** Set up the AI tier for one run (see the module doc). */
export function openIndexSummarizer(
  settings: SummarizerSettings,
  indexDir: string,
  useAi: boolean,
): IndexSummarizer {
  const none = (warnings: string[] = []) => ({
    summarizer: undefined,
    warnings,
    report: () => undefined,
    close() {},
  });
  if (!useAi || !settings.enabled) return none();
  if (settings.provider === null) {
    return none(
      settings.refused === null ? [] : [`AI summaries are off: ${settings.refused}`],
    );
  }
  const cache = SummaryCache.open(indexDir);
  const summarizer = new AiSummarizer(settings, cache);
  const provider = settings.provider;
  return {
    summarizer,
    warnings: [],
    report: () => ({ provider: provider.kind, model: provider.model, ...summarizer.stats }),
    close: () => cache.close(),
  };
}
