/** What `find_dead_code` and `get_dead_code_v2` share: entry-point patterns and the analysis call. */
import { z } from "zod";
import { type DeadCode, deadCode } from "../query/dead_code.ts";
import { FILES } from "../query/files.ts";
import { globMatcher } from "../query/glob.ts";
import type { RepoView } from "../query/view.ts";

/** The `entry_point_patterns` argument. */
export const ENTRY_POINT_PATTERNS = z.array(z.string()).max(100).optional().describe(
  "More entry-point files (fnmatch globs)",
);

/** The analysis with the caller's entry points, and the patterns that matched no indexed file. */
export function analyseDeadCode(
  view: RepoView,
  options: { includeTests: boolean; withGraph: boolean; patterns: readonly string[] | undefined },
): { dead: DeadCode; unmatched: string[] } {
  const patterns = options.patterns ?? [];
  if (patterns.length === 0) {
    return { dead: deadCode(view, options), unmatched: [] };
  }
  const matchers = patterns.map((p) => ({ pattern: p, match: globMatcher(p), hits: 0 }));
  const entries = new Set<string>();
  for (const path of view.get(FILES).keys()) {
    for (const m of matchers) {
      if (!m.match(path)) continue;
      m.hits++;
      entries.add(path);
    }
  }
  const dead = deadCode(view, { ...options, isEntry: (path) => entries.has(path) });
  return { dead, unmatched: matchers.filter((m) => m.hits === 0).map((m) => m.pattern) };
}

/** The warning for patterns that matched nothing (they declared no entry point). */
export function unmatchedWarning(unmatched: readonly string[]): string[] {
  if (unmatched.length === 0) return [];
  return [
    `${unmatched.length} entry_point_patterns matched no indexed file and declared no entry point: ${
      unmatched.slice(0, 5).join(", ")
    }. Patterns are fnmatch globs over repo-relative paths (no {a,b} braces)`,
  ];
}
