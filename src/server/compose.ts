/**
 * The composition root: every server, command and `init` builds its tool runner here, from the
 * environment the entry point read (main.ts, once per process) and nothing else. Each layer's
 * settings are parsed from that environment in one place, {@linkcode readSettings}; bad values
 * throw `RangeError` naming the variable.
 *
 * @module
 */
import { type IngestConfig, ingestConfigFromEnv } from "../ingest/config.ts";
import { type GitHubSettings, githubSettingsFromEnv } from "../ingest/github_config.ts";
import { type HistoryLimits, historyLimitsFromEnv } from "../ingest/git/limits.ts";
import { defaultIndexDir } from "../store/index_dir.ts";
import { Store } from "../store/store.ts";
import { type SummarizerSettings, summarizerSettingsFromEnv } from "../summarize/config.ts";
import { type EmbeddingSettings, embeddingSettingsFromEnv } from "../embed/config.ts";
import { type ServerSettings, settingsFromEnv } from "./config.ts";
import { readConfigFile, toolVisibilityFrom } from "./tool_profile.ts";
import { type ServerDeps, ToolRunner } from "./runner.ts";
import { type WatchSettings, watchSettingsFromEnv } from "./watch.ts";

/** The process's surroundings, as the entry point read them. */
export interface Environment {
  /** An environment variable (undefined when unset, or when this process may not read it). */
  env(name: string): string | undefined;
  /** The folder the command was started in. */
  cwd: string;
  /** The operating system's config layout. */
  os: "linux" | "darwin" | "windows";
  /** The Deno executable running now (or the compiled binary). */
  execPath: string;
  /** The codemunch checkout (or, compiled, the binary's embedded root). */
  checkout: string;
  /** A person at a terminal is typing into stdin. */
  interactive: boolean;
}

/** Every setting of a codemunch process, parsed once. */
export interface Settings {
  /** Where the indexes live (`CODE_INDEX_PATH`, default `~/.code-index`). */
  indexDir: string;
  ingest: IngestConfig;
  server: ServerSettings;
  github: GitHubSettings;
  summarizer: SummarizerSettings;
  embeddings: EmbeddingSettings;
  watch: WatchSettings;
  history: HistoryLimits;
}

/** Parse every setting from the environment (see each layer's config module for the names). */
export function readSettings(environment: Environment): Settings {
  const env = (name: string) => environment.env(name);
  const indexDir = defaultIndexDir(env);
  return {
    indexDir,
    ingest: ingestConfigFromEnv(env, environment.cwd),
    server: { ...settingsFromEnv(env), tools: toolVisibilityFrom(env, readConfigFile(indexDir)) },
    github: githubSettingsFromEnv(env),
    summarizer: summarizerSettingsFromEnv(env),
    embeddings: embeddingSettingsFromEnv(env, indexDir),
    watch: watchSettingsFromEnv(env),
    history: historyLimitsFromEnv(env),
  };
}

/** How a runner differs from a plain command's. */
export interface RunnerOptions {
  /**
   * Watch folders and re-index what changes: `true` (a server: every indexed folder inside the
   * allowed roots, from the start) or `"indexed-here"` (`codemunch watch`: only the folders this
   * process indexes). @default false
   */
  watch?: boolean | "indexed-here";
  /** The folders it may index instead of the configured ones (`init` indexes what it allows). */
  allowedRoots?: string[];
}

/** The dependencies of a runner built from `settings`. */
export function runnerDeps(
  settings: Settings,
  environment: Environment,
  options: RunnerOptions = {},
): ServerDeps {
  const ingest = options.allowedRoots === undefined
    ? settings.ingest
    : { ...settings.ingest, allowedRoots: options.allowedRoots };
  return {
    store: new Store(settings.indexDir),
    ingest,
    settings: settings.server,
    github: settings.github,
    summarizer: settings.summarizer,
    embeddings: settings.embeddings,
    history: settings.history,
    cwd: environment.cwd,
    ...(options.watch
      ? {
        watch: options.watch === "indexed-here"
          ? { ...settings.watch, watchIndexed: false }
          : settings.watch,
      }
      : {}),
  };
}

/** A tool runner for the environment: the settings read once, the store opened. */
export function createRunner(
  environment: Environment,
  options: RunnerOptions = {},
): { runner: ToolRunner; settings: Settings; store: Store } {
  const settings = readSettings(environment);
  const deps = runnerDeps(settings, environment, options);
  return { runner: new ToolRunner(deps), settings, store: deps.store };
}
