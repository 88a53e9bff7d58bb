import type { ImportWriter } from "../language_spec.ts";
import { folderOf } from "./paths.ts";

/**
 * Go's imports: `import "path"` (or `import name "path"`) binds one package name, used
 * qualified; an import line is copied as written, its alias kept. A new file starts with the
 * package clause of the file the definition leaves (`package main` when it has none). A
 * definition moves within its package folder, so a package's import path stays the one written.
 */
export const GO_IMPORTS: ImportWriter = {
  name: "go",
  files: /\.go$/,
  blankLines: 1,
  statement: (specifier) => `import "${specifier}"`,
  specifier: (_file, target, like) => like ?? folderOf(target),
  header: (source) => `package ${/^package\s+(\S+)/m.exec(source)?.[1] ?? "main"}\n\n`,
  packageImport(line, specifier) {
    const binding = /^\s*(?:import\s+)?(?:([\p{L}_][\p{L}\p{N}_]*)\s+)?"([^"]+)"/u.exec(line);
    const name = binding?.[1] ?? specifier.split("/").pop()!;
    return { name, text: `import ${binding?.[1] ? name + " " : ""}"${specifier}"` };
  },
};
