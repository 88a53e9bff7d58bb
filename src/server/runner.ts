/**
 * The tool runner: one call of one tool, from raw arguments to the text a client receives —
 * shared by the MCP server and the CLI. Failures never escape: a `ToolError` becomes an error
 * result `{"error", "code", ...details}`; anything else is logged to stderr and answered with a
 * generic message.
 */
import type { Format } from "../codec/dispatch.ts";
import { DEFAULT_INGEST_CONFIG, type IngestConfig } from "../ingest/config.ts";
import { DEFAULT_GITHUB_SETTINGS, type GitHubSettings } from "../ingest/github_config.ts";
import { NO_SUMMARIZER, type SummarizerSettings } from "../summarize/config.ts";
import {
  createProvider,
  type EmbeddingProvider,
  type EmbeddingSettings,
  NO_EMBEDDINGS,
} from "../embed/mod.ts";
import type { FileParser, ProgressFn } from "../ingest/index_local.ts";
import { ParserPool } from "../parser/pool.ts";
import type { Store } from "../store/store.ts";
import { unusableDatabase } from "../store/sqlite.ts";
import type { ToolContext } from "../tools/context.ts";
import { DetailedToolError, ToolError } from "../errors.ts";
import { IDLE_DROP_MS, RepoViews } from "../query/view.ts";
import { closeIdleWorkers, setIdleCloseMs } from "../query/search_pool.ts";
import { readGitHead } from "../ingest/git_head.ts";
import { historySource } from "../ingest/git/history.ts";
import { DEFAULT_HISTORY_LIMITS, type HistoryLimits } from "../ingest/git/limits.ts";
import { type Tool, toolByName, toolNames, TOOLS } from "../tools/mod.ts";
import { expandHandleIds } from "../tools/handle_ids.ts";
import { withDefaultRepo } from "../tools/default_repo.ts";
import { PROJECT_CONFIG_FILE, readProjectConfig } from "../ingest/project_config.ts";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { prepareArguments } from "./arguments.ts";
import { DEFAULT_SETTINGS, type ServerSettings } from "./config.ts";
import { envelope } from "./envelope.ts";
import { codecSpec } from "./codec_spec.ts";
import { WatchManager, type WatchSettings } from "./watch.ts";
import { FreshReads } from "./fresh_reads.ts";
import { ALL_TOOLS, isServed, type ToolVisibility } from "./tool_profile.ts";

/** Quiet time after an answer before `idle` prepares the next search, in ms. */
const _IDLE_MS = 150;
/**
 * Quiet time after the last call before the server gives back what a session's queries left
 * cached (SQLite's page caches, V8's spare heap), in ms: as long as the parser pool's idle stop,
 * short beside an idle session, long beside the pauses of a burst of calls.
 */
export const SETTLE_MS = 30_000;

/** See {@linkcode _collector}: undefined until first asked, null where none could be had. */
let _gc: (() => void) | null | undefined;

/**
 * V8's full collection: the global `gc` when the launcher's `--expose-gc` gave one, else the same
 * function from a fresh context once the flag is set at run time: a server started without the
 * launcher's flags (`deno run main.ts serve`) collects at its settle and rest too (gostd's idle
 * with the rest at 60 s and V8's defaults: 275 -> 229 MB, BENCHMARKS.md session 11). Null where
 * V8 gives none.
 */
function _collector(): (() => void) | null {
  if (_gc !== undefined) return _gc;
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === "function") return _gc = exposed as () => void;
  try {
    setFlagsFromString("--expose-gc");
    const made = runInNewContext("gc") as unknown;
    _gc = typeof made === "function" ? made as () => void : null;
  } catch {
    _gc = null;
  }
  return _gc;
}

/** What a runner (and a server) is built from. */
export interface ServerDeps {
  /** The index store. */
  store: Store;
  /** Indexing settings. @default DEFAULT_INGEST_CONFIG */
  ingest?: IngestConfig;
  /** Envelope settings. @default DEFAULT_SETTINGS */
  settings?: ServerSettings;
  /** Base for relative folder paths. @default Deno.cwd() */
  cwd?: string;
  /** Parser for index runs. @default a ParserPool created on first use */
  parser?: FileParser;
  /** Bounds of git history reads. @default DEFAULT_HISTORY_LIMITS */
  history?: HistoryLimits;
  /** Where diagnostics go. @default console.error */
  log?: (message: string) => void;
  /** How index_repo talks to GitHub. @default DEFAULT_GITHUB_SETTINGS (no token) */
  github?: GitHubSettings;
  /** The AI summary tier. @default NO_SUMMARIZER (docstring and signature summaries only) */
  summarizer?: SummarizerSettings;
  /** The embedding provider of semantic search. @default NO_EMBEDDINGS (none) */
  embeddings?: EmbeddingSettings;
  /**
   * Watch mode (servers only): folders indexed through this runner are watched and re-indexed
   * as they change. @default off
   */
  watch?: WatchSettings;
}

/** The outcome of one call. */
export interface CallResult {
  /** JSON, MUNCH or table text. */
  text: string;
  isError: boolean;
  /** `json`, `table` or the MUNCH encoding id; `error` for errors. */
  encoding: string;
  /** Stable error code when `isError`. */
  code?: string;
  /** The tool error itself (in-process callers such as the CLI render it in their own words). */
  error?: ToolError;
}

/** Per-call options. */
export interface CallOptions {
  /** Format used when the arguments name none. */
  format?: Format;
  onProgress?: ProgressFn;
}

/** Runs tools against one store. */
export class ToolRunner {
  readonly #ctx: ToolContext;
  readonly #settings: ServerSettings;
  readonly #log: (message: string) => void;
  #pool: ParserPool | null = null;
  #embedder: EmbeddingProvider | null = null;
  /** The repo of the last successful call, for {@linkcode idle}. */
  #lastRepo: string | undefined;
  readonly #watch: WatchManager | null;
  /** The prewarm `idle` scheduled, until a call comes first. */
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** Calls running now: idle work waits until there are none. */
  #inFlight = 0;
  /** Read tools answer from the files as they are on disk (fresh_reads.ts). */
  readonly #fresh: FreshReads;
  /** The settle after the last call (see {@linkcode SETTLE_MS}), until a call comes first. */
  #settleTimer: ReturnType<typeof setTimeout> | undefined;
  #settles = 0;
  /** The rest after the last call (see {@linkcode rests}), until a call comes first. */
  #restTimer: ReturnType<typeof setTimeout> | undefined;
  #rests = 0;
  /** `CODEMUNCH_IDLE_DROP_S` in ms: when a quiet server rests. */
  readonly #idleDropMs: number;

  constructor(deps: ServerDeps) {
    this.#settings = deps.settings ?? DEFAULT_SETTINGS;
    const idleDropMs = (this.#settings.idleDropS ?? IDLE_DROP_MS / 1000) * 1000;
    this.#idleDropMs = idleDropMs;
    // A quiet server's rest closes the idle search workers after it dropped the views (see
    // #restSoon); their own idle close comes later, for a server busy with other tools.
    setIdleCloseMs(idleDropMs + SETTLE_MS);
    this.#log = deps.log ?? ((m) => console.error(m));
    const parser = deps.parser;
    const ingest = deps.ingest ?? DEFAULT_INGEST_CONFIG;
    this.#ctx = {
      store: deps.store,
      ingest,
      parser: () => parser ?? (this.#pool ??= new ParserPool()),
      cwd: deps.cwd ?? Deno.cwd(),
      views: new RepoViews(deps.store, {
        gitHead: readGitHead,
        history: historySource(ingest.allowedRoots, deps.history ?? DEFAULT_HISTORY_LIMITS),
        idleDropMs,
      }),
      github: deps.github ?? DEFAULT_GITHUB_SETTINGS,
      summarizer: deps.summarizer ?? NO_SUMMARIZER,
      embedder: () => this.#embedder ??= createProvider(deps.embeddings ?? NO_EMBEDDINGS),
      redact: this.#settings.redact,
      folderIndexed: (root) => this.folderIndexed(root),
      serves: (name) => isServed(this.visibility, name),
    };
    const watch = deps.watch?.enabled
      ? new WatchManager(this.#ctx, deps.watch, this.#log, (repo) => {
        this.#prewarmSoon(repo);
        // A re-index of a watched change is activity too: the server settles and rests again
        // after it (its parser workers and the facets the prewarm built go then).
        if (this.#inFlight === 0) this.#quietSoon();
      })
      : null;
    this.#watch = watch;
    if (watch !== null) {
      this.#ctx.watchReport = () => watch.report();
      // Every indexed folder is followed from the start, not only the ones this server indexes
      // (a client starts a new server for each session; `init` indexed in another process).
      if (deps.watch!.watchIndexed) {
        setTimeout(() => {
          watch.watchIndexed(this.#ctx.ingest.allowedRoots).catch((e) =>
            this.#log(`codemunch: watching the indexed folders failed: ${e}`)
          );
        }, 0);
      }
    }
    this.#fresh = new FreshReads(this.#watch, this.#log);
  }

  /** The read model of every repo this runner reads (benchmarks and diagnostics). */
  get views(): RepoViews {
    return this.#ctx.views;
  }

  /** The watched folders (null when watch mode is off). */
  get watcher(): WatchManager | null {
    return this.#watch;
  }

  /**
   * Watch a folder just indexed when watch mode is on (its index records the options it was
   * indexed with); resolves once its changes are followed, with a warning when they are not.
   */
  async folderIndexed(root: string): Promise<string | null> {
    return await this.#watch?.watch(root) ?? null;
  }

  /** Every tool this runner can call (the CLI calls any; MCP clients see {@linkcode visibility}). */
  get tools(): readonly Tool[] {
    return TOOLS;
  }

  /** The tools MCP clients see and may call (the settings' profile and `disabled_tools`). */
  get visibility(): ToolVisibility {
    return this.#settings.tools ?? ALL_TOOLS;
  }

  /** The own name of the tool called `name` (an alias's tool), or undefined for no tool. */
  canonicalName(name: string): string | undefined {
    return toolByName(name)?.name;
  }

  /** Call a tool by name with raw (unvalidated) arguments. Never throws. */
  async call(name: string, rawArgs: unknown, options: CallOptions = {}): Promise<CallResult> {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    clearTimeout(this.#settleTimer);
    this.#settleTimer = undefined;
    clearTimeout(this.#restTimer);
    this.#restTimer = undefined;
    this.#inFlight++;
    try {
      return await this.#call(name, rawArgs, options);
    } finally {
      this.#inFlight--;
      if (this.#inFlight === 0) this.#quietSoon();
    }
  }

  /** Schedule the settle and the rest of a server that has nothing to do now. */
  #quietSoon(): void {
    this.#settleSoon();
    this.#restSoon();
  }

  /** Parser workers running now (none before the first index, nor after a rest). */
  get parserWorkers(): number {
    return this.#pool?.running ?? 0;
  }

  /** How many times a quiet server gave back its caches (see {@linkcode SETTLE_MS}). */
  get settles(): number {
    return this.#settles;
  }

  /**
   * Once no call came for {@linkcode SETTLE_MS}: release the page caches of the store's read
   * connections (`PRAGMA shrink_memory`; gostd's first queries leave up to 32 MB per connection,
   * read again from the OS file cache by the next query) and collect V8's garbage
   * ({@linkcode _collector}), so that an idle server holds what its facets need and little more.
   * The facets themselves stay until `CODEMUNCH_IDLE_DROP_S`.
   */
  #settleSoon(): void {
    clearTimeout(this.#settleTimer);
    this.#settleTimer = this.#whenQuiet(SETTLE_MS, () => {
      this.#settleTimer = undefined;
      this.#settles++;
      this.#giveBack();
    });
  }

  /** Run `act` in `ms` unless a call is running then (the timer keeps no process alive). */
  #whenQuiet(ms: number, act: () => void): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      if (this.#inFlight === 0) act();
    }, ms);
    Deno.unrefTimer(timer as unknown as number);
    return timer;
  }

  /**
   * How many times a quiet server rested: once no call came for `CODEMUNCH_IDLE_DROP_S`, it
   * drops the read model of every repo (each view and the facets it built), collects V8's
   * garbage, closes the idle search workers (each an isolate with its own connection; two after
   * gostd's first `search_text` calls) and stops the parser workers, the spare kept for the next
   * re-index too (`ParserPool.rest`). Measured on gostd (BENCHMARKS.md, sessions 10 and 11):
   * the workers are most of what it gives back; the facets come back on the next call
   * (~1-1.5 s for the first `search_symbols`, a new worker for the first `search_text`, a new
   * parser worker for the next re-index).
   */
  get rests(): number {
    return this.#rests;
  }

  #restSoon(): void {
    clearTimeout(this.#restTimer);
    this.#restTimer = this.#whenQuiet(this.#idleDropMs, () => {
      this.#restTimer = undefined;
      this.#rests++;
      // The views first, collected before the workers go: what they held is then free when the
      // workers' memory is given back, and glibc trims the heap's top at once (in this order
      // gostd's idle fell 248 -> 157 MB in process; workers first, 252 -> 180).
      this.#ctx.views.dropAll();
      this.#giveBack();
      closeIdleWorkers();
      this.#pool?.rest();
    });
  }

  /** Release the read connections' page caches and collect V8's garbage ({@linkcode _collector}). */
  #giveBack(): void {
    try {
      this.#ctx.store.releaseMemory();
    } catch { /* a connection in use or closed: nothing to give back */ }
    _collector()?.();
  }

  async #call(name: string, rawArgs: unknown, options: CallOptions): Promise<CallResult> {
    const started = performance.now();
    const tool = toolByName(name);
    try {
      if (tool === undefined) {
        throw new ToolError(
          "unknown_tool",
          `Unknown tool: ${name}. Available tools: ${toolNames().join(", ")}`,
        );
      }
      // An alias answers under its own name (messages, the MUNCH header).
      const prepared = prepareArguments(name, tool.inputSchema, rawArgs);
      const format = prepared.format;
      const ctx = options.onProgress === undefined
        ? this.#ctx
        : { ...this.#ctx, onProgress: options.onProgress };
      // A left-out repo is inferred where the tool allows it (never for a destructive one).
      const given = tool.repo === "optional" && prepared.args.repo === undefined
        ? withDefaultRepo(ctx, name, prepared.args)
        : prepared.args;
      if (typeof given.repo === "string") this.#refuseInProject(tool, name, given.repo);
      // Ids copied from a compact answer with their legend handle (`@2::f#function`).
      const expanded = expandHandleIds(ctx, given);
      const args = expanded.args;
      const warnings = [...prepared.warnings, ...expanded.warnings];
      let out = this.#settings.freshReads === false
        ? await tool.run(ctx, args)
        : await this.#fresh.run(tool, ctx, args);
      if (warnings.length > 0) out = { ...out, warnings: [...warnings, ...(out.warnings ?? [])] };
      this.#lastRepo = out.repo;
      await tool.afterRun?.(ctx, args, out);
      const elapsed = performance.now() - started;
      const env = envelope(
        name,
        codecSpec(tool),
        out,
        elapsed,
        format ?? options.format ?? this.#settings.defaultFormat,
        this.#settings,
        this.#ctx.store.savings,
      );
      if (env.encoderError !== undefined) {
        this.#log(`codemunch: MUNCH encoder failed for ${name}: ${env.encoderError}; sent JSON`);
      }
      return { text: env.text, isError: false, encoding: env.encoding };
    } catch (e) {
      // A database file damaged under a live server surfaces mid-query: name it and the fix.
      const unusable = e instanceof ToolError ? null : unusableDatabase(e);
      if (unusable !== null) {
        this.#noteDamage(rawArgs, unusable);
        return this.#error(
          name,
          new ToolError(
            "index_corrupt",
            `The index cannot be read: ${unusable}. Run index_folder on the folder again to rebuild it, or invalidate_cache to remove it`,
          ),
        );
      }
      return this.#error(name, e);
    }
  }

  /**
   * Refuse a tool the repo's own `.jcodemunch.jsonc` lists in `disabled_tools` (by its name or the
   * alias called); an unknown repo is left to the tool, which names the indexed ones.
   */
  #refuseInProject(tool: Tool, called: string, repo: string): void {
    let root: string;
    try {
      // The folder alone: `meta()` counts the rows (~40 ms a call on a 3.7M-symbol index).
      root = this.#ctx.store.repo(this.#ctx.store.resolveRepo(repo)).metaValue("source_root") ?? "";
    } catch {
      return;
    }
    const disabled = readProjectConfig(root).disabledTools;
    const hit = [tool.name, called].find((n) => disabled.includes(n));
    if (hit === undefined) return;
    throw new ToolError(
      "tool_disabled",
      `Tool '${hit}' is disabled in this project's configuration (disabled_tools in ${
        join(root, PROJECT_CONFIG_FILE)
      }); remove it there to use it on this repo`,
    );
  }

  /** Remember damage a read met, so the next index run checks and rebuilds the file. */
  #noteDamage(rawArgs: unknown, problem: string): void {
    const repo = (rawArgs as { repo?: unknown } | null)?.repo;
    if (typeof repo !== "string") return;
    try {
      this.#ctx.store.markDamaged(this.#ctx.store.resolveRepo(repo), problem);
    } catch { /* not a known repo: nothing to remember */ }
  }

  #error(tool: string, e: unknown): CallResult {
    if (e instanceof ToolError) {
      const body: Record<string, unknown> = { error: e.message, code: e.code };
      if (e instanceof DetailedToolError) Object.assign(body, e.details);
      return {
        text: JSON.stringify(body),
        isError: true,
        encoding: "error",
        code: e.code,
        error: e,
      };
    }
    const err = e instanceof Error ? e : new Error(String(e));
    this.#log(`codemunch: internal error in ${tool}: ${err.stack ?? err.message}`);
    const summary = `${err.name}: ${
      err.message.split("\n")[0]!.replace(/\s+/g, " ").slice(0, 200)
    }`;
    return {
      text: JSON.stringify({
        error:
          `Internal error processing ${tool} (${summary}). The server keeps running; check the arguments or re-index the repo`,
        code: "internal_error",
      }),
      isError: true,
      encoding: "error",
      code: "internal_error",
    };
  }

  /**
   * Work worth doing between calls, once the last answer is out: the `prewarm` hooks of the
   * tools for the repo the last call was about (search_symbols builds its ranking index:
   * index_folder, list or outline calls usually come before searches), so that the first call
   * that needs them does not wait. Errors are ignored: the call that needs the data reports them.
   */
  idle(): void {
    // Not between the answers of a burst of calls (twenty searches at once): the prewarm holds
    // the main thread (0.15 s on a 6,000-symbol repo, seconds on a large one) and `ping` with
    // it. The last answer of the burst calls this again.
    if (this.#inFlight > 0) return;
    const repo = this.#lastRepo;
    this.#lastRepo = undefined;
    if (repo !== undefined) this.#prewarmSoon(repo);
  }

  /** Prepare the next search of `repo` once the server is quiet (see {@linkcode idle}). */
  #prewarmSoon(repo: string): void {
    clearTimeout(this.#idleTimer);
    // Only in a real pause: a call that follows at once (an agent's next question right after an
    // edit) must not wait behind a rebuild it may not need (0.3-1 s on a large repo). The next
    // call cancels it; its own answer schedules it again.
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = undefined;
      if (this.#inFlight > 0) return;
      for (const tool of TOOLS) {
        try {
          tool.prewarm?.(this.#ctx, repo);
        } catch { /* reported by the next call on this repo */ }
      }
    }, _IDLE_MS);
    Deno.unrefTimer(this.#idleTimer as unknown as number);
  }

  /** Stop the parser pool and close the store's connections. */
  async close(): Promise<void> {
    clearTimeout(this.#idleTimer);
    clearTimeout(this.#settleTimer);
    clearTimeout(this.#restTimer);
    await this.#watch?.close();
    await this.#pool?.close();
    this.#pool = null;
    this.#embedder?.close?.();
    this.#embedder = null;
    this.#ctx.store.close();
  }
}
