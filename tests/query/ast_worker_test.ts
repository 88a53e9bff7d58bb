/**
 * The search_ast worker (src/query/ast_worker.ts), started as a real worker over a real index: one
 * reply per file with its matches and their enclosing symbols, the reason a file was skipped,
 * secrets redacted in what it answers, the grammar load reported once, then `done`.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { parseCustomPattern, resolvePatterns } from "../../src/query/ast_patterns.ts";
import type { AstWorkerReply, AstWorkerRequest } from "../../src/query/ast_search.ts";
import { indexedView } from "./_fixture.ts";
import { startWorker } from "./_search_worker.ts";

const _URL = new URL("../../src/query/ast_worker.ts", import.meta.url);

Deno.test("ast_worker: a scan, file by file", async () => {
  const { view, close } = await indexedView({
    "svc.py": [
      "import os",
      "",
      "",
      "def load(path):",
      "    try:",
      "        return open(path)",
      "    except OSError:",
      "        pass",
      "",
      "",
      "def run():",
      '    os.system("deploy --key AKIAIOSFODNN7EXAMPLE")',
      "",
    ].join("\n"),
    "ok.py": "def fine():\n    return 1\n",
  });
  const { worker, next } = startWorker(_URL);
  const scan = async (request: AstWorkerRequest) => {
    worker.postMessage(request);
    const replies: AstWorkerReply[] = [];
    for (;;) {
      const m = await next() as AstWorkerReply;
      replies.push(m);
      if (m.type === "done" || m.type === "error") return replies;
    }
  };
  try {
    deepEqual(await next(), { type: "ready" });
    const request: AstWorkerRequest = {
      id: 1,
      dbPath: view.index.dbPath,
      files: [
        { path: "svc.py", language: "python" },
        { path: "ok.py", language: "python" },
        { path: "gone.py", language: "python" },
        { path: "notes.txt", language: "no-such-language" },
      ],
      patterns: [...resolvePatterns("empty_catch"), parseCustomPattern("call:os.system")],
    };
    const replies = await scan(request);
    // The grammar is loaded once, before the first file that needs it.
    equal(replies[0]!.type, "grammar");
    ok(replies[0]!.type === "grammar" && replies[0]!.ms >= 0);
    const files = replies.filter((r) => r.type === "file");
    deepEqual(files.map((f) => [f.path, f.skipped, f.matches.length]), [
      ["svc.py", null, 2],
      ["ok.py", null, 0],
      ["gone.py", "not parseable", 0],
      ["notes.txt", "not parseable", 0],
    ]);
    const matches = files[0]!.matches;
    deepEqual(matches.map((m) => [m.line, m.pattern, m.enclosing_symbol, m.symbol_kind]), [
      [7, "empty_catch", "svc.py::load#function", "function"],
      [12, "call:os.system", "svc.py::run#function", "function"],
    ]);
    ok(!matches[1]!.snippet.includes("AKIA"), matches[1]!.snippet);
    ok(matches[1]!.snippet.includes("[REDACTED:aws_access_key]"), matches[1]!.snippet);
    deepEqual(replies.at(-1), { type: "done", id: 1 });
    // A second scan needs no grammar load.
    const again = await scan({ ...request, id: 2, files: [{ path: "ok.py", language: "python" }] });
    deepEqual(again.map((r) => r.type), ["file", "done"]);
  } finally {
    await worker.terminate();
    await close();
  }
});
