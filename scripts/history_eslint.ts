/**
 * The complexity stored at index time against ESLint, the reference implementation for
 * JavaScript and TypeScript: for every function and method we measure in the JavaScript files of
 * the express, express4 and typescript corpora and the TypeScript files of zod (its `src`, tests
 * left out; parsed by typescript-eslint's parser), ESLint's `complexity` (cyclomatic),
 * `max-depth` (nesting) and `max-params` rules on the same file, each set to report every function
 * (maximum 0).
 */
import { Linter } from "eslint";
import * as espree from "espree";
import * as tsParser from "@typescript-eslint/parser";
import "typescript"; // typescript-eslint's peer
import { join } from "node:path";
import { parseSource } from "../src/parser/parse.ts";

/** Agreement on one corpus: functions compared and how many agree on each metric. */
export interface EslintAgreement {
  corpus: string;
  files: number;
  functions: number;
  cyclomatic: number;
  maxDepth: number;
  params: number;
  /** A few disagreements, for reading. */
  examples: string[];
}

interface _Report {
  line: number;
  column: number;
  value: number;
}

interface _FunctionNode {
  start: number;
  end: number;
  /** Where its body starts: before it is the function's head (its parameters, an arrow's `=>`). */
  body: number;
}

function _files(root: string, ts: boolean): string[] {
  const out: string[] = [];
  const source = ts ? /(?<!\.d)\.ts$/ : /\.[cm]?js$/;
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      const p = join(dir, e.name);
      if (e.isDirectory && e.name !== "node_modules" && e.name !== "tests") walk(p);
      else if (e.isFile && source.test(e.name)) out.push(p);
    }
  };
  walk(root);
  return out.sort();
}

/** Offsets of the first character of each line (1-based lines). */
function _lineStarts(text: string): number[] {
  const starts = [0, 0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function _functionNodes(
  code: string,
  sourceType: "script" | "module",
  ts: boolean,
): _FunctionNode[] {
  const out: _FunctionNode[] = [];
  const visit = (node: unknown) => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const n of node) visit(n);
      return;
    }
    const n = node as
      & { type?: string; range?: [number, number]; body?: { range?: [number, number] } }
      & Record<string, unknown>;
    if (
      n.type === "FunctionDeclaration" || n.type === "FunctionExpression" ||
      n.type === "ArrowFunctionExpression"
    ) out.push({ start: n.range![0], end: n.range![1], body: n.body?.range?.[0] ?? n.range![1] });
    for (const [k, v] of Object.entries(n)) if (k !== "parent" && k !== "range") visit(v);
  };
  visit(
    ts
      ? tsParser.parse(code, { range: true, sourceType: "module" })
      : espree.parse(code, { ecmaVersion: "latest", sourceType, range: true }),
  );
  return out;
}

function _lint(linter: Linter, code: string, sourceType: "script" | "module", ts: boolean) {
  return linter.verify(code, [{
    languageOptions: ts
      ? { parser: tsParser as Linter.Parser, sourceType: "module" }
      : { ecmaVersion: "latest", sourceType },
    rules: { complexity: ["error", 0], "max-depth": ["error", 0], "max-params": ["error", 0] },
  }]);
}

function _reports(messages: Linter.LintMessage[], rule: string, re: RegExp): _Report[] {
  return messages.filter((m) => m.ruleId === rule).map((m) => ({
    line: m.line,
    column: m.column,
    value: Number(re.exec(m.message)?.[1] ?? NaN),
  }));
}

/** Agreement on one corpus folder. */
async function _corpus(name: string, root: string, ts: boolean): Promise<EslintAgreement> {
  const linter = new Linter({ configType: "flat" });
  const result: EslintAgreement = {
    corpus: name,
    files: 0,
    functions: 0,
    cyclomatic: 0,
    maxDepth: 0,
    params: 0,
    examples: [],
  };
  for (const file of _files(root, ts)) {
    const code = Deno.readTextFileSync(file);
    let sourceType: "script" | "module" = ts ? "module" : "script";
    let messages = _lint(linter, code, sourceType, ts);
    if (messages.some((m) => m.fatal)) {
      sourceType = "module";
      messages = _lint(linter, code, sourceType, ts);
      if (messages.some((m) => m.fatal)) continue;
    }
    result.files++;
    const complexity = _reports(messages, "complexity", /complexity of (\d+)/);
    const params = _reports(messages, "max-params", /too many parameters \((\d+)\)/);
    const depths = _reports(messages, "max-depth", /nested too deeply \((\d+)\)/);
    const functions = _functionNodes(code, sourceType, ts);
    const starts = _lineStarts(code);
    const offset = (r: _Report) => starts[r.line]! + r.column - 1;
    const innermost = (at: number) => {
      let best: _FunctionNode | undefined;
      for (const f of functions) {
        if (f.start <= at && at < f.end && (best === undefined || f.start >= best.start)) best = f;
      }
      return best;
    };
    const symbols = (await parseSource(file.slice(root.length + 1), new TextEncoder().encode(code)))
      .symbols;
    for (const s of symbols) {
      if (s.complexity === undefined) continue;
      // ESLint reports a function at its head: the first report in the symbol's lines is its own.
      let own: _Report | undefined;
      for (const r of complexity) {
        if (r.line < s.line || r.line > s.end_line) continue;
        if (
          own === undefined || r.line < own.line || (r.line === own.line && r.column < own.column)
        ) {
          own = r;
        }
      }
      if (own === undefined) continue;
      result.functions++;
      // ESLint reports an arrow at its `=>`, in its head (before its body: not the function
      // starting next, a curried arrow's inner one); a method or a property-valued function at
      // its key, before the function node's range (which starts at its parameters): the function
      // starting next on that line.
      const at = offset(own);
      const lineEnd = starts[own.line + 1] ?? code.length;
      const head = functions.find((f) => f.start <= at && at < f.body);
      const after = functions.filter((f) => f.start >= at && f.start < lineEnd)
        .sort((x, y) => x.start - y.start)[0];
      const node = head ?? after ?? innermost(at);
      const depth = Math.max(
        0,
        ...depths.filter((d) => node !== undefined && innermost(offset(d)) === node).map((d) =>
          d.value
        ),
      );
      const p = params.find((r) => r.line === own!.line && r.column === own!.column)?.value ?? 0;
      const ok = [
        own.value === s.complexity.cyclomatic,
        depth === s.complexity.max_nesting,
        p === s.complexity.param_count,
      ];
      if (ok[0]) result.cyclomatic++;
      if (ok[1]) result.maxDepth++;
      if (ok[2]) result.params++;
      if (ok.includes(false) && result.examples.length < 10) {
        result.examples.push(
          `${file}:${s.line} ${s.qualified_name}: ours ${
            JSON.stringify(s.complexity)
          }, eslint ${own.value}/${depth}/${p}`,
        );
      }
    }
  }
  return result;
}

/** Agreement on the JavaScript and TypeScript corpora that are present (`scripts/prepare_corpora.sh`). */
export async function eslintAgreement(
  root = "corpora",
  only?: readonly string[],
): Promise<EslintAgreement[]> {
  const out: EslintAgreement[] = [];
  const corpora: [string, string, boolean][] = [
    ["express", "express", false],
    ["express4", "express4", false],
    ["typescript", "typescript/lib", false],
    ["zod", "zod/src", true],
  ];
  for (const [name, dir, ts] of corpora) {
    if (only !== undefined && !only.includes(name)) continue;
    try {
      Deno.statSync(join(root, dir));
    } catch {
      console.error(
        `bench history: corpus ${name} missing: bash scripts/prepare_corpora.sh ${name}`,
      );
      continue;
    }
    out.push(await _corpus(name, join(root, dir), ts));
  }
  return out;
}
