/**
 * The graph row of each language in the conformance suite: the code-graph semantics it is meant to
 * have (`LanguageSpec.semantics`, named field by field where it differs from the defaults, or
 * `defaults` for a language that declares none), and facts of the code graph over its fixture —
 * resolved calls (`caller | receiver.callee -> target`) and bases (`base class relation target`).
 * A language added without a row fails the suite: its graph behaviour is then a choice, written
 * down here.
 */
import { DEFAULT_SEMANTICS, type LanguageSemantics } from "../../src/parser/language_spec.ts";
import { CALL_GRAPH } from "../../src/query/call_graph.ts";
import { CLASS_BASES } from "../../src/query/class_bases.ts";
import { NAME_RESOLVER } from "../../src/query/resolve_names.ts";
import type { RepoView } from "../../src/query/view.ts";

/** One language's graph row. */
export interface GraphRow {
  /** {@linkcode describeSemantics} of its semantics, or `defaults`. */
  semantics: string;
  /** Facts the graph must show on `fixtures/languages/<id>/`. */
  facts?: string[];
}

/**
 * A semantics as one line: the family, then every field that differs from
 * {@linkcode DEFAULT_SEMANTICS}, as `field=value` (lists joined by `|`, flags bare, an import
 * writer by its name).
 */
export function describeSemantics(s: LanguageSemantics): string {
  const parts = [`family=${s.family}`];
  const fields = Object.keys({ ...DEFAULT_SEMANTICS, ...s }) as (keyof LanguageSemantics)[];
  for (const key of fields.sort()) {
    if (key === "family") continue;
    const value = s[key];
    const base = DEFAULT_SEMANTICS[key];
    const text = (v: unknown) =>
      Array.isArray(v) ? (v.length === 0 ? "none" : v.join("|")) : String(v);
    if (value === undefined || text(value) === text(base)) continue;
    // A pattern (a re-export file, a receiver parameter) is named, not spelled out; the
    // liveness rules by their export rule.
    if (key === "liveness") parts.push(`liveness=${(value as { exports: string }).exports}`);
    else if (key === "importWriter") parts.push(`importWriter=${(value as { name: string }).name}`);
    else parts.push(value === true || value instanceof RegExp ? key : `${key}=${text(value)}`);
  }
  return parts.join(" ");
}

/** Every language's row, by id. */
export const GRAPH_ROWS: Record<string, GraphRow> = {
  ada: { semantics: "defaults" },
  al: { semantics: "defaults" },
  ansible: { semantics: "defaults" },
  apex: { semantics: "defaults" },
  arduino: {
    semantics:
      "family=cpp classScope closedScope folderClasses liveness=none parameterTypes=type_name selfNames=this superNames=super",
  },
  asm: { semantics: "defaults" },
  autohotkey: { semantics: "defaults" },
  bash: { semantics: "defaults" },
  blade: { semantics: "defaults" },
  c: { semantics: "defaults" },
  clojure: { semantics: "defaults" },
  cobol: { semantics: "defaults" },
  commonlisp: { semantics: "defaults" },
  cpp: {
    semantics:
      "family=cpp classScope closedScope folderClasses liveness=none parameterTypes=type_name selfNames=this superNames=super",
    facts: [
      "shape.cpp::a.b.Deep.f#method | .helper -> shape.cpp::geo.detail.helper#function",
    ],
  },
  csharp: {
    semantics:
      "family=csharp classScope closedScope colonBasesByKind folderClasses liveness=keyword parameterTypes=type_name selfNames=this superNames=base|super",
    facts: [
      "Sample.cs::Acme.Greeting.Greeter.Greet#method~1 | .Format -> Sample.cs::Acme.Greeting.Greeter.Format#method",
      "base Sample.cs::Acme.Greeting.Greeter#class implements Sample.cs::Acme.Greeting.IGreeter#type",
    ],
  },
  css: { semantics: "defaults" },
  d: { semantics: "defaults" },
  dart: {
    semantics:
      "family=dart classScope closedScope folderClasses liveness=public_name parameterTypes=type_name selfNames=this superNames=super",
    facts: [
      "lib/shapes.dart::Circle.compareTo#method | other.area -> lib/shapes.dart::Circle.area#method",
      "base lib/shapes.dart::Circle#class mixin lib/shapes.dart::Printable#type",
    ],
  },
  dockerfile: { semantics: "defaults" },
  dtd: { semantics: "defaults" },
  ejs: { semantics: "defaults" },
  elisp: { semantics: "defaults" },
  elixir: { semantics: "defaults" },
  elm: { semantics: "defaults" },
  erb: { semantics: "defaults" },
  erlang: { semantics: "defaults" },
  fortran: { semantics: "defaults" },
  fsharp: { semantics: "defaults" },
  gdscript: { semantics: "defaults" },
  gleam: { semantics: "defaults" },
  go: {
    semantics:
      "family=go bases=embedding bodyBaseWords=struct|interface byNameReach=1 classReceivers=false closedScope importWriter=go liveness=capitalized moduleBinding=path_tail parameterTypes=name_type privacy=capitalized qualifiedImports receiverParameter reservedWords selfNames=none superNames=none unit=package_folder",
    facts: [
      "main.go::NewServer#function | store.Open -> internal/store/store.go::Open#function",
    ],
  },
  graphql: { semantics: "defaults" },
  groovy: { semantics: "defaults" },
  haskell: { semantics: "defaults" },
  hcl: { semantics: "defaults" },
  html: { semantics: "defaults" },
  java: {
    semantics:
      "family=jvm classScope closedScope folderClasses liveness=keyword parameterTypes=type_name selfNames=this superNames=super",
    facts: [
      "src/main/java/com/acme/App.java::App.run#method | .describe -> src/main/java/com/acme/App.java::App.describe#method",
    ],
  },
  javascript: {
    semantics:
      "family=ecmascript exportObjects=exports|module.exports importWriter=ecmascript liveness=keyword moduleBinding=names_or_file prototypeObjects publicApi=package_entries reexportFile reexportLine reservedWords selfNames=this|self superNames=super",
    facts: [
      "app.js::Greeter.greet#method | .helper -> lib/index.js::helper#function",
      "app.js::main#function | .inner -> app.js::main.inner#function",
    ],
  },
  json: { semantics: "defaults" },
  julia: { semantics: "defaults" },
  kotlin: {
    semantics:
      "family=jvm classScope closedScope colonBasesByKind folderClasses liveness=keyword parameterTypes=type_name selfNames=this superNames=super",
    facts: [
      "src/main/kotlin/com/acme/Greeter.kt::main#function | Registry.register -> src/main/kotlin/com/acme/Greeter.kt::Registry.register#method",
      "base src/main/kotlin/com/acme/Greeter.kt::Greeter#class implements src/main/kotlin/com/acme/Greeter.kt::Greets#type",
    ],
  },
  latex: { semantics: "defaults" },
  less: { semantics: "defaults" },
  lua: { semantics: "defaults" },
  luau: { semantics: "defaults" },
  make: { semantics: "defaults" },
  markdown: { semantics: "defaults" },
  matlab: { semantics: "defaults" },
  nim: { semantics: "defaults" },
  nix: { semantics: "defaults" },
  objc: { semantics: "defaults" },
  ocaml: { semantics: "defaults" },
  openapi: { semantics: "defaults" },
  pascal: { semantics: "defaults" },
  perl: { semantics: "defaults" },
  php: {
    semantics: "family=php liveness=none selfNames=$this|self|static superNames=parent",
    facts: [
      "src/Greeter.php::Greeter.greet#method | self.format -> src/Greeter.php::Greeter.format#method",
      "base src/Greeter.php::Greeter#class implements src/Greeter.php::Greets#type",
    ],
  },
  powershell: { semantics: "defaults" },
  properties: { semantics: "defaults" },
  proto: { semantics: "defaults" },
  python: {
    semantics:
      "family=python attributeUses bases=parenthesized codeRunners=exec importWriter=python liveness=public_name moduleBinding=dotted_path_or_names reexportFile reservedWords selfNames=self|cls submodules={}.py|{}/__init__.py|{}.pyi|{}/__init__.pyi superNames=super|super()",
    facts: [
      "sample.py::main#function | Greeter.build -> sample.py::Greeter.build#method",
      "sample.py::Greeter.build#method | .shout -> sample.py::Greeter.build.shout#function",
      "base sample.py::Greeter#class extends sample.py::Base#class",
    ],
  },
  r: { semantics: "defaults" },
  razor: { semantics: "defaults" },
  rescript: { semantics: "defaults" },
  ruby: {
    semantics:
      "family=ruby bases=superclass classScope liveness=none selfNames=self superNames=super",
    facts: [
      "sample.rb::Acme.Util.Cache.fetch#method | Util.slug -> sample.rb::Acme.Util.slug#method",
    ],
  },
  rust: {
    semantics: "family=rust liveness=keyword reexportFile selfNames=self|Self superNames=none",
    facts: [
      "src/lib.rs::Point.dist#method | .sq -> src/lib.rs::Point.dist.sq#function",
    ],
  },
  sass: { semantics: "defaults" },
  scala: {
    semantics:
      "family=jvm bases=keyword_chains classScope closedScope folderClasses liveness=keyword parameterTypes=type_name selfNames=this superNames=super",
    facts: [
      "base src/main/scala/com/acme/Greeter.scala::Greeter#class~1 mixin src/main/scala/com/acme/Greeter.scala::Greets#type",
    ],
  },
  scss: { semantics: "defaults" },
  solidity: { semantics: "defaults" },
  sparql: { semantics: "defaults" },
  sql: { semantics: "defaults" },
  stylus: { semantics: "defaults" },
  svelte: {
    semantics:
      "family=ecmascript exportObjects=exports|module.exports importWriter=ecmascript liveness=keyword moduleBinding=names_or_file prototypeObjects publicApi=package_entries reexportFile reexportLine reservedWords selfNames=this|self superNames=super",
  },
  swift: {
    semantics:
      "family=swift classScope closedScope colonBasesByKind folderClasses liveness=keyword parameterTypes=type_name selfNames=self|Self superNames=super",
    facts: [
      "Sources/Acme/Greeter.swift::Greeter.format#method | .Helper -> Sources/Acme/Helper.swift::Helper#class",
      "base Sources/Acme/Greeter.swift::Greeter#class implements Sources/Acme/Greeter.swift::Greets#type",
    ],
  },
  systemrdl: { semantics: "defaults" },
  talon: { semantics: "defaults" },
  tcl: { semantics: "defaults" },
  tlaplus: { semantics: "defaults" },
  toml: { semantics: "defaults" },
  tsx: {
    semantics:
      "family=ecmascript exportObjects=exports|module.exports importWriter=ecmascript liveness=keyword moduleBinding=names_or_file prototypeObjects publicApi=package_entries reexportFile reexportLine reservedWords selfNames=this|self superNames=super",
  },
  typescript: {
    semantics:
      "family=ecmascript exportObjects=exports|module.exports importWriter=ecmascript liveness=keyword moduleBinding=names_or_file prototypeObjects publicApi=package_entries reexportFile reexportLine reservedWords selfNames=this|self superNames=super",
    facts: [
      "src/index.ts::run#function | models.count -> src/models/index.ts::count#function",
      "base src/models/shape.ts::Circle#class implements src/models/shape.ts::Shape#type",
    ],
  },
  verilog: { semantics: "defaults" },
  verse: { semantics: "defaults" },
  vhdl: { semantics: "defaults" },
  vue: {
    semantics:
      "family=ecmascript exportObjects=exports|module.exports importWriter=ecmascript liveness=keyword moduleBinding=names_or_file prototypeObjects publicApi=package_entries reexportFile reexportLine reservedWords selfNames=this|self superNames=super",
  },
  xml: { semantics: "defaults" },
  yaml: { semantics: "defaults" },
  zig: { semantics: "defaults" },
};

/**
 * The graph facts of an indexed tree in the rows' notation: every call site resolved to one
 * target, and every resolved base of a class or type.
 */
export function graphFacts(view: RepoView, files: readonly string[]): Set<string> {
  const out = new Set<string>();
  const resolver = view.get(NAME_RESOLVER);
  for (const file of files) {
    for (const site of view.get(CALL_GRAPH).sitesOf(file)) {
      const r = resolver.resolveCall(site);
      if (r === null || r.resolution !== "resolved" || r.targets.length !== 1) continue;
      out.add(`${site.caller} | ${site.receiver ?? ""}.${site.callee} -> ${r.targets[0]!.id}`);
    }
  }
  const bases = view.get(CLASS_BASES);
  for (const cls of view.index.symbolsOfKinds(["class", "type"])) {
    for (const link of bases.parents(cls).links) {
      out.add(`base ${cls.id} ${link.relation} ${link.symbol.id}`);
    }
  }
  return out;
}
