/**
 * `deno task bench retrieval [--corpora a,b] [--index DIR] [--systems a,b] [--json FILE] [--show]`:
 * how well our tools answer natural-language questions about real code.
 * `--embeddings [MODEL_DIR]` adds `search_symbols semantic` (search_symbols with semantic=true),
 * after an `embed_repo` of each corpus whose time is printed: with a local ONNX model folder, or
 * without one the provider the environment configures (the server's variables, docs/api.md
 * "Semantic search"); without any it stops saying what to set. The other systems' figures are
 * the same with or without it.
 * `deno task bench retrieval --check-labels [--corpora a,b]` only indexes the corpora and resolves
 * every label against the index (an exact id: lookup by a looser name does not count); it ranks
 * nothing, so labels can be checked while questions are written, and exits 1 on an unknown label.
 *
 * Question sets live in `scripts/retrieval/<corpus>.json`, one per corpus (see corpora/ and
 * prepare_corpora.sh). Each question was written from the corpus' own documentation (README,
 * package docs, docstrings; named in its `doc`) as a user would ask it, and labelled with the ids
 * of the symbols that answer it — before our results were looked at. Ranking is never tuned to a
 * single question. Each question has a `kind`:
 * - `lookup` (missing means lookup): find one API ("read a query string parameter with a default
 *   value"); 1–3 labels, so even a perfect ranking scores a low plain P@5;
 * - `task`: what an agent must read before an edit ("add a route with path parameters to the
 *   router tree"); labelled completely from the source with every symbol a competent engineer
 *   would read for it (typically 3–9).
 *
 * For each system (a tool called the way an agent would call it), each question gives a ranked list
 * of symbol ids, scored against its labels:
 * - recall@10: labelled ids in the first 10 / labelled ids (mean over questions);
 * - P@5: labelled ids in the first 5 / 5 (mean; the standard definition, so a question with one
 *   answer scores at most 0.2);
 * - max P@5: the highest plain P@5 the set allows, mean of min(5, labels) / 5 (what a ranking
 *   that returns each labelled symbol once would score);
 * - P@5 (capped): labelled ids in the first 5 / min(5, labelled ids), which does not punish
 *   questions with fewer than five answers;
 * - MRR: 1 / rank of the first labelled id (0 when none in the first 10).
 * Every figure is reported per corpus and per question kind: `lookup`, `task` and `all` (both).
 *
 * Targets are on plain P@5 (the standard definition), recall@10, for each corpus:
 * - issue 11, `search_symbols`: recall@10 ≥ 0.6 and P@5 ≥ 0.35. On the lookup questions max P@5 is
 *   about 0.3, so only the task questions (and `all`) can show whether P@5 meets it;
 * - issue 13, `get_ranked_context` (8,000-token budget): recall ≥ 0.7 of the labelled symbols within
 *   the budget, P@5 ≥ 0.4, and better than `search_symbols` on the same questions.
 * The capped P@5 is kept as a diagnostic, not as a target.
 *
 * More systems are added to {@linkcode SYSTEMS}: a name and a function from a question to ranked
 * symbol ids. `get_ranked_context` is scored on its whole context: its "recall@10" column is recall
 * within the budget (a class packed whole covers its methods; one cut to its signature and
 * docstring does not), P@5 its first five items.
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Store } from "../src/store/mod.ts";
import { ToolRunner } from "../src/server/runner.ts";
import { DEFAULT_SETTINGS } from "../src/server/config.ts";
import { markdownTable, parseFlags, writeJson } from "./bench_util.ts";
import {
  type EmbeddingSettings,
  embeddingSettingsFromEnv,
  localModel,
  NO_PROVIDER_MESSAGE,
} from "../src/embed/config.ts";

const CHECKOUT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const QUESTIONS_DIR = join(CHECKOUT, "scripts/retrieval");

/** One labelled question. */
export interface Question {
  /** The question as a user would ask it. */
  q: string;
  /** Ids of the symbols that answer it. */
  answers: string[];
  /** Where in the corpus' documentation the question comes from. */
  doc?: string;
  /** `lookup` (one API; the default) or `task` (what to read before an edit; several symbols). */
  kind?: QuestionKind;
}

/** The kinds of question a set holds. */
export type QuestionKind = "lookup" | "task";

/** The groups every figure is reported for: each kind, and all questions of a set. */
export const KIND_GROUPS = ["lookup", "task", "all"] as const;

/** A question file. */
export interface QuestionSet {
  corpus: string;
  language: string;
  /** The documentation the questions were written from. */
  sources: string[];
  questions: Question[];
}

/** A retrieval system: ranked symbol ids for a question. */
export interface RetrievalSystem {
  name: string;
  rank(runner: ToolRunner, repo: string, question: string): Promise<string[]>;
  /**
   * Recall is counted over every id returned (a context tool's whole budget) instead of the
   * first 10, and an id also covers the symbols inside it (a class's source holds its methods).
   */
  wholeContext?: boolean;
}

/** The systems measured; add later tools (e.g. get_ranked_context) here. */
export const SYSTEMS: RetrievalSystem[] = [{
  name: "search_symbols",
  async rank(runner, repo, question) {
    const r = await runner.call("search_symbols", {
      repo,
      query: question,
      max_results: 10,
      format: "json",
    });
    if (r.isError) throw new Error(r.text);
    return (JSON.parse(r.text) as { results: { id: string }[] }).results.map((x) => x.id);
  },
}, {
  name: "get_ranked_context",
  wholeContext: true,
  async rank(runner, repo, question) {
    const r = await runner.call("get_ranked_context", {
      repo,
      query: question,
      token_budget: 8000,
      format: "json",
    });
    if (r.isError) throw new Error(r.text);
    const body = JSON.parse(r.text) as {
      context_items: { symbol_id: string; tokens: number; cut: boolean }[];
      total_tokens: number;
      budget_tokens: number;
    };
    const sum = body.context_items.reduce((n, i) => n + i.tokens, 0);
    if (sum > body.budget_tokens || sum !== body.total_tokens) {
      throw new Error(`get_ranked_context went over its budget: ${sum} > ${body.budget_tokens}`);
    }
    // A cut item (signature and docstring only) is itself, but holds none of its members' source.
    return body.context_items.map((i) => i.cut ? `${CUT}${i.symbol_id}` : i.symbol_id);
  },
}];

/** `search_symbols` with semantic=true (`--embeddings`). */
export const SEMANTIC_SYSTEM: RetrievalSystem = {
  name: "search_symbols semantic",
  async rank(runner, repo, question) {
    const r = await runner.call("search_symbols", {
      repo,
      query: question,
      max_results: 10,
      semantic: true,
      format: "json",
    });
    if (r.isError) throw new Error(r.text);
    return (JSON.parse(r.text) as { results: { id: string }[] }).results.map((x) => x.id);
  },
};

/** The embedding settings of `--embeddings [MODEL_DIR]` (a model folder, or the environment's). */
export function benchEmbeddings(value: string, indexDir: string): EmbeddingSettings {
  const fromEnv = embeddingSettingsFromEnv((n) => Deno.env.get(n), indexDir);
  const settings = value === "true"
    ? fromEnv
    : { ...fromEnv, provider: localModel(resolve(value), fromEnv.modelsDir) };
  if (settings.provider === null) throw new Error(`--embeddings: ${NO_PROVIDER_MESSAGE}`);
  return settings;
}

/** Embed a corpus for the semantic system; prints what it cost. */
async function _embedCorpus(runner: ToolRunner, repo: string, corpus: string): Promise<void> {
  const started = performance.now();
  const r = await runner.call("embed_repo", { repo, format: "json" });
  if (r.isError) throw new Error(`embed_repo ${corpus}: ${r.text}`);
  const b = JSON.parse(r.text) as Record<string, unknown>;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.error(
    `bench: embed_repo ${corpus} (${b.provider} ${b.model}, ${b.embedding_dimension} dims): ${b.symbols_embedded} embedded, ${b.symbols_cached} cached of ${b.symbols_total} symbols in ${seconds} s`,
  );
}

/** The prefix of a context item given as its signature and docstring only (`cut`). */
export const CUT = "cut:";

/** Where a symbol's source is: its file and line span (undefined for an unknown id). */
export type SpanOf = (id: string) => { file: string; line: number; end_line: number } | undefined;

/**
 * Whether symbol `outer`'s source holds symbol `inner`: with `spanOf`, the same file and a line
 * span inside outer's (a Go method declared apart from its type is not inside the type); without
 * it, the same file and a qualified-name prefix. An `outer` marked {@linkcode CUT} holds only
 * itself.
 */
export function covers(outer: string, inner: string, spanOf?: SpanOf): boolean {
  if (outer === inner) return true;
  if (outer.startsWith(CUT)) return outer.slice(CUT.length) === inner;
  if (spanOf !== undefined) {
    const o = spanOf(outer);
    const i = spanOf(inner);
    return o !== undefined && i !== undefined && o.file === i.file && o.line <= i.line &&
      i.end_line <= o.end_line;
  }
  const o = /^(.*)::(.*?)(?:#\w+)?(?:~\d+)?$/.exec(outer);
  const i = /^(.*)::(.*?)(?:#\w+)?(?:~\d+)?$/.exec(inner);
  return o !== null && i !== null && o[1] === i[1] && i[2]!.startsWith(o[2]! + ".");
}

/**
 * Scores of one ranked list against its labels.
 *
 * @example A whole context: a class packed whole covers its methods, one cut does not
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { CUT, scoreRanking } from "./bench_retrieval.ts";
 * const answers = ["a.py::C.run#method", "a.py::C.stop#method"];
 * equal(scoreRanking(["a.py::C#class"], answers, true).recall10, 1);
 * equal(scoreRanking([`${CUT}a.py::C#class`], answers, true).recall10, 0);
 * equal(scoreRanking([`${CUT}a.py::C.run#method`], answers, true).recall10, 0.5);
 * ```
 */
export function scoreRanking(
  ranked: readonly string[],
  answers: readonly string[],
  wholeContext = false,
  spanOf?: SpanOf,
): { recall10: number; p5: number; p5capped: number; rr: number } {
  const want = new Set(answers);
  if (wholeContext) {
    const holds = (id: string, a: string) => covers(id, a, spanOf);
    const found = answers.filter((a) => ranked.some((id) => holds(id, a))).length;
    const top5 = ranked.slice(0, 5).filter((id) => answers.some((a) => holds(id, a))).length;
    const first = ranked.findIndex((id) => answers.some((a) => holds(id, a)));
    return {
      recall10: found / want.size,
      p5: top5 / 5,
      p5capped: top5 / Math.min(5, want.size),
      rr: first === -1 ? 0 : 1 / (first + 1),
    };
  }
  const top10 = ranked.slice(0, 10).filter((id) => want.has(id)).length;
  const top5 = ranked.slice(0, 5).filter((id) => want.has(id)).length;
  const first = ranked.slice(0, 10).findIndex((id) => want.has(id));
  return {
    recall10: top10 / want.size,
    p5: top5 / 5,
    p5capped: top5 / Math.min(5, want.size),
    rr: first === -1 ? 0 : 1 / (first + 1),
  };
}

function _mean(xs: readonly number[]): number {
  return xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** One question's scores, with what the summary needs to know about the question. */
export interface QuestionScore {
  kind: QuestionKind;
  labels: number;
  recall10: number;
  /** A whole context's recall counting only the items given as source (none cut to a signature). */
  recallSource: number;
  p5: number;
  p5capped: number;
  rr: number;
}

/** The figures of one group of questions (one kind, or all of a set). */
export interface GroupSummary {
  questions: number;
  mean_labels: number;
  recall_at_10: number;
  /** A whole context's recall from the items given as source alone (= recall_at_10 otherwise). */
  recall_source: number;
  p_at_5: number;
  /** The highest plain P@5 these questions allow: mean of min(5, labels) / 5. */
  max_p_at_5: number;
  p_at_5_capped: number;
  mrr: number;
}

/**
 * Targets of issue 33 on the architecture (`task`) questions of every corpus, by system; for
 * `get_ranked_context` also never below `search_symbols` on recall and P@5.
 */
export const TARGETS: Record<string, { recall: number; p5: number }> = {
  search_symbols: { recall: 0.65, p5: 0 },
  get_ranked_context: { recall: 0.75, p5: 0.45 },
};

/**
 * The question sets we wrote ourselves and tuned the ranking on (rounds 4–8): reported apart. Every
 * other set was written by someone who never saw our ranking or its output, and no constant of the
 * ranking was set on it: its figures are held out.
 */
export const OUR_SETS: ReadonlySet<string> = new Set(["django", "express", "gin", "gostd"]);

/** One row of the target check: a system on one group of a corpus' questions. */
export interface TargetCheck {
  corpus: string;
  system: string;
  kind: (typeof KIND_GROUPS)[number];
  recall_met: boolean;
  p5_met: boolean;
  /** get_ranked_context only: at least search_symbols' recall and P@5 on the same group. */
  not_below_search_symbols?: boolean;
}

/** Check every system with a target on every group of every corpus. */
export function checkTargets(
  results: readonly { corpus: string; system: string; by_kind: Record<string, GroupSummary> }[],
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const r of results) {
    const target = TARGETS[r.system];
    if (target === undefined) continue;
    const baseline = results.find((b) => b.corpus === r.corpus && b.system === "search_symbols");
    for (const kind of ["task"] as const) {
      const k = r.by_kind[kind];
      if (k === undefined || k.questions === 0) continue;
      const check: TargetCheck = {
        corpus: r.corpus,
        system: r.system,
        kind,
        recall_met: k.recall_at_10 >= target.recall,
        p5_met: k.p_at_5 >= target.p5,
      };
      const b = baseline?.by_kind[kind];
      if (r.system === "get_ranked_context" && b !== undefined) {
        check.not_below_search_symbols = k.recall_at_10 >= b.recall_at_10 && k.p_at_5 >= b.p_at_5;
      }
      checks.push(check);
    }
  }
  return checks;
}

/**
 * The kind of a question: a lookup (also when it has no kind), or an architecture question
 * (`task`, and any other kind a set names, such as `architecture`).
 */
export function kindOf(q: Question): QuestionKind {
  return q.kind === undefined || q.kind === "lookup" ? "lookup" : "task";
}

/** The macro average (mean over corpora) of one group's figures. */
export interface MacroRow {
  sets: "ours" | "independent";
  system: string;
  kind: (typeof KIND_GROUPS)[number];
  corpora: number;
  recall_at_10: number;
  recall_source: number;
  p_at_5: number;
  mrr: number;
}

/** Macro averages over our sets and over the independent ones, per system and kind. */
export function macroAverages(
  results: readonly { corpus: string; system: string; by_kind: Record<string, GroupSummary> }[],
): MacroRow[] {
  const out: MacroRow[] = [];
  for (const sets of ["independent", "ours"] as const) {
    for (const system of [...new Set(results.map((r) => r.system))]) {
      for (const kind of KIND_GROUPS) {
        const xs = results.filter((r) =>
          r.system === system && OUR_SETS.has(r.corpus) === (sets === "ours") &&
          (r.by_kind[kind]?.questions ?? 0) > 0
        ).map((r) => r.by_kind[kind]!);
        if (xs.length === 0) continue;
        out.push({
          sets,
          system,
          kind,
          corpora: xs.length,
          recall_at_10: _mean(xs.map((x) => x.recall_at_10)),
          recall_source: _mean(xs.map((x) => x.recall_source)),
          p_at_5: _mean(xs.map((x) => x.p_at_5)),
          mrr: _mean(xs.map((x) => x.mrr)),
        });
      }
    }
  }
  return out;
}

/** Mean figures of the questions of one group (`all` takes every question). */
export function summarize(
  scores: readonly QuestionScore[],
  group: (typeof KIND_GROUPS)[number],
): GroupSummary {
  const xs = group === "all" ? scores : scores.filter((s) => s.kind === group);
  return {
    questions: xs.length,
    mean_labels: _mean(xs.map((s) => s.labels)),
    recall_at_10: _mean(xs.map((s) => s.recall10)),
    recall_source: _mean(xs.map((s) => s.recallSource)),
    p_at_5: _mean(xs.map((s) => s.p5)),
    max_p_at_5: _mean(xs.map((s) => Math.min(5, s.labels) / 5)),
    p_at_5_capped: _mean(xs.map((s) => s.p5capped)),
    mrr: _mean(xs.map((s) => s.rr)),
  };
}

/** Load the question sets (all, or the named corpora). */
export function loadQuestionSets(only?: readonly string[]): QuestionSet[] {
  const sets: QuestionSet[] = [];
  for (const e of [...Deno.readDirSync(QUESTIONS_DIR)].sort((a, b) => a.name < b.name ? -1 : 1)) {
    if (!e.name.endsWith(".json")) continue;
    const set = JSON.parse(Deno.readTextFileSync(join(QUESTIONS_DIR, e.name))) as QuestionSet;
    if (only === undefined || only.includes(set.corpus)) sets.push(set);
  }
  return sets;
}

/**
 * Index `corpora/<corpus>` (incrementally: an index that is current is kept) and return its repo,
 * or null, after saying so on stderr, when the corpus is missing.
 */
export async function indexCorpus(runner: ToolRunner, corpus: string): Promise<string | null> {
  const folder = join(CHECKOUT, "corpora", corpus);
  try {
    Deno.statSync(folder);
  } catch {
    console.error(`bench: corpora/${corpus} is missing (scripts/prepare_corpora.sh)`);
    return null;
  }
  const indexed = await runner.call("index_folder", { path: folder, format: "json" });
  if (indexed.isError) throw new Error(indexed.text);
  return (JSON.parse(indexed.text) as { repo: string }).repo;
}

/** The line spans of a repo's symbols, read from its index (memoised per id). */
export function spanLookup(store: Store, repo: string): SpanOf {
  const index = store.repo(repo);
  const memo = new Map<string, ReturnType<SpanOf>>();
  return (id) => {
    if (!memo.has(id)) {
      const s = index.symbol(id.startsWith(CUT) ? id.slice(CUT.length) : id);
      memo.set(
        id,
        s === undefined ? undefined : { file: s.file, line: s.line, end_line: s.end_line },
      );
    }
    return memo.get(id);
  };
}

/** The store and an in-process tool runner over the bench's index (`--index`, or its default). */
export function benchRunner(
  index: string | undefined,
  embeddings?: string,
): { indexDir: string; store: Store; runner: ToolRunner } {
  const indexDir = resolve(index ?? join(CHECKOUT, "bench-out/retrieval-index"));
  const store = new Store(indexDir);
  const runner = new ToolRunner({
    store,
    settings: { ...DEFAULT_SETTINGS, defaultFormat: "json" },
    log: () => {},
    ...(embeddings === undefined ? {} : { embeddings: benchEmbeddings(embeddings, indexDir) }),
  });
  return { indexDir, store, runner };
}

/** Run the benchmark. */
export async function main(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  const only = flags.get("corpora")?.split(",");
  const semantic = flags.get("embeddings");
  const all = semantic === undefined ? SYSTEMS : [...SYSTEMS, SEMANTIC_SYSTEM];
  const systems = flags.has("systems")
    ? all.filter((s) => flags.get("systems")!.split(",").includes(s.name))
    : all;
  const show = flags.has("show");
  const checkOnly = flags.has("check-labels");
  let unknownTotal = 0;
  const { indexDir, store, runner } = benchRunner(flags.get("index"), semantic);
  const rows: unknown[][] = [];
  const report: Record<string, unknown>[] = [];
  try {
    for (const set of loadQuestionSets(only)) {
      const repo = await indexCorpus(runner, set.corpus);
      if (repo === null) continue;
      // Labels must name real symbols by their exact id: a typo in a label would read as a miss
      // (the lookup also accepts looser names, so the id it returns must be the label itself).
      const unknown: string[] = [];
      let labels = 0;
      for (const q of set.questions) {
        for (const id of q.answers) {
          labels++;
          const r = await runner.call("get_symbol_source", { repo, symbol_id: id, format: "json" });
          if (r.isError || (JSON.parse(r.text) as { id?: string }).id !== id) unknown.push(id);
        }
      }
      unknownTotal += unknown.length;
      if (unknown.length > 0) {
        console.error(`bench: ${set.corpus}: labels not in the index: ${unknown.join(", ")}`);
      }
      if (checkOnly) {
        console.log(
          `${set.corpus}: ${set.questions.length} questions, ${labels} labels, ${unknown.length} unknown`,
        );
        continue;
      }
      const spanOf = spanLookup(store, repo);
      if (systems.includes(SEMANTIC_SYSTEM)) await _embedCorpus(runner, repo, set.corpus);
      for (const system of systems) {
        const scores: QuestionScore[] = [];
        const perQuestion: Record<string, unknown>[] = [];
        for (const q of set.questions) {
          const ranked = await system.rank(runner, repo, q.q);
          const whole = system.wholeContext ?? false;
          const s = scoreRanking(ranked, q.answers, whole, spanOf);
          const recallSource = whole
            ? scoreRanking(ranked.filter((id) => !id.startsWith(CUT)), q.answers, true, spanOf)
              .recall10
            : s.recall10;
          const kind = kindOf(q);
          scores.push({ kind, labels: new Set(q.answers).size, recallSource, ...s });
          perQuestion.push({ q: q.q, kind, ...s, top5: ranked.slice(0, 5) });
          if (show && s.recall10 < 1) {
            console.log(
              `${set.corpus} ${kind} r@10=${s.recall10.toFixed(2)} ${q.q}\n  want ${
                q.answers.join(" ")
              }\n  got  ${ranked.slice(0, 10).join(" ")}`,
            );
          }
        }
        const byKind = Object.fromEntries(KIND_GROUPS.map((g) => [g, summarize(scores, g)]));
        for (const g of KIND_GROUPS) {
          const k = byKind[g]!;
          if (k.questions === 0) continue;
          rows.push([
            set.corpus,
            set.language,
            system.name,
            g,
            k.questions,
            k.mean_labels,
            k.recall_at_10,
            k.recall_source,
            k.p_at_5,
            k.max_p_at_5,
            k.p_at_5_capped,
            k.mrr,
          ]);
        }
        // The top-level figures are those of every question of the set, as before.
        report.push({
          corpus: set.corpus,
          language: set.language,
          system: system.name,
          ...byKind.all,
          unknown_labels: unknown.length,
          by_kind: byKind,
          per_question: perQuestion,
        });
      }
    }
  } finally {
    await runner.close();
  }
  if (checkOnly) {
    if (unknownTotal > 0) Deno.exit(1);
    return;
  }
  console.log(
    markdownTable(
      [
        "corpus",
        "language",
        "system",
        "kind",
        "questions",
        "labels/q",
        "recall@10",
        "recall (source)",
        "P@5",
        "max P@5",
        "P@5 capped",
        "MRR",
      ],
      rows,
    ),
  );
  const targets = checkTargets(
    report as unknown as {
      corpus: string;
      system: string;
      by_kind: Record<string, GroupSummary>;
    }[],
  );
  const typed = report as unknown as {
    corpus: string;
    system: string;
    by_kind: Record<string, GroupSummary>;
  }[];
  const macro = macroAverages(typed);
  console.log(
    "\nMacro averages (mean over corpora). Independent sets: written by someone who never saw our " +
      "ranking; no ranking constant was set on them (held out). Ours: written and tuned on by us.\n" +
      markdownTable(
        ["sets", "system", "kind", "corpora", "recall@10", "recall (source)", "P@5", "MRR"],
        macro.map((m) => [
          m.sets,
          m.system,
          m.kind,
          m.corpora,
          m.recall_at_10,
          m.recall_source,
          m.p_at_5,
          m.mrr,
        ]),
      ),
  );
  const yes = (b: boolean | undefined) => b === undefined ? "-" : b ? "yes" : "no";
  console.log(
    "\nTargets (issue 33, architecture questions, per corpus): search_symbols recall@10 ≥ 0.65; " +
      "get_ranked_context recall ≥ 0.75, P@5 ≥ 0.45 and not below search_symbols on either.\n" +
      markdownTable(
        ["corpus", "sets", "system", "kind", "recall met", "P@5 met", "≥ search_symbols"],
        targets.map((t) => [
          t.corpus,
          OUR_SETS.has(t.corpus) ? "ours" : "independent",
          t.system,
          t.kind,
          yes(t.recall_met),
          yes(t.p5_met),
          yes(t.not_below_search_symbols),
        ]),
      ),
  );
  await writeJson(flags, { index: indexDir, results: report, macro, targets });
}

if (import.meta.main) await main(Deno.args);
