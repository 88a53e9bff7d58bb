/**
 * The keyword rules — gitleaks' provider rules (`secret_rules_gitleaks.ts`, generated) and the
 * token rules of `secrets.ts` — as `secrets.ts` runs them:
 * one pass over the text finds every rule keyword (`keyword_scan.ts`); each rule then runs only
 * on a window of the lines holding one of its keywords (the line, at most 256 characters before
 * the keyword and 4 KB after it; overlapping windows joined), and a match counts when its secret
 * has the rule's entropy and no allowlist of the rule excuses it — gitleaks' own checks. Every
 * window lies inside one line, so a line's spans are the same whether the whole file or the line
 * alone is scanned (tools redact windows of files), and a hostile file costs linear time.
 */
import { KeywordScanner } from "./keyword_scan.ts";
import { GITLEAKS_RULES, type GitleaksRule } from "./secret_rules_gitleaks.ts";

/** A span found by a rule (the same shape as `SecretSpan`). */
export interface RuleSpan {
  start: number;
  end: number;
  type: string;
}

interface _Compiled {
  type: string;
  re: RegExp;
  /** The secret's group; 0: the first non-empty group or the match; -1: the `secret` group or the match. */
  group: number;
  entropy: number;
  allow: { target: string; regexes: RegExp[]; stopwords: string[] }[];
}

/** A rule of our own: a `secret` named group (else the whole match) is the secret. */
export interface OwnRule {
  type: string;
  keywords: readonly string[];
  source: string;
  flags: string;
}

/** Every rule, gitleaks' first, then ours (added by `secrets.ts`). */
const _rules: (GitleaksRule | OwnRule)[] = [...GITLEAKS_RULES];

/** Add rules of our own (before the first scan). */
export function addRules(rules: readonly OwnRule[]): void {
  if (_scanner !== null) throw new Error("Secret rules are added before the first scan");
  _rules.push(...rules);
}

const _BEFORE = 256;
const _AFTER = 4096;

let _scanner: KeywordScanner | null = null;
/** Per keyword, the rules that have it. */
let _rulesOf: number[][] = [];
const _compiled: (_Compiled | undefined)[] = [];

function _setup(): KeywordScanner {
  if (_scanner !== null) return _scanner;
  const keywords: string[] = [];
  const index = new Map<string, number>();
  _rules.forEach((rule, r) => {
    for (const k of rule.keywords) {
      let i = index.get(k);
      if (i === undefined) {
        index.set(k, i = keywords.length);
        keywords.push(k);
        _rulesOf.push([]);
      }
      _rulesOf[i]!.push(r);
    }
  });
  _rulesOf = _rulesOf.map((rs) => [...new Set(rs)]);
  return _scanner = new KeywordScanner(keywords);
}

function _compile(r: number): _Compiled {
  let c = _compiled[r];
  if (c !== undefined) return c;
  const rule = _rules[r]!;
  c = "id" in rule
    ? {
      type: rule.id.replaceAll("-", "_"),
      re: new RegExp(rule.source, rule.flags + "gd"),
      group: rule.group,
      entropy: rule.entropy,
      allow: rule.allow.map((a) => ({
        target: a.target,
        regexes: a.regexes.map((x) => new RegExp(x.source, x.flags)),
        stopwords: a.stopwords.map((w) => w.toLowerCase()),
      })),
    }
    : {
      type: rule.type,
      re: new RegExp(rule.source, rule.flags + "gd"),
      group: -1,
      entropy: 0,
      allow: [],
    };
  _compiled[r] = c;
  return c;
}

/** Whether a text holds any rule keyword (a cheap first check). */
export function hasRuleKeyword(text: string): boolean {
  let found = false;
  _setup().scan(text, () => found = true, () => found);
  return found;
}

/** The spans the keyword rules find in `text`, appended to `found`. */
export function ruleSpans(text: string, found: RuleSpan[]): void {
  const scanner = _setup();
  const lines = new _Lines(text);
  /** Per rule, its pending window (inside the current line). */
  const pending = new Map<number, { from: number; to: number }>();
  let line = -1;
  const flush = () => {
    for (const [r, w] of pending) _run(text, r, w.from, w.to, found);
    pending.clear();
  };
  scanner.scan(text, (end, k) => {
    const start = end - scanner.keywords[k]!.length;
    if (lines.advance(start) !== line) {
      flush();
      line = lines.number;
    }
    const from = Math.max(lines.start, start - _BEFORE);
    const to = Math.min(lines.end, end + _AFTER);
    for (const r of _rulesOf[k]!) {
      const w = pending.get(r);
      if (w !== undefined && from <= w.to) w.to = Math.max(w.to, to);
      else {
        if (w !== undefined) _run(text, r, w.from, w.to, found);
        pending.set(r, { from, to });
      }
    }
  });
  flush();
}

/** One rule over `text[from, to)`. */
function _run(text: string, r: number, from: number, to: number, found: RuleSpan[]): void {
  const rule = _compile(r);
  const window = text.slice(from, to);
  const re = rule.re;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(window)) !== null) {
    if (m[0] === "") {
      re.lastIndex++;
      continue;
    }
    const at = _secretAt(m, rule.group);
    const secret = window.slice(at[0], at[1]);
    if (rule.entropy > 0 && shannonEntropy(secret) < rule.entropy) continue;
    if (_allowed(rule, secret, m[0], window)) continue;
    found.push({ start: from + at[0], end: from + at[1], type: rule.type });
  }
}

/** The secret's `[start, end)` in a match: the rule's group, else the first non-empty one. */
function _secretAt(m: RegExpExecArray, group: number): [number, number] {
  const indices = m.indices!;
  if (group === -1) return indices.groups?.secret ?? indices[0]!;
  if (group > 0 && indices[group] !== undefined) return indices[group]!;
  for (let g = 1; g < indices.length; g++) {
    const span = indices[g];
    if (span !== undefined && span[1] > span[0]) return span;
  }
  return indices[0]!;
}

function _allowed(rule: _Compiled, secret: string, match: string, line: string): boolean {
  for (const a of rule.allow) {
    const target = a.target === "match" ? match : a.target === "line" ? line : secret;
    if (a.regexes.some((re) => re.test(target))) return true;
    if (a.stopwords.length > 0) {
      const lower = secret.toLowerCase();
      if (a.stopwords.some((w) => lower.includes(w))) return true;
    }
  }
  return false;
}

/**
 * Shannon entropy of a string in bits per character (gitleaks' measure).
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { shannonEntropy } from "./secret_rules.ts";
 * equal(shannonEntropy("aaaa"), 0);
 * equal(shannonEntropy("abcd"), 2);
 * ```
 */
export function shannonEntropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  const n = [...s].length;
  for (const c of counts.values()) {
    const p = c / n;
    h -= p * Math.log2(p);
  }
  return h;
}

/** The line holding a position, found walking forward (positions only grow): linear overall. */
class _Lines {
  readonly #text: string;
  readonly #cr: boolean;
  start = 0;
  end = -1;
  number = -1;

  constructor(text: string) {
    this.#text = text;
    this.#cr = text.includes("\r");
  }

  /** Move to the line holding `pos`; returns its number. */
  advance(pos: number): number {
    while (pos > this.end || this.number < 0) {
      if (this.number >= 0) this.start = this.#after(this.end);
      this.end = this.#breakFrom(this.start);
      this.number++;
      if (pos <= this.end) break;
    }
    return this.number;
  }

  #breakFrom(at: number): number {
    const t = this.#text;
    if (!this.#cr) {
      const nl = t.indexOf("\n", at);
      return nl === -1 ? t.length : nl;
    }
    for (let i = at; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c === 10 || c === 13) return i;
    }
    return t.length;
  }

  /** The start of the line after the break at `at` (`\r\n` is one break). */
  #after(at: number): number {
    const t = this.#text;
    return t.charCodeAt(at) === 13 && t.charCodeAt(at + 1) === 10 ? at + 2 : at + 1;
  }
}
