/**
 * Ids an agent copied from a compact (MUNCH) answer as they were written there, with the path
 * still a legend handle (`@2::app.route#method`): each is read as the full id it stands for when
 * the rest of it names one symbol, and the answer warns how ids are written (issue 28).
 *
 * @module
 */
import { expandHandleId, HANDLE_NOTE } from "../query/symbol_lookup.ts";
import type { RepoView } from "../query/view.ts";
import { openRepo, type ToolContext } from "./context.ts";

/** Quick test before any lookup: a string that starts like a legend handle and holds `::`. */
const _LOOKS_LIKE = /^@\d[^:]*::/;

/**
 * `args` with every string (or string in a list) that is an id with an unexpanded handle
 * replaced by the id it stands for, and one warning per replacement. Arguments without a
 * `repo`, or a repo that cannot be opened, are left to the tool (which reports the error).
 */
export function expandHandleIds(
  ctx: ToolContext,
  args: Record<string, unknown>,
): { args: Record<string, unknown>; warnings: string[] } {
  const warnings: string[] = [];
  const repo = args.repo;
  const candidates = Object.values(args).some((v) =>
    typeof v === "string"
      ? _LOOKS_LIKE.test(v)
      : Array.isArray(v) && v.some((x) => typeof x === "string" && _LOOKS_LIKE.test(x))
  );
  if (!candidates || typeof repo !== "string") return { args, warnings };
  let view: RepoView;
  try {
    view = openRepo(ctx, repo).view;
  } catch {
    return { args, warnings };
  }
  const expand = (key: string, v: unknown): unknown => {
    if (typeof v !== "string" || !_LOOKS_LIKE.test(v)) return v;
    const id = expandHandleId(view, v);
    if (id === undefined) return v;
    warnings.push(`${key} "${v}" was read as ${id}. ${HANDLE_NOTE}`);
    return id;
  };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    out[k] = Array.isArray(v) ? v.map((x) => expand(k, x)) : expand(k, v);
  }
  return { args: out, warnings };
}
