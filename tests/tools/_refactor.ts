/**
 * What the refactoring tests share: a copy of the graph fixture (fixtures/graph: Python with a
 * re-exporting package, a TypeScript barrel, Go packages with namesakes) indexed in a temporary
 * workspace, and applying a plan's edits to it as an agent does, then indexing it again.
 */
import { join } from "node:path";
import { applyEdits, editsFromRows } from "../../src/query/refactor_edits.ts";
import { indexedWorkspace } from "../ingest/_helpers.ts";

type Row = Record<string, unknown>;

/** Every file of fixtures/graph by repo-relative path. */
export function graphFixture(): Record<string, string> {
  const root = join(import.meta.dirname!, "..", "..", "fixtures", "graph");
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    for (const e of Deno.readDirSync(dir)) {
      const path = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory) walk(join(dir, e.name), path);
      else out[path] = Deno.readTextFileSync(join(dir, e.name));
    }
  };
  walk(root, "");
  return out;
}

/** The graph fixture indexed, with a way to apply a plan and index again. */
export async function refactorWorkspace() {
  const w = await indexedWorkspace(graphFixture(), "codemunch-refactor-");
  // What the index cannot resolve (externals such as `requests`, `fmt`): a plan may add an import
  // of one to a new file, never make an import of the repo's own files unresolved.
  const unresolved = () =>
    new Set(
      w.ws.store.repo(w.repo).allImports().filter((i) => i.resolved === null).map((i) =>
        i.specifier
      ),
    );
  const apply = async (body: Row) => {
    const changed = applyEdits(editsFromRows(body.edits as Row[]), (p) => {
      try {
        return Deno.readTextFileSync(join(w.ws.root, p));
      } catch {
        return undefined;
      }
    });
    for (const [path, text] of changed) {
      Deno.mkdirSync(join(w.ws.root, path, ".."), { recursive: true });
      Deno.writeTextFileSync(join(w.ws.root, path), text);
    }
    const r = await w.runner.call("index_folder", { path: w.ws.root, format: "json" });
    if (r.isError) throw new Error(r.text);
    return changed;
  };
  return { ...w, apply, unresolved };
}
