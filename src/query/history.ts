/**
 * The git history of a repo's indexed folder, for the change-analysis tools. The reader is handed
 * in by the composition root (`RepoViewsOptions.history`); here a repo without one — indexed from
 * GitHub, or a folder that is not a git checkout — fails with `history_unavailable` saying why
 * and what to do.
 */
import { ToolError } from "../errors.ts";
import type { GitHistory } from "../parser/git/history.ts";
import type { RepoView } from "./view.ts";

/** The history of the view's folder, or why there is none (a sentence). */
export function historyOrReason(view: RepoView): GitHistory | string {
  const root = view.index.metaValue("source_root") ?? "";
  if (root === "") return "the repo was indexed from GitHub (index_repo), which keeps no history";
  return view.history(root);
}

/** The history of the view's folder, or `history_unavailable`. */
export function historyOf(view: RepoView, tool: string): GitHistory {
  const root = view.index.metaValue("source_root") ?? "";
  if (root === "") {
    throw new ToolError(
      "history_unavailable",
      `${tool} needs git history, and ${view.repo} was indexed from GitHub (index_repo), which keeps no history. Clone the repository and index the clone with index_folder, then call ${tool} on that repo`,
    );
  }
  const history = view.history(root);
  if (typeof history === "string") {
    throw new ToolError(
      "history_unavailable",
      `${tool} needs git history, and none can be read for ${view.repo}: ${history}. Index a git checkout (a folder with a .git inside the allowed roots) with index_folder`,
    );
  }
  return history;
}

/** Resolve a revision argument, naming the argument in the error. */
export function resolveRev(history: GitHistory, rev: string, argument: string): string {
  try {
    return history.resolveCommit(rev);
  } catch (e) {
    if (e instanceof ToolError && e.code.startsWith("git_ref")) {
      throw new ToolError(e.code, `${argument}: ${e.message}`);
    }
    throw e;
  }
}
