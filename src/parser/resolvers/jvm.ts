/**
 * Java, Kotlin, Scala, Groovy: `com.acme.Foo` is a file `com/acme/Foo.<ext>` under any source
 * root (`src/main/java/`...); `com.acme.Foo.member` falls back to `com.acme.Foo`.
 */
import type { ImportRecord } from "../types.ts";
import type { RepoView } from "./repo.ts";

const _JVM_EXTENSIONS = [".java", ".kt", ".kts", ".scala", ".groovy"];

function _jvmIndex(repo: RepoView): Map<string, string> {
  return repo.memo("jvm.index", () => {
    const index = new Map<string, string>();
    for (const f of [...repo.files].sort()) {
      const ext = _JVM_EXTENSIONS.find((e) => f.endsWith(e));
      if (ext === undefined) continue;
      const parts = f.slice(0, -ext.length).split("/");
      for (let i = 0; i < parts.length; i++) {
        const key = parts.slice(i).join("/");
        if (!index.has(key)) index.set(key, f);
      }
    }
    return index;
  });
}

/** The import resolver named `jvm`. */
export function resolveJvm(_file: string, record: ImportRecord, repo: RepoView): string | null {
  const parts = record.specifier.replace(/\.\*$/, "").split(".");
  const index = _jvmIndex(repo);
  for (let n = parts.length; n >= 2; n--) {
    const hit = index.get(parts.slice(0, n).join("/"));
    if (hit !== undefined) return hit;
  }
  return null;
}
