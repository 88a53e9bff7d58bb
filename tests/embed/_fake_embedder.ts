/**
 * A fake embedding provider on 127.0.0.1 speaking the OpenAI-compatible `/v1/embeddings` and the
 * Gemini `batchEmbedContents` / `embedContent` shapes. Its vectors are bags of concepts: each word
 * (name parts split) counts in the bucket of its concept, and a few synonyms share one concept
 * (`delete`, `remove`, `erase`), so a query can match a symbol that shares none of its words —
 * what semantic search is for. Failures are scripted: the next N requests answer a status (with
 * `Retry-After: 0`), or one reply has a vector of the wrong length.
 */

/** Length of the fake's vectors. */
export const FAKE_DIM = 32;

const _SYNONYMS = new Map<string, string>(Object.entries({
  remove: "delete",
  erase: "delete",
  drop: "delete",
  fetch: "load",
  read: "load",
  get: "load",
  sum: "add",
  plus: "add",
  total: "add",
  settings: "config",
}));

/** The fake's embedding of a text. */
export function fakeVector(text: string): number[] {
  const v = new Array(FAKE_DIM).fill(0);
  const words = text.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/);
  for (const w of words) {
    if (w === "") continue;
    const concept = _SYNONYMS.get(w) ?? w;
    let h = 2166136261;
    for (const c of concept) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
    v[(h >>> 0) % FAKE_DIM] += 1;
  }
  if (v.every((x) => x === 0)) v[0] = 1;
  return v;
}

/** One request the fake received. */
export interface FakeRequest {
  path: string;
  headers: Headers;
  body: Record<string, unknown>;
  /** Texts in the request. */
  texts: string[];
}

/** The running fake. */
export interface FakeEmbedder {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  requests: FakeRequest[];
  /** Answer the next `n` requests with `status` (and `Retry-After: 0`). */
  failNext(n: number, status: number, message?: string): void;
  /** Give the next reply's last vector one extra dimension. */
  badDimensionNext(): void;
  close(): Promise<void>;
}

/** Start the fake on a free port. */
export function startFakeEmbedder(): FakeEmbedder {
  const requests: FakeRequest[] = [];
  let failures: { n: number; status: number; message: string } = { n: 0, status: 0, message: "" };
  let badDimension = false;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const body = await req.json() as Record<string, unknown>;
    const texts = _texts(path, body);
    requests.push({ path, headers: req.headers, body, texts });
    if (failures.n > 0) {
      failures.n--;
      return Response.json({ error: { message: failures.message } }, {
        status: failures.status,
        headers: { "retry-after": "0" },
      });
    }
    const vectors = texts.map(fakeVector);
    if (badDimension && vectors.length > 0) {
      badDimension = false;
      vectors[vectors.length - 1]!.push(1);
    }
    if (path.endsWith("/embeddings")) {
      // Entries in reverse order: a client must order them by index.
      const data = vectors.map((embedding, index) => ({ object: "embedding", index, embedding }));
      return Response.json({ object: "list", data: data.reverse(), model: body.model });
    }
    if (path.endsWith(":batchEmbedContents")) {
      return Response.json({ embeddings: vectors.map((values) => ({ values })) });
    }
    if (path.endsWith(":embedContent")) return Response.json({ embedding: { values: vectors[0] } });
    return Response.json({ error: { message: `no route ${path}` } }, { status: 404 });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    failNext(n, status, message = "slow down") {
      failures = { n, status, message };
    },
    badDimensionNext() {
      badDimension = true;
    },
    close: () => server.shutdown(),
  };
}

/** The texts of an embedding request; none for another route (e.g. the AI summarizer's chat). */
function _texts(path: string, body: Record<string, unknown>): string[] {
  if (path.endsWith("/embeddings")) {
    return typeof body.input === "string" ? [body.input] : body.input as string[];
  }
  const text = (c: unknown) => (c as { parts: { text: string }[] }).parts[0]!.text;
  if (path.endsWith(":batchEmbedContents")) {
    return (body.requests as { content: unknown }[]).map((r) => text(r.content));
  }
  return path.endsWith(":embedContent") ? [text(body.content)] : [];
}
