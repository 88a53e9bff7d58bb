/** Shared helpers for the benchmark scripts: statistics, a plain-text table, JSON output. */

/** Median of a list of numbers (NaN for an empty list). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The p-th percentile (0..100) by nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** Render rows as an aligned Markdown table (valid Markdown, readable in a terminal). */
export function markdownTable(
  header: readonly string[],
  rows: readonly (readonly unknown[])[],
): string {
  const cells = [header.map(String), ...rows.map((r) => r.map(_cell))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  const line = (r: readonly string[]) =>
    "| " + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ") +
    " |";
  const rule = "| " + widths.map((w, i) => (i === 0 ? "-".repeat(w) : "-".repeat(w - 1) + ":"))
    .join(" | ") +
    " |";
  return [line(cells[0]!), rule, ...cells.slice(1).map(line)].join("\n");
}

function _cell(v: unknown): string {
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return "-";
    if (Number.isInteger(v)) return String(v);
    return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2);
  }
  return v === null || v === undefined ? "-" : String(v);
}

/** Parse `--json FILE` (and `--flag value` pairs) from benchmark arguments. */
export function parseFlags(args: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith("--")) {
      const next = args[i + 1];
      if (next !== undefined && !next.startsWith("--")) {
        flags.set(a.slice(2), next);
        i++;
      } else flags.set(a.slice(2), "true");
    }
  }
  return flags;
}

/** Write benchmark results as pretty JSON when `--json FILE` was given. */
export async function writeJson(flags: Map<string, string>, data: unknown): Promise<void> {
  const file = flags.get("json");
  if (file === undefined) return;
  await Deno.writeTextFile(file, JSON.stringify(data, null, 2) + "\n");
  console.error(`bench: wrote ${file}`);
}

/**
 * A numeric field of `/proc/<pid>/status` (Linux): `Threads` as is, a `kB` field in MB. Read by
 * `cat`: Deno grants reads of /proc (even /proc/self) only with --allow-all, and the bench and
 * test tasks grant --allow-run, not that. Throws when the process or the field is gone.
 */
export function procStatusField(pid: number | "self", field: string): number {
  const target = pid === "self" ? Deno.pid : pid;
  const out = new Deno.Command("cat", { args: [`/proc/${target}/status`], stderr: "piped" })
    .outputSync();
  if (!out.success) {
    throw new Error(`cannot read /proc/${target}/status: ${new TextDecoder().decode(out.stderr)}`);
  }
  const m = new RegExp(`^${field}:\\s+(\\d+)( kB)?`, "m").exec(
    new TextDecoder().decode(out.stdout),
  );
  if (m === null) throw new Error(`/proc/${target}/status has no ${field}`);
  return m[2] === undefined ? Number(m[1]) : Number(m[1]) / 1024;
}

/** Peak resident set size of a process (this one by default) so far, in MB (VmHWM). */
export function peakRssMb(pid: number | "self" = "self"): number {
  return procStatusField(pid, "VmHWM");
}

/** The 1, 5 and 15 minute load averages as text (`load 0.52 / 0.61 / 0.70`), or "" if unknown. */
export function loadAverages(): string {
  try {
    return `load ${Deno.loadavg().map((n) => n.toFixed(2)).join(" / ")}`;
  } catch {
    return "";
  }
}

/**
 * The environment of a server a benchmark spawns: only PATH, HOME, DENO_DIR (when set), the index
 * directory and the allowed roots, plus `extra` (the bench's own settings).
 */
export function serverEnv(
  indexDir: string,
  roots: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: Deno.env.get("HOME") ?? "/tmp",
    CODE_INDEX_PATH: indexDir,
    CODEMUNCH_ALLOWED_ROOTS: roots,
    ...extra,
  };
  const denoDir = Deno.env.get("DENO_DIR");
  if (denoDir) env.DENO_DIR = denoDir;
  return env;
}
