/**
 * The layers of the design, checked in code: docs/layers.md lists the allowed arrows and the
 * arrows that must never exist (the design's lists, not a total order). A file may import a layer
 * its allowed arrows reach, directly or through other allowed arrows, unless a never arrow
 * forbids it. Every import of `main.ts`, `mod.ts` and each file under `src/` is checked.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SRC = join(ROOT, "src");
const LAYERS_DOC = join(ROOT, "docs", "layers.md");

/** The layers the arrows name. */
const LAYERS = [
  "main",
  "cli",
  "server",
  "tools",
  "query",
  "ingest",
  "summarize",
  "embed",
  "store",
  "parser",
  "codec",
  "errors",
] as const;
type Layer = typeof LAYERS[number];

/** The arrows of one list: `from → to` pairs. */
type Arrows = Map<Layer, Set<Layer>>;

/** The text of a bullet `- <label>: ...` (continuation lines joined). */
function _bullet(doc: string, label: string): string {
  const m = new RegExp(`^- ${label}: ([\\s\\S]*?)(?=^- |^$|^\\S)`, "m").exec(doc + "\n\n");
  if (m === null) throw new Error(`docs/layers.md has no "- ${label}:" list`);
  return m[1]!.replace(/\s+/g, " ").trim();
}

/** Split on `;` outside parentheses. */
function _clauses(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")") depth--;
    else if (text[i] === ";" && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((c) => c.trim().replace(/\.$/, "")).filter((c) => c !== "");
}

/**
 * The arrows of a list: each clause is `<layer> → <targets>`; a target is every layer name the
 * right side mentions (the design writes some of them in parentheses), and "anything outside
 * `src/<layer>/`" is every other layer.
 */
export function parseArrows(text: string): Arrows {
  const arrows: Arrows = new Map();
  for (const clause of _clauses(text)) {
    const m = /^(\w+) → (.+)$/.exec(clause);
    if (m === null) throw new Error(`Cannot read the arrow "${clause}"`);
    const from = m[1] as Layer;
    if (!LAYERS.includes(from)) throw new Error(`Unknown layer "${from}" in "${clause}"`);
    const right = m[2]!;
    const targets = /^anything outside/.test(right)
      ? LAYERS.filter((l) => l !== from)
      : LAYERS.filter((l) => l !== from && new RegExp(`\\b${l}\\b`).test(right));
    if (targets.length === 0) throw new Error(`No layer named in "${clause}"`);
    const set = arrows.get(from) ?? new Set();
    for (const t of targets) set.add(t);
    arrows.set(from, set);
  }
  return arrows;
}

/** What each layer may import: the allowed arrows' closure, less the never arrows. */
export function reachable(allowed: Arrows, never: Arrows): Map<Layer, Set<Layer>> {
  const out = new Map<Layer, Set<Layer>>();
  for (const from of LAYERS) {
    const seen = new Set<Layer>([from, "errors"]);
    const queue = [from];
    while (queue.length > 0) {
      for (const next of allowed.get(queue.shift()!) ?? []) {
        if (!seen.has(next)) seen.add(next), queue.push(next);
      }
    }
    for (const forbidden of never.get(from) ?? []) seen.delete(forbidden);
    if (from === "codec") seen.delete("errors"); // the codec imports nothing of ours
    out.set(from, seen);
  }
  return out;
}

function* _sources(dir: string): Generator<string> {
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) yield* _sources(p);
    else if (e.name.endsWith(".ts")) yield p;
  }
}

/** The layer of a file, or null outside main.ts, mod.ts and src/. */
function _layer(path: string): Layer | null {
  const rel = relative(ROOT, path);
  if (rel === "main.ts") return "main";
  if (rel === "mod.ts") return "codec";
  if (!rel.startsWith("src/")) return null;
  const top = rel.split("/")[1]!;
  if (top === "errors.ts") return "errors";
  return (LAYERS as readonly string[]).includes(top) ? top as Layer : null;
}

/** Relative import specifiers of a file (static and dynamic, `import`/`export ... from`). */
function _imports(source: string): string[] {
  const text = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const out: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.[^"']+)["']/gm;
  for (const m of text.matchAll(re)) out.push(m[1]!);
  // new URL("./worker.ts", import.meta.url) loads a module too.
  for (const m of text.matchAll(/new URL\(\s*["'](\.[^"']+\.ts)["']/g)) out.push(m[1]!);
  return out;
}

/** Every import that breaks the arrows, as `file (layer) imports target (layer)`. */
function _violations(may: Map<Layer, Set<Layer>>): string[] {
  const files = [join(ROOT, "main.ts"), join(ROOT, "mod.ts"), ..._sources(SRC)];
  const violations: string[] = [];
  for (const file of files) {
    const from = _layer(file);
    if (from === null) {
      violations.push(`${relative(ROOT, file)}: not in a layer of docs/layers.md`);
      continue;
    }
    for (const spec of _imports(Deno.readTextFileSync(file))) {
      const target = resolve(dirname(file), spec);
      if (from === "server" && relative(ROOT, target) === "deno.json") continue; // the version
      const to = _layer(target);
      if (to === null) {
        violations.push(`${relative(ROOT, file)} imports ${spec} (outside the layers)`);
      } else if (!may.get(from)!.has(to)) {
        violations.push(
          `${relative(ROOT, file)} (${from}) imports ${relative(ROOT, target)} (${to})`,
        );
      }
    }
  }
  return violations;
}

const DOC = Deno.readTextFileSync(LAYERS_DOC);
const ALLOWED = parseArrows(_bullet(DOC, "Allowed"));
const NEVER = parseArrows(_bullet(DOC, "Never"));

Deno.test("layering: every import of main.ts, mod.ts and src/ follows docs/layers.md", () => {
  deepEqual(_violations(reachable(ALLOWED, NEVER)), []);
});

Deno.test("layering: the arrows are read as the design writes them", async (t) => {
  await t.step("allowed arrows, with the targets written in parentheses", () => {
    deepEqual([...ALLOWED.get("main")!], ["cli", "server"]);
    deepEqual([...ALLOWED.get("cli")!], ["server"]);
    deepEqual([...ALLOWED.get("server")!].sort(), ["codec", "ingest", "query", "store", "tools"]);
    deepEqual([...ALLOWED.get("summarize")!], ["store"]);
  });
  await t.step("never arrows, `anything outside` included", () => {
    equal(NEVER.get("codec")!.size, LAYERS.length - 1);
    deepEqual([...NEVER.get("query")!].sort(), ["ingest", "server", "tools"]);
    deepEqual([...NEVER.get("parser")!].sort(), ["query", "server", "store", "summarize", "tools"]);
  });
  await t.step("reach: through other arrows, but never where a never arrow forbids", () => {
    const may = reachable(ALLOWED, NEVER);
    ok(may.get("tools")!.has("store"), "tools reach store through query");
    ok(may.get("cli")!.has("ingest"), "cli reaches ingest through the composition root");
    ok(!may.get("query")!.has("ingest"));
    ok(!may.get("parser")!.has("summarize"));
    ok(!may.get("store")!.has("query"));
    deepEqual([...may.get("codec")!], ["codec"]);
    ok(may.get("parser")!.has("errors"), "every layer may import errors");
  });
  await t.step("a broken arrow is reported", () => {
    const may = reachable(ALLOWED, parseArrows("query → ingest"));
    ok(!may.get("query")!.has("ingest"));
    deepEqual(
      _imports('import { x } from "../tools/mod.ts";\nexport * from "./a.ts";'),
      ["../tools/mod.ts", "./a.ts"],
    );
    equal(_layer(join(ROOT, "main.ts")), "main");
    equal(_layer(join(ROOT, "mod.ts")), "codec");
    equal(_layer(join(SRC, "cli", "init.ts")), "cli");
  });
});
