/**
 * The history benchmark's index of a repository's HEAD, as a server has it: HEAD's files written
 * out (`git archive`), indexed by a real ToolRunner into a temp store, and read back through the
 * same `RepoIndex` the tools read. `get_changed_symbols` takes the symbols of a file's indexed
 * side from there (`symbolsFromIndex`) and parses only the other side.
 */
import { join } from "node:path";
import { Store } from "../src/store/store.ts";
import { ToolRunner } from "../src/server/runner.ts";
import type { RepoIndex } from "../src/store/repo_index.ts";
import { gitBytes } from "./history_truth.ts";

/** An index of HEAD's files; `close()` removes it. */
export interface IndexedHead {
  index: RepoIndex;
  files: number;
  close(): void;
}

/** Index the files of `rev` of the repository at `dir` into `work` (made empty first). */
export async function indexHead(dir: string, work: string, rev = "HEAD"): Promise<IndexedHead> {
  const tree = join(work, "tree");
  const storeDir = join(work, "store");
  Deno.mkdirSync(tree, { recursive: true });
  Deno.mkdirSync(storeDir, { recursive: true });
  Deno.writeFileSync(join(work, "head.tar"), gitBytes(dir, ["archive", "--format=tar", rev]));
  const out = new Deno.Command("tar", { args: ["-xf", join(work, "head.tar"), "-C", tree] })
    .outputSync();
  if (!out.success) throw new Error(`tar: ${new TextDecoder().decode(out.stderr)}`);
  const store = new Store(storeDir);
  const runner = new ToolRunner({ store, cwd: tree, log: () => {} });
  const indexed = await runner.call("index_folder", { path: tree }, { format: "json" });
  await runner.close();
  if (indexed.isError) throw new Error(`index_folder: ${indexed.text}`);
  const body = JSON.parse(indexed.text) as { repo: string };
  const index = store.repo(body.repo);
  return {
    index,
    files: index.listFiles().length,
    close: () => {
      store.close();
      Deno.removeSync(work, { recursive: true });
    },
  };
}
