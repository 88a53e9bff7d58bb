/**
 * Runs under the server's documented permission flags (see scripts/serve.ts) in the permission
 * test: tries to read outside the allowed roots directly and through index_folder, then indexes
 * an allowed folder. Prints one JSON line.
 *
 *   deno run <flags> tests/tools/_confined_child.ts <allowed folder> <outside folder> <indexDir>
 */
import { Store } from "../../src/store/mod.ts";
import * as indexFolder from "../../src/tools/index_folder.ts";
import { ToolError } from "../../src/errors.ts";
import { DEFAULT_INGEST_CONFIG } from "../../src/ingest/config.ts";
import { inThreadParser } from "../ingest/_helpers.ts";

if (import.meta.main) {
  const [allowed, outside, indexDir] = Deno.args as [string, string, string];
  const report: Record<string, unknown> = {};
  try {
    Deno.readTextFileSync(`${outside}/secret.py`);
    report.directRead = "allowed";
  } catch (e) {
    report.directRead = (e as Error).constructor.name;
  }
  const store = new Store(indexDir);
  // No allowed-roots setting in the process: only Deno's permission layer stands in the way.
  const ctx = {
    store,
    parser: inThreadParser,
    ingest: { ...DEFAULT_INGEST_CONFIG, allowedRoots: null },
  };
  try {
    await indexFolder.handler(ctx, { path: outside });
    report.outside = "indexed";
  } catch (e) {
    report.outside = e instanceof ToolError ? { code: e.code, message: e.message } : String(e);
  }
  try {
    const r = await indexFolder.handler(ctx, { path: allowed });
    report.allowed = { file_count: r.file_count, symbol_count: r.symbol_count };
  } catch (e) {
    report.allowed = e instanceof ToolError ? { code: e.code, message: e.message } : String(e);
  }
  store.close();
  console.log(JSON.stringify(report));
}
