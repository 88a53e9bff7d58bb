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
      // Line by line, so that line numbers stay those of the file.
      "x\n[REDACTED:private_key]\n[REDACTED:private_key]\n[REDACTED:private_key]\n[REDACTED:private_key]\ny",
    ],
    ["private key header alone", "-----BEGIN PRIVATE KEY-----", "[REDACTED:private_key]"],
    // Forms an adversarial probe found unredacted (issue 10).
    [
      "typed Python assignment",
      'aws_secret_access_key: str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"',
      'aws_secret_access_key: str = "[REDACTED:aws_secret_key]"',
    ],
    [
      "env-style AWS_SECRET_KEY",
      "AWS_SECRET_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      "AWS_SECRET_KEY=[REDACTED:aws_secret_key]",
    ],
    [
      "camel-case SecretKey",
      'SecretKey: "q8Zr2vLx91KdPw0TnYb4"',
      'SecretKey: "[REDACTED:secret]"',
    ],
    [
      "JSON Authorization header",
      '{"Authorization": "Bearer abcdefghijklmnopqrstuvwxyz012345"}',
      '{"Authorization": "Bearer [REDACTED:bearer_token]"}',
    ],
    [
      "token glued to a word character",
      '"\\nghp_0123456789abcdefghijABCDEFGHIJ012345"',
      '"\\n[REDACTED:github_token]"',
    ],
    [
      "Stripe",
      'stripe.api_key = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"',
      'stripe.api_key = "[REDACTED:stripe_key]"',
    ],
    [
      "Slack webhook",
      "url = https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
      "url = https://[REDACTED:slack_webhook]",
    ],
    ["Google OAuth secret", "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", "[REDACTED:gcp_oauth_secret]"],
    [
      "Anthropic",
      "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789",
      "[REDACTED:anthropic_key]",
    ],
    [
      "OpenAI",
      "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789",
      "[REDACTED:openai_key]",
    ],
    [
      "npm",
      "//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789",
      "//registry.npmjs.org/:_authToken=[REDACTED:npm_token]",
    ],
    [
      "PyPI",
      "password = pypi-AgEIcHlwaS5vcmcCJDAwMDAwMDAwLTAwMDAtMDAwMC0wMDAwLTAwMDAwMDAwMDAwMAACKl",
      "password = [REDACTED:pypi_token]",
    ],
    [
      "Azure client secret",
      'client_secret = "abc8Q~defghijklmnopqrstuvwxyz0123456789"',
      'client_secret = "[REDACTED:azure_client_secret]"',
    ],
    [
      "generic secret-named assignment",
      'DB_PASSWORD = "Zx81kQ0pL2mN7vB4"',
      'DB_PASSWORD = "[REDACTED:secret]"',
    ],
  ];
  for (const [name, input, output] of cases) {
    await t.step(name, () => {
      deepStrictEqual(redactText(input), { text: output, count: 1 });
    });
  }
  await t.step("ordinary code is left alone", () => {
    const code = "def secret_santa(names):\n    return AKIA_PREFIX + token.strip()\n" +
      'password = get_password(user)\ntoken = tokens[0]\nSECRET_KEY = os.environ["SECRET_KEY"]\n' +
      'api_key: str = "your-api-key-here"\npassword = "hunter2"\n';
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
