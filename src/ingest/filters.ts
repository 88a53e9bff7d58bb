/**
 * Index-time filters (API.md §4.3, extended): directories and files that are never indexed,
 * secret files, binary content. Each returns a reason so the walk can count what it skipped.
 */

/** Directory names never descended (VCS, dependencies, build output, caches). */
export const SKIP_DIRS: ReadonlySet<string> = new Set([
  ".git",
  ".hg",
  ".svn",
  ".bzr",
  "_darcs",
  ".jj",
  "node_modules",
  "bower_components",
  "jspm_packages",
  "vendor",
  "venv",
  ".venv",
  "__pycache__",
  ".tox",
  ".nox",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
  ".eggs",
  "site-packages",
  "dist",
  "build",
  "target",
  ".gradle",
  ".build",
  "DerivedData",
  ".next",
  ".nuxt",
  ".svelte-kit",
  ".turbo",
  ".parcel-cache",
  ".cache",
  ".terraform",
  ".serverless",
  "test_data",
  "testdata",
  "snapshots",
  "__snapshots__",
  "generated",
  ".idea",
  ".vscode",
]);

/** Directory name suffixes never descended. */
const _SKIP_DIR_SUFFIXES = [".xcodeproj", ".xcworkspace", ".egg-info"];

/** Whether a directory (by name) is skipped by default. */
export function isSkippedDir(name: string): boolean {
  return SKIP_DIRS.has(name) || _SKIP_DIR_SUFFIXES.some((s) => name.endsWith(s));
}

/** File name suffixes skipped: generated bundles and lock files. */
const _SKIP_FILE_SUFFIXES = [
  ".min.js",
  ".min.mjs",
  ".min.cjs",
  ".min.ts",
  ".min.css",
  ".bundle.js",
  ".chunk.js",
  "package-lock.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "go.sum",
  "Cargo.lock",
  "poetry.lock",
  "composer.lock",
  "Gemfile.lock",
];

/** Whether a file (by name) is a generated bundle or lock file. */
export function isSkippedFile(name: string): boolean {
  return _SKIP_FILE_SUFFIXES.some((s) => name.endsWith(s));
}

/** Extensions that are binary whatever their content. */
const _BINARY_EXTENSIONS = new Set([
  ".exe",
  ".dll",
  ".so",
  ".dylib",
  ".bin",
  ".out",
  ".o",
  ".obj",
  ".a",
  ".lib",
  ".ko",
  ".zip",
  ".tar",
  ".gz",
  ".tgz",
  ".bz2",
  ".xz",
  ".zst",
  ".7z",
  ".rar",
  ".jar",
  ".war",
  ".ear",
  ".png",
  ".jpg",
  ".jpeg",
  ".gif",
  ".bmp",
  ".ico",
  ".icns",
  ".svg",
  ".webp",
  ".tif",
  ".tiff",
  ".psd",
  ".mp3",
  ".wav",
  ".flac",
  ".ogg",
  ".mp4",
  ".mov",
  ".avi",
  ".mkv",
  ".webm",
  ".pdf",
  ".doc",
  ".docx",
  ".xls",
  ".xlsx",
  ".ppt",
  ".pptx",
  ".odt",
  ".pyc",
  ".pyo",
  ".class",
  ".wasm",
  ".db",
  ".sqlite",
  ".sqlite3",
  ".ttf",
  ".otf",
  ".woff",
  ".woff2",
  ".eot",
  ".map",
]);

/** Whether a file name has a binary extension. */
export function hasBinaryExtension(name: string): boolean {
  const dot = name.lastIndexOf(".");
  return dot > 0 && _BINARY_EXTENSIONS.has(name.slice(dot).toLowerCase());
}

/** Exact file names (lower case) that hold secrets. */
const _SECRET_NAMES = new Set([
  ".env",
  "id_rsa",
  "id_dsa",
  "id_ecdsa",
  "id_ed25519",
  "id_ecdsa_sk",
  "id_ed25519_sk",
  ".htpasswd",
  ".netrc",
  "_netrc",
  ".npmrc",
  ".pypirc",
  ".pgpass",
  ".git-credentials",
  ".dockercfg",
  ".s3cfg",
  ".boto",
  "credentials",
  "credentials.json",
  "credentials.yml",
  "credentials.yaml",
  "secrets.yml",
  "secrets.yaml",
  "secrets.json",
  "secrets.toml",
  "master.key",
  "terraform.tfstate",
  "terraform.tfstate.backup",
  "keystore.properties",
  "known_hosts",
  "authorized_keys",
]);

/** Extensions (lower case) of keys, certificates and credential stores. */
const _SECRET_EXTENSIONS = new Set([
  ".env",
  ".pem",
  ".key",
  ".p12",
  ".pfx",
  ".p8",
  ".ppk",
  ".crt",
  ".cer",
  ".der",
  ".csr",
  ".p7b",
  ".p7c",
  ".jks",
  ".keystore",
  ".truststore",
  ".kdbx",
  ".gpg",
  ".pgp",
  ".asc",
  ".credentials",
  ".token",
  ".secrets",
  ".tfvars",
  ".ovpn",
  ".keychain",
]);

/** Documentation extensions exempt from the `*secret*` name rule (a doc *about* secrets). */
const _DOC_EXTENSIONS = new Set([
  ".md",
  ".markdown",
  ".mdx",
  ".rst",
  ".txt",
  ".adoc",
  ".asciidoc",
  ".html",
  ".htm",
  ".ipynb",
]);

/**
 * Whether a file name denotes a secret: `.env` and `.env.*`, private keys (`id_rsa`, `*.pem`,
 * `*.key`, …), certificates and keystores, credential files (`.netrc`, `.npmrc`,
 * `credentials.json`, `service-account*.json`, …), and any name containing `secret` (except
 * documentation files).
 */
export function isSecretFile(name: string): boolean {
  const lower = name.toLowerCase();
  if (_SECRET_NAMES.has(lower)) return true;
  if (lower.startsWith(".env.") || lower.startsWith(".env-")) return true;
  if (/^id_(rsa|dsa|ecdsa|ed25519)(_sk)?\./.test(lower)) return true;
  if (lower.startsWith("service-account") && lower.endsWith(".json")) return true;
  const dot = lower.lastIndexOf(".");
  const ext = dot > 0 ? lower.slice(dot) : dot === 0 ? lower : "";
  if (_SECRET_EXTENSIONS.has(ext)) return true;
  if (lower.includes("secret") && !_DOC_EXTENSIONS.has(ext)) return true;
  return false;
}

const _sniffDecoder = new TextDecoder();
const _encoder = new TextEncoder();

/**
 * A file's bytes as stored: UTF-16 text with a byte-order mark is decoded and stored as UTF-8
 * (without the mark), so it is searched and parsed like any other text; other bytes are kept as
 * they are.
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { decodedText } from "./filters.ts";
 * const utf16le = new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]);
 * deepEqual(decodedText(utf16le), new TextEncoder().encode("hi"));
 * ```
 */
export function decodedText(bytes: Uint8Array): Uint8Array {
  if (bytes.length < 2) return bytes;
  const le = bytes[0] === 0xff && bytes[1] === 0xfe;
  const be = bytes[0] === 0xfe && bytes[1] === 0xff;
  if (!le && !be) return bytes;
  // UTF-32 LE starts FF FE 00 00: not UTF-16 (and left to the binary check).
  if (le && bytes.length >= 4 && bytes[2] === 0 && bytes[3] === 0) return bytes;
  try {
    const text = new TextDecoder(le ? "utf-16le" : "utf-16be", { fatal: true }).decode(bytes);
    return _encoder.encode(text);
  } catch {
    return bytes;
  }
}

/** Bytes per window of the binary check. */
const _WINDOW = 8192;

/**
 * Whether content is binary: a NUL byte anywhere, or more than 10% of the decoded characters of
 * any 8 KB window being invalid UTF-8 — the whole file is checked, so a binary file whose first
 * 8 KB look like text is caught. Text with a few stray invalid bytes (a Latin-1 comment) is kept
 * and stored byte for byte. (UTF-16 text is decoded first, see {@linkcode decodedText}.)
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { looksBinary } from "./filters.ts";
 * const text = new TextEncoder().encode("x = 1\n".repeat(2000));
 * equal(looksBinary(text), false);
 * const tail = new Uint8Array(20000).fill(0xff);
 * equal(looksBinary(new Uint8Array([...text, ...tail])), true);
 * ```
 */
export function looksBinary(bytes: Uint8Array): boolean {
  if (bytes.indexOf(0) !== -1) return true;
  let firstHigh = -1;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i]! >= 0x80) {
      firstHigh = i;
      break;
    }
  }
  if (firstHigh === -1) return false;
  for (let at = firstHigh - (firstHigh % _WINDOW); at < bytes.length; at += _WINDOW) {
    const window = bytes.subarray(at, at + _WINDOW);
    const text = _sniffDecoder.decode(window);
    let bad = 0;
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 0xfffd) bad++;
    // Multi-byte characters cut at the window's ends are up to two replacements, not evidence.
    bad = Math.max(0, bad - 2);
    if (bad > 0.1 * text.length) return true;
  }
  return false;
}
