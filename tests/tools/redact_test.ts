import { deepStrictEqual, equal } from "node:assert/strict";
import { redactDeep, redactText } from "../../src/server/redact.ts";

Deno.test("redactText replaces each kind of secret and counts it", async (t) => {
  const cases: [string, string, string][] = [
    ["AWS access key", 'id = "AKIAIOSFODNN7EXAMPLE"', 'id = "[REDACTED:aws_access_key]"'],
    [
      "AWS secret key keeps its name",
      "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      "aws_secret_access_key = [REDACTED:aws_secret_key]",
    ],
    ["GCP API key", "key=AIzaSyA1234567890abcdefghijklmnopqrstuv", "key=[REDACTED:gcp_api_key]"],
    [
      "GCP service account",
      "runner@my-project-1.iam.gserviceaccount.com",
      "[REDACTED:gcp_service_account]",
    ],
    [
      "Azure account key",
      "DefaultEndpointsProtocol=https;AccountKey=abcdEFGH1234abcdEFGH1234abcdEFGH1234==;",
      "DefaultEndpointsProtocol=https;AccountKey=[REDACTED:azure_key];",
    ],
    ["GitHub token", "ghp_0123456789abcdefghijABCDEFGHIJ012345", "[REDACTED:github_token]"],
    ["Slack token", "xoxb-123456789012-abcdefghij", "[REDACTED:slack_token]"],
    [
      "JWT",
      "Bearer? eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
      "Bearer? [REDACTED:jwt]",
    ],
    [
      "bearer header",
      "Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345",
      "Authorization: Bearer [REDACTED:bearer_token]",
    ],
    [
      "private key block",
      "x\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----\ny",
      "x\n[REDACTED:private_key]\ny",
    ],
    ["private key header alone", "-----BEGIN PRIVATE KEY-----", "[REDACTED:private_key]"],
  ];
  for (const [name, input, output] of cases) {
    await t.step(name, () => {
      deepStrictEqual(redactText(input), { text: output, count: 1 });
    });
  }
  await t.step("ordinary code is left alone", () => {
    const code = "def secret_santa(names):\n    return AKIA_PREFIX + token.strip()\n";
    deepStrictEqual(redactText(code), { text: code, count: 0 });
  });
});

Deno.test("redactDeep redacts string values at any depth, not keys", () => {
  const value = {
    "AKIAIOSFODNN7EXAMPLE": 1,
    results: [{ text: "AKIAIOSFODNN7EXAMPLE and ghp_0123456789abcdefghijABCDEFGHIJ012345" }],
    n: 3,
  };
  equal(redactDeep(value), 2);
  deepStrictEqual(value, {
    "AKIAIOSFODNN7EXAMPLE": 1,
    results: [{ text: "[REDACTED:aws_access_key] and [REDACTED:github_token]" }],
    n: 3,
  });
});
