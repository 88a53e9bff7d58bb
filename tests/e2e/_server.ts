/**
 * Helpers for the end-to-end tests: a temporary multi-language project and index directory, and
 * an MCP client that spawns the server the way the README's client configuration does
 * (`deno run --allow-read --allow-env --allow-run scripts/serve.ts serve`, which starts `main.ts`
 * with the narrow permission flags).
 */
import { cpSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { decode } from "../../mod.ts";

/** The checkout (repository root). */
export const CHECKOUT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** A temporary project with Python, Go and TypeScript code, plus a file holding fake secrets. */
export function tempProject(prefix = "codemunch-e2e-"): {
  base: string;
  root: string;
  indexDir: string;
  dispose: () => void;
} {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix }));
  const root = join(base, "project");
  const indexDir = join(base, "index");
  Deno.mkdirSync(root);
  for (const lang of ["python", "go", "typescript"]) {
    cpSync(join(CHECKOUT, "fixtures", "languages", lang), join(root, lang), { recursive: true });
    Deno.removeSync(join(root, lang, "expected.json"));
  }
  Deno.writeTextFileSync(
    join(root, "settings.py"),
    [
      '"""Deployment settings (fake credentials for the redaction test)."""',
      'AWS_KEY_ID = "AKIAIOSFODNN7EXAMPLE"',
      'GITHUB = "ghp_0123456789abcdefghijABCDEFGHIJ012345"',
      "",
      "def load_settings(path):",
      '    """Load settings from a file."""',
      "    return {}",
      "",
    ].join("\n"),
  );
  return {
    base,
    root,
    indexDir,
    dispose: () => Deno.removeSync(base, { recursive: true }),
  };
}

/** The environment a client config would give the server. */
export function serverEnv(
  root: string,
  indexDir: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: Deno.env.get("HOME") ?? "/tmp",
    DENO_DIR: Deno.env.get("DENO_DIR") ?? "",
    CODE_INDEX_PATH: indexDir,
    CODEMUNCH_ALLOWED_ROOTS: root,
    ...extra,
  };
}

/** A connected MCP client talking to a freshly spawned server (started in `cwd`, default `root`). */
export async function connect(
  root: string,
  indexDir: string,
  extra: Record<string, string> = {},
  cwd: string = root,
): Promise<{ client: Client; stderr: () => string; close: () => Promise<void> }> {
  const env = serverEnv(root, indexDir, extra);
  if (env.DENO_DIR === "") delete env.DENO_DIR;
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: [
      "run",
      "--allow-read",
      "--allow-env",
      "--allow-run",
      join(CHECKOUT, "scripts", "serve.ts"),
      "serve",
    ],
    env,
    cwd,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array | string) => {
    stderr += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
  });
  const client = new Client({ name: "codemunch-e2e", version: "0" });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** The text of a tool result. */
export function resultText(result: unknown): string {
  const content = (result as { content: { type: string; text: string }[] }).content;
  if (content.length !== 1 || content[0]!.type !== "text") {
    throw new Error(`Expected one text content, got ${JSON.stringify(content)}`);
  }
  return content[0]!.text;
}

/** Call a tool; returns the parsed/decoded body and the raw text. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; text: string; body: Record<string, unknown> }> {
  const result = await client.callTool({ name, arguments: args });
  const text = resultText(result);
  return {
    isError: result.isError === true,
    text,
    body: decode(text) as Record<string, unknown>,
  };
}

/** `_meta` fields that legitimately differ between two calls of the same tool. */
const _VOLATILE_META = [
  "timing_ms",
  "cache_hit",
  "total_tokens_saved",
  "encoding",
  "encoding_tokens_saved",
  "total_encoding_tokens_saved",
];

/** A copy without the volatile `_meta` fields. */
export function normalised(body: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(body);
  const meta = copy._meta as Record<string, unknown> | undefined;
  if (meta !== undefined) { for (const k of _VOLATILE_META) delete meta[k]; }
  return copy;
}
