/**
 * File churn of a window for the tools that fold it into another answer (winnow_symbols,
 * get_repo_health): the counts of {@linkcode churnByFile}, or null with the reason when the
 * repo has no readable history.
 */
import { churnByFile } from "./churn.ts";
import { historyOrReason } from "./history.ts";
import type { RepoView } from "./view.ts";

/** Churn of the last `days` days, or why there is none. */
export interface WindowChurn {
  /** Commits of the window that changed each file, or null without history. */
  counts: Map<string, number> | null;
  /** Why the counts are missing or only a lower bound. */
  note?: string;
}

/** The churn of every file over the last `days` days (see the module doc). */
export function windowChurn(view: RepoView, days: number): WindowChurn {
  const history = historyOrReason(view);
  if (typeof history === "string") return { counts: null, note: `No churn: ${history}` };
  const since = Math.floor(Date.now() / 1000) - days * 86400;
  const churn = churnByFile(history, history.resolveCommit("HEAD"), since);
  if (churn.reachedShallow) {
    return {
      counts: churn.counts,
      note: "The history stops at a shallow clone's edge: churn is a lower bound",
    };
  }
  return { counts: churn.counts };
}
