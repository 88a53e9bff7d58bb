/**
 * The packing stage of `get_ranked_context`: the budget is spent by value, not filled.
 *
 * 1. **Relevance floor**: only candidates scoring at least {@linkcode RELEVANCE_FLOOR} of the best
 *    candidate's score are packed; below it the context stops, and says so (`stopped: relevance`).
 * 2. **Best first, each place once**: candidates are packed in score order; a symbol inside one
 *    already packed whole is skipped (its source is there), one holding packed symbols comes as
 *    its outline. (A first round of at most three symbols per file, to spread the context over
 *    more files, lowered recall on every corpus: the code a task needs sits mostly in one file.)
 * 3. **Source, then signatures** (when {@linkcode FULL_SHARE} is below 1; it is 1, off): once the
 *    items packed take that share of the budget, the candidates after them come as their signature
 *    and the first line of their docstring (`cut: true`, the id fetches the body).
 * 4. **Long symbols**: a symbol whose source alone would take more than {@linkcode LONG_SHARE} of
 *    the budget, or more than is left, is shown as its signature, docstring and outline (its
 *    members' signatures; `cut: true`, its id fetches the body) — several relevant symbols are
 *    worth more than one long body. A symbol whose source does not fit what is left is cut the
 *    same way when that fits.
 *
 * Tokens are estimated as UTF-8 bytes / 4 of each item as returned (its JSON), the estimate
 * `_meta` uses; the items' sum never exceeds the budget.
 */
import type { SymbolKind, SymbolRecord } from "../parser/types.ts";
import { estimateTokens } from "./budget.ts";
import { oneLine } from "./one_line.ts";
import type { RepoView } from "./view.ts";

/**
 * Candidates below this share of the best candidate's score are not packed. Fitted on the tuning
 * corpora of the retrieval bench (ours) by `deno task bench fit-context`, over 0.02, 0.05 and 0.1,
 * each tuning corpus left out in turn; the independent corpora are held out (BENCHMARKS.md).
 */
export const RELEVANCE_FLOOR = 0.02;

/**
 * The share of the budget spent on source; the candidates after it come as signatures (the first
 * docstring line too), a map of the next places a task may need. 1 (off): any share below 1 raises
 * the bench's recall (a signature counts as finding its symbol) but lowers the recall of the source
 * sent, so it is a trade, not a gain. Measured (BENCHMARKS.md, round 10): 0.8 raised held-out task
 * recall by 0.02–0.05 per corpus and lowered their source recall by 0.01–0.06; on the tuning
 * corpora 0.8, 0.7 and 0.5 gained 0.017, 0.022 and 0.036 and lost 0.015, 0.034 and 0.080.
 */
export const FULL_SHARE = 1;

/**
 * A symbol whose source would take more than this share of the budget is packed as an outline.
 * Fitted with each corpus left out in turn over 0.4, 0.6 and 1 (BENCHMARKS.md): 1, so a long
 * symbol is outlined only when its body does not fit what is left — outlining every body over 40%
 * or 60% of the budget lowered recall held out (an outline covers none of its members).
 */
export const LONG_SHARE = 1;

/** Most member signatures in an outline. */
const _OUTLINE_MEMBERS = 40;

/** Fewer tokens than any item takes (its keys alone are about 110 bytes of JSON). */
const _SMALLEST_ITEM = 24;

/** A candidate of the context, before packing. */
export interface ContextCandidate {
  symbol: SymbolRecord;
  score: number;
  why: string;
  /** A call-graph neighbour of one of the best candidates (it entered or gained as one). */
  linked?: boolean;
}

/** One packed symbol. */
export interface ContextItem {
  symbol_id: string;
  name: string;
  kind: SymbolKind;
  file: string;
  line: number;
  end_line: number;
  score: number;
  /** Why it was chosen: text relevance, centrality, a graph neighbour of a chosen symbol. */
  why: string;
  /** True when only the signature, docstring (and outline) are given, not the whole source. */
  cut: boolean;
  tokens: number;
  source: string;
  _freshness?: string;
}

/** Why packing stopped. */
export type PackStop = "relevance" | "budget" | "candidates";

/** The packed context. */
export interface PackedContext {
  items: ContextItem[];
  totalTokens: number;
  considered: number;
  /** Relevant candidates left out for lack of budget. */
  leftOut: number;
  /** Candidates below the relevance floor (not packed). */
  belowFloor: number;
  stopped: PackStop;
}

/** Options of {@linkcode packContext}. */
export interface PackOptions {
  /** Per-file freshness (`_freshness` of each item, counted in its tokens). */
  freshness?: (file: string) => string | null;
  /** @default {@linkcode RELEVANCE_FLOOR} */
  relevanceFloor?: number;
  /** @default {@linkcode FULL_SHARE} */
  fullShare?: number;
}

/** Pack candidates (best first) into `budget` tokens. */
export function packContext(
  view: RepoView,
  candidates: readonly ContextCandidate[],
  budget: number,
  options: PackOptions = {},
): PackedContext {
  const best = candidates[0]?.score ?? 0;
  const floor = options.relevanceFloor ?? RELEVANCE_FLOOR;
  const relevant = candidates.filter((c) => c.score >= floor * best);
  const order = relevant;
  const packer = new _Packer(
    view,
    budget,
    options.freshness ?? (() => null),
    (options.fullShare ?? FULL_SHARE) * budget,
  );
  let leftOut = 0;
  for (let k = 0; k < order.length; k++) {
    if (packer.take(order[k]!)) continue;
    leftOut++;
    if (packer.room < _SMALLEST_ITEM) {
      leftOut += order.length - 1 - k;
      break;
    }
  }
  const belowFloor = candidates.length - relevant.length;
  return {
    items: packer.items,
    totalTokens: packer.total,
    considered: candidates.length,
    leftOut,
    belowFloor,
    stopped: leftOut > 0 ? "budget" : belowFloor > 0 ? "relevance" : "candidates",
  };
}

class _Packer {
  readonly items: ContextItem[] = [];
  total = 0;
  readonly #view: RepoView;
  readonly #budget: number;
  readonly #freshness: (file: string) => string | null;
  /** Tokens of source after which candidates come as signatures. */
  readonly #sourceBudget: number;

  constructor(
    view: RepoView,
    budget: number,
    freshness: (file: string) => string | null,
    sourceBudget: number,
  ) {
    this.#view = view;
    this.#budget = budget;
    this.#freshness = freshness;
    this.#sourceBudget = sourceBudget;
  }

  get room(): number {
    return this.#budget - this.total;
  }

  /** Pack one candidate whole or cut; false when neither fits (or its source is packed already). */
  take(c: ContextCandidate): boolean {
    const s = c.symbol;
    const inside = this.items.some((i) =>
      !i.cut && i.file === s.file && i.line <= s.line && s.end_line <= i.end_line
    );
    if (inside) return true; // its source is inside an item already packed
    const holds = this.items.some((i) =>
      i.file === s.file && s.line <= i.line && i.end_line <= s.end_line
    );
    const fresh = this.#freshness(s.file);
    if (this.total >= this.#sourceBudget) return this.#push(_signatureItem(s, c, this.room, fresh));
    // Whole only when its source alone fits what is left and takes at most LONG_SHARE of the
    // budget, and none of its members is packed already.
    const whole = !holds && s.byte_length / 4 <= Math.min(this.room, LONG_SHARE * this.#budget);
    const full = whole
      ? _item(s, c, this.#view.index.symbolSource(s.id) ?? "", false, fresh)
      : null;
    return this.#push(
      full !== null && full.tokens <= this.room
        ? full
        : _cutItem(this.#view, s, c, this.room, fresh),
    );
  }

  #push(item: ContextItem | null): boolean {
    if (item === null) return false;
    this.items.push(item);
    this.total += item.tokens;
    return true;
  }
}

function _round(x: number): number {
  return Math.round(x * 100) / 100;
}

/** An item with its token count (the estimate of the item as returned). */
function _item(
  s: SymbolRecord,
  c: ContextCandidate,
  source: string,
  cut: boolean,
  fresh: string | null,
): ContextItem {
  const item: ContextItem = {
    symbol_id: s.id,
    name: s.name,
    kind: s.kind,
    file: s.file,
    line: s.line,
    end_line: s.end_line,
    score: _round(c.score),
    why: c.why,
    cut,
    tokens: 0,
    source,
  };
  if (fresh !== null) item._freshness = fresh;
  // The count is part of the item: settle it at a fixed point (one more digit at most).
  item.tokens = estimateTokens(item);
  item.tokens = estimateTokens(item);
  return item;
}

/**
 * The cut form of a symbol — signature, docstring and outline (its members' signatures), then its
 * signature and docstring, then its signature alone — the first that fits in `room` tokens.
 */
function _cutItem(
  view: RepoView,
  s: SymbolRecord,
  c: ContextCandidate,
  room: number,
  fresh: string | null,
): ContextItem | null {
  const doc = s.docstring === "" ? "" : `\n${_docComment(s.docstring)}`;
  const outline = _outline(view, s);
  const forms = [
    ...(outline === "" ? [] : [`${s.signature}${doc}\n${outline}\n…`]),
    `${s.signature}${doc}\n…`,
    `${s.signature}\n…`,
  ];
  for (const source of forms) {
    const item = _item(s, c, source, true, fresh);
    if (item.tokens <= room) return item;
  }
  return null;
}

/** A symbol as its signature and the first line of its docstring (or its signature alone), if it fits. */
function _signatureItem(
  s: SymbolRecord,
  c: ContextCandidate,
  room: number,
  fresh: string | null,
): ContextItem | null {
  const first = s.docstring.split("\n", 1)[0]!.trim();
  const forms = first === "" ? [s.signature] : [`${s.signature}\n${first}`, s.signature];
  for (const source of forms) {
    const item = _item(s, c, source, true, fresh);
    if (item.tokens <= room) return item;
  }
  return null;
}

/** The signatures of a symbol's direct members, one per line and indented (empty when none). */
function _outline(view: RepoView, s: SymbolRecord): string {
  const members = view.index.symbolsOfFile(s.file).filter((m) =>
    m.id !== s.id && m.line >= s.line && m.end_line <= s.end_line &&
    m.qualified_name.startsWith(`${s.qualified_name}.`) &&
    !m.qualified_name.slice(s.qualified_name.length + 1).includes(".")
  );
  return members.slice(0, _OUTLINE_MEMBERS).map((m) => `  ${oneLine(m.signature)}`).join("\n");
}

function _docComment(doc: string): string {
  const lines = doc.split("\n");
  const kept = lines.slice(0, 12).join("\n");
  return kept.length > 1200 ? kept.slice(0, 1200) + " …" : kept;
}
