/**
 * Secrets served by windows (src/query/secrets.ts): whatever window of a file a tool serves, the
 * SecretMap hides exactly the characters the whole file's spans hide there — checked for every
 * window of a file with a key block, a token, an assigned password and line breaks of each kind.
 */
import { deepEqual, equal } from "node:assert/strict";
import { redactRange, SecretMap, secretSpans, servedText } from "../../src/query/secrets.ts";

const _TEXT = [
  "# config",
  'aws = "AKIAIOSFODNN7EXAMPLE"',
  "-----BEGIN RSA PRIVATE KEY-----",
  "MIIEowIBAAKCAQEA",
  "-----END RSA PRIVATE KEY-----",
  'password = "hunter2hunter2"\r\ntoken ghp_0123456789abcdefghijABCDEFGHIJ012345\rplain line',
  "",
].join("\n");

Deno.test("secrets: every window agrees with the whole file's spans", () => {
  const whole = secretSpans(_TEXT);
  equal(whole.length >= 3, true, JSON.stringify(whole));
  const map = new SecretMap(_TEXT);
  const problems: string[] = [];
  for (let from = 0; from < _TEXT.length; from += 3) {
    for (let to = from + 1; to <= _TEXT.length; to += 7) {
      const want = redactRange(_TEXT, whole, from, to);
      if (map.redacted(from, to) !== want) problems.push(`[${from}, ${to})`);
    }
  }
  deepEqual(problems, []);
  equal(map.redacted(0, _TEXT.length), servedText(_TEXT));
});

Deno.test("secrets: the spans of a window are whole-text positions", () => {
  const map = new SecretMap(_TEXT);
  const line = _TEXT.indexOf("aws");
  const spans = map.spansIn(line + 10, line + 12);
  deepEqual(spans.map((s) => [s.type, _TEXT.slice(s.start, s.end)]), [
    ["aws_access_key", "AKIAIOSFODNN7EXAMPLE"],
  ]);
  // Inside the key block, whose header the window does not hold.
  const inKey = _TEXT.indexOf("MIIE");
  deepEqual(map.spansIn(inKey, inKey + 4).map((s) => s.type), ["private_key"]);
  equal(map.redacted(inKey, inKey + 16), "[REDACTED:private_key]");
  // A window without secrets has none.
  deepEqual(map.spansIn(0, 8), []);
  equal(map.redacted(0, 8), "# config");
});

Deno.test("secrets: a file without secrets is served as it is", () => {
  const text = "def f():\n    return 'no secret here'\n";
  const map = new SecretMap(text);
  deepEqual(map.spansIn(0, text.length), []);
  equal(map.redacted(4, 20), text.slice(4, 20));
});
