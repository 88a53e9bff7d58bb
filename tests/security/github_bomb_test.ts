/**
 * index_repo against hostile GitHub answers (issue 25, critical 2): a small tarball of thousands
 * of large files, a pax header claiming 8 GB, an endless tarball, an endless tree listing. The
 * server runs as its own process with a V8 heap limit; each attack must end in a clear
 * `github_too_large` error while the server's peak resident memory stays bounded and `ping` is
 * answered within a second throughout.
 */
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { FakeGitHub, initRepo } from "../ingest/_fake_github.ts";
import { resultText } from "../e2e/_server.ts";
import { FREEZE_MS, limitedServer, longestPing } from "./_limited_server.ts";
import {
  blobSha,
  endless,
  fileEntry,
  lazyGzip,
  paxHeader,
  tarHeader,
  zeros,
} from "./_hostile_archives.ts";

const MB = 1024 * 1024;
/** The server's peak RSS must stay under this (the attacks reached 2.2-2.5 GB before). */
const PEAK_LIMIT_MB = 300;

/** A tree listing answer of these files. */
function _tree(files: { path: string; sha: string; size: number }[]): Response {
  const tree = files.map((f) => ({ ...f, mode: "100644", type: "blob" }));
  return new Response(JSON.stringify({ sha: "0".repeat(40), tree, truncated: false }), {
    headers: { "content-type": "application/json" },
  });
}

Deno.test("index_repo: hostile archives and listings end in an error, memory bounded, ping answered", async (t) => {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "codemunch-bomb-" }));
  const api = new FakeGitHub();
  initRepo(join(base, "checkout"), { "a.py": "x = 1\n" });
  for (const name of ["ok", "many", "pax", "endless", "tree"]) {
    api.repos.set(`evil/${name}`, { dir: join(base, "checkout") });
  }
  // 6,000 files of 500 KB (a 3 GB archive that gzips to a few MB), all in the tree listing.
  const content = new TextEncoder().encode(("# " + "a".repeat(97) + "\n").repeat(5000));
  const many = Array.from({ length: 6000 }, (_, i) => ({
    path: `f${i}.py`,
    sha: blobSha(content),
    size: content.length,
  }));
  let tarballs = 0;
  api.faults.push((path) => {
    const m = /^\/repos\/evil\/(\w+)\/(git\/trees|tarball)\//.exec(path);
    if (m === null || m[1] === "ok") return undefined;
    const [, name, kind] = m;
    if (kind === "git/trees") {
      if (name === "many") return _tree(many);
      if (name === "tree") {
        const head = new TextEncoder().encode('{"sha":"0","truncated":false,"tree":[');
        const rest = endless(
          '{"path":"a.py","mode":"100644","type":"blob","sha":"7898192261ad35ec26e8cff5df5fd3f4d9fc5fb2","size":6},',
        ).getReader();
        return new Response(
          new ReadableStream({
            start: (c) => c.enqueue(head),
            pull: async (c) => c.enqueue((await rest.read()).value!),
          }),
        );
      }
      return _tree([{ path: "a.py", sha: blobSha(new TextEncoder().encode("x = 1\n")), size: 6 }]);
    }
    tarballs++;
    if (name === "many") {
      return new Response(lazyGzip(function* () {
        for (const f of many) yield* fileEntry(`top/${f.path}`, content);
      }()));
    }
    if (name === "pax") {
      return new Response(lazyGzip(function* () {
        yield* paxHeader({ path: "top/a.py" }, 8 * 1024 * MB);
        yield* zeros(3 * 1024 * MB);
      }()));
    }
    return new Response(lazyGzip(function* () {
      yield tarHeader("top/big.bin", 100 * 1024 * MB);
      yield* zeros(Infinity);
    }()));
  });
  const server = await limitedServer({
    CODE_INDEX_PATH: join(base, "index"),
    CODEMUNCH_ALLOWED_ROOTS: base,
    GITHUB_API_URL: api.apiUrl,
    CODEMUNCH_GITHUB_RETRIES: "0",
    CODEMUNCH_GITHUB_MAX_UNPACKED_BYTES: String(128 * MB),
    CODEMUNCH_GITHUB_MAX_RESPONSE_BYTES: String(8 * MB),
  });
  const figures: string[] = [];
  const startRss = server.rssMb();
  try {
    const attack = async (name: string, expect: RegExp) => {
      const call = server.client.callTool({
        name: "index_repo",
        arguments: { url: `evil/${name}`, format: "json" },
      });
      const ping = await longestPing(server.client, call);
      const result = await call;
      const text = resultText(result);
      equal(result.isError, true, text);
      match(text, expect);
      const peak = server.peakRssMb();
      figures.push(`${name}: peak RSS ${peak.toFixed(0)} MB, longest ping ${ping.toFixed(0)} ms`);
      console.log(figures.at(-1));
      ok(peak < PEAK_LIMIT_MB, `peak RSS ${peak} MB after ${name}`);
      ok(ping < FREEZE_MS, `ping took ${ping} ms during ${name}`);
    };
    // A first, ordinary index loads the indexing code (module loading is no attack).
    const ok1 = await server.client.callTool({
      name: "index_repo",
      arguments: { url: "evil/ok", format: "json" },
    });
    equal(ok1.isError, undefined, resultText(ok1));
    await t.step("6,000 files of 500 KB: the unpacked cap", async () => {
      await attack("many", /github_too_large|unpacks to more than/);
    });
    await t.step("a pax header claiming 8 GB", async () => {
      await attack("pax", /extended header of 8589934592 bytes/);
    });
    await t.step("an endless tarball", async () => {
      await attack("endless", /unpacks to more than/);
    });
    await t.step("an endless tree listing", async () => {
      await attack("tree", /more than 8388608 bytes/);
    });
    equal(tarballs, 3);
    console.log(`server RSS after start-up: ${startRss.toFixed(0)} MB`);
    // Nothing is left behind in the index directory (the spool is removed).
    const left = [...Deno.readDirSync(join(base, "index"))].map((e) => e.name)
      .filter((n) => n.includes("spool"));
    equal(left.length, 0, left.join(", "));
  } finally {
    await server.close();
    await api.close();
    Deno.removeSync(base, { recursive: true });
  }
});
