/**
 * Class hierarchies: the bases each class or type names (read from its stored declaration:
 * `extends`, `implements`, mixins, Python base lists, Ruby `<`, C++/C#/Kotlin/Swift `:` lists, and
 * Go's embedded fields and interfaces from the stored type source), resolved through the name
 * resolver, and the reverse (subclasses and implementors).
 */
import type { SymbolRecord } from "../parser/types.ts";
import { NAME_RESOLVER, type Resolution } from "./resolve_names.ts";
import { facet, type RepoView } from "./view.ts";
import { byCodePoint } from "./import_graph.ts";
import { SYMBOLS } from "./symbols.ts";
import { breadthFirst } from "./walk.ts";
import { LANGUAGES } from "../parser/languages/mod.ts";
import type { LanguageSemantics } from "../parser/language_spec.ts";
import { semanticsOf } from "../parser/semantics/mod.ts";

/** The languages whose bases are in a declaration's body, and the signature words that say so. */
const _BODY_BASES = LANGUAGES.flatMap((l) =>
  l.semantics?.bases === "embedding"
    ? [{ language: l.id, words: l.semantics.bodyBaseWords ?? [] }]
    : []
);

/** Whether a signature is one whose bases are in the body (`struct`, `interface`). */
function _bodyBaseWords(semantics: LanguageSemantics): RegExp {
  const words = semantics.bodyBaseWords ?? [];
  return words.length === 0 ? /$^/ : new RegExp(`\\b(?:${words.join("|")})\\b`);
}

/** How a class relates to a base. */
export type BaseRelation = "extends" | "implements" | "embeds" | "mixin";

/** A base as written in a declaration. */
export interface BaseName {
  /** The name as written, without type arguments (`Base`, `mod.Base`, `io.Reader`). */
  name: string;
  relation: BaseRelation;
}

/** A base (or a subclass) with what it resolved to. */
export interface HierarchyLink {
  /** The class at the other end, or null when the base is outside the repo. */
  symbol: SymbolRecord;
  relation: BaseRelation;
  resolution: Resolution;
  /** 1 for a direct base or subclass. */
  depth: number;
}

/** A link reached by a walk up or down a hierarchy, with the class it hangs from. */
export interface HierarchyStep extends HierarchyLink {
  /** The class it is a base (or a subclass) of. */
  from: SymbolRecord;
}

/** A base outside the index (a library class) or one no definition matched. */
export interface ExternalBase {
  name: string;
  relation: BaseRelation;
  /** The class naming it. */
  of: SymbolRecord;
  depth: number;
}

/** Remove balanced `<…>` type arguments. */
function _stripGenerics(text: string): string {
  let out = "";
  let depth = 0;
  for (const c of text) {
    if (c === "<") depth++;
    else if (c === ">" && depth > 0) depth--;
    else if (depth === 0) out += c;
  }
  return out;
}

/** Split at top-level commas (outside brackets). */
function _splitTop(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const c of text) {
    if ("([{<".includes(c)) depth++;
    else if (")]}>".includes(c)) depth--;
    if (c === "," && depth === 0) {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter((s) => s !== "");
}

function _typeName(text: string): string | null {
  const m = /^[*&]*\s*([A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*)/.exec(text.trim());
  return m === null ? null : m[1]!.replaceAll("::", ".");
}

const _NOT_A_BASE = new Set(["object", "Object", "public", "private", "protected", "virtual"]);

function _names(list: string, relation: BaseRelation): BaseName[] {
  const out: BaseName[] = [];
  for (const part of _splitTop(list)) {
    if (/^\w+\s*=/.test(part) || part.startsWith("*")) continue; // metaclass=…, *args
    const cleaned = part.replace(/^(?:public|private|protected|virtual|internal)\s+/g, "")
      .replace(/^(?:public|private|protected|virtual)\s+/g, "");
    const name = _typeName(cleaned);
    if (name !== null && !_NOT_A_BASE.has(name)) out.push({ name, relation });
  }
  return out;
}

/**
 * The bases a class or type declaration names in its signature.
 *
 * @example TypeScript
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { basesFromSignature } from "./class_bases.ts";
 * deepStrictEqual(
 *   basesFromSignature("typescript", "export class A<T> extends B<T> implements C, D"),
 *   [
 *     { name: "B", relation: "extends" },
 *     { name: "C", relation: "implements" },
 *     { name: "D", relation: "implements" },
 *   ],
 * );
 * ```
 */
export function basesFromSignature(language: string, signature: string): BaseName[] {
  const sig = signature.replace(/\s+/g, " ");
  const syntax = semanticsOf(language).bases;
  if (syntax === "parenthesized") {
    const m = /^(?:async\s+)?class\s+\w+\s*(?:\[[^\]]*\])?\s*\((.*)\)\s*:?\s*$/.exec(sig);
    return m === null ? [] : _names(m[1]!, "extends");
  }
  if (syntax === "superclass") {
    const m = /^class\s+[\w:]+\s*<\s*([\w:]+)/.exec(sig);
    return m === null ? [] : [{ name: m[1]!.replaceAll("::", "."), relation: "extends" }];
  }
  const head = /\b(?:class|interface|trait|struct|record|object|enum|protocol|extension)\s+[\w$.]+/
    .exec(sig);
  if (head === null) return [];
  let rest = _stripGenerics(sig.slice(head.index + head[0].length));
  // A primary constructor or record header (Kotlin, Scala, Java records) comes before the bases.
  rest = rest.replace(/^\s*\((?:[^()]|\([^()]*\))*\)/, "");
  const colon = /^\s*:\s*(.*)$/.exec(rest);
  if (colon !== null && !/\b(?:extends|implements)\b/.test(rest)) {
    const list = colon[1]!.replace(/\bwhere\b.*$/, "").replace(/\{.*$/, "");
    return _names(list.replace(/\([^()]*\)/g, ""), "extends");
  }
  return _keywordBases(rest, syntax === "keyword_chains");
}

/** `extends`, `implements` and `with` lists; `chains`: `extends A with B` extends both. */
function _keywordBases(rest: string, chains: boolean): BaseName[] {
  const out: BaseName[] = [];
  const re = /\b(extends|implements|with)\s+(.*?)(?=\b(?:extends|implements|with)\b|$)/g;
  for (let m = re.exec(rest); m !== null; m = re.exec(rest)) {
    const relation: BaseRelation = m[1] === "implements"
      ? "implements"
      : m[1] === "with"
      ? "mixin"
      : "extends";
    const list = m[2]!.replace(/\{.*$/, "").replace(/\([^()]*\)/g, "");
    if (m[1] === "with" || chains) {
      for (const n of _names(list.replaceAll(" with ", ","), relation)) out.push(n);
    } else out.push(..._names(list, relation));
  }
  return out;
}

/**
 * The embedded fields of a Go struct and the embedded interfaces of a Go interface, from the
 * type's source text.
 *
 * @example Usage
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { goEmbeds } from "./class_bases.ts";
 * deepStrictEqual(
 *   goEmbeds("type A struct {\n\t*Base\n\tsync.Mutex // guards x\n\tx int\n}"),
 *   [{ name: "Base", relation: "embeds" }, { name: "sync.Mutex", relation: "embeds" }],
 * );
 * ```
 */
export function goEmbeds(source: string): BaseName[] {
  const open = source.indexOf("{");
  const close = source.lastIndexOf("}");
  if (open === -1 || close <= open) return [];
  const body = source.slice(open + 1, close);
  const out: BaseName[] = [];
  for (const raw of body.split(/[\n;]/)) {
    const line = raw.replace(/\/\/.*$/, "").replace(/`[^`]*`|"[^"]*"/g, "").trim();
    const m = /^\*?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)(?:\[[^\]]*\])?$/.exec(line);
    if (m !== null) out.push({ name: m[1]!, relation: "embeds" });
  }
  return out;
}

/** The bases and subclasses of every class and type of one index state. */
export class ClassBases {
  readonly #view: RepoView;
  readonly #bases = new Map<string, BaseName[]>();
  #byBase: Map<string, string[]> | null = null;
  readonly #parents = new Map<string, { links: HierarchyLink[]; external: BaseName[] }>();

  constructor(view: RepoView) {
    this.#view = view;
  }

  /** The bases a class names, as written (read from its signature, or its Go source). */
  basesOf(cls: SymbolRecord): BaseName[] {
    let hit = this.#bases.get(cls.id);
    if (hit === undefined) {
      const semantics = semanticsOf(cls.language);
      if (cls.kind !== "class" && cls.kind !== "type") hit = [];
      else if (semantics.bases !== "embedding") {
        hit = basesFromSignature(cls.language, cls.signature);
      } else if (!_bodyBaseWords(semantics).test(cls.signature)) hit = [];
      else hit = goEmbeds(this.#view.index.symbolSource(cls.id) ?? "");
      this.#bases.set(cls.id, hit);
    }
    return hit;
  }

  /**
   * Classes by the last segment of each base name they list: every class and type of the repo is
   * read once, the first time a descendant is asked for.
   */
  #byBaseName(): Map<string, string[]> {
    if (this.#byBase !== null) return this.#byBase;
    const byBase = new Map<string, string[]>();
    for (const d of this.#view.index.declarations(["class", "type"], _BODY_BASES)) {
      let bases = this.#bases.get(d.id);
      if (bases === undefined) {
        bases = d.source !== null
          ? goEmbeds(d.source)
          : semanticsOf(d.language).bases === "embedding"
          ? []
          : basesFromSignature(d.language, d.signature);
        this.#bases.set(d.id, bases);
      }
      for (const b of bases) {
        const last = b.name.slice(b.name.lastIndexOf(".") + 1);
        const list = byBase.get(last);
        if (list === undefined) byBase.set(last, [d.id]);
        else list.push(d.id);
      }
    }
    this.#byBase = byBase;
    return byBase;
  }

  /** The direct bases of a class: resolved links, and the names that stay outside the repo. */
  parents(cls: SymbolRecord): { links: HierarchyLink[]; external: BaseName[] } {
    let hit = this.#parents.get(cls.id);
    if (hit !== undefined) return hit;
    const resolver = this.#view.get(NAME_RESOLVER);
    const links: HierarchyLink[] = [];
    const external: BaseName[] = [];
    for (const base of this.basesOf(cls)) {
      const r = resolver.resolveTypeName(base.name, cls.file);
      const targets = r === null || r === "external"
        ? []
        : r.targets.filter((t) => t.id !== cls.id);
      if (r === null || r === "external" || targets.length === 0) {
        external.push(base);
        continue;
      }
      for (const t of targets) {
        links.push({
          symbol: t,
          relation: _relation(base.relation, cls, t),
          resolution: r.resolution,
          depth: 1,
        });
      }
    }
    hit = { links, external };
    this.#parents.set(cls.id, hit);
    return hit;
  }

  /** Every ancestor, breadth-first (each once, at its first depth). */
  ancestors(cls: SymbolRecord, maxDepth = 10): HierarchyStep[] {
    return this.#walk(cls, maxDepth, (c) => this.parents(c).links);
  }

  /** The bases outside the repo named by a class or any of its ancestors. */
  externalAncestors(cls: SymbolRecord, maxDepth = 10): ExternalBase[] {
    const out: ExternalBase[] = [];
    const chain = [{ symbol: cls, depth: 0 }, ...this.ancestors(cls, maxDepth)];
    for (const a of chain) {
      for (const b of this.parents(a.symbol).external) {
        out.push({ name: b.name, relation: b.relation, of: a.symbol, depth: a.depth + 1 });
      }
    }
    return out;
  }

  /** The classes whose bases resolve to `cls` (directly). */
  children(cls: SymbolRecord): HierarchyLink[] {
    const out: HierarchyLink[] = [];
    for (const c of this.namingBase(cls.name)) {
      if (c.id === cls.id) continue;
      for (const link of this.parents(c).links) {
        if (link.symbol.id === cls.id) {
          out.push({ symbol: c, relation: link.relation, resolution: link.resolution, depth: 1 });
          break;
        }
      }
    }
    return out.sort((a, b) =>
      byCodePoint(a.symbol.file, b.symbol.file) || a.symbol.line - b.symbol.line
    );
  }

  /** Every descendant, breadth-first (each once, at its first depth). */
  descendants(cls: SymbolRecord, maxDepth = 10): HierarchyStep[] {
    return this.#walk(cls, maxDepth, (c) => this.children(c));
  }

  /** Breadth-first from `cls` over `step`, each class once at its first depth. */
  #walk(
    cls: SymbolRecord,
    maxDepth: number,
    step: (c: SymbolRecord) => HierarchyLink[],
  ): HierarchyStep[] {
    const walk = breadthFirst(
      cls,
      cls.id,
      (c: SymbolRecord) =>
        step(c).map((link) => ({ node: link.symbol, key: link.symbol.id, edge: link })),
      {
        maxDepth,
      },
    );
    return walk.visits.map((v) => ({ ...v.edge, depth: v.depth, from: v.from }));
  }

  /** Classes that name `name` (last segment) among their bases. */
  namingBase(name: string): SymbolRecord[] {
    const symbols = this.#view.get(SYMBOLS);
    return (this.#byBaseName().get(name) ?? []).flatMap((id) => symbols.byId(id) ?? []);
  }
}

/** In a `:` base list that does not say class or interface, the target's kind tells. */
function _relation(written: BaseRelation, cls: SymbolRecord, base: SymbolRecord): BaseRelation {
  if (written === "extends" && semanticsOf(cls.language).colonBasesByKind && base.kind === "type") {
    return cls.kind === "type" ? "extends" : "implements";
  }
  return written;
}

/** The class hierarchies of a view. */
export const CLASS_BASES = facet("class-bases", (v) => new ClassBases(v));
