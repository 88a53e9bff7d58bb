/**
 * Which tools a server serves: the reference's tool profiles (`core` ⊂ `standard` ⊂ `full`) and
 * `disabled_tools`. A client lists only the served tools, and a call of another one is answered
 * with `tool_disabled`, saying what to change. A session pays for every listed tool's schema in
 * tokens, so a small profile is the cheapest way to start (`tests/server/tool_profile_test.ts`
 * counts them).
 *
 * | Setting | `config.jsonc` key | Variable | Default |
 * |---|---|---|---|
 * | profile | `tool_profile` | `JCODEMUNCH_TOOL_PROFILE` | `full` |
 * | tools left out | `disabled_tools` (a list) | `JCODEMUNCH_DISABLED_TOOLS` (comma-separated) | none |
 *
 * `config.jsonc` is the reference's global config file, in the index folder (`CODE_INDEX_PATH`,
 * default `~/.code-index`); as in the reference, a key in the file wins over its variable. The
 * file is JSON with comments and trailing commas; other keys are ignored here.
 *
 * This module imports only the JSONC reader (no imports of its own): the stdio server filters its tool list with it before any tool
 * is loaded. The profile tables are names (the reference's `tool_tier_bundles`): a tool in
 * neither table is served by `full` only.
 *
 * @module
 */
import { stripJsonc } from "../ingest/jsonc.ts";

export { stripJsonc };

/** A tool profile, smallest first. */
export type ToolProfile = "core" | "standard" | "full";

/** The profiles, smallest first. */
export const TOOL_PROFILES: readonly ToolProfile[] = ["core", "standard", "full"];

/** The reference's core bundle: reading and searching code, indexing, and finding the repo. */
export const CORE_TOOLS: readonly string[] = [
  "index_repo",
  "index_folder",
  "index_file",
  "list_repos",
  "resolve_repo",
  "get_repo_outline",
  "get_file_tree",
  "get_file_outline",
  "search_symbols",
  "get_symbol_source",
  "get_file_content",
  "search_text",
  "get_context_bundle",
  "get_ranked_context",
  "find_importers",
  "find_references",
];

/**
 * What `standard` adds to core (the reference's standard bundle, the tools codemunch has or
 * plans): graphs, change analysis, code health, the cache and the watcher.
 */
export const STANDARD_TOOLS: readonly string[] = [
  "check_references",
  "get_dependency_graph",
  "get_class_hierarchy",
  "get_related_symbols",
  "get_call_hierarchy",
  "get_blast_radius",
  "check_rename_safe",
  "get_impact_preview",
  "get_changed_symbols",
  "get_symbol_diff",
  "get_symbol_provenance",
  "get_pr_risk_profile",
  "get_symbol_complexity",
  "get_churn_rate",
  "get_hotspots",
  "get_symbol_importance",
  "find_dead_code",
  "get_dead_code_v2",
  "get_untested_symbols",
  "get_repo_health",
  "search_ast",
  "winnow_symbols",
  "get_dependency_cycles",
  "get_coupling_metrics",
  "get_layer_violations",
  "get_tectonic_map",
  "get_signal_chains",
  "get_extraction_candidates",
  "plan_refactoring",
  "invalidate_cache",
  "get_watch_status",
];

/** Which tools are served. */
export interface ToolVisibility {
  profile: ToolProfile;
  /** Tools left out whatever the profile. */
  disabled: readonly string[];
}

/** Every tool, none disabled. */
export const ALL_TOOLS: ToolVisibility = { profile: "full", disabled: [] };

/** The smallest profile that serves a tool. */
export function profileOf(name: string): ToolProfile {
  if (CORE_TOOLS.includes(name)) return "core";
  return STANDARD_TOOLS.includes(name) ? "standard" : "full";
}

/** Whether a tool (by its own name, not an alias) is served. */
export function isServed(visibility: ToolVisibility, name: string): boolean {
  if (visibility.disabled.includes(name)) return false;
  return TOOL_PROFILES.indexOf(profileOf(name)) <= TOOL_PROFILES.indexOf(visibility.profile);
}

/** Why a tool is not served, with what to change; null when it is. */
export function notServedReason(visibility: ToolVisibility, name: string): string | null {
  if (visibility.disabled.includes(name)) {
    return `Tool '${name}' is disabled by disabled_tools (JCODEMUNCH_DISABLED_TOOLS or config.jsonc); remove it from that list to use it`;
  }
  if (isServed(visibility, name)) return null;
  return `Tool '${name}' is not in the "${visibility.profile}" tool profile (it is in "${
    profileOf(name)
  }"); set JCODEMUNCH_TOOL_PROFILE=${
    profileOf(name)
  } (or tool_profile in config.jsonc) and restart the server`;
}

function _profile(value: unknown, where: string): ToolProfile {
  const v = typeof value === "string" ? value.trim().toLowerCase() : value;
  if (TOOL_PROFILES.includes(v as ToolProfile)) return v as ToolProfile;
  throw new RangeError(
    `Invalid ${where}: expected one of ${TOOL_PROFILES.join(", ")}, got ${JSON.stringify(value)}`,
  );
}

function _names(value: unknown, where: string): string[] {
  if (typeof value === "string") return value.split(",").map((n) => n.trim()).filter((n) => n);
  if (Array.isArray(value) && value.every((n) => typeof n === "string")) {
    return value.map((n) => n.trim()).filter((n) => n);
  }
  throw new RangeError(`Invalid ${where}: expected a list of tool names`);
}

/**
 * The visibility from the environment and the text of `config.jsonc` (null: no file); a key in
 * the file wins over its variable. Bad values throw `RangeError` naming the setting.
 */
export function toolVisibilityFrom(
  env: (name: string) => string | undefined,
  configText: string | null,
): ToolVisibility {
  let config: Record<string, unknown> = {};
  if (configText !== null && configText.trim() !== "") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(stripJsonc(configText.replace(/^\uFEFF/, "")));
    } catch (e) {
      throw new RangeError(`Invalid config.jsonc: ${(e as Error).message}`);
    }
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      config = parsed as Record<string, unknown>;
    }
  }
  const profileEnv = env("JCODEMUNCH_TOOL_PROFILE")?.trim();
  const disabledEnv = env("JCODEMUNCH_DISABLED_TOOLS");
  return {
    profile: "tool_profile" in config
      ? _profile(config.tool_profile, "tool_profile in config.jsonc")
      : profileEnv
      ? _profile(profileEnv, "JCODEMUNCH_TOOL_PROFILE")
      : "full",
    disabled: "disabled_tools" in config
      ? _names(config.disabled_tools, "disabled_tools in config.jsonc")
      : _names(disabledEnv ?? "", "JCODEMUNCH_DISABLED_TOOLS"),
  };
}

/** Largest `config.jsonc` read, in bytes (a bigger one is not a config file). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The text of `<indexDir>/config.jsonc`: null when there is none; a file that is not a regular
 * file or is over {@linkcode MAX_CONFIG_BYTES} throws `RangeError`.
 */
export function readConfigFile(indexDir: string): string | null {
  const path = `${indexDir.replace(/[\\/]+$/, "")}/config.jsonc`;
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch {
    return null;
  }
  if (!info.isFile || info.size > MAX_CONFIG_BYTES) {
    throw new RangeError(
      `Invalid ${path}: expected a regular file of at most ${MAX_CONFIG_BYTES} bytes`,
    );
  }
  return Deno.readTextFileSync(path);
}
