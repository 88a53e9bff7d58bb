/**
 * The abbreviations code writes for the words a question writes: a question says "context",
 * "request", "configuration", "connection"; Go, Rust and C write `ctx`, `req`, `cfg`, `conn`.
 * Neither a stemmer nor a prefix match joins them (`configuration` stems to `configur`, and `cfg`
 * is no prefix of it).
 *
 * The list is general programming usage, written from common naming conventions before it was
 * measured on any corpus (not read off the bench's corpora or their questions). Each entry maps a
 * word as a question writes it to the identifier parts code uses for it; both sides are matched as
 * the index tokenizes (`queryTerm`: lower case, Porter-stemmed), and an abbreviation only as an
 * exact term (as a prefix, `req` would match `require` and `requeue`).
 */
import { queryTerm } from "../store/symbol_terms.ts";

/** Word → the abbreviations code writes for it (general usage, not fitted). */
const _WORDS: Readonly<Record<string, readonly string[]>> = {
  address: ["addr"],
  allocate: ["alloc"],
  allocation: ["alloc"],
  allocator: ["alloc"],
  argument: ["arg", "args"],
  arguments: ["args", "arg"],
  attribute: ["attr", "attrs"],
  attributes: ["attrs", "attr"],
  authentication: ["auth", "authn"],
  authorization: ["auth", "authz"],
  buffer: ["buf"],
  buffers: ["bufs", "buf"],
  callback: ["cb"],
  character: ["char", "chr"],
  characters: ["chars"],
  command: ["cmd"],
  commands: ["cmds", "cmd"],
  compare: ["cmp"],
  comparison: ["cmp"],
  concatenate: ["concat"],
  configuration: ["cfg", "conf", "config"],
  configure: ["cfg", "conf", "config"],
  connection: ["conn"],
  connections: ["conns", "conn"],
  context: ["ctx"],
  coordinate: ["coord"],
  count: ["cnt"],
  current: ["cur", "curr"],
  database: ["db"],
  decrement: ["dec", "decr"],
  definition: ["def"],
  delete: ["del"],
  description: ["desc"],
  destination: ["dst", "dest"],
  dictionary: ["dict"],
  difference: ["diff"],
  directory: ["dir"],
  directories: ["dirs", "dir"],
  document: ["doc"],
  element: ["elem"],
  elements: ["elems", "elem"],
  environment: ["env"],
  error: ["err"],
  errors: ["errs", "err"],
  event: ["evt", "ev"],
  exception: ["exc"],
  execute: ["exec"],
  execution: ["exec"],
  expression: ["expr"],
  expressions: ["exprs", "expr"],
  extension: ["ext"],
  format: ["fmt"],
  frequency: ["freq"],
  generate: ["gen"],
  generator: ["gen"],
  header: ["hdr"],
  headers: ["hdrs", "hdr"],
  identifier: ["id", "ident"],
  image: ["img"],
  implementation: ["impl"],
  increment: ["inc", "incr"],
  index: ["idx"],
  information: ["info"],
  initialize: ["init"],
  initialise: ["init"],
  initialization: ["init"],
  initialisation: ["init"],
  iterator: ["iter"],
  iterate: ["iter"],
  length: ["len"],
  library: ["lib"],
  manager: ["mgr"],
  maximum: ["max"],
  memory: ["mem"],
  message: ["msg"],
  messages: ["msgs", "msg"],
  minimum: ["min"],
  module: ["mod"],
  multiply: ["mul"],
  multiplexer: ["mux"],
  number: ["num"],
  object: ["obj"],
  objects: ["objs", "obj"],
  operation: ["op"],
  operations: ["ops", "op"],
  option: ["opt", "opts"],
  options: ["opts", "opt"],
  package: ["pkg"],
  packages: ["pkgs", "pkg"],
  parameter: ["param", "params"],
  parameters: ["params", "param"],
  pointer: ["ptr"],
  position: ["pos"],
  previous: ["prev"],
  process: ["proc"],
  property: ["prop", "props"],
  properties: ["props", "prop"],
  receive: ["recv"],
  receiver: ["recv"],
  reference: ["ref"],
  references: ["refs", "ref"],
  register: ["reg"],
  regular: ["regex", "regexp"],
  request: ["req"],
  requests: ["reqs", "req"],
  response: ["resp", "res"],
  result: ["res"],
  return: ["ret"],
  sequence: ["seq"],
  server: ["srv"],
  source: ["src"],
  specification: ["spec"],
  standard: ["std"],
  statement: ["stmt"],
  statistics: ["stats"],
  string: ["str"],
  strings: ["strs", "str"],
  synchronize: ["sync"],
  synchronous: ["sync"],
  synchronization: ["sync"],
  system: ["sys"],
  table: ["tbl"],
  temporary: ["tmp", "temp"],
  template: ["tmpl", "tpl"],
  transaction: ["tx", "txn"],
  value: ["val"],
  values: ["vals", "val"],
  variable: ["var"],
  variables: ["vars", "var"],
  version: ["ver"],
};

/** Stemmed word → its stemmed abbreviations (other than itself). */
const _BY_TERM: ReadonlyMap<string, readonly string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const [word, abbreviations] of Object.entries(_WORDS)) {
    const term = queryTerm(word);
    if (term === "") continue;
    const list = out.get(term) ?? [];
    for (const a of abbreviations) {
      const t = queryTerm(a);
      if (t !== "" && t !== term && !list.includes(t)) list.push(t);
    }
    out.set(term, list);
  }
  return out;
})();

/** The abbreviations (as index terms) code writes for a query term, `[]` when none. */
export function abbreviationsOf(term: string): readonly string[] {
  return _BY_TERM.get(term) ?? [];
}
