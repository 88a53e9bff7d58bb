import { equal, notEqual } from "node:assert/strict";
import fc from "fast-check";
import { localRepoId, repoIdFromSlug, repoSlug } from "../../src/store/paths.ts";

Deno.test("repo ids and slugs", async (t) => {
  await t.step("local ids are basename plus 8 hex of SHA-1 of the path", () => {
    // `printf %s /home/me/app | sha1sum` → fae53059b819…
    equal(localRepoId("/home/me/app"), "local/app-fae53059");
    notEqual(localRepoId("/home/me/app"), localRepoId("/home/you/app"));
  });

  await t.step("slugs that collide in the reference do not collide here", () => {
    notEqual(repoSlug("a-b/c"), repoSlug("a/b-c"));
    notEqual(repoSlug("a_b/c"), repoSlug("a/b_c"));
    notEqual(repoSlug("a/.b"), repoSlug("a/_2eb"));
  });

  await t.step("slugs are file-name safe and round-trip", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40, unit: "binary" }), (repo) => {
        const slug = repoSlug(repo);
        equal(/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(slug), true);
        equal(repoIdFromSlug(slug), repo);
      }),
    );
  });

  await t.step("text that is not a slug is rejected", () => {
    equal(repoIdFromSlug("a/b"), null);
    equal(repoIdFromSlug("a_zz"), null);
    equal(repoIdFromSlug("_savings"), null);
  });
});
