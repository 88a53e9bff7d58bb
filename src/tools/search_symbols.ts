/**
 * `search_symbols`: ranked symbol search (API.md §1.8, §4.2; Part A §7, §12). The ranking lives in
 * the query layer (`query/symbol_rank.ts`); this adapter checks the arguments, caches answers per
 * index state, shapes the hits (signatures cut, repeated summaries left out) and packs them into
 * `token_budget` when one is given.
 */
import { z } from "zod";
import { SYMBOL_KINDS, type SymbolRecord } from "../parser/types.ts";
import type { RepoIndex } from "../store/repo_index.ts";
import { ToolError } from "../errors.ts";
import { embedder, openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { SEMANTIC_INDEX, type SemanticIndex } from "../query/semantic.ts";
import { DEFAULT_SEMANTIC_WEIGHT, rankSemantic } from "../query/semantic_rank.ts";
import { checkLanguage } from "./graph_args.ts";
import type { RepoView } from "../query/view.ts";
import { decoratorText, squareRows } from "./rows.ts";
import { oneLine } from "../query/one_line.ts";
import { bytesOfFiles, COUNTS, freshnessChecker, markFreshness } from "../query/files.ts";
import {
  cutSignature,
  DEFAULT_TOKEN_BUDGET,
  estimateTokens,
  fitLines,
  TokenBudget,
} from "../query/budget.ts";
import { lruFacet } from "../query/result_cache.ts";
import { rankSymbolHits, SYMBOL_SEARCH } from "../query/symbol_rank.ts";
import { PATH_WORDS } from "../query/path_terms.ts";
import { CENTRALITY } from "../query/centrality.ts";
import { FILE_PRIORS } from "../query/file_priors.ts";
import { PROJECT_WORDS } from "../query/query_words.ts";
import { summaryRepeatsSignature } from "../parser/summary.ts";
import {
  type ArgsOf,
  defineTool,
  META,
  type MetaOf,
  type ResponseOf,
  type RowOf,
  table,
} from "./define.ts";

export { identityBonus } from "../query/symbol_rank.ts";

const _description =
  "Find functions, classes, methods, types and constants by name or words (name parts, stems; typos with fuzzy), exact names and library code first. Returns ids, signatures and summaries for get_symbol_source. In MUNCH answers, expand an id's @N handle (@2::f#function) from its @N= line.";

const _KINDS = SYMBOL_KINDS;

const _args = {
  query: z.string().min(1).max(500).describe(
    "Name, fragment or words, e.g. getUser, parse config",
  ),
  kind: z.enum(_KINDS).optional().describe("Only symbols of this kind"),
  language: z.string().optional().describe('Only this language, e.g. "go"'),
  file_pattern: z.string().optional().describe(
    'Only files matching this glob, e.g. "src/*.ts"',
  ),
  decorator: z.string().optional().describe(
    "Only symbols with a decorator containing this text",
  ),
  max_results: z.number().int().min(1).max(500).optional().describe(
    "Most results (default 10)",
  ),
  detail_level: z.enum(["compact", "standard", "full"]).optional().describe(
    "compact (ids), standard (default: + signature, summary) or full (+ source)",
  ),
  fuzzy: z.boolean().optional().describe(
    "Also match names with typos",
  ),
  fuzzy_threshold: z.number().min(0).max(1).optional().describe(
    "Least trigram similarity of a fuzzy hit (default 0.4)",
  ),
  max_edit_distance: z.number().int().min(0).max(10).optional().describe(
    "Most edits of a fuzzy hit (default 2)",
  ),
  sort_by: z.enum(["relevance", "centrality", "combined"]).optional().describe(
    "relevance (default), centrality (most imported first) or combined",
  ),
  token_budget: z.number().int().min(100).max(200_000).optional().describe(
    "Return the best hits whose source fits this many tokens",
  ),
  debug: z.boolean().optional().describe(
    "Add the parts of each score",
  ),
  semantic: z.boolean().optional().describe(
    "Fuse with embedding similarity (after embed_repo)",
  ),
  // Listed through `semantic`'s text only: every listed argument costs tokens in every session.
  semantic_weight: z.number().optional().describe(
    "Accepted for compatibility, and used: the embeddings' share of the fusion, 0..1 (default 0.5)",
  ),
  semantic_only: z.boolean().optional().describe(
    "Accepted for compatibility, and used: rank by embedding similarity alone",
  ),
  fusion: z.boolean().optional().describe(
    "Accepted for compatibility: semantic search always fuses by reciprocal rank",
  ),
  fqn: z.string().optional().describe("Accepted for compatibility (PHP FQN); ignored"),
};

/** Validated arguments. */
export type SearchSymbolsArgs = ArgsOf<typeof _args, "required">;

/** A number column some hits have (null in the others: one table). */
const _maybe = (what: string) => z.number().nullable().optional().describe(what);

const _fields = {
  result_count: z.number().int().describe("Hits returned"),
  results: table("s", {
    id: z.string().describe("Symbol id for get_symbol_source"),
    kind: z.string().describe("Symbol kind"),
    name: z.string().describe("Name"),
    file: z.string().describe("Repo-relative path"),
    line: z.number().int().describe("First line"),
    signature: z.string().optional().describe(
      'Signature (standard, full; a long one ends in " …")',
    ),
    summary: z.string().nullable().optional().describe(
      "One-line summary (null when it would repeat the signature)",
    ),
    byte_length: z.number().int().describe("Bytes of its source (what reading it costs)"),
    end_line: z.number().int().nullable().optional().describe("Last line (full)"),
    docstring: z.string().nullable().optional().describe("Docstring (full)"),
    source: z.string().nullable().optional().describe("Source (full)"),
    truncated: z.boolean().nullable().optional().describe("full: the source was cut to the budget"),
    decorators: z.string().nullable().optional().describe("Decorators or annotations, as one line"),
    score: z.number().describe("Ranking score"),
    score_lexical: _maybe("debug: the words' part of score"),
    score_role: _maybe("debug: the file-role weight"),
    score_centrality: _maybe("debug: the centrality part"),
    score_graph: _maybe("debug: the graph-neighbour part"),
    score_focus: _maybe("debug: the focus part"),
    score_model: _maybe("debug: the learned re-ranking's estimate"),
    score_semantic: _maybe("semantic: cosine similarity to the query"),
    rank_lexical: _maybe("semantic debug: rank in the lexical ranking"),
    rank_semantic: _maybe("semantic debug: rank by similarity"),
    match_type: z.literal("fuzzy").nullable().optional().describe('"fuzzy" for a fuzzy hit'),
    fuzzy_similarity: _maybe("Trigram similarity of a fuzzy hit"),
    edit_distance: _maybe("Edit distance of a fuzzy hit"),
    _freshness: z.enum(["fresh", "edited_uncommitted", "stale_index"]).nullable().optional()
      .describe(
        "fresh, edited_uncommitted (the file changed on disk), stale_index (git HEAD moved)",
      ),
  }, {
    order: ["id", "name", "kind", "file", "line", "score", "signature", "summary", "decorators"],
    // Summaries often repeat the signature (the signature fallback): interning shares them.
    intern: ["file", "id", "signature", "summary", "decorators"],
  }).describe("Hits, best first; fuzzy hits after the others"),
  negative_evidence: z.object({
    verdict: z.string(),
    scanned_symbols: z.number().int(),
    scanned_files: z.number().int(),
    best_match_score: z.number(),
    related_existing: z.array(z.string()).optional(),
  }).optional().describe("No hit: what was searched, and files named like the query"),
  "⚠ warning": z.string().optional().describe("No hit: do not claim the feature exists"),
};

const _meta = {
  total_symbols: z.number().int().describe("Symbols in the repo"),
  truncated: META.truncated,
  hint: META.hint,
  token_budget: z.number().int().describe("The budget the hits were packed into"),
  tokens_used: z.number().int().describe("Tokens of source the packed hits cost"),
  tokens_remaining: z.number().int().describe("Budget left"),
  signatures_cut: z.number().int().describe('Signatures cut (ending in " …")'),
  cache_hit: z.boolean().describe("The answer came from the result cache (with debug)"),
  fuzzy_fallback: z.boolean().describe(
    "No symbol matched the query's words: the hits are names spelled like it",
  ),
  freshness: META.freshness,
  search_mode: z.enum(["hybrid", "semantic_only"]).describe("semantic: how hits were ranked"),
  fusion: z.boolean().describe("semantic: ranks fused (reciprocal rank fusion)"),
  channels: z.string().describe("semantic: the fused rankings"),
  embeddings_missing: z.number().int().describe("semantic: symbols without a stored vector"),
};

type _Response = ResponseOf<typeof _fields>;
type _Hit = RowOf<typeof _fields.results>;
type _Output = ToolOutput<_Response, MetaOf<typeof _meta>>;

/**
 * Build (if not cached for the repo's current index) the in-memory ranking index and the
 * centrality that the first search of `repo` would otherwise build.
 */
export function prewarm(ctx: ToolContext, repo: string): void {
  const { view } = openRepo(ctx, repo);
  view.get(SYMBOL_SEARCH);
  view.get(CENTRALITY);
  view.get(PATH_WORDS);
  view.get(FILE_PRIORS);
  view.get(PROJECT_WORDS);
}

/** Most result sets kept per index state (the reference's search result LRU, API.md §0.6). */
const SEARCH_LRU = lruFacet<_Output>("search-lru", 128);

/** Reference options this server accepts and ignores (named in `_meta.warnings`). */
const _IGNORED = ["fqn"] as const;

/** Most hits ranked for packing into a token budget. */
const _MAX_PACKED = 100;

/**
 * Ranked hits with scores; fuzzy hits after the lexical ones. Results are cached per server for
 * the same arguments and the same index state (`_meta.cache_hit: true` on a hit, with `debug`).
 */
export function handler(ctx: ToolContext, args: SearchSymbolsArgs): _Output {
  const { view } = openRepo(ctx, args.repo);
  const lru = view.get(SEARCH_LRU);
  const key = JSON.stringify([
    args.query,
    args.kind,
    args.language,
    args.file_pattern,
    args.decorator,
    args.max_results,
    args.detail_level,
    args.fuzzy,
    args.fuzzy_threshold,
    args.max_edit_distance,
    args.sort_by,
    args.token_budget,
    args.debug,
  ]);
  let out = lru.get(key);
  if (out !== undefined) {
    // Said only when asked for `debug` (issue 28: `_meta` is frugal).
    if (args.debug) out = { ...out, meta: { ...out.meta, cache_hit: true } };
  } else {
    out = _search(view, args);
    lru.set(key, out);
  }
  // The cached copy stays untouched: freshness is checked on every call.
  const response = structuredClone(out.response);
  const freshness = markFreshness(response.results, freshnessChecker(view));
  const warnings = _IGNORED.filter((k) => args[k] !== undefined).map((k) =>
    `${k} is not supported by this server and was ignored (lexical search with priors ran)`
  );
  if (args.fusion !== undefined || args.semantic_weight !== undefined) {
    warnings.push("fusion and semantic_weight apply with semantic=true; lexical search ran");
  }
  return {
    ...out,
    response,
    meta: { ...out.meta, ...(freshness === null ? {} : { freshness }) },
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** The checked query and sizes of a search. */
interface _Plan {
  query: string;
  language: string | undefined;
  maxResults: number;
  budget: number | undefined;
  /** Hits ranked (more than shown when they are packed into a budget). */
  ranked: number;
  detail: "compact" | "standard" | "full";
}

function _plan(args: SearchSymbolsArgs): _Plan {
  const query = args.query.trim();
  if (query === "") {
    throw new ToolError("invalid_argument", 'Argument "query" must contain a name or words');
  }
  const maxResults = args.max_results ?? 10;
  const budget = args.token_budget;
  return {
    query,
    language: checkLanguage(args.language),
    maxResults,
    budget,
    ranked: budget === undefined
      ? maxResults
      : Math.min(_MAX_PACKED, Math.max(maxResults, Math.floor(budget / 5))),
    detail: args.detail_level ?? "standard",
  };
}

/** A ranked symbol and the columns its row adds (debug parts, fuzzy fields). */
export interface RankedRow {
  symbol: SymbolRecord;
  score: number;
  columns: Partial<_Hit>;
}

function _search(view: RepoView, args: SearchSymbolsArgs): _Output {
  const plan = _plan(args);
  const ranking = rankSymbolHits(view, {
    query: plan.query,
    kind: args.kind,
    language: plan.language,
    filePattern: args.file_pattern,
    decorator: args.decorator,
    maxResults: plan.ranked,
    fuzzy: args.fuzzy,
    fuzzyThreshold: args.fuzzy_threshold,
    maxEditDistance: args.max_edit_distance,
    sortBy: args.sort_by,
  });
  const rows: RankedRow[] = ranking.hits.map((h) => ({
    symbol: h.symbol,
    score: h.score,
    // Flat columns rather than a nested object: every hit stays one table row.
    columns: args.debug !== true ? {} : {
      score_lexical: _round(h.lexical),
      score_role: h.role,
      score_centrality: _round(h.centrality),
      score_graph: _round(h.graph),
      score_focus: _round(h.focus),
      // The learned model's estimate, for a description (learned_rank.ts).
      ...(h.model !== undefined ? { score_model: _round(h.model) } : {}),
    },
  }));
  for (const f of ranking.fuzzy) {
    rows.push({
      symbol: f.symbol,
      score: f.score,
      columns: {
        match_type: "fuzzy",
        fuzzy_similarity: _round(f.similarity),
        edit_distance: f.distance,
      },
    });
  }
  const meta: MetaOf<typeof _meta> = ranking.fuzzyFallback ? _fuzzyFallbackMeta(plan.query) : {};
  return respond(view, plan, rows, ranking.matched, meta);
}

/**
 * The answer for ranked rows: each shaped at the asked detail, packed into the budget (or the
 * default budget of `full`), with the hints and the negative evidence of an empty answer.
 */
function respond(
  view: RepoView,
  plan: _Plan,
  rows: readonly RankedRow[],
  matched: number,
  extraMeta: MetaOf<typeof _meta>,
): _Output {
  const { repo, index } = view;
  const { query, maxResults, budget, detail } = plan;
  const results: _Hit[] = [];
  let signaturesCut = 0;
  for (const r of rows) {
    const e = _entry(index, r.symbol, detail, r.score);
    if (e.signature_cut === true) {
      delete e.signature_cut;
      signaturesCut++;
    }
    results.push(Object.assign(e, r.columns));
  }
  const counts = view.get(COUNTS);
  const meta: MetaOf<typeof _meta> = { total_symbols: counts.symbols };
  let kept = results;
  let truncated = matched > maxResults;
  if (budget !== undefined) {
    // The reference's packing: greedy in rank order by what reading each hit costs.
    const b = new TokenBudget(budget);
    kept = results.filter((r) => b.take(estimateTokens(Number(r.byte_length))));
    truncated = matched > kept.length;
    Object.assign(meta, {
      token_budget: budget,
      tokens_used: b.used,
      tokens_remaining: b.remaining,
    });
  } else if (detail === "full") {
    // Hits with their source: bounded by the default budget of the content tools.
    const b = new TokenBudget(DEFAULT_TOKEN_BUDGET);
    const before = kept.length;
    let cut = false;
    kept = kept.filter((r) => {
      const tokens = estimateTokens(r);
      if (tokens <= b.remaining) return b.take(tokens);
      const room = b.remaining - (tokens - estimateTokens(String(r.source)));
      if (room < 256) return false;
      // A long source is cut at a whole line; get_symbol_source reads the rest.
      r.source = fitLines(String(r.source).split("\n"), room).text;
      r.truncated = true;
      cut = true;
      return b.take(estimateTokens(r));
    });
    if (kept.length < before || cut) {
      truncated = true;
      meta.token_budget = DEFAULT_TOKEN_BUDGET;
    }
  }
  meta.truncated = truncated;
  if (signaturesCut > 0) meta.signatures_cut = signaturesCut;
  Object.assign(meta, extraMeta);
  if (truncated) {
    meta.hint = meta.token_budget === DEFAULT_TOKEN_BUDGET && budget === undefined
      ? `detail_level=full hits are bounded by ${DEFAULT_TOKEN_BUDGET} tokens: pass token_budget for more, use detail_level=standard and get_symbol_source, or narrow with kind, language or file_pattern`
      : budget === undefined
      ? `More than ${maxResults} symbols matched: narrow with kind, language or file_pattern, or raise max_results`
      : `More symbols matched than fit token_budget=${budget}: narrow with kind, language or file_pattern, or raise token_budget`;
  }
  if (signaturesCut > 0) {
    const cutHint =
      'signatures ending in " …" were cut: get_symbol_source with the id gives the whole text';
    meta.hint = meta.hint === undefined ? cutHint : `${meta.hint}; ${cutHint}`;
  }
  // One table: a key only some hits have (decorators, the fuzzy fields) is null in the others.
  squareRows(kept);
  const response: _Response = { result_count: kept.length, results: kept };
  if (kept.length === 0) {
    const terms = query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((t) => t.length >= 3);
    const related = terms.length === 0 ? [] : index.listFiles().map((f) => f.path).filter((p) => {
      const base = p.slice(p.lastIndexOf("/") + 1).toLowerCase();
      return terms.some((t) => base.includes(t));
    }).slice(0, 5);
    const evidence: NonNullable<_Response["negative_evidence"]> = {
      verdict: "no_implementation_found",
      scanned_symbols: counts.symbols,
      scanned_files: counts.files,
      best_match_score: 0,
    };
    if (related.length > 0) evidence.related_existing = related;
    response.negative_evidence = evidence;
    response["⚠ warning"] =
      `No implementation found for '${query}'. Do not claim this feature exists.`;
  }
  return {
    response,
    rawBytes: bytesOfFiles(view, kept.map((r) => String(r.file))),
    repo,
    meta,
  };
}

function _round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/**
 * A hit as the response shows it (keys in the order they are written); `signature_cut`
 * (removed by the caller) when it was cut.
 */
function _entry(
  index: RepoIndex,
  s: SymbolRecord,
  detail: "compact" | "standard" | "full",
  score: number,
): _Hit & { signature_cut?: boolean } {
  const decorators = s.decorators.length > 0 ? { decorators: decoratorText(s.decorators) } : {};
  if (detail === "compact") {
    // compact: ids and locations only (API.md §1.8)
    return {
      id: s.id,
      name: s.name,
      kind: s.kind,
      file: s.file,
      line: s.line,
      byte_length: s.byte_length,
      ...decorators,
      score: _round(score),
    };
  }
  const sig = detail === "full" ? { text: s.signature, cut: false } : cutSignature(s.signature);
  return {
    id: s.id,
    kind: s.kind,
    name: s.name,
    file: s.file,
    line: s.line,
    signature: sig.text,
    // Every hit has the same keys (a v1 MUNCH table holds them): a summary that would only
    // repeat the signature is null rather than absent.
    summary: summaryRepeatsSignature(s) ? null : oneLine(s.summary),
    byte_length: s.byte_length,
    ...(detail === "full"
      ? { end_line: s.end_line, docstring: s.docstring, source: index.symbolSource(s.id) ?? "" }
      : {}),
    ...decorators,
    score: _round(score),
    ...(sig.cut ? { signature_cut: true } : {}),
  };
}

/**
 * A semantic search (`semantic` or `semantic_only`): the query embedded by the configured
 * provider, ranked against the stored vectors (query/semantic_rank.ts), and fused with the
 * lexical ranking unless `semantic_only`. Not cached per index state (the query vectors are).
 */
export async function semanticHandler(
  ctx: ToolContext,
  args: SearchSymbolsArgs,
): Promise<_Output> {
  const { view } = openRepo(ctx, args.repo);
  const provider = embedder(ctx);
  const plan = _plan(args);
  const stored = _storedFor(view, view.get(SEMANTIC_INDEX), provider.identity);
  let vector: Float32Array;
  try {
    [vector] = (await provider.embed([plan.query], "query")) as [Float32Array];
  } catch (e) {
    if (e instanceof ToolError) throw new ToolError(e.code, `Failed to embed query: ${e.message}`);
    throw e;
  }
  if (vector.length !== stored.model!.dim) {
    throw new ToolError(
      "embeddings_stale",
      `The query's embedding has ${vector.length} dimensions, the stored ones ${
        stored.model!.dim
      }: run embed_repo with force=true`,
    );
  }
  const only = args.semantic_only === true;
  const weight = args.semantic_weight ?? DEFAULT_SEMANTIC_WEIGHT;
  if (!(weight >= 0 && weight <= 1)) {
    throw new ToolError(
      "invalid_argument",
      `Argument "semantic_weight" must be between 0 and 1, got ${weight}`,
    );
  }
  const ranking = rankSemantic(view, {
    query: plan.query,
    kind: args.kind,
    language: plan.language,
    filePattern: args.file_pattern,
    decorator: args.decorator,
    maxResults: plan.ranked,
    sortBy: args.sort_by,
    vector,
    weight,
    only,
  });
  const rows: RankedRow[] = ranking.hits.map((h) => ({
    symbol: h.symbol,
    score: h.score,
    columns: {
      score_semantic: h.similarity === null ? null : _round(h.similarity),
      ...(args.debug === true
        ? { rank_lexical: h.lexicalRank, rank_semantic: h.semanticRank }
        : {}),
    },
  }));
  const out = respond(view, plan, rows, ranking.matched, {
    search_mode: only ? "semantic_only" : "hybrid",
    fusion: !only,
    channels: only ? "semantic" : "lexical,semantic",
    ...(stored.missing > 0 ? { embeddings_missing: stored.missing } : {}),
  });
  const meta = out.meta ?? {};
  if (stored.missing > 0) {
    const missing =
      `${stored.missing} symbols have no stored vector (indexed after embed_repo ran): run embed_repo`;
    meta.hint = meta.hint === undefined ? missing : `${meta.hint}; ${missing}`;
  }
  const freshness = markFreshness(out.response.results, freshnessChecker(view));
  return { ...out, meta: { ...meta, ...(freshness === null ? {} : { freshness }) } };
}

/** The semantic index when it holds vectors of `identity`; else what to run, as an error. */
function _storedFor(view: RepoView, index: SemanticIndex, identity: string): SemanticIndex {
  if (index.model === null) {
    throw new ToolError(
      "embeddings_missing",
      `No embeddings are stored for ${view.repo}: run embed_repo first, then search again`,
    );
  }
  if (index.model.identity !== identity) {
    throw new ToolError(
      "embeddings_stale",
      `The embeddings of ${view.repo} were made by ${index.model.identity}, the configured provider is ${identity}: run embed_repo to embed with it`,
    );
  }
  return index;
}

/** The declaration. */
export const tool = defineTool({
  name: "search_symbols",
  title: "Search symbols",
  summary:
    "ranked symbol search: BM25 (the scores of FTS5, computed in memory) plus exact/prefix/substring name bonuses; `kind`, `language`, `file_pattern`, `decorator`, `max_results`, `detail_level`, `fuzzy`",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "ss1" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: (ctx, args) =>
    args.semantic === true || args.semantic_only === true
      ? semanticHandler(ctx, args)
      : handler(ctx, args),
  prewarm,
});

/** What `_meta` says when the hits are a fuzzy fallback (no symbol matched the query's words). */
function _fuzzyFallbackMeta(query: string): { fuzzy_fallback: boolean; hint: string } {
  return {
    fuzzy_fallback: true,
    hint:
      `No symbol matched the words of '${query}': these are names spelled like it (match_type "fuzzy", scored by similarity); check the spelling, or try search_text`,
  };
}
