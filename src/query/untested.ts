/**
 * The functions and methods of a repo's source files that no test reaches (`get_untested_symbols`),
 * memoized per index state: the weighing, the name lookups in the test files and the ordering are
 * done once, and each call only filters and cuts the list.
 */
import type { SymbolRecord } from "../parser/types.ts";
import { FILES } from "./files.ts";
import { NAME_MENTIONS } from "./mentions.ts";
import { fileRole } from "./priors.ts";
import { SYMBOLS } from "./symbols.ts";
import { TEST_REACH } from "./test_reach.ts";
import { facet } from "./view.ts";

/** One function or method no test reaches. */
export interface Untested {
  symbol: SymbolRecord;
  /** A test file writes its name, though no call path reaches it (confidence 0.7, else 1). */
  namedInTests: boolean;
}

/** The weighed functions of a repo and those no test reaches. */
export interface UntestedFunctions {
  /** Every function and method of a source file, by file then position. */
  weighed: readonly SymbolRecord[];
  /** Those no test reaches: unreached ones first, then those named in tests; each by file, line. */
  untested: readonly Untested[];
}

const _FUNCTIONS = new Set(["function", "method"]);

/** The untested functions of the view (see the module doc). */
export const UNTESTED = facet("untested-functions", (view): UntestedFunctions => {
  const reach = view.get(TEST_REACH);
  const mentions = view.get(NAME_MENTIONS);
  const symbols = view.get(SYMBOLS);
  const weighed: SymbolRecord[] = [];
  for (const path of view.get(FILES).keys()) {
    if (fileRole(path) !== "source") continue;
    for (const s of symbols.ofFile(path)) if (_FUNCTIONS.has(s.kind)) weighed.push(s);
  }
  const untested: Untested[] = [];
  for (const s of weighed) {
    if (reach.reached.has(s.id)) continue;
    const namedInTests = mentions.filesOf(s.name).some((f) => reach.testFiles.has(f));
    untested.push({ symbol: s, namedInTests });
  }
  untested.sort((a, b) =>
    Number(a.namedInTests) - Number(b.namedInTests) ||
    (a.symbol.file < b.symbol.file ? -1 : a.symbol.file > b.symbol.file ? 1 : 0) ||
    a.symbol.line - b.symbol.line
  );
  return { weighed, untested };
});
