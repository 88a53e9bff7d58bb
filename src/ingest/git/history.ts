/**
 * The history source the composition root hands to the read model: one {@linkcode GitRepository}
 * per indexed folder, kept between calls (objects are immutable, so what it caches stays true;
 * refs are read again on every resolve), at most a few at a time.
 */
import type { GitHistory, HistorySource } from "../../parser/git/history.ts";
import type { HistoryLimits } from "./limits.ts";
import { GitRepository } from "./repository.ts";

/** Most repositories kept open. */
const _KEEP = 4;

/** A history source reading folders inside `allowed` (null: any readable folder). */
export function historySource(
  allowed: readonly string[] | null,
  limits: HistoryLimits,
): HistorySource {
  const open = new Map<string, GitRepository>();
  return (root: string): GitHistory | string => {
    const hit = open.get(root);
    if (hit !== undefined) {
      open.delete(root);
      open.set(root, hit);
      return hit;
    }
    const repo = GitRepository.open(root, allowed, limits);
    if (typeof repo === "string") return repo;
    open.set(root, repo);
    if (open.size > _KEEP) {
      const [oldest, r] = open.entries().next().value!;
      open.delete(oldest);
      r.close();
    }
    return repo;
  };
}
