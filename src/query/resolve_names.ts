/**
 * Name resolution over the stored graph: what a name written in a file (a call's callee, a base
 * class, a type) refers to, following the language's scoping — the enclosing scopes, then the
 * file (a Go or Java package: its directory), then what the file imports (following re-exports),
 * then the rest of the repo — and, for a call through a receiver (`self.x()`, `this.x()`,
 * `obj.x()`, `pkg.X()`), the receiver's type or module where the index knows it.
 *
 * Every answer says how sure it is: `resolved` (scoping or a known receiver type picked the
 * target) or `by_name` (only the name matched; several matches are all returned as candidates).
 */
import type { SymbolRecord } from "../parser/types.ts";
import type { StoredCall, StoredImport } from "../store/repo_index.ts";
import { dirOf, IMPORT_GRAPH, type ImportGraph } from "./import_graph.ts";
import { SYMBOLS, type SymbolTable } from "./symbols.ts";
import { facet, type RepoView } from "./view.ts";
import { CLASS_BASES } from "./class_bases.ts";
import { FILES } from "./files.ts";

/** How sure a resolution is. */
export type Resolution = "resolved" | "by_name";

/** What a name refers to: one target when resolved, the candidates when only the name matched. */
export interface Resolved {
  targets: SymbolRecord[];
  resolution: Resolution;
}

/** Language families that share scoping rules. */
type _Family = "python" | "ecmascript" | "go" | "jvm" | "other";

const _FAMILY: Record<string, _Family> = {
  python: "python",
  javascript: "ecmascript",
  typescript: "ecmascript",
  tsx: "ecmascript",
  vue: "ecmascript",
  go: "go",
  java: "jvm",
  kotlin: "jvm",
  scala: "jvm",
  csharp: "jvm",
  dart: "jvm",
  swift: "jvm",
  cpp: "jvm",
  php: "other",
  ruby: "other",
  rust: "other",
};

/** The scoping family of a language id. */
export function familyOf(language: string): string {
  return _FAMILY[language] ?? language;
}

/** Languages where a bare call inside a method may call a method of the class (implicit `this`). */
const _IMPLICIT_THIS = new Set(["jvm", "ruby"]);
/** Languages where a name not found in scope, file, package or imports cannot be defined elsewhere. */
const _CLOSED_SCOPE = new Set(["go", "jvm"]);
/** Receivers that mean "the enclosing class's instance". */
const _SELF = new Set(["self", "this", "cls", "$this", "Self", "static", "@"]);
const _SUPER = new Set(["super", "super()", "parent"]);

const _CLASS_KINDS = new Set(["class", "type"]);

/** Most re-export hops followed when looking a name up in an imported file. */
const _MAX_REEXPORT_HOPS = 4;

/** Resolves names of one index state; answers are memoized per call site. */
export class NameResolver {
  readonly #symbols: SymbolTable;
  readonly #imports: ImportGraph;
  readonly #view: RepoView;
  readonly #memo = new Map<string, Resolved | null>();

  constructor(view: RepoView) {
    this.#view = view;
    this.#symbols = view.get(SYMBOLS);
    this.#imports = view.get(IMPORT_GRAPH);
  }

  /** What a call site calls, or null when nothing in the repo can be it (a builtin, a library). */
  resolveCall(site: StoredCall): Resolved | null {
    const key = `${site.file}\0${site.caller ?? ""}\0${site.receiver ?? ""}\0${site.callee}`;
    if (this.#memo.has(key)) return this.#memo.get(key)!;
    const answer = this.#resolveCall(site);
    this.#memo.set(key, answer);
    return answer;
  }

  #resolveCall(site: StoredCall): Resolved | null {
    const language = this.#languageOf(site.file);
    const family = familyOf(language);
    const caller = site.caller === null ? undefined : this.#symbols.byId(site.caller);
    const receiver = site.receiver?.trim() ?? null;
    if (receiver === null || receiver === "") {
      return this.resolveName(site.callee, site.file, caller, { callable: true });
    }
    const callee = site.callee;
    // self.x(), this.x(): a member of the enclosing class or of its ancestors.
    const selfClass = _SELF.has(receiver) || (family === "go" && this.#goReceiver(caller) === receiver)
      ? this.#enclosingClass(caller)
      : undefined;
    if (selfClass !== undefined) {
      const hit = this.memberOf(selfClass, callee);
      if (hit.length > 0) return { targets: hit, resolution: "resolved" };
    }
    if (_SUPER.has(receiver)) {
      const cls = this.#enclosingClass(caller);
      if (cls !== undefined) {
        for (const base of this.#view.get(CLASS_BASES).ancestors(cls)) {
          const hit = this.#ownMembers(base.symbol, callee);
          if (hit.length > 0) return { targets: hit, resolution: "resolved" };
        }
      }
    }
    // pkg.X(), module.f(), ns.f(): a definition of the imported module.
    if (/^[\w$.]+$/.test(receiver)) {
      const module = this.#importedModule(site.file, receiver, family);
      if (module === "external") return null;
      if (module !== null) {
        const hit = this.#definedIn(module, callee, 0);
        if (hit.length > 0) return { targets: hit, resolution: "resolved" };
      }
      // Class.method(): a static call on a class the file can see.
      if (/^[\w$]+$/.test(receiver) && module === null && family !== "go") {
        const cls = this.resolveName(receiver, site.file, caller, { classes: true });
        if (cls !== null && cls.resolution === "resolved" && cls.targets.length === 1) {
          const hit = this.memberOf(cls.targets[0]!, callee);
          if (hit.length > 0) return { targets: hit, resolution: "resolved" };
        }
      }
    }
    return this.#membersByName(callee, site.file, family);
  }

  /**
   * What a bare name written in `file` (inside `scope`, when known) refers to: enclosing scopes,
   * the file (Go: the package), imported names, then the rest of the repo (by name). `callable`
   * keeps to functions, classes and types; `classes` to classes and types.
   */
  resolveName(
    name: string,
    file: string,
    scope: SymbolRecord | undefined,
    options: { callable?: boolean; classes?: boolean } = {},
  ): Resolved | null {
    const family = familyOf(this.#languageOf(file));
    const named = this.#symbols.byName(name).filter((s) =>
      options.classes ? _CLASS_KINDS.has(s.kind) : options.callable ? s.kind !== "import" : true
    );
    // Enclosing scopes: nested definitions, then (implicit `this`) the class's members.
    for (let s = scope; s !== undefined; s = this.#parentOf(s)) {
      const inner = named.filter((n) => n.parent === s!.id);
      if (_CLASS_KINDS.has(s.kind)) {
        if (!_IMPLICIT_THIS.has(family)) continue;
        const members = this.memberOf(s, name);
        if (members.length > 0) return { targets: members, resolution: "resolved" };
      } else if (inner.length > 0) return { targets: inner, resolution: "resolved" };
    }
    // The file, or Go's package (every file of the directory).
    const local = family === "go"
      ? named.filter((n) => dirOf(n.file) === dirOf(file) && n.qualified_name === n.name)
      : named.filter((n) => n.file === file && n.parent === null);
    if (local.length > 0) return { targets: local, resolution: "resolved" };
    // Imported names (following re-exports); JVM: classes of the same package too.
    const imported = this.#fromImports(name, file, options);
    if (imported.length > 0) return { targets: imported, resolution: "resolved" };
    if (family === "jvm") {
      const samePackage = named.filter((n) =>
        dirOf(n.file) === dirOf(file) && n.parent === null && _CLASS_KINDS.has(n.kind)
      );
      if (samePackage.length > 0) return { targets: samePackage, resolution: "resolved" };
    }
    if (_CLOSED_SCOPE.has(family)) return null;
    const anywhere = named.filter((n) =>
      familyOf(n.language) === family && (n.parent === null || _CLASS_KINDS.has(n.kind))
    );
    return anywhere.length > 0 ? { targets: anywhere, resolution: "by_name" } : null;
  }

  /**
   * What a type name written in `file` refers to (`Base`, `mod.Base`, `pkg.Reader`): a class or
   * type, `"external"` when it comes from an unresolved import (a library), or null.
   */
  resolveTypeName(text: string, file: string): Resolved | "external" | null {
    const clean = text.replace(/^[*&]+/, "").replace(/<.*$|\[.*$|\(.*$/s, "").trim();
    const dot = clean.lastIndexOf(".");
    if (dot === -1) return this.resolveName(clean, file, undefined, { classes: true });
    const family = familyOf(this.#languageOf(file));
    const module = this.#importedModule(file, clean.slice(0, dot), family);
    if (module === "external") return "external";
    const name = clean.slice(dot + 1);
    if (module !== null) {
      const hit = this.#definedIn(module, name, 0).filter((s) => _CLASS_KINDS.has(s.kind));
      if (hit.length > 0) return { targets: hit, resolution: "resolved" };
    }
    return this.resolveName(name, file, undefined, { classes: true });
  }

  /** The members named `name` of a class or type, its own first, then its ancestors'. */
  memberOf(cls: SymbolRecord, name: string): SymbolRecord[] {
    const own = this.#ownMembers(cls, name);
    if (own.length > 0) return own;
    for (const base of this.#view.get(CLASS_BASES).ancestors(cls)) {
      const hit = this.#ownMembers(base.symbol, name);
      if (hit.length > 0) return hit;
    }
    return [];
  }

  #ownMembers(cls: SymbolRecord, name: string): SymbolRecord[] {
    const qualified = `${cls.qualified_name}.${name}`;
    return this.#symbols.byName(name).filter((s) =>
      s.parent === cls.id ||
      (s.qualified_name === qualified && s.language === cls.language &&
        (s.file === cls.file || (cls.language === "go" && dirOf(s.file) === dirOf(cls.file))))
    );
  }

  /**
   * A call through a receiver of unknown type: methods named `name` of the same language family,
   * those the file can see first (its file, its package, the files it imports), else anywhere.
   */
  #membersByName(name: string, file: string, family: string): Resolved | null {
    const methods = this.#symbols.byName(name).filter((s) =>
      familyOf(s.language) === family && s.qualified_name !== s.name
    );
    if (methods.length === 0) return null;
    const visible = new Set<string>([dirOf(file)]);
    for (const imp of this.#imports.importsOf.get(file) ?? []) {
      if (imp.resolved !== null) visible.add(family === "go" ? dirOf(imp.resolved) : imp.resolved);
    }
    const near = methods.filter((m) =>
      m.file === file || visible.has(dirOf(m.file)) || visible.has(m.file)
    );
    return { targets: near.length > 0 ? near : methods, resolution: "by_name" };
  }

  /** Names imported into `file` that are `name`, looked up in the files they come from. */
  #fromImports(
    name: string,
    file: string,
    options: { callable?: boolean; classes?: boolean },
  ): SymbolRecord[] {
    const out: SymbolRecord[] = [];
    for (const imp of this.#imports.importsOf.get(file) ?? []) {
      if (imp.resolved === null) continue;
      const last = imp.specifier.replace(/\.[\w]+$/, "").split(/[./\\]/).pop();
      if (!imp.names.includes(name) && !imp.names.includes("*") && last !== name) continue;
      for (const s of this.#definedIn(imp.resolved, name, 0)) {
        if (options.classes && !_CLASS_KINDS.has(s.kind)) continue;
        out.push(s);
      }
      if (out.length > 0 && imp.names.includes(name)) break;
    }
    return [...new Map(out.map((s) => [s.id, s])).values()];
  }

  /** Top-level definitions named `name` in a module file (Go: its package), through re-exports. */
  #definedIn(target: string, name: string, hops: number): SymbolRecord[] {
    const files = new Set(this.#imports.unitFiles(target));
    const own = this.#symbols.byName(name).filter((s) =>
      files.has(s.file) && (s.parent === null && s.qualified_name === s.name)
    );
    if (own.length > 0 || hops >= _MAX_REEXPORT_HOPS) return own;
    for (const imp of this.#imports.importsOf.get(target) ?? []) {
      if (imp.resolved === null || imp.resolved === target) continue;
      if (!imp.names.includes(name) && !imp.names.includes("*") && imp.names.length > 0) continue;
      if (imp.names.length === 0 && !this.#imports.isReexport(imp)) continue;
      const hit = this.#definedIn(imp.resolved, name, hops + 1);
      if (hit.length > 0) return hit;
    }
    return [];
  }

  /**
   * The module a receiver names through the file's imports: a resolved file, `"external"` for an
   * import the index could not resolve (a library), or null when no import binds it.
   */
  #importedModule(file: string, receiver: string, family: string): string | null | "external" {
    for (const imp of this.#imports.importsOf.get(file) ?? []) {
      if (!_binds(imp, receiver, family)) continue;
      return imp.resolved ?? "external";
    }
    return null;
  }

  #languageOf(file: string): string {
    return this.#view.get(FILES).get(file)?.language ?? "";
  }

  #parentOf(s: SymbolRecord): SymbolRecord | undefined {
    return s.parent === null ? undefined : this.#symbols.byId(s.parent);
  }

  /** The class or type a method belongs to (Go: its receiver type, by qualified name). */
  #enclosingClass(caller: SymbolRecord | undefined): SymbolRecord | undefined {
    for (let s = caller; s !== undefined; s = this.#parentOf(s)) {
      if (_CLASS_KINDS.has(s.kind) && s !== caller) return s;
      if (s.language === "go" && s.kind === "method" && s.qualified_name.includes(".")) {
        const type = s.qualified_name.slice(0, s.qualified_name.lastIndexOf("."));
        return this.#symbols.byName(type).find((t) =>
          _CLASS_KINDS.has(t.kind) && dirOf(t.file) === dirOf(s!.file)
        );
      }
    }
    return undefined;
  }

  /** The receiver variable of a Go method (`s` in `func (s *Server) Start()`). */
  #goReceiver(caller: SymbolRecord | undefined): string | null {
    if (caller === undefined || caller.language !== "go" || caller.kind !== "method") return null;
    return /^func\s*\(\s*([\w]+)\s/.exec(caller.signature)?.[1] ?? null;
  }
}

/** Whether an import binds `receiver` as a module name in its file. */
function _binds(imp: StoredImport, receiver: string, family: string): boolean {
  const spec = imp.specifier;
  if (family === "go") {
    const parts = spec.split("/");
    let last = parts[parts.length - 1]!;
    if (/^v\d+$/.test(last) && parts.length > 1) last = parts[parts.length - 2]!;
    return last.replace(/^go-/, "").replace(/[.-].*$/, "") === receiver;
  }
  if (family === "python") {
    if (imp.names.length === 0) return spec === receiver;
    return imp.names.includes(receiver);
  }
  if (family === "ecmascript") {
    return imp.names.some((n) =>
      n === receiver || n.replace(/^\*\s*as\s+/, "") === receiver
    ) || (imp.names.length === 0 && spec.endsWith("/" + receiver));
  }
  return imp.names.includes(receiver);
}

/** The name resolver of a view. */
export const NAME_RESOLVER = facet("name-resolver", (v) => new NameResolver(v));
