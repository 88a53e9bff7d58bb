/**
 * A fake GitHub API on 127.0.0.1 for the index_repo tests, answering from a real git repository
 * in a temporary folder (so the tarball is real `git archive` output and the tree, blob SHAs and
 * sizes are git's own): `commits/{ref}` (vnd.github.sha), `git/trees/{sha}?recursive=1`,
 * `tarball/{sha}` (a redirect to a codeload-like path on the same server, as GitHub does),
 * `git/blobs/{sha}` (raw) and `contents/{path}` (raw). Repositories may require a token. Faults
 * are injected per request; every request is logged.
 */
import { dirname, join } from "node:path";

/** One logged request. */
export interface LoggedRequest {
  path: string;
  authorization: string | null;
  accept: string | null;
}

/** A fault: answer this request instead of the repository (undefined: no fault). */
export type Fault = (path: string, request: Request) => Promise<Response> | Response | undefined;

/** Run git in `cwd`; returns stdout bytes. */
export function git(cwd: string, ...args: string[]): Uint8Array {
  const out = new Deno.Command("git", {
    args: [
      "-c",
      "user.name=Test",
      "-c",
      "user.email=test@example.com",
      "-c",
      "commit.gpgsign=false",
      "-c",
      "core.autocrlf=false",
      ...args,
    ],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return out.stdout;
}

/** Text output of git. */
export function gitText(cwd: string, ...args: string[]): string {
  return new TextDecoder().decode(git(cwd, ...args)).trim();
}

/** Write files (and symlinks: `{ symlink: target }`) into a checkout. */
export function writeFiles(
  root: string,
  files: Record<string, string | Uint8Array | { symlink: string }>,
): void {
  for (const [path, content] of Object.entries(files)) {
    const abs = join(root, path);
    Deno.mkdirSync(dirname(abs), { recursive: true });
    if (typeof content === "string") Deno.writeTextFileSync(abs, content);
    else if (content instanceof Uint8Array) Deno.writeFileSync(abs, content);
    else Deno.symlinkSync(content.symlink, abs);
  }
}

/** Create a git repository with these files committed; returns the commit SHA. */
export function initRepo(
  root: string,
  files: Record<string, string | Uint8Array | { symlink: string }>,
): string {
  Deno.mkdirSync(root, { recursive: true });
  git(root, "init", "-q", "-b", "main");
  return commitAll(root, files, "initial");
}

/** Write files, commit everything; returns the new commit SHA. */
export function commitAll(
  root: string,
  files: Record<string, string | Uint8Array | { symlink: string }>,
  message = "change",
): string {
  writeFiles(root, files);
  // -f: files a .gitignore matches are committed too (tracked files the filters must skip).
  git(root, "add", "-A", "-f");
  git(root, "commit", "-q", "-m", message);
  return gitText(root, "rev-parse", "HEAD");
}

/** A served repository. */
export interface FakeRepo {
  /** The checkout (a real git repository). */
  dir: string;
  /** A token the requests must carry (`Bearer <token>`), else 404 as GitHub does. */
  token?: string;
}

/** The fake API. */
export class FakeGitHub {
  readonly repos = new Map<string, FakeRepo>();
  readonly log: LoggedRequest[] = [];
  faults: Fault[] = [];
  readonly #server: Deno.HttpServer<Deno.NetAddr>;
  readonly #hangs: (() => void)[] = [];

  constructor() {
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (request) => this.#handle(request),
    );
  }

  /** The API root to put in `GITHUB_API_URL`. */
  get apiUrl(): string {
    return `http://127.0.0.1:${this.#server.addr.port}`;
  }

  /** Requests whose path matches. */
  requests(pattern: RegExp): LoggedRequest[] {
    return this.log.filter((r) => pattern.test(r.path));
  }

  /** A response that never comes (until `close`). */
  hang(): Promise<Response> {
    return new Promise((resolve) => {
      this.#hangs.push(() => resolve(new Response("closed", { status: 503 })));
    });
  }

  async close(): Promise<void> {
    for (const h of this.#hangs) h();
    await this.#server.shutdown();
  }

  async #handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname + url.search;
    this.log.push({
      path,
      authorization: request.headers.get("authorization"),
      accept: request.headers.get("accept"),
    });
    for (const fault of this.faults) {
      const r = await fault(path, request);
      if (r !== undefined) return r;
    }
    const m = /^\/(?:repos|_codeload)\/([^/]+)\/([^/]+)\/(.*)$/.exec(url.pathname);
    if (m === null) return _json(404, { message: "Not Found" });
    const [, owner, name, rest] = m as unknown as [string, string, string, string];
    const repo = this.repos.get(`${owner}/${name}`);
    const auth = request.headers.get("authorization");
    if (repo === undefined || (repo.token !== undefined && auth !== `Bearer ${repo.token}`)) {
      return _json(404, { message: "Not Found" });
    }
    try {
      if (url.pathname.startsWith("/_codeload/")) {
        const sha = rest.replace(/^tar\.gz\//, "");
        const archive = git(
          repo.dir,
          "archive",
          "--format=tar.gz",
          `--prefix=${owner}-${name}-${sha.slice(0, 7)}/`,
          sha,
        );
        return new Response(archive as Uint8Array<ArrayBuffer>, {
          headers: { "content-type": "application/x-gzip" },
        });
      }
      let p: RegExpExecArray | null;
      if ((p = /^commits\/(.+)$/.exec(rest)) !== null) {
        const ref = decodeURIComponent(p[1]!);
        let sha: string;
        try {
          sha = gitText(repo.dir, "rev-parse", "--verify", "-q", `${ref}^{commit}`);
        } catch {
          return _json(422, { message: `No commit found for SHA: ${ref}` });
        }
        return new Response(sha, { headers: { "content-type": "text/plain" } });
      }
      if ((p = /^git\/trees\/([0-9a-f]+)$/.exec(rest)) !== null) {
        const recursive = url.searchParams.get("recursive") === "1";
        const lines = recursive
          ? gitText(repo.dir, "ls-tree", "-r", "-t", "-l", "--full-tree", p[1]!)
          : gitText(repo.dir, "ls-tree", "-l", "--full-tree", p[1]!);
        const tree = lines === "" ? [] : lines.split("\n").map((line) => {
          const [meta, path] = line.split("\t") as [string, string];
          const [mode, type, sha, size] = meta.split(/\s+/) as [string, string, string, string];
          return {
            path,
            mode,
            type,
            sha,
            ...(type === "blob" ? { size: Number(size) } : {}),
          };
        });
        return _json(200, {
          sha: gitText(repo.dir, "rev-parse", `${p[1]}^{tree}`),
          tree,
          truncated: false,
        });
      }
      if ((p = /^tarball\/([0-9a-f]+)$/.exec(rest)) !== null) {
        return new Response(null, {
          status: 302,
          headers: { location: `/_codeload/${owner}/${name}/tar.gz/${p[1]}` },
        });
      }
      if ((p = /^git\/blobs\/([0-9a-f]+)$/.exec(rest)) !== null) {
        return new Response(git(repo.dir, "cat-file", "blob", p[1]!) as Uint8Array<ArrayBuffer>);
      }
      if ((p = /^contents\/(.+)$/.exec(rest)) !== null) {
        const ref = url.searchParams.get("ref") ?? "HEAD";
        return new Response(
          git(repo.dir, "show", `${ref}:${decodeURIComponent(p[1]!)}`) as Uint8Array<ArrayBuffer>,
        );
      }
    } catch {
      return _json(404, { message: "Not Found" });
    }
    return _json(404, { message: "Not Found" });
  }
}

function _json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}
