/**
 * The repository argument of `index_repo`: `owner/repo`, `https://github.com/owner/repo`, with a
 * trailing `.git`, or a browser URL such as `…/owner/repo/tree/<ref>/path` (the ref is taken
 * from it; a branch name with a `/` must be passed as `ref`). URLs of github.com are accepted, and
 * with `GITHUB_API_URL` set (GitHub Enterprise, a test server) those of its web host too: the
 * owner and name are then looked up through that API.
 */
import { ToolError } from "../errors.ts";

/** A repository and, when the argument named one, a ref. */
export interface RepoRef {
  owner: string;
  name: string;
  /** Branch, tag or commit from a `/tree/<ref>` or `/commit/<sha>` URL; undefined otherwise. */
  ref?: string;
}

const _PART = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The web host that goes with an API URL: `github.com` for `api.github.com`, the same host for
 * GitHub Enterprise (`https://ghe.example.com/api/v3`).
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { webHostOf } from "./github_url.ts";
 * equal(webHostOf("https://api.github.com"), "github.com");
 * equal(webHostOf("https://ghe.example.com/api/v3"), "ghe.example.com");
 * ```
 */
export function webHostOf(apiUrl: string): string {
  const host = new URL(apiUrl).host;
  return host === "api.github.com" ? "github.com" : host;
}

/**
 * Parse the `url` argument. Throws `ToolError("invalid_argument")` with what was expected.
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { parseRepoUrl } from "./github_url.ts";
 * deepEqual(parseRepoUrl("denoland/deno"), { owner: "denoland", name: "deno" });
 * deepEqual(parseRepoUrl("https://github.com/denoland/deno.git"), { owner: "denoland", name: "deno" });
 * deepEqual(
 *   parseRepoUrl("https://github.com/denoland/deno/tree/v2.1/cli"),
 *   { owner: "denoland", name: "deno", ref: "v2.1" },
 * );
 * ```
 */
export function parseRepoUrl(text: string, webHost = "github.com"): RepoRef {
  const input = text.trim();
  if (input === "") {
    throw new ToolError(
      "invalid_argument",
      'Argument "url" must name a repository: owner/repo or https://github.com/owner/repo',
    );
  }
  let parts: string[];
  if (!input.includes("://") && !input.startsWith("git@")) {
    parts = input.replace(/^\/+/, "").split("/");
  } else {
    let url: URL;
    try {
      url = new URL(input.startsWith("git@") ? _scpToUrl(input) : input);
    } catch {
      throw new ToolError("invalid_argument", `Could not parse GitHub URL: ${input}`);
    }
    const host = url.host.toLowerCase().replace(/^www\./, "");
    if (host !== webHost.toLowerCase() && host !== "github.com") {
      throw new ToolError(
        "invalid_argument",
        `Unsupported host '${url.host}'. Only ${webHost} repositories are accepted${
          webHost === "github.com" ? " (set GITHUB_API_URL for GitHub Enterprise)" : ""
        }`,
      );
    }
    parts = decodeURIComponent(url.pathname).replace(/^\/+/, "").split("/");
  }
  const owner = parts[0] ?? "";
  const name = (parts[1] ?? "").replace(/\.git$/, "");
  if (!_PART.test(owner) || !_PART.test(name)) {
    throw new ToolError(
      "invalid_argument",
      `Invalid owner/repo format: ${input}. Expected owner/repo or https://github.com/owner/repo`,
    );
  }
  const out: RepoRef = { owner, name };
  const kind = parts[2];
  const ref = parts[3];
  if (
    (kind === "tree" || kind === "blob" || kind === "commit") && ref !== undefined && ref !== ""
  ) {
    out.ref = ref;
  }
  return out;
}

/** `git@host:owner/repo.git` as an ssh URL. */
function _scpToUrl(text: string): string {
  const m = /^git@([^:]+):(.*)$/.exec(text);
  if (m === null) throw new Error("not an scp-like address");
  return `ssh://git@${m[1]}/${m[2]}`;
}
