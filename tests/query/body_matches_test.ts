/**
 * Body matches (src/query/body_matches.ts): symbols whose own lines hold several words of a task,
 * found through the trigram index and attributed to the innermost symbol, and what
 * get_ranked_context makes of them.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { indexedFixture } from "./_fixture.ts";
import { bodyMatches, bodyWords } from "../../src/query/body_matches.ts";
import { RepoViews } from "../../src/query/view.ts";

const APP = `
function createApp() {
  const app = {};
  app.settings = {};
  return app;
}

class Application {
  init() {
    // Routing starts case-insensitive and lenient about a trailing slash.
    this.set("case sensitive routing", false);
    this.set("strict routing", false);
  }

  listen(port) {
    return port;
  }
}
`;

// Many files that share the common words, so that only the rare ones weigh.
const FILLER: Record<string, string> = {};
for (let i = 0; i < 12; i++) {
  FILLER[`lib/other_${i}.js`] = `function other${i}(app) {\n  return app.routing;\n}\n`;
}

Deno.test("body matches", async (t) => {
  const { ws, runner, repo, close } = await indexedFixture("context", {
    "lib/application.js": APP,
    ...FILLER,
  });
  try {
    await t.step(
      "words: question words left out, cut to what the word shares with its stem",
      () => {
        deepEqual(bodyWords("how is routing made case-sensitive in memory"), [
          "rout",
          "made",
          "casesensit",
          "case",
          "sensit",
          "memor",
        ]);
      },
    );

    await t.step("the innermost symbol whose lines hold the rare words", () => {
      const index = ws.store.repo(ws.store.resolveRepo(repo));
      const view = new RepoViews(ws.store).view(repo, index);
      const found = bodyMatches(view, "make routing case sensitive and strict");
      equal(found[0]?.id, "lib/application.js::Application.init#method", JSON.stringify(found));
      ok(found[0]!.words.includes("sensit") && found[0]!.words.includes("strict"));
      // `routing` is in most files: it weighs nothing and finds nothing alone.
      ok(!found.some((m) => m.id.startsWith("lib/other_")), JSON.stringify(found));
      // The class holds the method's lines, but they are the method's own.
      ok(!found.some((m) => m.id === "lib/application.js::Application#class"));
      // A scope reads only the files it accepts.
      const scoped = bodyMatches(view, "make routing case sensitive and strict", {
        keepFile: (path) => path.startsWith("shop/"),
      });
      deepEqual(scoped, []);
    });

    await t.step("get_ranked_context packs the method no name or docstring points to", async () => {
      const r = await runner.call("get_ranked_context", {
        repo,
        query: "make routing case sensitive and strict",
        format: "json",
      });
      equal(r.isError, false, r.text);
      const items = (JSON.parse(r.text) as { context_items: { symbol_id: string; why: string }[] })
        .context_items;
      const init = items.find((i) => i.symbol_id === "lib/application.js::Application.init#method");
      ok(init !== undefined, JSON.stringify(items));
      ok(init.why.startsWith("body words "), init.why);
    });
  } finally {
    await close();
  }
});
