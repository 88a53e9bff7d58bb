/**
 * Dockerfiles, read by npm `dockerfile-ast` (the parser of the Docker language server): each build
 * stage (`FROM image AS name`, or an unnamed `FROM`, named by its image) is a `class` spanning its
 * instructions, and the `ARG`s and `ENV`s in it are its `constant`s (`ARG`s before the first
 * `FROM` are top level). A stage's base image is an import (`node:20-alpine`); `FROM <stage>` and
 * `COPY --from=<stage>` are references (calls) of that stage. The comment lines above a `FROM`
 * are its docstring. `RUN`, `COPY` and the other instructions are not symbols.
 */
import { DockerfileParser } from "dockerfile-ast";
import type { Extracted, Extractor } from "./records.ts";
import { lineStarts } from "../source_text.ts";
import { commentAbove } from "./scan.ts";

export const extractor: Extractor = {
  extract(text: string): Extracted {
    const found: Extracted = { symbols: [], imports: [], calls: [], errors: [] };
    const starts = lineStarts(text);
    const at = (r: Range, end = false) => {
      const p = end ? r.end : r.start;
      return Math.min(text.length, (starts[p.line] ?? text.length) + p.character);
    };
    const dockerfile = DockerfileParser.parse(text);
    const instructions = dockerfile.getInstructions();
    const stages = new Set<string>();
    let stage: number | undefined;
    for (const [n, instruction] of instructions.entries()) {
      const keyword = instruction.getKeyword();
      const start = at(instruction.getRange());
      if (keyword === "FROM") {
        const from = dockerfile.getFROMs().find((f) => at(f.getRange()) === start);
        const image = from?.getImage() ?? "";
        const name = from?.getBuildStage() ?? from?.getImageName() ?? image;
        const next = instructions.slice(n + 1).find((i) => i.getKeyword() === "FROM");
        const end = next === undefined ? text.length : _lineStartBefore(text, at(next.getRange()));
        stage = found.symbols.length;
        found.symbols.push({
          name,
          kind: "class",
          start,
          end,
          signature: _line(text, start),
          docstring: commentAbove(text, start, ["#"]),
        });
        if (stages.has(image.toLowerCase())) found.calls.push({ callee: image, at: start });
        else if (image !== "" && image.toLowerCase() !== "scratch") {
          found.imports.push({ specifier: image, at: start });
        }
        if (from?.getBuildStage()) stages.add(from.getBuildStage()!.toLowerCase());
      } else if (keyword === "ARG" || keyword === "ENV") {
        for (const p of _properties(instruction)) {
          const draft = {
            name: p.getName(),
            kind: "constant" as const,
            start: at(p.getRange()),
            end: at(p.getRange(), true),
          };
          found.symbols.push(stage === undefined ? draft : { ...draft, parent: stage });
        }
      } else if (keyword === "COPY") {
        const flags = (instruction as unknown as { getFlags?: () => _Flag[] }).getFlags?.() ?? [];
        const flag = flags.find((f) => f.getName() === "from");
        const value = flag?.getValue();
        if (value && stages.has(value.toLowerCase())) {
          found.calls.push({ callee: value, at: at(flag!.getRange()) });
        }
      }
    }
    return found;
  },
};

interface Range {
  start: { line: number; character: number };
  end: { line: number; character: number };
}
type _Flag = { getName(): string; getValue(): string | null; getRange(): Range };
type _Instruction = ReturnType<
  ReturnType<typeof DockerfileParser.parse>["getInstructions"]
>[number];
type _Property = { getName(): string; getRange(): Range };

function _properties(instruction: _Instruction): _Property[] {
  const i = instruction as unknown as {
    getProperties?: () => _Property[];
    getProperty?: () => _Property | null;
  };
  if (i.getProperties !== undefined) return i.getProperties();
  const one = i.getProperty?.();
  return one ? [one] : [];
}

function _line(text: string, from: number): string {
  const nl = text.indexOf("\n", from);
  return text.slice(from, nl === -1 ? text.length : nl).trimEnd();
}

/** The start of the line holding `at`, minus the comment lines right above it (they are the next stage's). */
function _lineStartBefore(text: string, at: number): number {
  let start = text.lastIndexOf("\n", at - 1) + 1;
  for (;;) {
    const prev = text.lastIndexOf("\n", start - 2) + 1;
    if (start === 0 || !text.slice(prev, start).trimStart().startsWith("#")) return start;
    start = prev;
  }
}
