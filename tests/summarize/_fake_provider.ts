/**
 * A fake AI provider on 127.0.0.1 speaking the three wire APIs (Anthropic Messages, Gemini
 * generateContent, OpenAI chat completions). It answers each numbered prompt line
 * `N. <kind>: <signature>` with `N. AI: <kind> <name>`; modes make it answer in prose only
 * (malformed), skip every second line (partial), fail with 500, or answer slowly.
 */

/** One request the provider received. */
export interface ProviderRequest {
  path: string;
  headers: Headers;
  prompt: string;
}

/** How the provider answers. */
export type ProviderMode = "ok" | "partial" | "malformed" | "error" | "slow";

/** The fake provider. */
export class FakeProvider {
  readonly requests: ProviderRequest[] = [];
  mode: ProviderMode = "ok";
  readonly #server: Deno.HttpServer<Deno.NetAddr>;

  constructor() {
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (r) => this.#handle(r),
    );
  }

  get url(): string {
    return `http://127.0.0.1:${this.#server.addr.port}`;
  }

  close(): Promise<void> {
    return this.#server.shutdown();
  }

  async #handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const body = await request.json() as Record<string, unknown>;
    let prompt = "";
    let wire: "anthropic" | "gemini" | "openai";
    if (url.pathname === "/v1/messages") {
      wire = "anthropic";
      prompt = (body.messages as { content: string }[])[0]!.content;
    } else if (/^\/v1beta\/models\/[^/]+:generateContent$/.test(url.pathname)) {
      wire = "gemini";
      prompt = (body.contents as { parts: { text: string }[] }[])[0]!.parts[0]!.text;
    } else if (url.pathname.endsWith("/chat/completions")) {
      wire = "openai";
      prompt = (body.messages as { content: string }[])[0]!.content;
    } else {
      return new Response("no such endpoint", { status: 404 });
    }
    this.requests.push({ path: url.pathname, headers: request.headers, prompt });
    if (this.mode === "error") return new Response('{"error":"overloaded"}', { status: 500 });
    if (this.mode === "slow") await new Promise((r) => setTimeout(r, 400));
    const lines: string[] = [];
    for (const line of prompt.split("\n")) {
      const m = /^(\d+)\. (\w+): (.*)$/.exec(line);
      if (m === null) continue;
      const name = /(?:def|function|class|func)\s+(\w+)/.exec(m[3]!)?.[1] ?? m[3]!;
      if (this.mode === "partial" && Number(m[1]) % 2 === 0) continue;
      lines.push(`${m[1]}. AI: ${m[2]} ${name}`);
    }
    const text = this.mode === "malformed"
      ? "I'm sorry, but these look like perfectly fine functions to me."
      : `Here are the summaries:\n\n${lines.join("\n")}\n`;
    const reply = wire === "anthropic"
      ? { content: [{ type: "text", text }] }
      : wire === "gemini"
      ? { candidates: [{ content: { parts: [{ text }] } }] }
      : { choices: [{ message: { role: "assistant", content: text } }] };
    return Response.json(reply);
  }
}
