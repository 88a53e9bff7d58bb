/**
 * Secrets in indexed text (API.md §4.3): where they are, by position, so that every tool that
 * serves part of a file — a line range, a symbol with context lines, a search hit — hides the same
 * characters whatever window it shows, and nothing searchable is derived from them (the store
 * indexes the redacted text: see `src/store/search_inputs.ts`). The rules live in the lowest
 * layer that reads text, so that the store, the indexer and the tools apply the same ones.
 *
 * A secret span is replaced line by line: each line it touches shows `[REDACTED:<type>]` in place
 * of the secret characters, and line breaks are kept, so line numbers never move. Every pattern
 * here runs in time linear in the text (bounded quantifiers, keyword-anchored checks): a hostile
 * file cannot make redaction slow.
 *
 * The rules: gitleaks' provider rules (generated from its rule set, see `secret_rules.ts`) and
 * ours — private key blocks by position, the tokens below (whose placeholder names tools have
 * always shown), URL passwords, `Authorization: Basic`, and values that look generated assigned
 * to secret-named keys (quoted values may hold any character).
 */
import { addRules, hasRuleKeyword, ruleSpans } from "./secret_rules.ts";

/** A secret's position in a text: `[start, end)` in UTF-16 indices. */
export interface SecretSpan {
  start: number;
  end: number;
  type: string;
}

/**
 * A token recognised by its shape alone; a `secret` group names the redacted part when not all
 * of it. It runs on the lines that hold one of its `keywords` (lower case), as gitleaks' rules.
 */
interface _TokenRule {
  type: string;
  keywords: readonly string[];
  pattern: RegExp;
}

// Provider tokens. No leading `\b`: a token glued to a word character ("\nghp_…" in a string
// literal, where the "n" of the escape touches the prefix) is still a token.
const _TOKEN_RULES: readonly _TokenRule[] = [
  {
    type: "aws_access_key",
    keywords: ["akia", "asia", "abia", "acca", "agpa", "aida", "aroa"],
    pattern: /(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA)[0-9A-Z]{16}(?![0-9A-Z])/g,
  },
  { type: "gcp_api_key", keywords: ["aiza"], pattern: /AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  {
    type: "gcp_oauth_secret",
    keywords: ["gocspx-"],
    pattern: /GOCSPX-[0-9A-Za-z_-]{28}(?![0-9A-Za-z_-])/g,
  },
  { type: "gcp_access_token", keywords: ["ya29."], pattern: /ya29\.[0-9A-Za-z_-]{30,1024}/g },
  {
    type: "gcp_service_account",
    keywords: ["gserviceaccount"],
    pattern:
      /\b[a-z][a-z0-9-]{4,28}[a-z0-9]@[a-z][a-z0-9-]{4,28}[a-z0-9]\.iam\.gserviceaccount\.com\b/g,
  },
  {
    type: "azure_key",
    keywords: ["accountkey=", "sharedaccesskey=", "sharedaccesssignature="],
    pattern:
      /\b(?:AccountKey|SharedAccessKey|SharedAccessSignature)=(?<secret>[A-Za-z0-9+/=%]{20,1024})/g,
  },
  {
    type: "azure_client_secret",
    keywords: ["8q~"],
    pattern: /[A-Za-z0-9_~.-]{3}8Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g,
  },
  {
    type: "github_token",
    keywords: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
    pattern: /(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})(?![A-Za-z0-9_])/g,
  },
  { type: "slack_token", keywords: ["xox"], pattern: /xox[abposre]-[A-Za-z0-9-]{10,255}/g },
  {
    type: "slack_webhook",
    keywords: ["hooks.slack.com"],
    pattern: /hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9_/-]{20,255}/g,
  },
  {
    type: "stripe_key",
    keywords: ["_live_", "_test_"],
    pattern: /(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,255}/g,
  },
  { type: "anthropic_key", keywords: ["sk-ant-"], pattern: /sk-ant-[A-Za-z0-9_-]{20,255}/g },
  {
    type: "openai_key",
    keywords: ["sk-"],
    pattern:
      /sk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,255}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|[A-Za-z0-9]{48}(?![A-Za-z0-9]))/g,
  },
  { type: "npm_token", keywords: ["npm_"], pattern: /npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g },
  { type: "pypi_token", keywords: ["pypi-age"], pattern: /pypi-AgE[A-Za-z0-9_-]{50,1024}/g },
  {
    type: "jwt",
    keywords: ["eyj"],
    pattern: /eyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,4096}\.[A-Za-z0-9_-]{8,4096}/g,
  },
  {
    type: "bearer_token",
    keywords: ["bearer"],
    pattern: /\bBearer\s{1,8}(?<secret>[A-Za-z0-9._~+/-]{20,4096}=*)/gi,
  },
  {
    // `Authorization: Basic <base64 of user:password>` (a header, a dict entry, a curl -H).
    type: "basic_auth",
    keywords: ["authorization"],
    pattern:
      /\bAuthorization["']?[ \t]{0,4}[:=,][ \t]{0,4}["']?[ \t]{0,4}Basic[ \t]{1,8}(?<secret>[A-Za-z0-9+/]{8,4096}={0,2})/gi,
  },
  {
    // The password of a URL's user info: postgres://admin:<secret>@db, amqp://u:<secret>@mq.
    type: "url_password",
    keywords: ["://"],
    pattern: /:\/\/[^\s:@/'"`<>]{1,256}:(?<secret>[^\s:@/'"`<>]{3,256})@[A-Za-z0-9[]/g,
  },
  {
    type: "discord_webhook",
    keywords: ["discord"],
    pattern: /discord(?:app)?\.com\/api\/webhooks\/[0-9]{17,20}\/[A-Za-z0-9_-]{60,68}/g,
  },
  {
    // A PEM block base64-encoded again (a Kubernetes secret, a CI variable): "-----BEGIN".
    type: "private_key",
    keywords: ["ls0tls1crudjti"],
    pattern: /LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,65536}={0,2}/g,
  },
];

addRules(_TOKEN_RULES.map((r) => ({
  type: r.type,
  keywords: r.keywords,
  source: r.pattern.source,
  flags: r.pattern.flags.replace("g", ""),
})));

/** A private key's first line (PEM, OpenSSH, PGP; a PuTTY key file). */
const _KEY_BEGIN =
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d+:/g;
/** Its last line. */
const _KEY_END =
  /-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|Private-MAC:[ \t]*[0-9a-fA-F]+/g;
/** Farthest an END line may be from its BEGIN line (an 8192-bit RSA key is ~6.5 KB). */
const _KEY_MAX_CHARS = 64 * 1024;

/** A word that makes the value assigned to a key a secret (`aws_secret_access_key`, `apiToken`). */
const _SECRET_KEY_WORD =
  /secret|passw(?:or)?d|passphrase|token|api_?key|apikey|access_?key|private_?key|auth_?key|credential/gi;
/**
 * What follows a secret-named key up to the value: an optional closing quote, an optional type
 * annotation (`: str`), the assignment (`=`, `:`, `=>`, `:=`), an optional opening quote.
 */
const _ASSIGNED_VALUE =
  /["']?[ \t]{0,8}(?::[ \t]{0,8}[A-Za-z_][\w\[\]., |]{0,40}?[ \t]{0,8}(?==))?(?:=>|:=|=|:)[ \t]{0,8}(?:[rbuf]{0,2}(?<quote>["'`]))?(?<secret>[A-Za-z0-9+/=_\-.~!@#$%^&*]{12,512})/y;
/**
 * The same up to an opening quote, then a quoted value of any characters but its quote and a
 * line break (`DB_PASSWORD = "Xk9#mP2$vL5(qR8!"`, Django's `SECRET_KEY = 'django-insecure-…'`).
 */
const _QUOTED_VALUE =
  /["']?[ \t]{0,8}(?::[ \t]{0,8}[A-Za-z_][\w\[\]., |]{0,40}?[ \t]{0,8}(?==))?(?:=>|:=|=|:)[ \t]{0,8}[rbuf]{0,2}(?<quote>["'`])(?<secret>[^"'`\r\n]{8,512})/y;

// A cheap pre-check for the rules that are not keyword rules (key blocks, secret-named
// assignments): text without any of these fragments holds no such secret. The keyword rules
// have their own first check (secret_rules.ts).
const _HINT = /PRIVATE KEY|PuTTY-User-Key|secret|passw|token|key|credential/i;

/**
 * Where the secrets of a text are, sorted by start, not overlapping.
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { secretSpans } from "./secrets.ts";
 * deepEqual(secretSpans('id = "AKIAIOSFODNN7EXAMPLE"'), [
 *   { start: 6, end: 26, type: "aws_access_key" },
 * ]);
 * ```
 */
export function secretSpans(text: string): SecretSpan[] {
  const found: SecretSpan[] = [];
  ruleSpans(text, found);
  if (_HINT.test(text)) {
    _privateKeys(text, found);
    _assignedSecrets(text, found);
  }
  if (found.length === 0) return found;
  return mergeSpans(found);
}

/** Whether a text may hold a secret at all (a cheap first check; false means none). */
export function hasSecretHint(text: string): boolean {
  return _HINT.test(text) || hasRuleKeyword(text);
}

/** Whether a text holds any secret the rules recognise. */
export function hasSecret(text: string): boolean {
  return secretSpans(text).length > 0;
}

/**
 * `text.slice(from, to)` with every secret span replaced, line by line, by `[REDACTED:<type>]`
 * (line breaks kept). `spans` are those of the whole `text` (from {@linkcode secretSpans}).
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { redactRange, secretSpans } from "./secrets.ts";
 * const text = "a\n-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\nb";
 * const spans = secretSpans(text);
 * // The third line alone, as a line range inside the key would serve it:
 * equal(redactRange(text, spans, 30, 34), "[REDACTED:private_key]");
 * ```
 */
export function redactRange(
  text: string,
  spans: readonly SecretSpan[],
  from = 0,
  to = text.length,
): string {
  let out = "";
  let at = from;
  for (const s of spans) {
    if (s.end <= from) continue;
    if (s.start >= to) break;
    const start = Math.max(s.start, from);
    const end = Math.min(s.end, to);
    out += text.slice(at, start);
    out += _placeholderLines(text.slice(start, end), s.type);
    at = end;
  }
  return out + text.slice(at, to);
}

/**
 * A file's text as tools serve it: secrets redacted by position (line breaks kept) when `redact`
 * is on, else the text itself.
 */
export function servedText(text: string, redact = true): string {
  if (!redact) return text;
  const spans = secretSpans(text);
  return spans.length === 0 ? text : redactRange(text, spans);
}

/**
 * Redact secrets in one string; returns the new text and how many secrets were replaced.
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { redactSecrets } from "./secrets.ts";
 * deepEqual(redactSecrets('key = "AKIAIOSFODNN7EXAMPLE"'), {
 *   text: 'key = "[REDACTED:aws_access_key]"',
 *   count: 1,
 * });
 * ```
 */
export function redactSecrets(text: string): { text: string; count: number } {
  const spans = secretSpans(text);
  if (spans.length === 0) return { text, count: 0 };
  return { text: redactRange(text, spans), count: spans.length };
}

/** How every placeholder of a redacted secret begins (`[REDACTED:<type>]`). */
export const REDACTED_MARK = "[REDACTED:";

/** The placeholder for each line of a secret's characters, line breaks kept. */
function _placeholderLines(secret: string, type: string): string {
  const mark = `${REDACTED_MARK}${type}]`;
  // A break is \r\n, \n or a lone \r (the line rule of source_text.ts).
  return secret.split(/(\r\n|\n|\r)/).map((part, i) => i % 2 === 1 ? part : part === "" ? "" : mark)
    .join("");
}

/** The private-key blocks of a text (the only secrets that span lines), sorted by start. */
export function keySpans(text: string): SecretSpan[] {
  const found: SecretSpan[] = [];
  _privateKeys(text, found);
  return found;
}

function _privateKeys(text: string, found: SecretSpan[]): void {
  const begin = new RegExp(_KEY_BEGIN.source, "g");
  const end = new RegExp(_KEY_END.source, "g");
  // The next END line at or after a position, found once and reused while still ahead: many
  // BEGIN lines without END cost one search, not one each (linear, whatever the file holds).
  let nextEnd: RegExpExecArray | null | undefined;
  let m: RegExpExecArray | null;
  while ((m = begin.exec(text)) !== null) {
    const start = m.index;
    const after = start + m[0].length;
    if (nextEnd === undefined || (nextEnd !== null && nextEnd.index < after)) {
      end.lastIndex = after;
      nextEnd = end.exec(text);
    }
    let stop: number;
    if (nextEnd !== null && nextEnd.index - start <= _KEY_MAX_CHARS) {
      stop = nextEnd.index + nextEnd[0].length;
    } else stop = _keyBodyEnd(text, after);
    found.push({ start, end: stop, type: "private_key" });
    begin.lastIndex = Math.max(stop, begin.lastIndex);
  }
}

const _BREAK = /\r\n|\n|\r/g;

/**
 * Where a key block without its END line stops: after the header line, the following lines that
 * look like key material (base64 with the quotes, `+`, commas and `\n` escapes of a string
 * literal, or PEM headers like `Proc-Type:`), at most {@linkcode _KEY_MAX_CHARS} on.
 */
function _keyBodyEnd(text: string, from: number): number {
  const br = new RegExp(_BREAK.source, "g");
  // The rest of the header's own line belongs to the key (a one-line literal with \n escapes).
  br.lastIndex = from;
  let b = br.exec(text);
  if (b === null) return text.length;
  let stop = b.index;
  while (b !== null && stop - from <= _KEY_MAX_CHARS) {
    const lineStart = b.index + b[0].length;
    b = br.exec(text);
    const lineEnd = b === null ? text.length : b.index;
    const line = text.slice(lineStart, Math.min(lineEnd, lineStart + 4096));
    const core = line.replace(/\\n|\\r|["'`+,;()\s]/g, "");
    const material = core.length > 0 &&
      (/^[A-Za-z0-9+/=]+$/.test(core) ||
        /^(?:Proc-Type|DEK-Info|Comment|Version):/.test(line.trim()));
    if (!material) break;
    stop = lineEnd;
  }
  return stop;
}

function _assignedSecrets(text: string, found: SecretSpan[]): void {
  const word = new RegExp(_SECRET_KEY_WORD.source, "gi");
  const value = new RegExp(_ASSIGNED_VALUE.source, "yd");
  const quoted = new RegExp(_QUOTED_VALUE.source, "yd");
  let m: RegExpExecArray | null;
  while ((m = word.exec(text)) !== null) {
    // The rest of the key's name (`aws_secret_access_key`, `SecretKey`), at most 64 characters.
    let at = m.index + m[0].length;
    const limit = Math.min(text.length, at + 64);
    while (at < limit && _isKeyChar(text.charCodeAt(at))) at++;
    // The next key word is searched after this name (a run of names costs linear time).
    word.lastIndex = Math.max(word.lastIndex, at);
    quoted.lastIndex = at;
    value.lastIndex = at;
    const v = quoted.exec(text) ?? value.exec(text);
    if (v === null) continue;
    const [start, end] = v.indices!.groups!.secret!;
    const secret = text.slice(start, end);
    const quote = v.groups?.quote;
    if (quote !== undefined && text[end] !== quote) continue; // not the whole literal
    if (quote === undefined && end < text.length && !/[\s;,}\])]/.test(text[end]!)) continue;
    if (!_looksRandom(secret)) continue;
    const keyStart = _keyNameStart(text, m.index);
    const key = text.slice(keyStart, m.index + m[0].length).toLowerCase();
    found.push({ start, end, type: key.includes("aws") ? "aws_secret_key" : "secret" });
    word.lastIndex = end;
  }
}

function _keyNameStart(text: string, from: number): number {
  let at = from;
  const limit = Math.max(0, from - 64);
  while (at > limit && _isKeyChar(text.charCodeAt(at - 1))) at--;
  return at;
}

/** `[A-Za-z0-9_.-]`: a character of a key name. */
function _isKeyChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 ||
    c === 46 || c === 45;
}

/**
 * Whether a value assigned to a secret-named key looks generated rather than a word, a name or
 * a placeholder: letters and digits mixed, several distinct characters, no long runs of one.
 */
function _looksRandom(value: string): boolean {
  if (value.length < 12) return false;
  // Words with spaces between them are prose (a help text), not a generated value.
  if (/(?:\p{L}{3,}[ ,.;:]+){3}/u.test(value)) return false;
  if (!/[0-9]/.test(value) || !/[A-Za-z]/.test(value)) return false;
  if (/^(?:x+|\*+|[.-]+)$/i.test(value) || /(?:your|example|changeme|placeholder)/i.test(value)) {
    return /[A-Z]/.test(value) && /[a-z]/.test(value) && /[0-9]/.test(value) && value.length >= 32;
  }
  return new Set(value).size >= 8;
}

/** Spans sorted by start, overlapping ones joined. */
export function mergeSpans(spans: SecretSpan[]): SecretSpan[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: SecretSpan[] = [];
  for (const s of spans) {
    const last = out.at(-1);
    if (last !== undefined && s.start < last.end) {
      if (s.end > last.end) last.end = s.end;
      continue;
    }
    out.push({ ...s });
  }
  return out;
}
