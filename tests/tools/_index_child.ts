/**
 * A child process for the crash-safety and concurrency tests: indexes a folder into an index
 * directory, printing `progress <done> <total>` lines and finally one JSON line.
 *
 *   deno run -A tests/tools/_index_child.ts <folder> <indexDir>
 */
import { Store } from "../../src/store/mod.ts";
import { indexLocalFolder } from "../../src/ingest/index_local.ts";
import { ToolError } from "../../src/errors.ts";
import { inThreadParser, testConfig } from "../ingest/_helpers.ts";

if (import.meta.main) {
  const [folder, indexDir] = Deno.args;
  const store = new Store(indexDir!);
  const enc = new TextEncoder();
  try {
    const out = await indexLocalFolder(store, testConfig(), inThreadParser, {
      path: folder!,
      onProgress: (done, total) => Deno.stdout.writeSync(enc.encode(`progress ${done} ${total}\n`)),
    });
    console.log(JSON.stringify({ ok: true, mode: out.mode, file_count: out.file_count }));
  } catch (e) {
    console.log(
      JSON.stringify({
        ok: false,
        code: e instanceof ToolError ? e.code : null,
        message: String(e),
      }),
    );
  } finally {
    store.close();
  }
}
