/**
 * File summaries at query time (src/query/file_summaries.ts): the stored sentence ranks a file's
 * functions by its own calls only; at query time the function the whole repo calls comes first.
 */
import { equal } from "node:assert/strict";
import { fileSummaryOf } from "../../src/query/file_summaries.ts";
import { SYMBOLS } from "../../src/query/symbols.ts";
import { indexedView } from "./_fixture.ts";

Deno.test("file_summaries: the repo's references rank the file's symbols", async () => {
  const { view, close } = await indexedView({
    // gamma is called by its own file twice; beta by three other files.
    "util.py": "def alpha():\n    return 1\n\n\ndef beta():\n    return 2\n\n\n" +
      "def gamma():\n    return 3\n\n\ngamma()\ngamma()\n",
    "a.py": "from util import beta\n\n\ndef a():\n    return beta()\n",
    "b.py": "from util import beta\n\n\ndef b():\n    return beta()\n",
    "c.py": "from util import beta\n\n\ndef c():\n    return beta() + beta()\n",
  });
  try {
    const symbols = view.get(SYMBOLS).ofFile("util.py");
    equal(view.index.file("util.py")?.summary, "Contains 3 functions: gamma, alpha, beta");
    equal(fileSummaryOf(view, "util.py", symbols), "Contains 3 functions: beta, gamma, alpha");
    // Without symbols, the stored summary.
    equal(fileSummaryOf(view, "a.py", []), view.index.file("a.py")?.summary);
    equal(fileSummaryOf(view, "missing.py", []), "");
  } finally {
    await close();
  }
});
