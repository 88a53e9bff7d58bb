/**
 * One ranked query over several signals (`winnow_symbols`): criteria `{axis, op, value}` combined
 * with AND over every definition (imports aside), then the survivors ranked by one signal.
 *
 * | axis         | ops                        | value           | signal                                  |
 * | ------------ | -------------------------- | --------------- | --------------------------------------- |
 * | `kind`       | `in` `eq`                  | str or str[]    | symbol kind                             |
 * | `language`   | `in` `eq`                  | str or str[]    | language id                             |
 * | `role`       | `in` `eq`                  | str or str[]    | its file's role (source, test, …)       |
 * | `name`       | `eq` `matches`             | str             | name; `matches` a regex                 |
 * | `file`       | `matches`                  | str             | fnmatch glob of its file                |
 * | `decorator`  | `contains`                 | str or str[]    | a decorator containing it (any case)    |
 * | `calls`      | `contains`                 | str or str[]    | a callee name its calls write containing it (any case) |
 * | `summary`    | `contains`                 | str             | summary or docstring (any case)         |
 * | `complexity` | `>` `<` `>=` `<=` `==`     | number          | cyclomatic (0 when not measured)        |
 * | `churn`      | `>` `<` `>=` `<=` `==`     | number          | commits changing its file in the window |
 * | `callers`    | `>` `<` `>=` `<=` `==`     | number          | distinct resolved callers               |
 * | `callees`    | `>` `<` `>=` `<=` `==`     | number          | distinct resolved callees               |
 * | `tested`     | `eq`                       | bool            | a test reaches it (test_reach.ts)       |
 *
 * A `name matches` regex with a quantified group that is itself quantified (`(a+)+`) or a
 * back-reference is refused: those can take exponential time.
 */
import { ToolError } from "../errors.ts";
import { CALL_EDGES } from "./call_edges.ts";
import { measuredSymbols } from "./complexity.ts";
import { SYMBOL_BRIEFS, type SymbolBrief } from "./files.ts";
import { globMatcher } from "./glob.ts";
import { byCodePoint } from "./import_graph.ts";
import { PAGERANK_IMPORTANCE } from "./importance.ts";
import { fileRole } from "./priors.ts";
import { TEST_REACH } from "./test_reach.ts";
import { facet, type RepoView } from "./view.ts";

const _SET = ["in", "eq"];
const _NUM = [">", "<", ">=", "<=", "=="];
/** The axes whose value may be a list (any of them matches); the others take one string. */
const _LIST_AXES = new Set(["kind", "language", "role", "decorator", "calls"]);

/** The ops of each axis. */
export const WINNOW_AXES: Readonly<Record<string, readonly string[]>> = {
  kind: _SET,
  language: _SET,
  role: _SET,
  name: ["eq", "matches"],
  file: ["matches"],
  decorator: ["contains"],
  calls: ["contains"],
  summary: ["contains"],
  complexity: _NUM,
  churn: _NUM,
  callers: _NUM,
  callees: _NUM,
  tested: ["eq"],
};

/** Signals the survivors can be ranked by. */
export const WINNOW_RANKS = [
  "importance",
  "complexity",
  "churn",
  "callers",
  "callees",
  "name",
] as const;
export type WinnowRank = typeof WINNOW_RANKS[number];

/** One checked criterion. */
export interface Criterion {
  axis: string;
  op: string;
  value: string | number | boolean | string[];
}

/** The signals of one definition. */
export interface WinnowRow {
  symbol: SymbolBrief;
  cyclomatic: number;
  churn: number;
  importance: number;
  callers: number;
  callees: number;
  tested: boolean;
}

function _bad(message: string): never {
  throw new ToolError("invalid_argument", message);
}

function _checkValue(at: string, axis: string, op: string, value: unknown): Criterion["value"] {
  if (_NUM.includes(op)) {
    if (typeof value !== "number" || !Number.isFinite(value)) _bad(`${at}.value must be a number`);
    return value;
  }
  if (axis === "tested") {
    if (typeof value !== "boolean") _bad(`${at}.value must be true or false`);
    return value;
  }
  const takesList = _LIST_AXES.has(axis);
  if (Array.isArray(value) && !takesList) _bad(`${at}.value must be one string for ${op}`);
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || !list.every((v) => typeof v === "string")) {
    _bad(`${at}.value must be a string${takesList ? " or a list of strings" : ""}`);
  }
  if (axis === "name" && op === "matches") _checkRegex(at, list[0] as string);
  return Array.isArray(value) ? value as string[] : value as string;
}

function _checkRegex(at: string, pattern: string): void {
  if (pattern.length > 500) _bad(`${at}.value: the regex is over 500 characters`);
  if (/\\[1-9]|\\k</.test(pattern) || /\([^()]*[*+}][^()]*\)[*+{?]/.test(pattern)) {
    _bad(
      `${at}.value: nested quantifiers and back-references can take exponential time; write the regex without them (e.g. "^get[A-Z]")`,
    );
  }
  try {
    new RegExp(pattern);
  } catch (e) {
    _bad(`${at}.value is not a valid regex: ${(e as Error).message}`);
  }
}

/** Criteria checked against {@linkcode WINNOW_AXES}; `invalid_argument` naming the entry. */
export function checkCriteria(raw: readonly Record<string, unknown>[]): Criterion[] {
  return raw.map((c, i) => {
    const at = `criteria[${i}]`;
    const axis = c.axis, op = c.op;
    if (typeof axis !== "string" || WINNOW_AXES[axis] === undefined) {
      _bad(
        `${at}.axis ${JSON.stringify(axis)} is not one of ${Object.keys(WINNOW_AXES).join(", ")}`,
      );
    }
    const ops = WINNOW_AXES[axis]!;
    if (typeof op !== "string" || !ops.includes(op)) {
      _bad(`${at}.op ${JSON.stringify(op)} does not apply to ${axis}: use ${ops.join(" ")}`);
    }
    if (!("value" in c)) _bad(`${at} has no value`);
    return { axis, op, value: _checkValue(at, axis, op, c.value) };
  });
}

const _COMPLEXITY = facet(
  "winnow-complexity",
  (view) => new Map(measuredSymbols(view).map((m) => [m.id, m.cyclomatic])),
);

const _IMPORTANCE = facet(
  "winnow-importance",
  (view) => new Map(view.get(PAGERANK_IMPORTANCE).ranked.map((r) => [r.symbol.id, r.score])),
);

/** Decorators and summary + docstring of every symbol that has any (read only when asked for). */
const _TEXTS = facet("winnow-texts", (view) => {
  const decorators = new Map<string, string[]>();
  const texts = new Map<string, string>();
  for (const s of view.index.allSymbols()) {
    if (s.decorators.length > 0) decorators.set(s.id, s.decorators.map((d) => d.toLowerCase()));
    const text = `${s.summary} ${s.docstring}`.trim().toLowerCase();
    if (text !== "") texts.set(s.id, text);
  }
  return { decorators, texts };
});

const _DEFINITIONS = facet(
  "winnow-definitions",
  (view) => view.get(SYMBOL_BRIEFS).filter((s) => s.kind !== "import"),
);

/** The signals of the view, each computed when first read. */
class _Signals {
  readonly #view: RepoView;
  readonly #churn: ReadonlyMap<string, number> | null;
  readonly #roles = new Map<string, string>();
  constructor(view: RepoView, churn: ReadonlyMap<string, number> | null) {
    this.#view = view;
    this.#churn = churn;
  }
  complexity = (s: SymbolBrief) => this.#view.get(_COMPLEXITY).get(s.id) ?? 0;
  churn = (s: SymbolBrief) => this.#churn?.get(s.file) ?? 0;
  importance = (s: SymbolBrief) => this.#view.get(_IMPORTANCE).get(s.id) ?? 0;
  callers = (s: SymbolBrief) => this.#view.get(CALL_EDGES).callers.get(s.id)?.size ?? 0;
  callees = (s: SymbolBrief) => this.#view.get(CALL_EDGES).callees.get(s.id)?.size ?? 0;
  tested = (s: SymbolBrief) => this.#view.get(TEST_REACH).reached.has(s.id);
  role = (s: SymbolBrief) => {
    let r = this.#roles.get(s.file);
    if (r === undefined) this.#roles.set(s.file, r = fileRole(s.file));
    return r;
  };
  calls = (s: SymbolBrief) => this.#view.get(CALL_EDGES).calleeNames.get(s.id);
  texts = () => this.#view.get(_TEXTS);
}

function _numeric(op: string, a: number, b: number): boolean {
  return op === ">"
    ? a > b
    : op === "<"
    ? a < b
    : op === ">="
    ? a >= b
    : op === "<="
    ? a <= b
    : a === b;
}

const _lower = (v: Criterion["value"]) =>
  (Array.isArray(v) ? v : [String(v)]).map((x) => x.toLowerCase());

/** The test of one criterion. */
function _predicate(c: Criterion, sig: _Signals): (s: SymbolBrief) => boolean {
  const list = Array.isArray(c.value) ? c.value : [String(c.value)];
  const set = new Set(list);
  switch (c.axis) {
    case "kind":
      return (s) => set.has(s.kind);
    case "language":
      return (s) => set.has(s.language);
    case "role":
      return (s) => set.has(sig.role(s));
    case "name": {
      if (c.op === "eq") return (s) => s.name === c.value;
      const re = new RegExp(String(c.value));
      return (s) => re.test(s.name);
    }
    case "file": {
      const m = globMatcher(String(c.value));
      return (s) => m(s.file);
    }
    case "decorator": {
      const needles = _lower(c.value);
      return (s) =>
        sig.texts().decorators.get(s.id)?.some((d) => needles.some((n) => d.includes(n))) ?? false;
    }
    case "calls": {
      const needles = _lower(c.value);
      return (s) => {
        const names = sig.calls(s);
        if (names === undefined) return false;
        for (const n of names) if (needles.some((x) => n.toLowerCase().includes(x))) return true;
        return false;
      };
    }
    case "summary": {
      const needle = String(c.value).toLowerCase();
      return (s) => sig.texts().texts.get(s.id)?.includes(needle) ?? false;
    }
    case "tested":
      return (s) => sig.tested(s) === c.value;
    default: {
      const of = sig[c.axis as "complexity" | "churn" | "callers" | "callees"];
      const v = c.value as number;
      return (s) => _numeric(c.op, of(s), v);
    }
  }
}

/** What a winnow query found. */
export interface WinnowResult {
  rows: WinnowRow[];
  matched: number;
  scanned: number;
}

/**
 * The definitions meeting every criterion, ranked by `rankBy` (`order` desc: highest first;
 * ties by id), the first `max` of them with their signals.
 */
export function winnow(
  view: RepoView,
  criteria: readonly Criterion[],
  options: {
    rankBy: WinnowRank;
    order: "asc" | "desc";
    max: number;
    churn: ReadonlyMap<string, number> | null;
  },
): WinnowResult {
  const sig = new _Signals(view, options.churn);
  const tests = criteria.map((c) => _predicate(c, sig));
  const defs = view.get(_DEFINITIONS);
  const survivors = defs.filter((s) => tests.every((t) => t(s)));
  const key = options.rankBy === "name" ? null : sig[options.rankBy];
  const sign = options.order === "desc" ? -1 : 1;
  const byId = (a: SymbolBrief, b: SymbolBrief) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const compare = key === null
    ? (a: SymbolBrief, b: SymbolBrief) =>
      sign * byCodePoint(a.name.toLowerCase(), b.name.toLowerCase()) || byId(a, b)
    : (a: SymbolBrief, b: SymbolBrief) => sign * (key(a) - key(b)) || byId(a, b);
  const top = _topK(survivors, options.max, compare);
  return {
    rows: top.map((s) => ({
      symbol: s,
      cyclomatic: sig.complexity(s),
      churn: sig.churn(s),
      importance: sig.importance(s),
      callers: sig.callers(s),
      callees: sig.callees(s),
      tested: sig.tested(s),
    })),
    matched: survivors.length,
    scanned: defs.length,
  };
}

/** The first `k` of `items` by `compare`, in order, without sorting them all. */
function _topK<T>(items: readonly T[], k: number, compare: (a: T, b: T) => number): T[] {
  if (items.length <= k * 4) return [...items].sort(compare).slice(0, k);
  const top: T[] = [];
  for (const x of items) {
    if (top.length === k && compare(x, top[k - 1]!) >= 0) continue;
    let lo = 0, hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(top[mid]!, x) <= 0) lo = mid + 1;
      else hi = mid;
    }
    top.splice(lo, 0, x);
    if (top.length > k) top.pop();
  }
  return top;
}
