/**
 * The scale bench's helpers (scripts/bench_memory_scale.ts): the function appended to change a
 * file is one its language parses, and the index's size is every file under the directory.
 */
import { deepEqual } from "node:assert/strict";
import { join } from "node:path";
import { appendedFunction, treeBytes } from "../../scripts/bench_memory_scale.ts";

Deno.test("scale probe: the appended function follows the file's language", () => {
  deepEqual(appendedFunction("net/http/server.go"), {
    code: "\nfunc benchAddedFunction1() int { return 1 }\n",
    name: "benchAddedFunction1",
  });
  deepEqual(appendedFunction("a/b.py", 2), {
    code: "\n\ndef bench_added_function_2():\n    return 1\n",
    name: "bench_added_function_2",
  });
  deepEqual(appendedFunction("mm/slab.c"), {
    code: "\nint bench_added_function_1(void) { return 1; }\n",
    name: "bench_added_function_1",
  });
  deepEqual(appendedFunction("include/linux/slab.h"), appendedFunction("mm/slab.c"));
  // Two edits of one file add two different functions.
  deepEqual(appendedFunction("x.go", 1).name === appendedFunction("x.go", 2).name, false);
});

Deno.test("scale probe: treeBytes counts the files of every sub-folder", () => {
  const dir = Deno.makeTempDirSync();
  try {
    Deno.writeTextFileSync(join(dir, "db"), "x".repeat(10));
    Deno.mkdirSync(join(dir, "sub"));
    Deno.writeTextFileSync(join(dir, "sub", "db-wal"), "y".repeat(5));
    deepEqual(treeBytes(dir), 15);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
