/**
 * `deno task bench fit-context [--grid context|owner] [--index DIR] [--corpora a,b] [--json FILE]`:
 * fit the constants of the ranking (`ContextTuning` in `src/query/ranked_context.ts`: the relevance
 * floor, the graph entry's share and seeds, the owner groups' share) on the tuning corpora only,
 * and report the held-out corpora under the variant chosen. `--grid context` (the default) tries
 * the packing and graph-entry grid ({@linkcode GRID}), `--grid owner` the owner groups' share
 * ({@linkcode OWNER_GRID}, `owner_groups.ts`, which both tools' rankings use); `kind`, `depth`
 * `bm25` (BM25's k1 and b) and `abbreviations` the grids of their names.
 *
 * Every variant of a small grid answers every question of the tuning corpora
 * (`OUR_SETS`: ours, written and tuned on by us). For each tuning corpus, the variant that scores
 * best on the other tuning corpora (the mean over them of {@linkcode objective}) gives its
 * leave-one-out figure; the variant best on all tuning corpora is the one to ship. The independent
 * (held-out) corpora are ranked only under that variant and under the shipped constants, so no
 * choice is ever made by looking at them. The full-source share (`FULL_SHARE`) is not fitted: it is
 * a choice of what an agent reads, and any share below 1 raises recall (context_pack.ts says why).
 *
 * The objective weighs both kinds of question and both tools: the mean of `get_ranked_context`'s
 * task recall, task P@5, lookup recall and lookup MRR and of `search_symbols`' (first 10) same four,
 * so a variant that finds more for tasks by pushing a lookup's answer down loses, and so does one
 * that helps one tool at the other's expense.
 */
import { RepoViews } from "../src/query/view.ts";
import type { RepoView } from "../src/query/view.ts";
import { type ContextTuning, rankedContext } from "../src/query/ranked_context.ts";
import { rankSymbolHits, rankTuningOf } from "../src/query/symbol_rank.ts";
import {
  benchRunner,
  CUT,
  indexCorpus,
  kindOf,
  loadQuestionSets,
  OUR_SETS,
  type QuestionSet,
  scoreRanking,
  spanLookup,
  type SpanOf,
} from "./bench_retrieval.ts";
import { markdownTable, parseFlags, writeJson } from "./bench_util.ts";

/** The variants of `--grid context`: each a name and the constants it sets. */
export const CONTEXT_GRID: { name: string; tuning: Partial<ContextTuning> }[] = [0.02, 0.05, 0.1]
  .flatMap((relevanceFloor) => [
    { name: `floor ${relevanceFloor}, no graph entry`, tuning: { relevanceFloor, spreadShare: 0 } },
    ...[0.15, 0.3, 0.5].flatMap((spreadShare) =>
      [10, 20].map((spreadSeeds) => ({
        name: `floor ${relevanceFloor}, spread ${spreadShare} from ${spreadSeeds}`,
        tuning: { relevanceFloor, spreadShare, spreadSeeds },
      }))
    ),
  ]);

/** The prior of data kinds in a description (`DATA_KIND_WEIGHT`, `symbol_rank.ts`; 1 is none). */
export const KIND_GRID: { name: string; tuning: Partial<ContextTuning> }[] = [1, 0.5, 0.3, 0.2, 0.1]
  .map((dataKindWeight) => ({
    name: `data kinds × ${dataKindWeight}`,
    tuning: { dataKindWeight },
  }));

/** How deep the text ranking is read (`TEXT_CANDIDATES`, `WIDE_CANDIDATES`, `FOCUS_FILE_SHARE`). */
export const DEPTH_GRID: { name: string; tuning: Partial<ContextTuning> }[] = [40, 80].flatMap((
  textCandidates,
) =>
  [200, 400].flatMap((wideCandidates) =>
    [0.15, 0.3].map((focusFileShare) => ({
      name: `text ${textCandidates}, wide ${wideCandidates}, focus file ${focusFileShare}`,
      tuning: { textCandidates, wideCandidates, focusFileShare },
    }))
  )
);

/**
 * BM25's constants (`K1`, `B` of `bm25.ts`: 1.2 and 0.75, FTS5's) for both tools: a symbol's
 * length varies far more than a prose document's (a name alone, or a name with a long docstring),
 * so how much length is normalised away is a question for the data.
 */
export const BM25_GRID: { name: string; tuning: Partial<ContextTuning> }[] = [0.6, 1.2, 2]
  .flatMap((k1) =>
    [0.25, 0.5, 0.75, 0.9].map((b) => ({ name: `bm25 k1 ${k1}, b ${b}`, tuning: { k1, b } }))
  );

/** The abbreviations' weight (`ABBREVIATION_WEIGHT`, `symbol_rank.ts`; 0 is none), both tools. */
export const ABBREVIATION_GRID: { name: string; tuning: Partial<ContextTuning> }[] = [
  0,
  0.25,
  0.5,
  1,
].map((abbreviations) => ({ name: `abbreviations × ${abbreviations}`, tuning: { abbreviations } }));

/** The owner groups' share (`OWNER_SHARE`, `owner_groups.ts`; 0 is no owner groups). */
export const OWNER_GRID: { name: string; tuning: Partial<ContextTuning> }[] = [
  0,
  0.25,
  0.5,
  0.75,
  1,
].map((ownerShare) => ({ name: `owner share ${ownerShare}`, tuning: { ownerShare } }));

/** The figures of one corpus under one variant. */
export interface Figures {
  task_recall: number;
  /** Recall counting only the items given as source (not as a signature or outline). */
  task_recall_source: number;
  task_p5: number;
  task_mrr: number;
  lookup_recall: number;
  lookup_mrr: number;
  /** `search_symbols` (first 10): the same figures. */
  search_task_recall: number;
  search_task_p5: number;
  search_lookup_recall: number;
  search_lookup_mrr: number;
}

/** What a variant is chosen by (see the module doc). */
export function objective(f: Figures): number {
  return (f.task_recall + f.task_p5 + f.lookup_recall + f.lookup_mrr + f.search_task_recall +
    f.search_task_p5 + f.search_lookup_recall + f.search_lookup_mrr) / 8;
}

/** The figures of one question set under one variant (every question, in process). */
export function corpusFigures(
  view: RepoView,
  set: QuestionSet,
  spanOf: SpanOf,
  tuning: Partial<ContextTuning>,
) {
  const acc = {
    task: { r: 0, rs: 0, p: 0, rr: 0, n: 0, sr: 0, sp: 0, srr: 0 },
    lookup: { r: 0, rs: 0, p: 0, rr: 0, n: 0, sr: 0, sp: 0, srr: 0 },
  };
  for (const q of set.questions) {
    const ranked = rankedContext(view, {
      query: q.q,
      tokenBudget: 8000,
      strategy: "combined",
      tuning,
    }).items.map((i) => (i.cut ? `${CUT}${i.symbol_id}` : i.symbol_id));
    const s = scoreRanking(ranked, q.answers, true, spanOf);
    const source = scoreRanking(
      ranked.filter((id) => !id.startsWith(CUT)),
      q.answers,
      true,
      spanOf,
    );
    // search_symbols as the tool ranks for max_results 10 (bench_retrieval.ts' system).
    const hits = rankSymbolHits(view, {
      query: q.q,
      maxResults: 10,
      tuning: rankTuningOf(tuning),
    }).hits.map((h) => h.symbol.id);
    const ss = scoreRanking(hits, q.answers, false);
    const a = acc[kindOf(q)];
    a.sr += ss.recall10;
    a.sp += ss.p5;
    a.srr += ss.rr;
    a.r += s.recall10;
    a.rs += source.recall10;
    a.p += s.p5;
    a.rr += s.rr;
    a.n++;
  }
  const n = (k: "task" | "lookup") => Math.max(1, acc[k].n);
  return {
    task_recall: acc.task.r / n("task"),
    task_recall_source: acc.task.rs / n("task"),
    task_p5: acc.task.p / n("task"),
    task_mrr: acc.task.rr / n("task"),
    lookup_recall: acc.lookup.r / n("lookup"),
    lookup_mrr: acc.lookup.rr / n("lookup"),
    search_task_recall: acc.task.sr / n("task"),
    search_task_p5: acc.task.sp / n("task"),
    search_lookup_recall: acc.lookup.sr / n("lookup"),
    search_lookup_mrr: acc.lookup.srr / n("lookup"),
  };
}

function _mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
}

/** Run the grid on the tuning corpora, the leave-one-corpus-out choice, then the held-out corpora. */
export async function main(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  const only = flags.get("corpora")?.split(",");
  const gridName = flags.get("grid") ?? "context";
  const grids: Record<string, typeof CONTEXT_GRID> = {
    context: CONTEXT_GRID,
    owner: OWNER_GRID,
    kind: KIND_GRID,
    depth: DEPTH_GRID,
    bm25: BM25_GRID,
    abbreviations: ABBREVIATION_GRID,
  };
  const GRID = grids[gridName];
  if (GRID === undefined) {
    throw new Error(
      `fit-context: --grid is one of ${Object.keys(grids).join(", ")}, not ${gridName}`,
    );
  }
  const { store, runner } = benchRunner(flags.get("index"));
  const views = new RepoViews(store);
  const sets = loadQuestionSets(only);
  // figures[variant][tuning corpus]
  const figures: Record<string, Figures>[] = GRID.map(() => ({}));
  const tuning: string[] = [];
  const heldOut: { corpus: string; chosen: Figures; shipped: Figures }[] = [];
  try {
    const opened = new Map<string, { view: RepoView; spanOf: SpanOf }>();
    for (const set of sets) {
      const repo = await indexCorpus(runner, set.corpus);
      if (repo === null) continue;
      opened.set(set.corpus, { view: views.open(repo), spanOf: spanLookup(store, repo) });
    }
    for (const set of sets.filter((s) => OUR_SETS.has(s.corpus) && opened.has(s.corpus))) {
      const { view, spanOf } = opened.get(set.corpus)!;
      tuning.push(set.corpus);
      for (const [v, variant] of GRID.entries()) {
        figures[v]![set.corpus] = corpusFigures(view, set, spanOf, variant.tuning);
      }
      console.error(`fit: ${set.corpus}: ${GRID.length} variants`);
    }
    if (tuning.length < 2) throw new Error("fit-context: needs at least two tuning corpora");
    const chosen = _best(GRID, figures, tuning);
    for (const set of sets.filter((s) => !OUR_SETS.has(s.corpus) && opened.has(s.corpus))) {
      const { view, spanOf } = opened.get(set.corpus)!;
      heldOut.push({
        corpus: set.corpus,
        chosen: corpusFigures(view, set, spanOf, GRID[chosen]!.tuning),
        shipped: corpusFigures(view, set, spanOf, {}),
      });
    }
    _report(GRID, figures, tuning, chosen, heldOut);
    await writeJson(flags, {
      grid: GRID,
      tuning,
      figures,
      chosen: GRID[chosen]!.name,
      held_out: heldOut,
    });
  } finally {
    await runner.close();
    store.close();
  }
}

/** The variant with the best mean objective over `among`. */
function _best(
  grid: readonly unknown[],
  figures: readonly Record<string, Figures>[],
  among: readonly string[],
): number {
  const score = (v: number) => _mean(among.map((c) => objective(figures[v]![c]!)));
  return grid.reduce<number>((b, _, v) => (score(v) > score(b) ? v : b), 0);
}

const _COLUMNS = [
  "task recall",
  "from source",
  "task P@5",
  "lookup recall",
  "lookup MRR",
  "search task r@10",
  "search task P@5",
  "search lookup r@10",
  "search lookup MRR",
];

function _row(f: Figures): number[] {
  return [
    f.task_recall,
    f.task_recall_source,
    f.task_p5,
    f.lookup_recall,
    f.lookup_mrr,
    f.search_task_recall,
    f.search_task_p5,
    f.search_lookup_recall,
    f.search_lookup_mrr,
  ];
}

function _report(
  GRID: readonly { name: string }[],
  figures: readonly Record<string, Figures>[],
  tuning: readonly string[],
  chosen: number,
  heldOut: readonly { corpus: string; chosen: Figures; shipped: Figures }[],
): void {
  console.log("Tuning corpora under every variant:");
  console.log(markdownTable(
    ["corpus", "variant", ..._COLUMNS],
    tuning.flatMap((c) => GRID.map((g, v) => [c, g.name, ..._row(figures[v]![c]!)])),
  ));
  console.log("\nTuning corpora, each under the variant chosen on the other tuning corpora:");
  console.log(markdownTable(
    ["corpus", "variant", ..._COLUMNS],
    tuning.map((c) => {
      const v = _best(GRID, figures, tuning.filter((x) => x !== c));
      return [c, GRID[v]!.name, ..._row(figures[v]![c]!)];
    }),
  ));
  console.log("\nEvery variant, mean objective over the tuning corpora (and per corpus):");
  console.log(markdownTable(
    ["variant", "all", ...tuning],
    GRID.map((g, v) => [
      g.name,
      _mean(tuning.map((c) => objective(figures[v]![c]!))).toFixed(3),
      ...tuning.map((c) => objective(figures[v]![c]!).toFixed(3)),
    ]),
  ));
  console.log(`\nChosen on all tuning corpora (ship): ${GRID[chosen]!.name}`);
  console.log("\nHeld-out corpora (never used to choose), shipped constants → chosen variant:");
  console.log(markdownTable(
    ["corpus", ..._COLUMNS],
    heldOut.map((h) => [
      h.corpus,
      ..._row(h.shipped).map((x, i) => `${x.toFixed(2)} → ${_row(h.chosen)[i]!.toFixed(2)}`),
    ]),
  ));
}

if (import.meta.main) await main(Deno.args);
