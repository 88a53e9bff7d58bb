/**
 * An independent ground truth for the graph benchmark on Go code, computed from the source text
 * with regular expressions (no tree-sitter, no index resolution): which files import a package
 * (import declarations, aliases included), and which lines call a package-level function
 * (`F(` inside its package, `pkg.F(` in files importing it) or a method (`.M(` in the package and
 * in files importing it: a text search cannot know receiver types, so a method's truth is every
 * `.M(` call its package's users can see).
 */

/** One import declaration of a Go file. */
export interface GoImport {
  path: string;
  /** The alias written before the path (`.`, `_` or a name), or null. */
  alias: string | null;
  line: number;
}

/** Blank out comments and string contents, keeping line breaks and quoted import paths. */
export function stripGoComments(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const n = text[i + 1];
    if (c === "/" && n === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && n === "*") {
      i += 2;
      while (i < text.length && !(text[i] === "*" && text[i + 1] === "/")) {
        if (text[i] === "\n") out += "\n";
        i++;
      }
      i += 2;
    } else if (c === "`") {
      out += "``";
      i++;
      while (i < text.length && text[i] !== "`") {
        if (text[i] === "\n") out += "\n";
        i++;
      }
      i++;
    } else if (c === "'") {
      out += "' '";
      i++;
      while (i < text.length && text[i] !== "'" && text[i] !== "\n") {
        if (text[i] === "\\") i++;
        i++;
      }
      i++;
    } else if (c === '"') {
      // Keep the string (import paths are strings); calls inside strings are rare in Go.
      let s = '"';
      i++;
      while (i < text.length && text[i] !== '"' && text[i] !== "\n") {
        if (text[i] === "\\") {
          s += text[i]!;
          i++;
        }
        s += text[i] ?? "";
        i++;
      }
      i++;
      out += s.replace(/[(\[]/g, " ") + '"';
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The import declarations of a Go file (text already stripped of comments). */
export function goImports(stripped: string): GoImport[] {
  const out: GoImport[] = [];
  const lineAt = (index: number) => stripped.slice(0, index).split("\n").length;
  const single = /^import\s+([\w.]+\s+)?"([^"]+)"/gm;
  for (let m = single.exec(stripped); m !== null; m = single.exec(stripped)) {
    out.push({ path: m[2]!, alias: m[1]?.trim() ?? null, line: lineAt(m.index) });
  }
  const block = /^import\s*\(([^)]*)\)/gm;
  for (let m = block.exec(stripped); m !== null; m = block.exec(stripped)) {
    const start = m.index + m[0].indexOf("(") + 1;
    const spec = /(?:^|[\n;])\s*([\w.]+\s+)?"([^"]+)"/g;
    for (let s = spec.exec(m[1]!); s !== null; s = spec.exec(m[1]!)) {
      const at = start + s.index + s[0].indexOf('"');
      out.push({ path: s[2]!, alias: s[1]?.trim() ?? null, line: lineAt(at) });
    }
  }
  return out;
}

/** The package clause name of a Go file. */
export function goPackageName(stripped: string): string {
  return /^package\s+(\w+)/m.exec(stripped)?.[1] ?? "";
}

/** Lines (1-based) where `pattern` matches, given the stripped text. */
export function matchingLines(stripped: string, pattern: RegExp): number[] {
  const lines: number[] = [];
  stripped.split("\n").forEach((text, i) => {
    pattern.lastIndex = 0;
    if (pattern.test(text)) lines.push(i + 1);
  });
  return lines;
}

function _escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A Go source tree read once: stripped texts, package names, imports, importers by package dir. */
export class GoTruth {
  readonly stripped = new Map<string, string>();
  readonly packageOf = new Map<string, string>();
  readonly importsOf = new Map<string, GoImport[]>();
  /** Importing files by the directory of the imported package. */
  readonly importersOfDir = new Map<string, Map<string, GoImport>>();
  readonly dirs: Set<string>;
  #names: Map<string, string> | null = null;
  /** By package: struct type → method name → the types that provide it (itself or embedded). */
  readonly #methods = new Map<string, Map<string, Map<string, Set<string>>>>();

  /**
   * `files`: the repo-relative .go paths to consider; `read` gives their text; `modules`: the
   * module path of each go.mod directory (`{"": "github.com/gin-gonic/gin"}`; the standard
   * library's module `std` imports its packages by directory).
   */
  constructor(
    files: readonly string[],
    read: (path: string) => string,
    modules: Record<string, string> = {},
  ) {
    this.dirs = new Set(files.map(dirOf));
    const prefixes = Object.entries(modules).filter(([, m]) => m !== "std")
      .sort((a, b) => b[1].length - a[1].length);
    const dirOfImport = (path: string): string | null => {
      for (const [dir, module] of prefixes) {
        if (path === module || path.startsWith(module + "/")) {
          const rest = path.slice(module.length + 1);
          const d = [dir, rest].filter((p) => p !== "").join("/");
          if (this.dirs.has(d)) return d;
        }
      }
      if (this.dirs.has(path)) return path;
      return this.dirs.has("vendor/" + path) ? "vendor/" + path : null;
    };
    for (const f of files) {
      const s = stripGoComments(read(f));
      this.stripped.set(f, s);
      this.packageOf.set(f, goPackageName(s));
      const imports = goImports(s);
      this.importsOf.set(f, imports);
      for (const imp of imports) {
        const dir = dirOfImport(imp.path);
        if (dir === null) continue;
        let m = this.importersOfDir.get(dir);
        if (m === undefined) this.importersOfDir.set(dir, m = new Map());
        if (!m.has(f)) m.set(f, imp);
      }
    }
  }

  /** The files importing the package of `file`. */
  importers(file: string): string[] {
    return [...(this.importersOfDir.get(dirOf(file))?.keys() ?? [])].filter((f) => f !== file)
      .sort();
  }

  /** The package name a directory's package is known by (its non-test package clause). */
  #packageName(dir: string): string {
    if (this.#names === null) {
      this.#names = new Map();
      for (const [f, p] of this.packageOf) {
        if (!f.endsWith("_test.go") && p !== "" && !this.#names.has(dirOf(f))) {
          this.#names.set(dirOf(f), p);
        }
      }
    }
    return this.#names.get(dir) ?? "";
  }

  /** `file:line` of every call of the package-level function `name` defined in `file`. */
  functionCalls(file: string, name: string): Set<string> {
    const out = new Set<string>();
    const dir = dirOf(file);
    const pkg = this.packageOf.get(file) ?? "";
    const bare = new RegExp(`(?<![\\w.])${_escape(name)}\\s*(?:\\[[^\\]]*\\]\\s*)?\\(`);
    const decl = new RegExp(`^func\\s+(?:\\([^)]*\\)\\s*)?${_escape(name)}\\s*[(\\[]`);
    for (const [f, s] of this.stripped) {
      if (dirOf(f) !== dir || this.packageOf.get(f) !== pkg) continue;
      const lines = s.split("\n");
      for (const l of matchingLines(s, bare)) if (!decl.test(lines[l - 1]!)) out.add(`${f}:${l}`);
    }
    for (const [f, imp] of this.importersOfDir.get(dir) ?? []) {
      const local = imp.alias ?? this.#packageName(dir);
      if (local === "_") continue;
      const re = local === "." ? bare : new RegExp(
        `(?<![\\w.])${_escape(local)}\\.${_escape(name)}\\s*(?:\\[[^\\]]*\\]\\s*)?\\(`,
      );
      for (const l of matchingLines(this.stripped.get(f)!, re)) out.add(`${f}:${l}`);
    }
    return out;
  }

  /**
   * `file:line` of every `x.name(` call in the package of `dir` and in files importing it, where
   * `x` is not one of the file's imported package names (`pkg.name(` calls a function), and —
   * when `type` (the method's receiver type) is given — `x` is not the receiver or a parameter of
   * the enclosing function declared with another struct type that declares `name` itself (then the
   * call is that type's method).
   */
  methodCalls(dir: string, name: string, type?: string): Set<string> {
    const out = new Set<string>();
    const re = new RegExp(`([\\w)\\]]*)\\.${_escape(name)}\\s*\\(`, "g");
    const files = new Set<string>();
    for (const f of this.stripped.keys()) if (dirOf(f) === dir) files.add(f);
    // A method named in lower case is only callable inside its package.
    if (/^\p{Lu}/u.test(name)) {
      for (const f of this.importersOfDir.get(dir)?.keys() ?? []) files.add(f);
    }
    for (const f of files) {
      const packages = new Map<string, string>();
      for (const imp of this.importsOf.get(f) ?? []) {
        const d = this.dirs.has(imp.path) ? imp.path : "vendor/" + imp.path;
        packages.set(imp.alias ?? (this.#packageName(d) || imp.path.split("/").pop()!), d);
      }
      const lines = this.stripped.get(f)!.split("\n");
      lines.forEach((text, i) => {
        for (const m of text.matchAll(re)) {
          if (packages.has(m[1]!)) continue;
          if (type !== undefined) {
            const bound = _boundType(lines, i, m[1]!);
            if (bound !== null) {
              const dot = bound.indexOf(".");
              const typeDir = dot === -1 ? dirOf(f) : packages.get(bound.slice(0, dot)) ?? null;
              const typeName = bound.slice(dot + 1);
              const providers = typeDir === null
                ? undefined
                : this.#structMethods(typeDir).get(typeName)?.get(name);
              if (
                providers !== undefined && !(typeDir === dir && providers.has(type))
              ) continue;
            }
          }
          out.add(`${f}:${i + 1}`);
          break;
        }
      });
    }
    return out;
  }

  /**
   * The methods of each struct type of a package — declared, or promoted from embedded structs of
   * the package — with the types that provide them.
   */
  #structMethods(dir: string): Map<string, Map<string, Set<string>>> {
    let hit = this.#methods.get(dir);
    if (hit !== undefined) return hit;
    hit = new Map();
    const structs = new Set<string>();
    const methods: [string, string][] = [];
    const embeds = new Map<string, string[]>();
    for (const [f, text] of this.stripped) {
      if (dirOf(f) !== dir) continue;
      let inStruct: string | null = null;
      for (const line of text.split("\n")) {
        if (inStruct !== null) {
          if (/^\s*}/.test(line)) inStruct = null;
          else {
            const e = /^\s*\*?([A-Za-z_]\w*)\s*$/.exec(line);
            if (e) embeds.set(inStruct, [...embeds.get(inStruct) ?? [], e[1]!]);
          }
        }
        const t = /^(?:type\s+|\t)(\w+)(?:\[[^\]]*\])?\s+struct\b/.exec(line);
        if (t) {
          structs.add(t[1]!);
          if (/struct\s*{\s*$/.test(line)) inStruct = t[1]!;
        }
        const m = /^func\s*\(\s*\w*\s*\*?\s*(\w+)(?:\[[^\]]*\])?\s*\)\s*(\w+)\s*[(\[]/.exec(line);
        if (m) methods.push([m[1]!, m[2]!]);
      }
    }
    const provide = (t: string, m: string, by: string) => {
      let byMethod = hit!.get(t);
      if (byMethod === undefined) hit!.set(t, byMethod = new Map());
      let set = byMethod.get(m);
      if (set === undefined) byMethod.set(m, set = new Set());
      set.add(by);
    };
    for (const [t, m] of methods) if (structs.has(t)) provide(t, m, t);
    // Methods promoted from embedded structs of the same package (`testing.T` embeds `common`),
    // unless the struct declares its own.
    for (let round = 0; round < 3; round++) {
      for (const [t, embedded] of embeds) {
        for (const e of embedded) {
          for (const [m, by] of hit.get(e) ?? []) {
            const own = hit.get(t)?.get(m);
            if (own?.has(t)) continue;
            for (const b of by) provide(t, m, b);
          }
        }
      }
    }
    this.#methods.set(dir, hit);
    return hit;
  }
}

/** The directory of a repo-relative path. */
export function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i === -1 ? "" : path.slice(0, i);
}

/**
 * The type the enclosing top-level function declares for `name` — as its receiver or a
 * parameter (`pkg.T` or `T`, pointer stripped) — or null when it declares none.
 */
function _boundType(lines: readonly string[], at: number, name: string): string | null {
  let start = at;
  while (start >= 0 && !lines[start]!.startsWith("func")) start--;
  if (start < 0) return null;
  const header = lines.slice(start, start + 6).join(" ");
  const end = header.indexOf("{");
  const decl = end === -1 ? header : header.slice(0, end);
  // Parameter lists: the receiver's, then the function's (generic type lists skipped).
  const lists = [...decl.matchAll(/\(([^()]*)\)/g)].map((m) => m[1]!).slice(0, 2);
  for (const list of lists) {
    const parts = list.split(",").map((p) => p.trim());
    for (let k = 0; k < parts.length; k++) {
      const words = parts[k]!.split(/\s+/);
      if (words[0] !== name) continue;
      // `a, b *T`: a name alone takes the type of the next part that has one.
      for (let j = k; j < parts.length; j++) {
        const w = parts[j]!.split(/\s+/);
        if (w.length >= 2) {
          const t = /^\*?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)$/.exec(w.slice(1).join(""));
          return t === null ? null : t[1]!;
        }
      }
      return null;
    }
  }
  return null;
}
