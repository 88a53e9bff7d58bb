/**
 * The AI tier of symbol summaries (API.md §4.7 tier 2), for the indexing pipeline: symbols with
 * no docstring get a one-sentence summary from the configured provider; every other symbol keeps
 * its docstring summary, and any symbol the provider does not answer for keeps the signature
 * summary the parser already made.
 *
 * - Cache first (`cache.ts`): a symbol whose kind and signature were summarized before is never
 *   sent again. Symbols asked for twice in a run share one request.
 * - Batches of `batchSize` symbols per request, gathered across the files being indexed, with at
 *   most `concurrency` requests in flight.
 * - Failures never fail the index: a provider error, a timeout or a malformed reply leaves the
 *   affected symbols on the signature tier. After `maxFailures` failed requests in a row the
 *   provider is not called again in this run (a circuit breaker), and the whole run never waits
 *   on the summarizer longer than `maxWaitMs` (default 120 s) in total, counted from its first
 *   request: after that, the remaining symbols keep signature summaries.
 * - Privacy: only the kind and the signature (cut at 300 characters) are sent, and not even that
 *   when the signature looks like a credential (`privacy.ts`).
 */
import type { SymbolRecord } from "../parser/types.ts";
import type { SummarizerSettings } from "./config.ts";
import type { SummaryCache } from "./cache.ts";
import { summaryKey } from "./cache.ts";
import { buildPrompt, MAX_SIGNATURE_CHARS, parseReply } from "./prompt.ts";
import { complete } from "./providers.ts";
import { maySend } from "./privacy.ts";

/** Counts of one run. */
export interface SummarizerStats {
  /** Symbols that needed an AI summary (no docstring). */
  eligible: number;
  /** Answered from the cache. */
  cached: number;
  /** Answered by the provider in this run. */
  summarized: number;
  /** Left on the signature tier (failure, malformed reply, stopped, or not sent for privacy). */
  fallback: number;
  /** Requests sent. */
  requests: number;
  /** Requests that failed (errors, timeouts, replies with no usable line). */
  failed_requests: number;
}

interface _Job {
  key: string;
  kind: string;
  signature: string;
  waiters: ((summary: string | undefined) => void)[];
}

/** The AI summary tier for one index run. */
export class AiSummarizer {
  readonly stats: SummarizerStats = {
    eligible: 0,
    cached: 0,
    summarized: 0,
    fallback: 0,
    requests: 0,
    failed_requests: 0,
  };
  readonly #settings: SummarizerSettings;
  readonly #cache: SummaryCache;
  #note: (message: string) => void = () => {};
  readonly #inRun = new Map<string, _Job>();
  #queue: _Job[] = [];
  #active = 0;
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #consecutiveFailures = 0;
  #stopped: string | null = null;
  #deadline: number | null = null;
  #lastError = "";

  constructor(settings: SummarizerSettings, cache: SummaryCache) {
    if (settings.provider === null) throw new TypeError("AiSummarizer needs a provider");
    this.#settings = settings;
    this.#cache = cache;
  }

  /**
   * Give the symbols without a docstring an AI summary where possible; `note` receives progress
   * of the summarizing stage. Never throws.
   */
  async summarize(symbols: SymbolRecord[], note?: (message: string) => void): Promise<void> {
    if (note !== undefined) this.#note = note;
    const eligible = symbols.filter((s) => s.kind !== "import" && s.docstring.trim() === "");
    if (eligible.length === 0) return;
    this.stats.eligible += eligible.length;
    const sendable: { symbol: SymbolRecord; key: string; signature: string }[] = [];
    for (const s of eligible) {
      const signature = s.signature.replace(/\s+/g, " ").trim().slice(0, MAX_SIGNATURE_CHARS);
      if (signature === "" || !maySend(signature)) {
        this.stats.fallback++;
        continue;
      }
      sendable.push({ symbol: s, key: summaryKey(s.kind, signature), signature });
    }
    let cached: Map<string, string>;
    try {
      cached = this.#cache.getMany(sendable.map((x) => x.key));
    } catch {
      cached = new Map();
    }
    const waits: Promise<void>[] = [];
    for (const x of sendable) {
      const hit = cached.get(x.key);
      if (hit !== undefined) {
        x.symbol.summary = hit;
        this.stats.cached++;
        continue;
      }
      waits.push(
        this.#request(x.key, x.symbol.kind, x.signature).then((summary) => {
          if (summary !== undefined) x.symbol.summary = summary;
          else this.stats.fallback++;
        }),
      );
    }
    await Promise.all(waits);
  }

  /** Notes for the index outcome. */
  warnings(): string[] {
    const out: string[] = [];
    if (this.#stopped !== null) out.push(this.#stopped);
    else if (this.stats.failed_requests > 0) {
      out.push(
        `AI summaries: ${this.stats.failed_requests} of ${this.stats.requests} requests failed (${this.#lastError}); those symbols keep signature summaries`,
      );
    }
    return out;
  }

  #request(key: string, kind: string, signature: string): Promise<string | undefined> {
    if (this.#stopped !== null) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const existing = this.#inRun.get(key);
      if (existing !== undefined) {
        existing.waiters.push(resolve);
        return;
      }
      const job: _Job = { key, kind, signature, waiters: [resolve] };
      this.#inRun.set(key, job);
      this.#queue.push(job);
      this.#pump();
    });
  }

  /** Send full batches now; a partial batch after a short pause (more may come). */
  #pump(): void {
    while (
      this.#active < this.#settings.concurrency && this.#queue.length >= this.#settings.batchSize
    ) {
      this.#send(this.#queue.splice(0, this.#settings.batchSize));
    }
    if (this.#queue.length > 0 && this.#flushTimer === undefined) {
      this.#flushTimer = setTimeout(() => {
        this.#flushTimer = undefined;
        if (this.#active < this.#settings.concurrency && this.#queue.length > 0) {
          this.#send(this.#queue.splice(0, this.#settings.batchSize));
        }
        if (this.#queue.length > 0) this.#pump();
      }, 10);
    }
  }

  async #send(batch: _Job[]): Promise<void> {
    const provider = this.#settings.provider!;
    this.#active++;
    let answers: (string | undefined)[] = [];
    try {
      if (this.#stopped === null) {
        const now = Date.now();
        this.#deadline ??= now + this.#settings.maxWaitMs;
        const left = this.#deadline - now;
        if (left <= 0) {
          this.#stop(
            `AI summaries stopped after the ${
              this.#settings.maxWaitMs / 1000
            } s bound on summarizer waits; the remaining symbols keep signature summaries`,
          );
        } else {
          this.stats.requests++;
          const prompt = buildPrompt(batch);
          const reply = await complete(
            provider,
            prompt,
            this.#settings.maxTokens,
            AbortSignal.timeout(Math.min(this.#settings.timeoutMs, left)),
          );
          answers = parseReply(reply, batch.length);
          if (answers.every((a) => a === undefined)) {
            throw new Error("the reply had no numbered summary lines");
          }
          this.#consecutiveFailures = 0;
        }
      }
    } catch (e) {
      answers = [];
      this.stats.failed_requests++;
      this.#consecutiveFailures++;
      this.#lastError = e instanceof Error ? `${e.name}: ${e.message}`.slice(0, 200) : String(e);
      if (this.#consecutiveFailures >= this.#settings.maxFailures && this.#stopped === null) {
        this.#stop(
          `AI summaries stopped after ${this.#consecutiveFailures} failed requests in a row (last: ${this.#lastError}); the remaining symbols keep signature summaries`,
        );
      }
    } finally {
      this.#active--;
    }
    const fresh: { key: string; summary: string }[] = [];
    batch.forEach((job, i) => {
      const summary = answers[i];
      if (summary !== undefined) {
        fresh.push({ key: job.key, summary });
        this.stats.summarized++;
      }
      this.#inRun.delete(job.key);
      for (const w of job.waiters) w(summary);
    });
    try {
      this.#cache.putMany(fresh, `${provider.kind}:${provider.model}`);
    } catch { /* a cache that cannot be written only costs a request next time */ }
    const done = this.stats.summarized + this.stats.cached;
    this.#note(`AI summaries: ${done} of ${this.stats.eligible} symbols`);
    this.#pump();
  }

  #stop(reason: string): void {
    this.#stopped = reason;
    this.#note(reason);
    const pending = this.#queue;
    this.#queue = [];
    for (const job of pending) {
      this.#inRun.delete(job.key);
      for (const w of job.waiters) w(undefined);
    }
  }
}
