/**
 * The extractors that read a language with its own parser from npm instead of a tree-sitter
 * grammar (`ExtractorSpec.extractor`). Each is loaded the first time a file of it is parsed, by a
 * computed specifier, so neither its module nor its npm parser is in any start-up graph (Deno
 * fetches every literal `import()` of a module with it); a `deno compile` binary embeds them
 * through {@linkcode EXTRACTOR_MODULES} (`scripts/compile.ts`).
 */
import type { ExtractorName } from "../language_spec.ts";
import type { Extractor } from "./records.ts";

/** The module of each extractor, relative to this file; each exports `extractor`. */
const _MODULES: Record<ExtractorName, string> = {
  ada: "./ada.ts",
  al: "./al.ts",
  ansible: "./ansible.ts",
  asm: "./asm.ts",
  autohotkey: "./autohotkey.ts",
  cobol: "./cobol.ts",
  dockerfile: "./dockerfile.ts",
  fortran: "./fortran.ts",
  graphql: "./graphql.ts",
  less: "./less.ts",
  markdown: "./markdown.ts",
  matlab: "./matlab.ts",
  nim: "./nim.ts",
  openapi: "./openapi.ts",
  protobuf: "./protobuf.ts",
  razor: "./razor.ts",
  sass: "./sass.ts",
  scss: "./scss.ts",
  stylus: "./stylus.ts",
  tcl: "./tcl.ts",
  verse: "./verse.ts",
  vhdl: "./vhdl.ts",
};

/** Every extractor module, as a path from the repository root (what a binary must embed). */
export const EXTRACTOR_MODULES: readonly string[] = Object.values(_MODULES)
  .map((m) => `src/parser/extractors/${m.slice(2)}`)
  .sort();

const _loaded = new Map<ExtractorName, Promise<Extractor>>();

/** Load an extractor once per process (worker); a failure is remembered and rethrown. */
export function loadExtractor(name: ExtractorName): Promise<Extractor> {
  let pending = _loaded.get(name);
  if (pending === undefined) {
    const specifier: string = new URL(_MODULES[name], import.meta.url).href;
    pending = import(specifier).then((m: { extractor: Extractor }) => m.extractor);
    _loaded.set(name, pending);
  }
  return pending;
}
