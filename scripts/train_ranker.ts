/**
 * `deno task bench train-ranker [--index DIR] [--corpora a,b]`: fit the learned re-ranking models
 * of `src/query/learned_rank.ts` on the labelled questions of `scripts/retrieval/` — by default our
 * own sets only (`OUR_SETS`: the independent sets are never fitted on, so that their figures stay
 * held out) — check them by leaving each corpus out in turn, and print the constants to paste
 * into `learned_rank.ts`.
 *
 * Data: for every question that is a description (`isProseQuery`; the models re-order only
 * those), the {@linkcode RERANK_DEPTH} best matches of the hand-made ranking
 * (`rankSymbolHits` for `search_symbols`, `contextCandidates` for `get_ranked_context`), each a
 * feature row (`rerankFeatures`) labelled 1 when it is (or, for the context, holds) a labelled
 * answer. Model: logistic regression on standardised features, positives weighted to balance the
 * negatives, an L2 penalty of 0.01, 400 steps of gradient descent from zero (deterministic: the
 * same data gives the same constants). The context's model leaves out `lines` (see
 * {@linkcode EXCLUDED}).
 *
 * Check: for each corpus, a model fitted on the other corpora re-orders its questions; the
 * retrieval bench's measures (recall@10 and P@5 for `search_symbols`; recall within an 8,000-token
 * budget and P@5 for `get_ranked_context`) are printed without and with it, per question kind.
 * The shipped constants are fitted on every corpus.
 */
import { RepoViews } from "../src/query/view.ts";
import type { RepoView } from "../src/query/view.ts";
import {
  hitRerankItem,
  isProseQuery,
  meaningfulQuery,
  rankSymbolHits,
} from "../src/query/symbol_rank.ts";
import {
  candidateRerankItem,
  contextCandidates,
  rankedContext,
} from "../src/query/ranked_context.ts";
import {
  nameCoverTerms,
  RERANK_DEPTH,
  RERANK_FEATURES,
  rerankFeatures,
  type RerankItem,
  type RerankModel,
} from "../src/query/learned_rank.ts";
import {
  benchRunner,
  covers,
  CUT,
  indexCorpus,
  kindOf,
  loadQuestionSets,
  OUR_SETS,
  type Question,
  type QuestionKind,
  scoreRanking,
  spanLookup,
  type SpanOf,
} from "./bench_retrieval.ts";
import { markdownTable, parseFlags } from "./bench_util.ts";

/** The rows of one question for one model. */
interface Sample {
  x: number[][];
  y: number[];
}

interface CorpusData {
  corpus: string;
  view: RepoView;
  spanOf: SpanOf;
  questions: Question[];
  search: Sample[];
  context: Sample[];
}

/**
 * Fit a logistic model (see the module doc) and return it with raw-feature weights (the
 * standardisation folded in).
 */
export function fitLogistic(
  samples: readonly Sample[],
  exclude: readonly (typeof RERANK_FEATURES)[number][] = [],
  l2 = 0.01,
  steps = 400,
): RerankModel {
  const x = samples.flatMap((s) => s.x);
  const y = samples.flatMap((s) => s.y);
  const n = x.length;
  const d = RERANK_FEATURES.length;
  if (n === 0) return { weights: new Array(d).fill(0), intercept: 0 };
  const mu = new Array(d).fill(0);
  const sd = new Array(d).fill(0);
  for (const r of x) for (let j = 0; j < d; j++) mu[j] += r[j]! / n;
  for (const r of x) for (let j = 0; j < d; j++) sd[j] += (r[j]! - mu[j]) ** 2 / n;
  for (let j = 0; j < d; j++) sd[j] = Math.sqrt(sd[j]) + 1e-9;
  const off = new Set(exclude.map((f) => RERANK_FEATURES.indexOf(f)));
  const z = x.map((r) => r.map((v, j) => off.has(j) ? 0 : (v - mu[j]) / sd[j]));
  const pos = y.reduce((a, b) => a + b, 0);
  const wPos = pos === 0 ? 1 : (n - pos) / pos;
  const sw = y.map((v) => (v > 0 ? wPos : 1));
  const swMean = sw.reduce((a, b) => a + b, 0) / n;
  const w = new Array(d).fill(0);
  let b = 0;
  const lr = 0.5;
  for (let step = 0; step < steps; step++) {
    const g = new Array(d).fill(0);
    let gb = 0;
    for (let i = 0; i < n; i++) {
      let t = b;
      for (let j = 0; j < d; j++) t += w[j] * z[i]![j]!;
      const p = 1 / (1 + Math.exp(-t));
      const e = ((p - y[i]!) * sw[i]!) / swMean;
      for (let j = 0; j < d; j++) g[j] += e * z[i]![j]!;
      gb += e;
    }
    for (let j = 0; j < d; j++) w[j] -= lr * (g[j] / n + l2 * w[j]);
    b -= lr * gb / n;
  }
  const weights = w.map((v, j) => v / sd[j]);
  const intercept = b - w.reduce((a, v, j) => a + (v * mu[j]) / sd[j], 0);
  return { weights: weights.map(_round6), intercept: _round6(intercept) };
}

function _round6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

/**
 * A question's rows for one model: the matches as the model reads them (the items the tools pass
 * to `rerank`), labelled by `answers`.
 */
function _sample(q: Question, items: RerankItem[], answers: boolean[]): Sample {
  return {
    x: rerankFeatures(items, nameCoverTerms(meaningfulQuery(q.q))),
    y: answers.map((a) => (a ? 1 : 0)),
  };
}

function _searchSample(view: RepoView, q: Question): Sample {
  const hits = rankSymbolHits(view, { query: q.q, maxResults: RERANK_DEPTH, model: null }).hits;
  const want = new Set(q.answers);
  return _sample(q, hits.map(hitRerankItem), hits.map((h) => want.has(h.symbol.id)));
}

function _contextSample(view: RepoView, q: Question, spanOf: SpanOf): Sample {
  const cands = contextCandidates(view, { query: q.q, tokenBudget: 8000, strategy: "combined" })
    .slice(0, RERANK_DEPTH);
  return _sample(
    q,
    cands.map(candidateRerankItem),
    cands.map((c) => q.answers.some((a) => covers(c.symbol.id, a, spanOf))),
  );
}

/**
 * Features a model leaves out: the context's, `lines` (a long symbol costs budget; favouring it
 * lowered recall within the budget when each corpus was left out in turn).
 */
const EXCLUDED: Record<"search" | "context", (typeof RERANK_FEATURES)[number][]> = {
  search: [],
  context: ["lines"],
};

type Measure = { recall: number; p5: number; mrr: number };

function _measure(
  data: CorpusData,
  system: "search" | "context",
  model: RerankModel | null,
): Record<QuestionKind, Measure> {
  const acc: Record<QuestionKind, { r: number; p: number; rr: number; n: number }> = {
    lookup: { r: 0, p: 0, rr: 0, n: 0 },
    task: { r: 0, p: 0, rr: 0, n: 0 },
  };
  for (const q of data.questions) {
    let ranked: string[];
    if (system === "search") {
      ranked = rankSymbolHits(data.view, { query: q.q, maxResults: 10, model }).hits.map((h) =>
        h.symbol.id
      );
    } else {
      ranked = rankedContext(data.view, {
        query: q.q,
        tokenBudget: 8000,
        strategy: "combined",
        model,
      }).items.map((i) => (i.cut ? `${CUT}${i.symbol_id}` : i.symbol_id));
    }
    const s = scoreRanking(ranked, q.answers, system === "context", data.spanOf);
    const a = acc[kindOf(q)];
    a.r += s.recall10;
    a.p += s.p5;
    a.rr += s.rr;
    a.n++;
  }
  const out = {} as Record<QuestionKind, Measure>;
  for (const k of ["lookup", "task"] as const) {
    const a = acc[k];
    const n = Math.max(1, a.n);
    out[k] = { recall: a.r / n, p5: a.p / n, mrr: a.rr / n };
  }
  return out;
}

function _fmt(m: RerankModel): string {
  return `{\n  weights: [${m.weights.join(", ")}],\n  intercept: ${m.intercept},\n}`;
}

/** Run the fit and the check. */
export async function main(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  // Only our own question sets by default: the independent ones stay held out (never fitted on).
  const only = flags.get("corpora")?.split(",") ?? [...OUR_SETS];
  const { store, runner } = benchRunner(flags.get("index"));
  const views = new RepoViews(store);
  const data: CorpusData[] = [];
  try {
    for (const set of loadQuestionSets(only)) {
      const repo = await indexCorpus(runner, set.corpus);
      if (repo === null) continue;
      const view = views.open(repo);
      const spanOf = spanLookup(store, repo);
      const search: Sample[] = [];
      const context: Sample[] = [];
      // The models re-order descriptions only.
      for (const q of set.questions.filter((q) => isProseQuery(q.q))) {
        search.push(_searchSample(view, q));
        context.push(_contextSample(view, q, spanOf));
      }
      data.push({ corpus: set.corpus, view, spanOf, questions: set.questions, search, context });
      console.error(`train: ${set.corpus}: ${search.length} descriptions`);
    }
    if (data.length < 2) throw new Error("train: needs at least two corpora (prepare_corpora.sh)");
    const rows: unknown[][] = [];
    for (const system of ["search", "context"] as const) {
      for (const held of data) {
        const train = data.filter((d) => d !== held).flatMap((d) => d[system]);
        const model = fitLogistic(train, EXCLUDED[system]);
        const before = _measure(held, system, null);
        const after = _measure(held, system, model);
        for (const k of ["lookup", "task"] as const) {
          rows.push([
            system === "search" ? "search_symbols" : "get_ranked_context",
            held.corpus,
            k,
            `${before[k].recall.toFixed(2)} → ${after[k].recall.toFixed(2)}`,
            `${before[k].p5.toFixed(2)} → ${after[k].p5.toFixed(2)}`,
            `${before[k].mrr.toFixed(2)} → ${after[k].mrr.toFixed(2)}`,
          ]);
        }
      }
    }
    console.log("Left-out corpus, hand-made order → re-ordered by a model fitted on the others:");
    console.log(markdownTable(["system", "left out", "kind", "recall", "P@5", "MRR"], rows));
    console.log(
      `\nFitted on ${data.map((d) => d.corpus).join(", ")} (paste into learned_rank.ts):`,
    );
    const search = fitLogistic(data.flatMap((d) => d.search), EXCLUDED.search);
    const context = fitLogistic(data.flatMap((d) => d.context), EXCLUDED.context);
    console.log(`SEARCH_MODEL: RerankModel = ${_fmt(search)};`);
    console.log(`CONTEXT_MODEL: RerankModel = ${_fmt(context)};`);
  } finally {
    await runner.close();
    store.close();
  }
}

if (import.meta.main) await main(Deno.args);
