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
import type { LanguageSemantics, ParameterSyntax } from "../parser/language_spec.ts";
import { semanticsOf } from "../parser/semantics/mod.ts";
import type { SymbolRecord } from "../parser/types.ts";
import type { StoredCall, StoredImport } from "../store/repo_index.ts";
import { IMPORT_GRAPH, type ImportGraph } from "./import_graph.ts";
import { SYMBOLS, type SymbolTable } from "./symbols.ts";
import { facet, type RepoView } from "./view.ts";
import { CLASS_BASES } from "./class_bases.ts";
import { dirOf, UNITS, type Units } from "./units.ts";

/** How sure a resolution is. */
export type Resolution = "resolved" | "by_name";

/** What a name refers to: one target when resolved, the candidates when only the name matched. */
export interface Resolved {
  targets: SymbolRecord[];
  resolution: Resolution;
}

/** The scoping family of a language id (`LanguageSemantics.family`). */
export function familyOf(language: string): string {
  return semanticsOf(language).family;
}

const _CLASS_KINDS = new Set(["class", "type"]);
/** Declarations of types that other types implement (calls through them dispatch dynamically). */
const _INTERFACE = /\b(?:interface|trait|protocol)\b/;

/** Most re-export hops followed when looking a name up in an imported file. */
const _MAX_REEXPORT_HOPS = 4;

/** What the resolution of one call site knows about where it is written. */
interface _Site {
  file: string;
  semantics: LanguageSemantics;
  caller: SymbolRecord | undefined;
  receiver: string;
  callee: string;
}

/** Resolves names of one index state; answers are memoized per call site. */
export class NameResolver {
  readonly #symbols: SymbolTable;
  readonly #imports: ImportGraph;
  readonly #units: Units;
  readonly #view: RepoView;
  readonly #memo = new Map<string, Resolved | null>();

  constructor(view: RepoView) {
    this.#view = view;
    this.#symbols = view.get(SYMBOLS);
    this.#imports = view.get(IMPORT_GRAPH);
    this.#units = view.get(UNITS);
  }

  /** What a call site calls, or null when nothing in the repo can be it (a builtin, a library). */
  resolveCall(site: StoredCall): Resolved | null {
    const key = `${site.file}\0${site.caller ?? ""}\0${site.receiver ?? ""}\0${site.callee}`;
    if (this.#memo.has(key)) return this.#memo.get(key)!;
    const answer = this.#resolveCall(site);
    this.#memo.set(key, answer);
    return answer;
  }

  #resolveCall(stored: StoredCall): Resolved | null {
    const caller = stored.caller === null ? undefined : this.#symbols.byId(stored.caller);
    const receiver = stored.receiver?.trim() ?? null;
    if (receiver === null || receiver === "") {
      return this.resolveName(stored.callee, stored.file, caller, { callable: true });
    }
    const site: _Site = {
      file: stored.file,
      semantics: this.#units.semanticsOf(stored.file),
      caller,
      receiver,
      callee: stored.callee,
    };
    const known = this.#throughSelf(site) ?? this.#throughSuper(site) ??
      this.#throughParameter(site);
    if (known !== null) return known;
    const module = this.#throughModule(site);
    if (module !== undefined) return module;
    return this.#membersByName(site.callee, site.file, site.semantics);
  }

  /** `self.x()`, `this.x()`, a Go method's receiver: the enclosing class's member or an ancestor's. */
  #throughSelf(site: _Site): Resolved | null {
    const means = site.semantics.selfNames.includes(site.receiver) ||
      this.#receiverParameter(site.caller) === site.receiver;
    const cls = means ? this.#enclosingClass(site.caller) : undefined;
    if (cls === undefined) return null;
    return _resolved(this.memberOf(cls, site.callee));
  }

  /** `super.x()`: the first ancestor of the enclosing class that has it. */
  #throughSuper(site: _Site): Resolved | null {
    if (!site.semantics.superNames.includes(site.receiver)) return null;
    const cls = this.#enclosingClass(site.caller);
    if (cls === undefined) return null;
    for (const base of this.#view.get(CLASS_BASES).ancestors(cls)) {
      const hit = this.#ownMembers(base.symbol, site.callee);
      if (hit.length > 0) return _resolved(hit);
    }
    return null;
  }

  /**
   * `param.x()`: a parameter whose declared type the signature gives (`s *store.Store`,
   * `dog: Dog`, `Car car`), in the caller or a function enclosing it.
   */
  #throughParameter(site: _Site): Resolved | null {
    if (!/^[\w$]+$/.test(site.receiver)) return null;
    for (let fn = site.caller; fn !== undefined; fn = this.#parentOf(fn)) {
      if (_CLASS_KINDS.has(fn.kind)) break;
      const type = parameterType(fn.signature, site.receiver, site.semantics.parameterTypes);
      if (type === null) continue;
      const cls = this.resolveTypeName(type, site.file);
      // A call through an interface may reach any implementation: left to the by-name match.
      // One type, or the build variants of one type (a Go type declared per platform).
      const types = cls === null || cls === "external" ? [] : cls.targets;
      const one = types.length > 0 &&
        types.every((t) =>
          t.name === types[0]!.name && dirOf(t.file) === dirOf(types[0]!.file) &&
          !_INTERFACE.test(t.signature)
        );
      if (!one) return null;
      const members = types.flatMap((t) => this.memberOf(t, site.callee));
      return _resolved([...new Map(members.map((m) => [m.id, m])).values()]);
    }
    return null;
  }

  /**
   * `pkg.X()`, `module.f()`, `ns.f()`: a definition of the imported module (null: a library's);
   * `Class.method()`: a static call on a class the file sees. `undefined` when neither applies.
   */
  #throughModule(site: _Site): Resolved | null | undefined {
    if (!/^[\w$.]+$/.test(site.receiver)) return undefined;
    const module = this.#importedModule(site.file, site.receiver, site.semantics);
    if (module === "external") return null;
    if (module !== null) {
      const hit = this.#definedIn(module, site.callee, 0);
      if (hit.length > 0) return _resolved(hit);
      return undefined;
    }
    if (!/^[\w$]+$/.test(site.receiver) || !site.semantics.classReceivers) return undefined;
    const cls = this.resolveName(site.receiver, site.file, site.caller, { classes: true });
    if (cls === null || cls.resolution !== "resolved" || cls.targets.length !== 1) return undefined;
    return _resolved(this.memberOf(cls.targets[0]!, site.callee)) ?? undefined;
  }

  /**
   * What a bare name written in `file` (inside `scope`, when known) refers to: enclosing scopes,
   * the unit (Go: the package), imported names, then the rest of the repo (by name). `callable`
   * keeps to functions, classes and types; `classes` to classes and types.
   */
  resolveName(
    name: string,
    file: string,
    scope: SymbolRecord | undefined,
    options: { callable?: boolean; classes?: boolean } = {},
  ): Resolved | null {
    const semantics = this.#units.semanticsOf(file);
    const named = this.#symbols.byName(name).filter((s) =>
      options.classes ? _CLASS_KINDS.has(s.kind) : options.callable ? s.kind !== "import" : true
    );
    const scoped = this.#inScopes(name, named, scope, semantics);
    if (scoped !== null) return scoped;
    // The file, or the unit's files (a Go package).
    const local = this.#units.isFolderUnit(file)
      ? named.filter((n) => this.#units.same(n.file, file) && n.qualified_name === n.name)
      : named.filter((n) => n.file === file && n.parent === null);
    if (local.length > 0) return _resolved(local);
    // Imported names (following re-exports); then classes of the same package folder (Java).
    const imported = this.#fromImports(name, file, options);
    if (imported.length > 0) return _resolved(imported);
    if (semantics.folderClasses) {
      const samePackage = named.filter((n) =>
        dirOf(n.file) === dirOf(file) && n.parent === null && _CLASS_KINDS.has(n.kind)
      );
      if (samePackage.length > 0) return _resolved(samePackage);
    }
    if (semantics.closedScope) return null;
    const anywhere = named.filter((n) =>
      familyOf(n.language) === semantics.family && (n.parent === null || _CLASS_KINDS.has(n.kind))
    );
    return anywhere.length > 0 ? { targets: anywhere, resolution: "by_name" } : null;
  }

  /** Enclosing scopes: nested definitions, then (implicit `this`) the members of a class. */
  #inScopes(
    name: string,
    named: SymbolRecord[],
    scope: SymbolRecord | undefined,
    semantics: LanguageSemantics,
  ): Resolved | null {
    for (let s = scope; s !== undefined; s = this.#parentOf(s)) {
      if (_CLASS_KINDS.has(s.kind)) {
        if (!semantics.classScope) continue;
        const members = this.memberOf(s, name);
        if (members.length > 0) return _resolved(members);
        continue;
      }
      const inner = named.filter((n) => n.parent === s!.id);
      if (inner.length > 0) return _resolved(inner);
    }
    return null;
  }

  /**
   * What a type name written in `file` refers to (`Base`, `mod.Base`, `pkg.Reader`): a class or
   * type, `"external"` when it comes from an unresolved import (a library), or null.
   */
  resolveTypeName(text: string, file: string): Resolved | "external" | null {
    const clean = text.replace(/^[*&]+/, "").replace(/<.*$|\[.*$|\(.*$/s, "").trim();
    const dot = clean.lastIndexOf(".");
    if (dot === -1) return this.resolveName(clean, file, undefined, { classes: true });
    const semantics = this.#units.semanticsOf(file);
    const module = this.#importedModule(file, clean.slice(0, dot), semantics);
    if (module === "external") return "external";
    const name = clean.slice(dot + 1);
    if (module !== null) {
      const hit = this.#definedIn(module, name, 0).filter((s) => _CLASS_KINDS.has(s.kind));
      if (hit.length > 0) return _resolved(hit);
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

  /** Members of `cls` itself: its children, and methods qualified by it in its unit (Go). */
  #ownMembers(cls: SymbolRecord, name: string): SymbolRecord[] {
    const qualified = `${cls.qualified_name}.${name}`;
    return this.#symbols.byName(name).filter((s) =>
      s.parent === cls.id ||
      (s.qualified_name === qualified && s.language === cls.language &&
        this.#units.same(s.file, cls.file))
    );
  }

  /**
   * A call through a receiver of unknown type: methods named `name` of the same language family,
   * those the file can see first (its file, its folder, the files it imports), else anywhere.
   */
  #membersByName(name: string, file: string, semantics: LanguageSemantics): Resolved | null {
    // A name the language keeps inside its unit (Go: lower case) matches only there.
    const unitOnly = semantics.privacy === "capitalized" && !/^\p{Lu}/u.test(name);
    const methods = this.#symbols.byName(name).filter((s) =>
      familyOf(s.language) === semantics.family && s.qualified_name !== s.name &&
      (!unitOnly || this.#units.same(s.file, file))
    );
    if (methods.length === 0) return null;
    const visible = new Set<string>([dirOf(file)]);
    for (const imp of this.#imports.importsOf.get(file) ?? []) {
      if (imp.resolved !== null) visible.add(this.#units.keyOf(imp.resolved));
    }
    const near = methods.filter((m) =>
      m.file === file || visible.has(dirOf(m.file)) || visible.has(m.file)
    );
    if (near.length > 0) return { targets: near, resolution: "by_name" };
    // Nothing the file can see: the rest of the repo, unless the name is too common to mean
    // anything (`Error`, `String`, `Close` on a value of a library or builtin type).
    return methods.length <= semantics.byNameReach
      ? { targets: methods, resolution: "by_name" }
      : null;
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
  #importedModule(
    file: string,
    receiver: string,
    semantics: LanguageSemantics,
  ): string | null | "external" {
    for (const imp of this.#imports.importsOf.get(file) ?? []) {
      if (!bindsModule(imp, receiver, semantics)) continue;
      return imp.resolved ?? "external";
    }
    return null;
  }

  #parentOf(s: SymbolRecord): SymbolRecord | undefined {
    return s.parent === null ? undefined : this.#symbols.byId(s.parent);
  }

  /**
   * The class or type a method belongs to: its enclosing class, or for a method declared apart
   * from its type (a Go receiver) the type its qualified name names in its unit.
   */
  #enclosingClass(caller: SymbolRecord | undefined): SymbolRecord | undefined {
    for (let s = caller; s !== undefined; s = this.#parentOf(s)) {
      if (_CLASS_KINDS.has(s.kind) && s !== caller) return s;
      if (s.kind === "method" && semanticsOf(s.language).receiverParameter !== undefined) {
        const dot = s.qualified_name.lastIndexOf(".");
        if (dot === -1) continue;
        const type = s.qualified_name.slice(0, dot);
        return this.#symbols.byName(type).find((t) =>
          _CLASS_KINDS.has(t.kind) && this.#units.same(t.file, s!.file)
        );
      }
    }
    return undefined;
  }

  /** The receiver variable a method's signature declares (`s` in `func (s *Server) Start()`). */
  #receiverParameter(caller: SymbolRecord | undefined): string | null {
    if (caller === undefined || caller.kind !== "method") return null;
    const pattern = semanticsOf(caller.language).receiverParameter;
    return pattern?.exec(caller.signature)?.[1] ?? null;
  }
}

/** A resolved answer, or null for no target. */
function _resolved(targets: SymbolRecord[]): Resolved | null {
  return targets.length > 0 ? { targets, resolution: "resolved" } : null;
}

/**
 * The type a function's signature declares for parameter `name` (`store.Store` for `s` in
 * `func fill(s *store.Store)`), or null when it declares none. `syntax` is the language's
 * `LanguageSemantics.parameterTypes`.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { parameterType } from "./resolve_names.ts";
 * equal(parameterType("func fill(a, s *store.Store, n int)", "s", "name_type"), "store.Store");
 * equal(parameterType("func fill(a, s *store.Store, n int)", "a", "name_type"), "store.Store");
 * equal(parameterType("function walk(dog: Dog): string", "dog", "name_colon_type"), "Dog");
 * equal(parameterType("def grow(self, by: Optional[int] = 1)", "by", "name_colon_type"), "Optional");
 * equal(parameterType("public void park(final Car car, int n)", "car", "type_name"), "Car");
 * equal(parameterType("function walk(dog)", "dog", "name_colon_type"), null);
 * ```
 */
export function parameterType(
  signature: string,
  name: string,
  syntax: ParameterSyntax,
): string | null {
  const open = signature.indexOf("(");
  if (open === -1) return null;
  let params = signature.slice(open + 1);
  // A Go method's receiver list comes first: its parameters are in the next list.
  if (syntax === "name_type" && /^func\s*\(/.test(signature)) {
    const next = params.indexOf("(");
    if (next !== -1) params = params.slice(next + 1);
  }
  const n = name.replace(/[$]/g, "\\$&");
  const type = "\\**&?\\s*([A-Za-z_$][\\w$]*(?:\\.[A-Za-z_$][\\w$]*)*)";
  let m: RegExpExecArray | null;
  if (syntax === "name_type") {
    m = new RegExp(`(?:^|[(,])\\s*${n}\\s*(?:,\\s*\\w+\\s*)*\\s+${type}`).exec(params);
  } else if (syntax === "type_name") {
    m = new RegExp(`${type}(?:<[^>]*>)?(?:\\[\\])*\\s+${n}\\s*[,)=]`).exec(params) ??
      new RegExp(`(?:^|[(,])\\s*(?:val\\s+|var\\s+)?${n}\\s*:\\s*${type}`).exec(params);
  } else {
    m = new RegExp(`(?:^|[(,])\\s*(?:readonly\\s+|public\\s+|private\\s+)?${n}\\??\\s*:\\s*${type}`)
      .exec(params);
  }
  return m?.[1] ?? null;
}

/**
 * Whether an import binds `receiver` as a module name in its file, by the language's
 * `LanguageSemantics.moduleBinding`.
 */
export function bindsModule(
  imp: Pick<StoredImport, "specifier" | "names">,
  receiver: string,
  semantics: LanguageSemantics,
): boolean {
  const spec = imp.specifier;
  switch (semantics.moduleBinding) {
    case "path_tail": {
      const parts = spec.split("/");
      let last = parts[parts.length - 1]!;
      if (/^v\d+$/.test(last) && parts.length > 1) last = parts[parts.length - 2]!;
      return last.replace(/^go-/, "").replace(/[.-].*$/, "") === receiver;
    }
    case "python":
      return imp.names.length === 0 ? spec === receiver : imp.names.includes(receiver);
    case "ecmascript":
      return imp.names.some((n) => n === receiver || n.replace(/^\*\s*as\s+/, "") === receiver) ||
        (imp.names.length === 0 && spec.endsWith("/" + receiver));
    case "names":
      return imp.names.includes(receiver);
  }
}

/** The name resolver of a view. */
export const NAME_RESOLVER = facet("name-resolver", (v) => new NameResolver(v));
