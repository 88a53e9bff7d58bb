/**
 * Redaction runs on every served window of a file, on the main thread: a hostile file must not
 * make it slow. Each input is 500 KB built to defeat a naive rule (many key headers without an
 * END line — quadratic before —, runs of key words, long token-like runs).
 */
import { ok } from "node:assert/strict";
import { secretSpans } from "../../src/parser/secrets.ts";

const N = 500_000;
const INPUTS: Record<string, string> = {
  "a long word": "a".repeat(N),
  "key=": "key=".repeat(N / 4),
  "secret_ run": "secret_".repeat(N / 7),
  "token: run": "token: ".repeat(N / 7),
  "JWT prefix then a run": "eyJ" + "a".repeat(N),
  "JWT-like pieces": ("eyJ" + "a".repeat(20) + ".").repeat(N / 24),
  "Bearer run": "Bearer ".repeat(N / 7),
  "key headers without END": "-----BEGIN PRIVATE KEY-----\n".repeat(N / 28),
  "header and a long base64 body": "-----BEGIN RSA PRIVATE KEY-----\n" + "QUJD\n".repeat(N / 5),
  "Azure marker run": "8Q~".repeat(N / 3),
  "AKIA run": "AKIA".repeat(N / 4),
  "open literal": 'password = "' + "Ab1".repeat(N / 3),
  "type annotation run": "secret: " + "a, ".repeat(N / 3),
  "sk- run": "sk-".repeat(N / 3),
  "assignments without values": "secret_key: str = x1".repeat(N / 20),
};

Deno.test("secret redaction takes linear time on hostile 500 KB inputs", () => {
  for (const [name, text] of Object.entries(INPUTS)) {
    const started = performance.now();
    secretSpans(text);
    const ms = performance.now() - started;
    // Quadratic inputs took 14 s here; linear ones take well under 0.5 s (5 s: a loaded CI machine).
    ok(ms < 5000, `${name}: ${ms.toFixed(0)} ms`);
  }
});

Deno.test("secret redaction stays fast on runs of every rule keyword (50 KB each)", async () => {
  const { GITLEAKS_RULES } = await import("../../src/parser/secret_rules_gitleaks.ts");
  const keywords = [...new Set(GITLEAKS_RULES.flatMap((r) => r.keywords))];
  const n = 50_000;
  let worst = { ms: 0, input: "" };
  for (const k of keywords) {
    for (const unit of [k + "=", k + '="', k + "_", k + " "]) {
      const text = unit.repeat(Math.ceil(n / unit.length));
      const started = performance.now();
      secretSpans(text);
      const ms = performance.now() - started;
      if (ms > worst.ms) worst = { ms, input: JSON.stringify(unit) };
    }
    const long = k + "A1b2".repeat(n / 4);
    const started = performance.now();
    secretSpans(long);
    const ms = performance.now() - started;
    if (ms > worst.ms) worst = { ms, input: `${JSON.stringify(k)} + a long token` };
  }
  ok(worst.ms < 5000, `${worst.input}: ${worst.ms.toFixed(0)} ms`);
});
