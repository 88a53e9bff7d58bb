/**
 * `deno task bench worker-start [--rounds N] [--json FILE]`: how long starting a parser worker
 * blocks the main thread — the event loop that answers `ping` — against a pool that keeps a
 * fresh spare worker after an idle stop (issue 32, issue 25's leftover).
 *
 * `new Worker()` builds the worker's runtime synchronously on the calling thread (0.07-0.5 s
 * under load, even for an empty module). Each round, in turns (order alternating):
 *
 * - "cold pool": a new pool's first parse of a small Go file (it starts the worker);
 * - "after an idle stop": a pool whose worker parsed once and was stopped for idleness
 *   (`idleStopMs`), so that a fresh spare replaced it; then the same parse. The stop (and the
 *   spare's start) is measured too: it happens when no job is running, not when one arrives.
 *
 * For each, the longest event-loop gap (a 1 ms interval timer) from the call to the result and
 * the call's wall time. The load average is printed with each round; the table gives medians.
 */
import { ParserPool } from "../src/parser/mod.ts";
import { loadAverages, markdownTable, median, parseFlags, writeJson } from "./bench_util.ts";

const GO = new TextEncoder().encode(
  "package a\n\n// A adds.\nfunc A(x, y int) int { return x + y }\n",
);

interface Gap {
  /** The longest event-loop gap (ms) while `work` ran. */
  gap_ms: number;
  /** Its wall time (ms). */
  wall_ms: number;
}

/** Run `work` while a 1 ms interval timer records the longest gap between its ticks. */
async function measureGap(work: () => Promise<unknown>): Promise<Gap> {
  let last = performance.now();
  let max = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    max = Math.max(max, now - last);
    last = now;
  }, 1);
  await new Promise((r) => setTimeout(r, 20));
  last = performance.now();
  max = 0;
  const t0 = performance.now();
  await work();
  const wall = performance.now() - t0;
  // One more tick, so a block at the very end counts too.
  await new Promise((r) => setTimeout(r, 5));
  clearInterval(timer);
  return { gap_ms: max, wall_ms: wall };
}

async function coldPool(): Promise<Gap> {
  const pool = new ParserPool({ workers: 1 });
  try {
    return await measureGap(() => pool.parse("a.go", GO));
  } finally {
    await pool.close();
  }
}

async function afterIdleStop(): Promise<{ parse: Gap; stop: Gap }> {
  const pool = new ParserPool({ workers: 1, idleStopMs: 200 });
  try {
    await pool.parse("a.go", GO);
    const stop = await measureGap(async () => {
      while (pool.idleStops === 0) await new Promise((r) => setTimeout(r, 2));
    });
    // The spare's runtime finishes starting in its own thread.
    await new Promise((r) => setTimeout(r, 1500));
    return { parse: await measureGap(() => pool.parse("b.go", GO)), stop };
  } finally {
    await pool.close();
  }
}

/** Entry point for the dispatcher. */
export async function main(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  const rounds = Number(flags.get("rounds") ?? 7);
  console.error(`bench worker-start: ${loadAverages()}`);
  const cold: Gap[] = [];
  const spare: Gap[] = [];
  const stops: Gap[] = [];
  const loads: number[] = [];
  for (let r = 0; r < rounds; r++) {
    loads.push(Deno.loadavg()[0]!);
    const runs = [
      async () => cold.push(await coldPool()),
      async () => {
        const s = await afterIdleStop();
        spare.push(s.parse);
        stops.push(s.stop);
      },
    ];
    for (const run of r % 2 === 0 ? runs : runs.reverse()) await run();
    console.error(
      `bench worker-start: round ${r + 1} (load ${loads.at(-1)!.toFixed(1)}): cold ${
        JSON.stringify(cold.at(-1))
      }, spare ${JSON.stringify(spare.at(-1))}, idle stop ${JSON.stringify(stops.at(-1))}`,
    );
  }
  const row = (name: string, g: Gap[]) => [
    name,
    g.length,
    median(g.map((x) => x.gap_ms)),
    Math.max(...g.map((x) => x.gap_ms)),
    median(g.map((x) => x.wall_ms)),
  ];
  console.log(`\n${loadAverages()}\n`);
  console.log("The main thread's longest event-loop gap (ms) during a pool's first parse\n");
  console.log(markdownTable(["case", "rounds", "gap p50", "gap max", "parse wall p50"], [
    row("cold pool (starts its worker)", cold),
    row("after an idle stop (fresh spare)", spare),
    row("the idle stop itself (no job running)", stops),
  ]));
  const ratio = median(cold.map((x) => x.gap_ms)) / median(spare.map((x) => x.gap_ms));
  console.log(`\ncold / spare gap (medians): ${ratio.toFixed(1)}x`);
  await writeJson(flags, { loads, cold, spare, idle_stop: stops });
}

if (import.meta.main) await main(Deno.args);
