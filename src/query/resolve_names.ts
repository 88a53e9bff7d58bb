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
import { IMPORT_GRAPH, type ImportGraph, namespaceAlias } from "./import_graph.ts";
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
  readonly #constructed = new Map<string, string | null>();
  readonly #fields = new Map<string, string | null>();

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
      this.#throughParameter(site) ?? this.#throughField(site);
    if (known !== null) return known;
    const module = this.#throughModule(site);
    if (module !== undefined) return module;
    return this.#throughObject(site) ?? this.#membersByName(site.callee, site.file, site.semantics);
  }

  /** `self.x()`, `this.x()`, a Go method's receiver: the enclosing class's member or an ancestor's. */
  #throughSelf(site: _Site): Resolved | null {
    const means = site.semantics.selfNames.includes(site.receiver) ||
      this.#receiverParameter(site.caller) === site.receiver;
    if (!means) return null;
    const cls = this.#enclosingClass(site.caller);
    if (cls !== undefined) return _resolved(this.memberOf(cls, site.callee));
    // `this` in a function assigned to an object (`res.send = function () { this.set() }`).
    const owner = site.semantics.prototypeObjects ? _objectOf(site.caller) : null;
    return owner === null ? null : _resolved(this.#objectMembers(owner, site.callee, site));
  }

  /**
   * A receiver of a language whose objects are built by assignment: a local bound to `new C(…)`
   * (C's members), or a name some object's methods are assigned to (`res.render()` and the
   * fluent `res.status(404).render()` → `res.render`): resolved when the calling function
   * declares that parameter or the file builds the object, else a match by name.
   */
  #throughObject(site: _Site): Resolved | null {
    if (!site.semantics.prototypeObjects) return null;
    const root = /^([\w$]+)(?:\.[\w$]+\(.*\))?$/s.exec(site.receiver)?.[1];
    if (root === undefined) return null;
    const made = this.#constructedType(site.caller, root);
    if (made !== null) {
      const cls = this.resolveName(made, site.file, site.caller, { classes: true });
      const members = cls !== null && cls.targets.length === 1
        ? this.memberOf(cls.targets[0]!, site.callee)
        : this.#objectMembers(`${made}.prototype`, site.callee, site);
      if (members.length > 0) return _resolved(members);
    }
    const members = this.#objectMembers(root, site.callee, site);
    if (members.length === 0) return null;
    const bound = members.some((m) => m.file === site.file) ||
      _declaresParameter(site.caller?.signature ?? "", root);
    return { targets: members, resolution: bound ? "resolved" : "by_name" };
  }

  /** Methods assigned to the object `owner` (`owner.name = function`), the calling file's first. */
  #objectMembers(owner: string, name: string, site: _Site): SymbolRecord[] {
    const qualified = `${owner}.${name}`;
    const all = this.#symbols.byName(name).filter((s) =>
      s.qualified_name === qualified && s.parent === null &&
      familyOf(s.language) === site.semantics.family
    );
    const here = all.filter((s) => s.file === site.file);
    return here.length > 0 ? here : all;
  }

  /** The constructor a local is bound to in the calling function (`view = new View(…)`), or null. */
  #constructedType(caller: SymbolRecord | undefined, local: string): string | null {
    if (caller === undefined) return null;
    const key = `${caller.id}\0${local}`;
    const memo = this.#constructed.get(key);
    if (memo !== undefined) return memo;
    const source = this.#view.index.symbolSource(caller.id) ?? "";
    const n = local.replace(/[$]/g, "\\$&");
    const m = new RegExp(`(?<![\\w$.])${n}\\s*=\\s*new\\s+([A-Za-z_$][\\w$]*)\\s*\\(`).exec(source);
    const type = m?.[1] ?? null;
    this.#constructed.set(key, type);
    return type;
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
    const types = this.#parameterTypes(site, site.receiver);
    return types === null ? null : this.#membersOfTypes(types, site.callee);
  }

  /**
   * `a.field.x()`: a field of a known type (`s.store.Open()` with `s *Server` and a field
   * `store *store.Store`; `this.engine.start()` with `engine: Engine`), its type read from the
   * declaration of the owner's type (a Go struct's body, a class's fields and constructor).
   */
  #throughField(site: _Site): Resolved | null {
    const m = /^([\w$]+)\.([\w$]+)$/.exec(site.receiver);
    if (m === null) return null;
    const [, base, field] = m as unknown as [string, string, string];
    const means = site.semantics.selfNames.includes(base) ||
      this.#receiverParameter(site.caller) === base;
    const self = means ? this.#enclosingClass(site.caller) : undefined;
    const owners = self !== undefined ? [self] : this.#parameterTypes(site, base);
    if (owners === null) return null;
    for (const owner of owners) {
      const type = this.#fieldType(owner, field, site.semantics.parameterTypes);
      if (type === null) continue;
      const cls = this.resolveTypeName(type, owner.file);
      const types = cls === null || cls === "external" ? [] : cls.targets;
      if (types.length > 0 && _oneConcreteType(types)) {
        return this.#membersOfTypes(types, site.callee);
      }
    }
    return null;
  }

  /**
   * The one concrete type (or its build variants) the signature of the caller, or of a function
   * enclosing it, declares for parameter `name`; null when none does, or it is an interface (a
   * call through it may reach any implementation: left to the by-name match).
   */
  #parameterTypes(site: _Site, name: string): SymbolRecord[] | null {
    for (let fn = site.caller; fn !== undefined; fn = this.#parentOf(fn)) {
      if (_CLASS_KINDS.has(fn.kind)) break;
      const type = parameterType(fn.signature, name, site.semantics.parameterTypes);
      if (type === null) continue;
      const cls = this.resolveTypeName(type, site.file);
      const types = cls === null || cls === "external" ? [] : cls.targets;
      return types.length > 0 && _oneConcreteType(types) ? types : null;
    }
    return null;
  }

  #membersOfTypes(types: SymbolRecord[], name: string): Resolved | null {
    const members = types.flatMap((t) => this.memberOf(t, name));
    return _resolved([...new Map(members.map((m) => [m.id, m])).values()]);
  }

  /** The type a class or struct declares for a field (from its stored source), or null. */
  #fieldType(owner: SymbolRecord, field: string, syntax: ParameterSyntax): string | null {
    const key = `${owner.id}\0${field}`;
    if (this.#fields.has(key)) return this.#fields.get(key)!;
    const source = this.#view.index.symbolSource(owner.id) ?? "";
    const type = fieldType(source, field, syntax);
    this.#fields.set(key, type);
    return type;
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
      (!unitOnly || this.#units.same(s.file, file)) &&
      !(semantics.prototypeObjects && _isPlainObjectMember(s, semantics))
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
    const exported = this.#units.semanticsOf(target).exportObjects ?? [];
    const own = this.#symbols.byName(name).filter((s) =>
      files.has(s.file) && s.parent === null &&
      (s.qualified_name === s.name || exported.some((o) => s.qualified_name === `${o}.${name}`))
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

/**
 * The object a function assigned to a member belongs to (`res` for `res.send`, `View.prototype`
 * for `View.prototype.render`), or null for any other symbol.
 */
function _objectOf(s: SymbolRecord | undefined): string | null {
  if (s === undefined || s.parent !== null || s.kind !== "method") return null;
  const dot = s.qualified_name.lastIndexOf(".");
  return dot === -1 ? null : s.qualified_name.slice(0, dot);
}

/** A method of a plain object (`res.render = function`), not of a prototype or the module. */
function _isPlainObjectMember(s: SymbolRecord, semantics: LanguageSemantics): boolean {
  const owner = _objectOf(s);
  return owner !== null && !owner.endsWith(".prototype") &&
    !(semantics.exportObjects ?? []).includes(owner);
}

/** Whether a signature declares a parameter `name` (`function (req, res, next)`). */
function _declaresParameter(signature: string, name: string): boolean {
  const open = signature.indexOf("(");
  if (open === -1) return false;
  const n = name.replace(/[$]/g, "\\$&");
  return new RegExp(`[(,]\\s*${n}\\s*[,)=:]`).test(signature.slice(open));
}

/** One type, or the build variants of one type (a Go type declared per platform); no interface. */
function _oneConcreteType(types: SymbolRecord[]): boolean {
  return types.every((t) =>
    t.name === types[0]!.name && dirOf(t.file) === dirOf(types[0]!.file) &&
    !_INTERFACE.test(t.signature)
  );
}

/**
 * The type a type's source declares for field `name`: a Go struct field (`name *pkg.T`, `a, name
 * T`, or the embedded `*T` named by its type), a class field or constructor parameter property
 * (`name: T`, `private name: T`), a Java-like field (`private T name;`); null when none.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { fieldType } from "./resolve_names.ts";
 * const go = "type Server struct {\n\tstore *store.Store\n\t*Logger\n\ta, b int\n}";
 * equal(fieldType(go, "store", "name_type"), "store.Store");
 * equal(fieldType(go, "Logger", "name_type"), "Logger");
 * equal(fieldType(go, "b", "name_type"), "int");
 * equal(fieldType("class A { constructor(private engine: Engine) {} }", "engine", "name_colon_type"), "Engine");
 * equal(fieldType("class A { private final Engine engine; }", "engine", "type_name"), "Engine");
 * ```
 */
export function fieldType(source: string, name: string, syntax: ParameterSyntax): string | null {
  const n = name.replace(/[$]/g, "\\$&");
  const type = "\\**&?\\s*(?:\\[\\])*\\*?([A-Za-z_$][\\w$]*(?:\\.[A-Za-z_$][\\w$]*)*)";
  let m: RegExpExecArray | null;
  if (syntax === "name_type") {
    const body = source.slice(source.indexOf("{") + 1);
    m = new RegExp(`^\\s*(?:\\w+\\s*,\\s*)*${n}(?:\\s*,\\s*\\w+)*\\s+${type}`, "m").exec(body) ??
      new RegExp(`^\\s*\\*?((?:[A-Za-z_]\\w*\\.)?${n})\\s*(?:$|//|\`)`, "m").exec(body);
  } else if (syntax === "type_name") {
    m = new RegExp(`${type}(?:<[^>]*>)?\\s+${n}\\s*[;=,)]`).exec(source) ??
      new RegExp(`(?:val|var)\\s+${n}\\s*:\\s*${type}`).exec(source);
  } else {
    m = new RegExp(`(?<![\\w$.])${n}\\??\\s*:\\s*${type}`).exec(source);
  }
  return m?.[1] ?? null;
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
    case "dotted_path_or_names":
      return imp.names.length === 0
        ? spec === receiver
        : imp.names.some((n) => n === receiver || namespaceAlias(n) === receiver);
    case "names_or_file":
      return imp.names.some((n) => n === receiver || namespaceAlias(n) === receiver) ||
        (imp.names.length === 0 && spec.endsWith("/" + receiver));
    case "names":
      return imp.names.includes(receiver);
  }
}

/** The name resolver of a view. */
export const NAME_RESOLVER = facet("name-resolver", (v) => new NameResolver(v));
