/**
 * The three wire APIs a summary request can go to, each a single HTTP POST returning the reply's
 * text: the Anthropic Messages API, Google Gemini `generateContent`, and any OpenAI-compatible
 * `/chat/completions` endpoint (Ollama, vLLM, LM Studio, OpenRouter, OpenAI itself). Temperature
 * 0 (the same symbols get the same summaries), a bounded number of output tokens.
 */
import type { ProviderSettings } from "./config.ts";

/** A provider answered with an error status or a reply without text. */
export class ProviderError extends Error {
  override readonly name = "ProviderError";
}

/** Send one prompt; resolves to the reply text. */
export async function complete(
  provider: ProviderSettings,
  prompt: string,
  maxTokens: number,
  signal: AbortSignal,
): Promise<string> {
  const { url, headers, body } = _request(provider, prompt, maxTokens);
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal,
  });
  const text = await response.text();
  if (!response.ok) {
    throw new ProviderError(
      `${provider.kind} summarizer answered ${response.status}: ${text.slice(0, 200)}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ProviderError(`${provider.kind} summarizer sent a reply that is not JSON`);
  }
  const reply = _replyText(provider.kind, json);
  if (reply === null) throw new ProviderError(`${provider.kind} summarizer sent no text`);
  return reply;
}

function _request(
  p: ProviderSettings,
  prompt: string,
  maxTokens: number,
): { url: string; headers: Record<string, string>; body: unknown } {
  switch (p.kind) {
    case "anthropic":
      return {
        url: `${p.baseUrl}/v1/messages`,
        headers: { "x-api-key": p.apiKey ?? "", "anthropic-version": "2023-06-01" },
        body: {
          model: p.model,
          max_tokens: maxTokens,
          temperature: 0,
          messages: [{ role: "user", content: prompt }],
        },
      };
    case "gemini":
      return {
        url: `${p.baseUrl}/v1beta/models/${encodeURIComponent(p.model)}:generateContent`,
        headers: { "x-goog-api-key": p.apiKey ?? "" },
        body: {
          contents: [{ role: "user", parts: [{ text: prompt }] }],
          generationConfig: { temperature: 0, maxOutputTokens: maxTokens },
        },
      };
    case "openai":
      return {
        url: `${p.baseUrl}/chat/completions`,
        headers: p.apiKey !== undefined ? { authorization: `Bearer ${p.apiKey}` } : {},
        body: {
          model: p.model,
          temperature: 0,
          max_tokens: maxTokens,
          messages: [{ role: "user", content: prompt }],
        },
      };
  }
}

function _replyText(kind: ProviderSettings["kind"], json: unknown): string | null {
  const j = json as Record<string, unknown>;
  let parts: unknown[] = [];
  if (kind === "anthropic") {
    parts = Array.isArray(j.content)
      ? j.content.map((c) => (c as { type?: string; text?: unknown }).text)
      : [];
  } else if (kind === "gemini") {
    const c = (j.candidates as { content?: { parts?: { text?: unknown }[] } }[] | undefined)?.[0];
    parts = c?.content?.parts?.map((p) => p.text) ?? [];
  } else {
    const m = (j.choices as { message?: { content?: unknown } }[] | undefined)?.[0]?.message;
    parts = [m?.content];
  }
  const texts = parts.filter((t): t is string => typeof t === "string");
  return texts.length === 0 ? null : texts.join("\n");
}
