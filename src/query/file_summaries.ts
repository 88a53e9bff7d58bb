/**
 * File summaries at query time: the same sentence as the stored one (`ingest/file_summary.ts`),
 * with the symbols ranked by how the whole repo references them (centrality from the import and
 * call graph, then the file's own calls) rather than by the file alone, which is all the indexer
 * sees.
 */
import type { SymbolRecord } from "../parser/types.ts";
import { fileSummary } from "../parser/file_summary.ts";
import type { RepoView } from "./view.ts";
import { CENTRALITY } from "./centrality.ts";

/** The summary of the file `path` whose symbols are `symbols` (in source order). */
export function fileSummaryOf(
  view: RepoView,
  path: string,
  symbols: readonly SymbolRecord[],
): string {
  if (symbols.length === 0) return view.index.file(path)?.summary ?? "";
  const centrality = view.get(CENTRALITY);
  const inFile = new Map<string, number>();
  for (const c of view.index.callsInFile(path)) {
    inFile.set(c.callee, (inFile.get(c.callee) ?? 0) + 1);
  }
  return fileSummary(
    symbols,
    (s) => centrality.of(s.id) + Math.log1p(inFile.get(s.name) ?? 0),
  );
}
