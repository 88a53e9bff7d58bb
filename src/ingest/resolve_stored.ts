/** Import resolution over what a re-index stored (see `resolveStoredImports`). */
import { type ParseResult, resolveImports } from "../parser/mod.ts";
import type { RepoWriter } from "../store/repo_writer.ts";

/**
 * Resolve the stored imports of `paths` (every import when null) again, in one pass (resolvers
 * cache repo-wide facts per pass), writing only the targets that changed.
 */
export function resolveStoredImports(
  writer: RepoWriter,
  paths: readonly string[] | null,
  allFiles: ReadonlySet<string>,
  readFile: (p: string) => string | undefined,
  rootName?: string,
): void {
  const rows = writer.imports(paths);
  const byFile = new Map<string, ParseResult>();
  const order: { fileId: number; seq: number; before: string | null }[] = [];
  const records: { resolved: string | null }[] = [];
  for (const r of rows) {
    let result = byFile.get(r.file);
    if (result === undefined) {
      result = {
        file: r.file,
        language: r.language,
        status: "ok",
        reason: null,
        symbols: [],
        imports: [],
        calls: [],
      };
      byFile.set(r.file, result);
    }
    const record = { specifier: r.specifier, names: r.names, line: r.line, resolved: r.resolved };
    result.imports.push(record);
    records.push(record);
    order.push({ fileId: r.file_id, seq: r.seq, before: r.resolved });
  }
  resolveImports(
    [...byFile.values()],
    allFiles,
    readFile,
    rootName === undefined ? {} : { rootName },
  );
  for (let i = 0; i < order.length; i++) {
    const o = order[i]!;
    const now = records[i]!.resolved;
    if (now !== o.before) writer.setResolved(o.fileId, o.seq, now);
  }
}

/**
 * The repository root's folder name from a source's label (a folder path, or `owner/repo@ref`
 * of a GitHub source): what Python imports a checkout that is itself a package by.
 */
export function rootNameOf(label: string): string | undefined {
  const name = label.replace(/@[^/@]*$/, "").replace(/[\\/]+$/, "").split(/[\\/]/).pop();
  return name === undefined || name === "" ? undefined : name;
}
