import { deepEqual, equal, ok, rejects, throws } from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { type ParseResult, parseSource } from "../../src/parser/mod.ts";
import { RepoIndex, RepoWriter, SavingsCounter, SCHEMA_VERSION } from "../../src/store/mod.ts";
import { EmbeddingWriter } from "../../src/store/embeddings.ts";
import { ToolError } from "../../src/errors.ts";
import { tempWorkspace } from "../ingest/_helpers.ts";

const enc = new TextEncoder();

async function put(writer: RepoWriter, path: string, bytes: Uint8Array): Promise<ParseResult> {
  const result = await parseSource(path, bytes);
  writer.putFile({
    path,
    language: result.language,
    content: bytes,
    hash: path,
    mtime_ms: 0,
    ctime_ms: 0,
    checked_ms: 0,
    summary: "",
    line_count: 1,
  }, result);
  return result;
}

function meta(writer: RepoWriter, repo: string, display: string) {
  writer.setMeta({
    repo,
    owner: repo.split("/")[0]!,
    name: repo.split("/")[1]!,
    display_name: display,
  });
}

const APP = `import os
from .util import helper

class UserStore:
    """Keeps users."""
    def getUserName(self, uid):
        return helper(uid)

    def delete_user(self, uid):
        self.getUserName(uid)

def parse_http_response(raw):
    """Parse an HTTP response."""
    return raw
`;

Deno.test("RepoIndex reads what RepoWriter stored", async (t) => {
  const ws = tempWorkspace();
  try {
    const dbPath = join(ws.indexDir, "r.db");
    const writer = await RepoWriter.open(dbPath);
    meta(writer, "o/r", "r");
    // Invalid UTF-8 (a Latin-1 "é") inside a comment must survive byte for byte.
    const util = new Uint8Array([
      ...enc.encode("# caf"),
      0xe9,
      ...enc.encode("\ndef helper(x):\n    return x\n"),
    ]);
    await put(writer, "pkg/app.py", enc.encode(APP));
    await put(writer, "pkg/util.py", util);
    writer.commit();
    const index = RepoIndex.open(dbPath);
    try {
      await t.step("symbols of a file come back in source order", () => {
        deepEqual(index.symbolsOfFile("pkg/app.py").map((s) => s.name), [
          "UserStore",
          "getUserName",
          "delete_user",
          "parse_http_response",
        ]);
        deepEqual(index.symbolsOfFile("nope.py"), []);
      });

      await t.step("a symbol's source is the exact byte slice of the stored file", () => {
        const s = index.symbolsOfFile("pkg/util.py")[0]!;
        const bytes = index.symbolBytes(s.id)!;
        deepEqual(bytes, util.subarray(s.byte_offset, s.byte_offset + s.byte_length));
        equal(index.symbolSource(s.id), "def helper(x):\n    return x");
        equal(index.symbolBytes("pkg/util.py::missing#function"), undefined);
      });

      await t.step("file bytes are stored exactly, invalid UTF-8 included", () => {
        deepEqual(index.fileBytes("pkg/util.py"), util);
        equal(index.fileText("pkg/util.py")!.startsWith("# caf\uFFFD\n"), true);
        equal(index.fileBytes("../etc/passwd"), undefined);
      });

      await t.step("symbol search splits camelCase and snake_case and ranks by BM25", () => {
        const hits = index.searchSymbols("user name");
        equal(hits[0]!.symbol.name, "getUserName");
        ok(hits.every((h) => h.bm25 > 0));
        equal(index.searchSymbols("http")[0]!.symbol.name, "parse_http_response");
        equal(index.searchSymbols("getusername")[0]!.symbol.name, "getUserName");
        deepEqual(
          index.searchSymbols("user", { kinds: ["class"] }).map((h) => h.symbol.name),
          ["UserStore"],
        );
        deepEqual(index.searchSymbols("!!!"), []);
      });

      await t.step("text candidates come from the trigram index, case-insensitively", () => {
        deepEqual(index.textCandidates(["HTTP RESPONSE"]), ["pkg/app.py"]);
        deepEqual(index.textCandidates(["return"]), ["pkg/app.py", "pkg/util.py"]);
        deepEqual(index.textCandidates(["no such text anywhere"]), []);
        equal(index.textCandidates(["ab"]), null);
      });

      await t.step("imports and calls", () => {
        deepEqual(index.importsOf("pkg/app.py").map((i) => i.specifier), ["os", ".util"]);
        const calls = index.callsFrom("pkg/app.py::UserStore.delete_user#method");
        deepEqual(calls.map((c) => c.callee), ["getUserName"]);
        // Exact names: the callee index is only a filter.
        deepEqual(index.callsTo("getusername"), []);
        deepEqual(index.callsTo("getUserName").map((c) => c.caller), [
          "pkg/app.py::UserStore.delete_user#method",
        ]);
        deepEqual(index.callsInFile("pkg/util.py"), []);
        deepEqual(index.allCalls().map((c) => c.callee).sort(), ["getUserName", "helper"]);
        deepEqual(index.callsTo("helper").map((c) => [c.file, c.caller]), [
          ["pkg/app.py", "pkg/app.py::UserStore.getUserName#method"],
        ]);
      });

      await t.step("meta counts files and symbols", () => {
        const m = index.meta();
        equal(m.repo, "o/r");
        equal(m.file_count, 2);
        equal(m.symbol_count, 5);
        equal(m.index_version, SCHEMA_VERSION);
      });

      await t.step("a connection that gave back its page cache answers the same", () => {
        const before = index.symbolsOfFile("pkg/app.py").map((s) => s.id);
        equal(before.length > 0, true);
        index.releaseMemory();
        deepEqual(index.symbolsOfFile("pkg/app.py").map((s) => s.id), before);
        equal(index.meta().symbol_count, 5);
      });
    } finally {
      index.close();
    }
  } finally {
    ws.dispose();
  }
});

Deno.test("a write transaction is invisible to readers until commit, and rollback discards it", async (t) => {
  const ws = tempWorkspace();
  try {
    const dbPath = join(ws.indexDir, "r.db");
    let writer = await RepoWriter.open(dbPath);
    await put(writer, "a.py", enc.encode("def old():\n    pass\n"));
    writer.commit();
    const index = RepoIndex.open(dbPath);
    try {
      await t.step("readers see the old index while a re-index is in progress", async () => {
        writer = await RepoWriter.open(dbPath);
        writer.deleteFile("a.py");
        await put(writer, "a.py", enc.encode("def new():\n    pass\n"));
        deepEqual(index.symbolsOfFile("a.py").map((s) => s.name), ["old"]);
        writer.commit();
        deepEqual(index.symbolsOfFile("a.py").map((s) => s.name), ["new"]);
      });
      await t.step("rollback leaves the previous index", async () => {
        writer = await RepoWriter.open(dbPath);
        writer.clear();
        writer.rollback();
        deepEqual(index.symbolsOfFile("a.py").map((s) => s.name), ["new"]);
        equal(index.searchSymbols("new").length, 1);
      });
      await t.step("a second writer waits, then gets index_busy", async () => {
        writer = await RepoWriter.open(dbPath);
        await rejects(
          RepoWriter.open(dbPath, { waitMs: 100 }),
          (e) => e instanceof ToolError && e.code === "index_busy",
        );
        writer.rollback();
        const again = await RepoWriter.open(dbPath, { waitMs: 100 });
        again.rollback();
      });
    } finally {
      index.close();
    }
  } finally {
    ws.dispose();
  }
});

Deno.test("schema versions: older indexes are rebuilt with a message, never misread", async (t) => {
  const ws = tempWorkspace();
  try {
    Deno.mkdirSync(ws.indexDir, { recursive: true });
    const dbPath = join(ws.indexDir, "old.db");
    // An index from a schema this build cannot migrate: different tables, older version.
    const legacy = new DatabaseSync(dbPath);
    legacy.exec(
      "CREATE TABLE symbols(id TEXT, data TEXT); INSERT INTO symbols VALUES ('x', '{}'); PRAGMA user_version=0",
    );
    legacy.close();

    await t.step("a reader refuses it with a clear error", () => {
      throws(
        () => RepoIndex.open(dbPath),
        (e) =>
          e instanceof ToolError && e.code === "index_incompatible" &&
          /older codemunch/.test(e.message),
      );
    });

    await t.step("a writer discards and rebuilds it, with a warning", async () => {
      const writer = await RepoWriter.open(dbPath);
      ok(/discarded and rebuilt/.test(writer.schemaWarning ?? ""));
      await put(writer, "a.py", enc.encode("def f():\n    pass\n"));
      writer.commit();
      const index = RepoIndex.open(dbPath);
      equal(index.symbolCount(), 1);
      index.close();
    });

    await t.step("an index from a newer schema is refused by readers and writers", async () => {
      const db = new DatabaseSync(dbPath);
      db.exec(`PRAGMA user_version=${SCHEMA_VERSION + 1}`);
      db.close();
      throws(
        () => RepoIndex.open(dbPath),
        (e) => e instanceof ToolError && /newer codemunch/.test(e.message),
      );
      await rejects(
        RepoWriter.open(dbPath),
        (e) => e instanceof ToolError && e.code === "index_incompatible",
      );
    });
  } finally {
    ws.dispose();
  }
});

Deno.test("schema 2 -> 3: the FTS5 text index is replaced by trigram posting lists", async () => {
  const ws = tempWorkspace();
  try {
    Deno.mkdirSync(ws.indexDir, { recursive: true });
    const dbPath = join(ws.indexDir, "v2.db");
    const writer = await RepoWriter.open(dbPath);
    await put(writer, "a.py", enc.encode("def parse_http_response():\n    pass\n"));
    await put(writer, "b.py", enc.encode("x = 1\n"));
    writer.commit();
    // What schema 2 had instead: a contentless FTS5 table of trigram tokens.
    const db = new DatabaseSync(dbPath);
    db.exec(`DROP TABLE text_postings;
      CREATE VIRTUAL TABLE text_grams USING fts5(grams, content='', contentless_delete=1,
        detail=none, tokenize='ascii');
      PRAGMA user_version=2;`);
    db.close();
    const migrated = await RepoWriter.open(dbPath);
    equal(migrated.schemaWarning, `Index migrated from schema 2 to ${SCHEMA_VERSION}`);
    migrated.commit();
    const index = RepoIndex.open(dbPath);
    deepEqual(index.textCandidates(["HTTP_response"]), ["a.py"]);
    deepEqual(index.textCandidates(["no_such_text"]), []);
    index.close();
  } finally {
    ws.dispose();
  }
});

Deno.test("schema 3 -> 4: complexity columns are added, empty until the next index", async () => {
  const ws = tempWorkspace();
  try {
    Deno.mkdirSync(ws.indexDir, { recursive: true });
    const dbPath = join(ws.indexDir, "v3.db");
    const writer = await RepoWriter.open(dbPath);
    const source = "def f(a, b):\n    if a and b:\n        return 1\n";
    const parsed = await put(writer, "a.py", enc.encode(source));
    writer.commit();
    const stored = RepoIndex.open(dbPath);
    deepEqual(stored.symbol("a.py::f#function")?.complexity, {
      cyclomatic: 3,
      max_nesting: 1,
      param_count: 2,
    });
    deepEqual(stored.symbolsOfFile("a.py"), parsed.symbols);
    stored.close();
    // What schema 3 had: no complexity columns.
    const db = new DatabaseSync(dbPath);
    db.exec(
      `ALTER TABLE symbols DROP COLUMN cyclomatic; ALTER TABLE symbols DROP COLUMN max_nesting;
      ALTER TABLE symbols DROP COLUMN param_count; PRAGMA user_version=3;`,
    );
    db.close();
    const migrated = await RepoWriter.open(dbPath);
    equal(migrated.schemaWarning, `Index migrated from schema 3 to ${SCHEMA_VERSION}`);
    migrated.commit();
    const index = RepoIndex.open(dbPath);
    const f = index.symbol("a.py::f#function");
    equal(f?.name, "f");
    equal(f?.complexity, undefined);
    index.close();
  } finally {
    ws.dispose();
  }
});

Deno.test("Store resolves repo identifiers (API.md §0.3)", async (t) => {
  const ws = tempWorkspace();
  try {
    for (
      const [repo, display] of [["alice/tool", "tool"], ["bob/tool", "tool"], [
        "local/app-12345678",
        "app",
      ]]
    ) {
      const w = await ws.store.writer(repo!);
      meta(w, repo!, display!);
      w.commit();
    }
    await t.step("owner/name is taken as is when indexed", () => {
      equal(ws.store.resolveRepo("alice/tool"), "alice/tool");
      throws(
        () => ws.store.resolveRepo("carol/tool"),
        (e) =>
          e instanceof ToolError && e.code === "repo_not_found" &&
          /Repository not indexed: carol\/tool/.test(e.message),
      );
    });
    await t.step("a bare name matches the name part or the display name", () => {
      equal(ws.store.resolveRepo("app-12345678"), "local/app-12345678");
      equal(ws.store.resolveRepo("app"), "local/app-12345678");
    });
    await t.step("an ambiguous bare name lists the candidates", () => {
      throws(
        () => ws.store.resolveRepo("tool"),
        (e) =>
          e instanceof ToolError && e.code === "repo_ambiguous" &&
          /Use one of: alice\/tool, bob\/tool/.test(e.message),
      );
      throws(
        () => ws.store.resolveRepo("zzz"),
        (e) => e instanceof ToolError && /Repository not found: zzz/.test(e.message),
      );
    });
    await t.step("listRepos is sorted; deleteRepo removes every file", async () => {
      deepEqual(ws.store.listRepos().repos.map((r) => r.repo), [
        "alice/tool",
        "bob/tool",
        "local/app-12345678",
      ]);
      equal(await ws.store.deleteRepo("bob/tool"), true);
      equal(await ws.store.deleteRepo("bob/tool"), false);
      deepEqual(
        [...Deno.readDirSync(ws.indexDir)].map((e) => e.name).filter((n) => n.startsWith("bob")),
        [],
      );
      equal(ws.store.resolveRepo("tool"), "alice/tool");
    });
  } finally {
    ws.dispose();
  }
});

Deno.test("the savings counter persists and is shared", () => {
  const ws = tempWorkspace();
  try {
    const a = new SavingsCounter(ws.indexDir);
    const b = new SavingsCounter(ws.indexDir);
    deepEqual(a.add(100, 10), { total_tokens_saved: 100, total_encoding_tokens_saved: 10 });
    deepEqual(b.add(50.7, -3), { total_tokens_saved: 150, total_encoding_tokens_saved: 10 });
    a.close();
    b.close();
    const c = new SavingsCounter(ws.indexDir);
    deepEqual(c.totals(), { total_tokens_saved: 150, total_encoding_tokens_saved: 10 });
    c.close();
  } finally {
    ws.dispose();
  }
});

Deno.test("schema 5 -> 6: symbol ids and parents lose their stored path; lookups by id", async () => {
  const ws = tempWorkspace();
  try {
    Deno.mkdirSync(ws.indexDir, { recursive: true });
    const dbPath = join(ws.indexDir, "v5.db");
    const writer = await RepoWriter.open(dbPath);
    const parsed = await put(writer, "a::b/m.py", enc.encode(APP));
    writer.commit();
    // What schema 5 had: the full id, and the parent's full id, in each row.
    const db = new DatabaseSync(dbPath);
    db.exec(`DROP INDEX symbols_by_id; ALTER TABLE symbols ADD COLUMN id TEXT;
      UPDATE symbols SET id = 'a::b/m.py::' || local_id, parent = 'a::b/m.py::' || parent;
      ALTER TABLE symbols DROP COLUMN local_id; CREATE UNIQUE INDEX symbols_by_id ON symbols(id);
      PRAGMA user_version=5;`);
    db.close();
    const migrated = await RepoWriter.open(dbPath);
    equal(migrated.schemaWarning, `Index migrated from schema 5 to ${SCHEMA_VERSION}`);
    migrated.commit();
    const index = RepoIndex.open(dbPath);
    deepEqual(index.symbolsOfFile("a::b/m.py"), parsed.symbols);
    const method = parsed.symbols.find((s) => s.parent !== null)!;
    deepEqual(index.symbol(method.id), method);
    ok(index.symbolSource(method.id)?.includes(method.name));
    deepEqual(
      index.symbolParents(),
      parsed.symbols.filter((s) => s.parent !== null).map((s) => ({ id: s.id, parent: s.parent })),
    );
    equal(index.symbol("a::b/m.py::nothing#function"), undefined);
    index.close();
  } finally {
    ws.dispose();
  }
});

Deno.test("schema 4 -> 5: the embeddings table is added, empty; vectors round-trip", async () => {
  const ws = tempWorkspace();
  try {
    Deno.mkdirSync(ws.indexDir, { recursive: true });
    const dbPath = join(ws.indexDir, "v4.db");
    const writer = await RepoWriter.open(dbPath);
    await put(writer, "a.py", enc.encode("def f():\n    pass\n"));
    writer.commit();
    const db = new DatabaseSync(dbPath);
    db.exec("DROP TABLE symbol_embeddings; PRAGMA user_version=4;");
    db.close();
    const migrated = await RepoWriter.open(dbPath);
    equal(migrated.schemaWarning, `Index migrated from schema 4 to ${SCHEMA_VERSION}`);
    migrated.commit();
    const index = RepoIndex.open(dbPath);
    equal(index.embeddingModel(), null);
    const vectors = EmbeddingWriter.open(dbPath);
    const v = new Float32Array([0.6, 0.8]);
    await vectors.write({ identity: "t", dim: 2 }, new Map([["00ff".repeat(8), v]]), null);
    deepEqual(index.embeddingModel(), { identity: "t", dim: 2 });
    deepEqual([...index.embeddingVectors(2).entries()].map(([k, x]) => [k, [...x]]), [
      ["00ff".repeat(8), [...v]],
    ]);
    // Another model's vectors are dropped before its own are written; unused ones pruned.
    equal(await vectors.write({ identity: "u", dim: 2 }, new Map([["11".repeat(16), v]]), null), 1);
    equal(await vectors.write({ identity: "u", dim: 2 }, new Map(), new Set()), 1);
    equal(index.embeddingVectors(2).size, 0);
    vectors.close();
    index.close();
  } finally {
    ws.dispose();
  }
});
