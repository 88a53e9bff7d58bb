import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { decode, encodeResponse } from "../../mod.ts";
import { envelope, fillSentinels, SENTINELS } from "../../src/server/envelope.ts";
import { DEFAULT_SETTINGS, settingsFromEnv } from "../../src/server/config.ts";
import { SavingsCounter } from "../../src/store/savings.ts";
import { CODEC_SPECS, codecOptions } from "../../src/server/codec_spec.ts";

/** search_symbols' layout, as the runner passes it to the envelope. */
const SPEC = codecOptions("search_symbols").spec;

const response = {
  result_count: 12,
  results: Array.from({ length: 12 }, (_, i) => ({
    id: `src/pkg/module_${i % 3}.py::Service.handle_${i}#method`,
    kind: "method",
    name: `handle_${i}`,
    file: `src/pkg/module_${i % 3}.py`,
    line: 10 * i,
    signature: `def handle_${i}(self, request):`,
    summary: "Handle one request.",
    byte_length: 100 + i,
    score: 51.5,
  })),
};

function withSavings(f: (savings: SavingsCounter) => void) {
  const dir = Deno.makeTempDirSync({ prefix: "codemunch-envelope-" });
  const savings = new SavingsCounter(join(dir, "index"));
  try {
    f(savings);
  } finally {
    savings.close();
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("envelope: the compact text is exactly the encoding of the final response", () => {
  withSavings((savings) => {
    savings.add(1000, 200);
    const out = { response: structuredClone(response), rawBytes: 40_000, repo: "local/app-1" };
    const env = envelope("search_symbols", SPEC, out, 1.26, "compact", DEFAULT_SETTINGS, savings);
    equal(env.encoding, "gen1");
    const body = decode(env.text) as Record<string, unknown>;
    const meta = body._meta as Record<string, number | string>;
    equal(meta.encoding, "gen1");
    equal(meta.timing_ms, 1.3);
    equal(meta.repo, "local/app-1");
    const jsonBytes = new TextEncoder().encode(JSON.stringify(response)).length;
    equal(meta.tokens_saved, Math.floor((40_000 - jsonBytes) / 4));
    equal(meta.total_tokens_saved, 1000 + (meta.tokens_saved as number));
    ok((meta.encoding_tokens_saved as number) > 0);
    equal(meta.total_encoding_tokens_saved, 200 + (meta.encoding_tokens_saved as number));
    // Filling in the numbers after encoding gives the same text as encoding them directly.
    equal(
      encodeResponse("search_symbols", body as never, { format: "compact", spec: SPEC! }).text,
      env.text,
    );
    deepStrictEqual(savings.totals(), {
      total_tokens_saved: meta.total_tokens_saved,
      total_encoding_tokens_saved: meta.total_encoding_tokens_saved,
    });
  });
});

Deno.test("envelope: json, auto, table and _meta off", async (t) => {
  await t.step("json has no encoding fields", () => {
    withSavings((savings) => {
      const env = envelope(
        "search_symbols",
        SPEC,
        { response: structuredClone(response) },
        2,
        "json",
        DEFAULT_SETTINGS,
        savings,
      );
      const body = JSON.parse(env.text);
      equal(body._meta.encoding, undefined);
      equal(body._meta.tokens_saved, 0);
    });
  });
  await t.step("auto sends JSON when MUNCH does not save enough", () => {
    withSavings((savings) => {
      const env = envelope(
        "list_repos",
        undefined,
        { response: { count: 0, repos: [] } },
        2,
        "auto",
        DEFAULT_SETTINGS,
        savings,
      );
      equal(env.encoding, "json");
      equal(JSON.parse(env.text)._meta.encoding, undefined);
    });
  });
  await t.step("table keeps _meta as plain JSON", () => {
    withSavings((savings) => {
      const env = envelope(
        "search_symbols",
        SPEC,
        { response: structuredClone(response) },
        2,
        "table",
        DEFAULT_SETTINGS,
        savings,
      );
      equal(env.encoding, "table");
      ok("cols" in JSON.parse(env.text).results);
    });
  });
  await t.step("meta off leaves _meta out but still counts savings", () => {
    withSavings((savings) => {
      const env = envelope(
        "search_symbols",
        SPEC,
        { response: structuredClone(response), rawBytes: 10_000 },
        2,
        "compact",
        { ...DEFAULT_SETTINGS, meta: false },
        savings,
      );
      deepStrictEqual(decode(env.text), response);
      ok(savings.totals().total_tokens_saved > 0);
    });
  });
  await t.step("redaction is counted, and off when the setting says so", () => {
    withSavings((savings) => {
      const secret = { text: "key AKIAIOSFODNN7EXAMPLE" };
      const on = envelope(
        "x_tool",
        undefined,
        { response: { ...secret } },
        1,
        "json",
        DEFAULT_SETTINGS,
        savings,
      );
      deepStrictEqual(JSON.parse(on.text).text, "key [REDACTED:aws_access_key]");
      equal(JSON.parse(on.text)._meta.secrets_redacted, 1);
      const off = envelope("x_tool", undefined, { response: { ...secret } }, 1, "json", {
        ...DEFAULT_SETTINGS,
        redact: false,
      }, savings);
      equal(JSON.parse(off.text).text, secret.text);
    });
  });
});

Deno.test("envelope: the _meta numbers of one compact encoding are filled in, not re-encoded", () => {
  const meta = {
    timing_ms: 1.5,
    tokens_saved: 3,
    total_tokens_saved: SENTINELS.total,
    encoding: "gen1",
    encoding_tokens_saved: SENTINELS.saved,
    total_encoding_tokens_saved: SENTINELS.totalSaved,
  };
  const values = { total: 123, saved: 45, totalSaved: 678 };
  for (const tool of ["search_symbols", "get_file_outline", "search_text", "list_repos"]) {
    const first = encodeResponse(tool, { ...response, _meta: meta } as never, {
      format: "compact",
    });
    const filled = fillSentinels(first.text, values);
    ok(filled !== null, `${tool}: sentinels not found in ${first.text}`);
    const body = decode(filled) as { _meta: Record<string, unknown> };
    deepStrictEqual(body._meta, {
      ...meta,
      total_tokens_saved: 123,
      encoding_tokens_saved: 45,
      total_encoding_tokens_saved: 678,
    });
  }
  // A sentinel that occurs twice (say, in file content) is not guessed at.
  equal(fillSentinels(`a=${SENTINELS.total} b=${SENTINELS.total}\n`, values), null);
});

Deno.test("envelope: the server's extension setting reaches the codec", () => {
  const env = (values: Record<string, string>) => (name: string) => values[name];
  equal(settingsFromEnv(env({})).munchExtensions, false);
  equal(settingsFromEnv(env({ CODEMUNCH_MUNCH_EXTENSIONS: "on" })).munchExtensions, true);
  withSavings((savings) => {
    const settings = { ...DEFAULT_SETTINGS, munchExtensions: true };
    const out = { response: structuredClone(response), rawBytes: 40_000, repo: "local/app-1" };
    const ext = envelope("search_symbols", SPEC, out, 1, "compact", settings, savings);
    ok(ext.text.startsWith("#MUNCH/1x tool=search_symbols enc=ss1x\n"), ext.text.slice(0, 60));
    equal(ext.encoding, "ss1x");
    const body = decode(ext.text, { specs: CODEC_SPECS }) as Record<string, unknown>;
    equal((body._meta as Record<string, unknown>).encoding, "ss1x");
    const strict = envelope("search_symbols", SPEC, out, 1, "compact", DEFAULT_SETTINGS, savings);
    ok(strict.text.startsWith("#MUNCH/1 tool=search_symbols enc=gen1\n"));
  });
});

Deno.test("envelope: _meta is one __json._meta blob, with freshness counts only when a row is not fresh", () => {
  withSavings((savings) => {
    const call = (freshness: Record<string, number>) => {
      const out = {
        response: structuredClone(response),
        rawBytes: 40_000,
        repo: "local/app-1",
        meta: { total_symbols: 40, truncated: false, freshness },
      };
      const env = envelope("search_symbols", SPEC, out, 1, "compact", DEFAULT_SETTINGS, savings);
      // One blob, as the reference's gen1 encoder writes `_meta`: no `_meta.` scalar.
      ok(env.text.includes(' __json._meta="{'), env.text);
      ok(!env.text.includes(" _meta."), env.text);
      return (decode(env.text) as { _meta: Record<string, unknown> })._meta;
    };
    const fresh = call({ fresh: 12, edited_uncommitted: 0, stale_index: 0 });
    deepStrictEqual(Object.keys(fresh), [
      "timing_ms",
      "repo",
      "total_symbols",
      "truncated",
      "tokens_saved",
      "total_tokens_saved",
      "encoding",
      "encoding_tokens_saved",
      "total_encoding_tokens_saved",
    ]);
    const edited = call({ fresh: 11, edited_uncommitted: 1, stale_index: 0 });
    deepStrictEqual(
      [edited.freshness_fresh, edited.freshness_edited_uncommitted, edited.freshness_stale_index],
      [11, 1, 0],
    );
  });
});
