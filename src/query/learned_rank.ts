/**
 * A learned re-ranking of the best matches of a description (a query of three words of prose or
 * more, `isProseQuery`), shared by `search_symbols` and `get_ranked_context`.
 *
 * The hand-made score (BM25 with coverage, identity, priors, centrality, graph-neighbour and
 * file-focus bonuses) finds the right code but often not in the right order: in the retrieval
 * bench's task questions a third of the labelled symbols rank 11–40. A logistic model over six
 * features of each of the {@linkcode RERANK_DEPTH} best matches re-orders them:
 *
 * 1. `score`: its score over the best score;
 * 2. `rank`: ln(1 + its place), 0-based;
 * 3. `linked`: 1 when it is a call-graph neighbour of one of the best matches (it gained the
 *    graph-neighbour bonus or entered as a neighbour);
 * 4. `same_dir`: 1 when its file is in the directory of the best match's file (what a task needs
 *    sits together, in a package more often than in one file);
 * 5. `lines`: ln(1 + its length in lines) (a task is about code with a body, not a one-line
 *    helper or constant that happens to share its words);
 * 6. `name_cover`: the share of its own name's words (`get_signed_cookie` → get, sign, cooki; the
 *    last part of a qualified name) that are words of the query, stemmed like the index.
 *
 * The weights are fitted by `deno task bench train-ranker` (`scripts/train_ranker.ts`: logistic
 * regression, the labelled questions of `scripts/retrieval/` as data) and checked by leaving each
 * corpus out in turn: fitted on the other three, a model re-orders the fourth's questions better
 * than the hand-made score alone (P@5 of task questions up on every corpus; BENCHMARKS.md has the
 * figures). The script prints the constants below; they are fitted, not set by hand. All weights
 * are positive except `rank`'s: every feature says what it seems to.
 *
 * Cost: the exact top {@linkcode RERANK_DEPTH} of a description instead of its top `max_results`,
 * their records, and six features each.
 */
import type { SymbolRecord } from "../parser/types.ts";
import { splitIdentifier } from "../store/fts_text.ts";
import { queryTerm } from "../store/symbol_terms.ts";

/** How many of the best matches are re-ordered (the rest keep their place after them). */
export const RERANK_DEPTH = 50;

/**
 * How many of the first matches keep their place: the hand-made first match stays first. A
 * description that asks for one API (a lookup) usually has it there, by its name or docstring;
 * the model re-orders what follows, where most of a task's answers are. (Re-ordering the first
 * too lowered the mean reciprocal rank of Go standard library lookups from 0.77 to 0.67 with the
 * corpus left out; keeping it, 0.75, and P@5 gains the same.)
 */
export const RERANK_KEEP = 1;

/** The feature names, in the order of a feature row. */
export const RERANK_FEATURES = [
  "score",
  "rank",
  "linked",
  "same_dir",
  "lines",
  "name_cover",
] as const;

/** A fitted model: a weight per feature and an intercept (the logit of relevance). */
export interface RerankModel {
  weights: readonly number[];
  intercept: number;
}

/** One match to re-order. */
export interface RerankItem {
  name: string;
  file: string;
  line: number;
  end_line: number;
  score: number;
  /** A call-graph neighbour of one of the best matches. */
  linked: boolean;
}

/** A symbol with its score, as the model reads it. */
export function rerankItem(
  s: Pick<SymbolRecord, "name" | "file" | "line" | "end_line">,
  score: number,
  linked: boolean,
): RerankItem {
  return { name: s.name, file: s.file, line: s.line, end_line: s.end_line, score, linked };
}

/** `search_symbols`' model (fitted on its own ranking; see the module doc). */
export const SEARCH_MODEL: RerankModel = {
  weights: [2.5842, -0.540332, 1.017255, 1.098464, 0.340227, 1.094976],
  intercept: -2.363213,
};

/**
 * `get_ranked_context`'s model (fitted on its candidates before packing). It leaves out `lines`:
 * a long symbol costs budget, and favouring it lowered recall within the budget.
 */
export const CONTEXT_MODEL: RerankModel = {
  weights: [2.49872, -0.463114, 0.834645, 1.085032, 0, 0.929422],
  intercept: -1.497111,
};

/**
 * The query words a name can cover: every word and identifier part of the query, stemmed like the
 * index (the caller passes the meaningful query, question words left out).
 */
export function nameCoverTerms(query: string): Set<string> {
  const out = new Set<string>();
  for (const word of query.split(/\s+/)) {
    for (const part of splitIdentifier(word)) {
      const t = queryTerm(part);
      if (t !== "") out.add(t);
    }
  }
  return out;
}

/**
 * The share of a name's words (of its last part: `Form.full_clean` → full, clean) that are query
 * terms; a query term of three letters or more also covers a longer word it starts (the index
 * matches query words as prefixes).
 */
export function nameCover(name: string, terms: ReadonlySet<string>): number {
  const dot = name.lastIndexOf(".");
  const parts = splitIdentifier(dot < 0 ? name : name.slice(dot + 1));
  if (parts.length === 0 || terms.size === 0) return 0;
  let covered = 0;
  for (const p of parts) {
    const t = queryTerm(p);
    if (t === "") continue;
    if (terms.has(t)) {
      covered++;
      continue;
    }
    for (const q of terms) {
      if (q.length >= 3 && t.startsWith(q)) {
        covered++;
        break;
      }
    }
  }
  return covered / parts.length;
}

function _dir(file: string): string {
  const slash = file.lastIndexOf("/");
  return slash < 0 ? "" : file.slice(0, slash);
}

/** The feature rows of matches best first (see the module doc), in {@linkcode RERANK_FEATURES} order. */
export function rerankFeatures(
  items: readonly RerankItem[],
  terms: ReadonlySet<string>,
): number[][] {
  if (items.length === 0) return [];
  const top = items[0]!;
  const best = top.score > 0 ? top.score : 1;
  const topDir = _dir(top.file);
  return items.map((x, i) => [
    x.score / best,
    Math.log(1 + i),
    x.linked ? 1 : 0,
    _dir(x.file) === topDir ? 1 : 0,
    Math.log(1 + Math.max(1, x.end_line - x.line + 1)),
    nameCover(x.name, terms),
  ]);
}

/** The model's logit for one feature row. */
export function rerankLogit(model: RerankModel, row: readonly number[]): number {
  let z = model.intercept;
  for (let i = 0; i < row.length; i++) z += model.weights[i]! * row[i]!;
  return z;
}

/**
 * Re-order the first {@linkcode RERANK_DEPTH} of `items` (best first) by the model, all but the
 * first {@linkcode RERANK_KEEP}; the rest keep their order after them. A re-ordered item's new
 * score is the hand-made score of the first re-ordered place times its estimate over the best
 * estimate, at most the score above it (scores still fall down the list); `rescore` receives it and
 * the estimate (none for the items after the first {@linkcode RERANK_DEPTH}).
 * Ties keep the earlier order. Returns the new order.
 */
export function rerank<T extends RerankItem>(
  items: readonly T[],
  terms: ReadonlySet<string>,
  model: RerankModel,
  rescore: (item: T, score: number, p?: number) => void,
): T[] {
  const head = items.slice(0, RERANK_DEPTH);
  if (head.length < 2) return [...items];
  const rows = rerankFeatures(head, terms);
  const p = rows.map((r) => 1 / (1 + Math.exp(-rerankLogit(model, r))));
  const order = [
    ...head.slice(0, RERANK_KEEP).map((_, i) => i),
    ...head.map((_, i) => i).slice(RERANK_KEEP).sort((a, b) => p[b]! - p[a]! || a - b),
  ];
  const out: T[] = [];
  let floor = Infinity;
  // Scores keep falling down the list: a re-ordered match scores the hand-made score of the first
  // re-ordered place times its estimate over the best estimate, at most the score above it.
  const pMax = Math.max(...order.slice(RERANK_KEEP).map((i) => p[i]!));
  const ceiling = head[Math.min(RERANK_KEEP, head.length - 1)]!.score;
  for (const [place, i] of order.entries()) {
    const score = place < RERANK_KEEP
      ? head[i]!.score
      : Math.min(floor, pMax > 0 ? ceiling * p[i]! / pMax : head[i]!.score);
    floor = Math.min(floor, score);
    rescore(head[i]!, score, p[i]!);
    out.push(head[i]!);
  }
  // What follows keeps its order, below the last re-ordered score.
  for (const x of items.slice(RERANK_DEPTH)) {
    if (x.score > floor) rescore(x, floor);
    out.push(x);
  }
  return out;
}
