/** A progress reporter for the CLI: one self-overwriting line on stderr while indexing. */
import type { ProgressFn } from "./index_local.ts";

/**
 * A progress callback that writes `indexing <done>/<total> <path>` to stderr, at most every
 * `intervalMs` milliseconds (and always for the last file), ending the line when done.
 *
 * @example
 * ```ts
 * import { stderrProgress } from "./progress.ts";
 * const progress = stderrProgress({ intervalMs: 1_000_000 });
 * progress(1, 1, "a.py"); // prints the final line once
 * ```
 */
export function stderrProgress(options: { intervalMs?: number } = {}): ProgressFn {
  const interval = options.intervalMs ?? 100;
  const enc = new TextEncoder();
  let last = 0;
  return (done, total, path) => {
    const now = Date.now();
    if (done < total && now - last < interval) return;
    last = now;
    const text = `indexing ${done}/${total} ${path}`.slice(0, 100).padEnd(100);
    Deno.stderr.writeSync(enc.encode(`\r${text}${done >= total ? "\n" : ""}`));
  };
}
