/**
 * Words that name the same operation or thing in code: a question asks how something is
 * "removed" and the code says `delete`, `drop` or `evict`; it asks about "checking" and the code
 * says `validate`. Each group is a set of near-synonyms of general programming usage, written
 * before it was measured on any corpus (not read off the bench's corpora or their questions).
 * Every word of a group stands for the others, matched as the index tokenizes (`queryTerm`:
 * lower case, Porter-stemmed) and only as an exact term.
 */
import { queryTerm } from "../store/symbol_terms.ts";

/** Groups of near-synonyms (general usage, not fitted). */
const _GROUPS: readonly (readonly string[])[] = [
  ["remove", "delete", "drop", "discard", "evict", "purge"],
  ["create", "make", "build", "construct"],
  ["start", "begin", "launch", "spawn"],
  ["stop", "halt", "terminate", "kill"],
  ["close", "shutdown", "dispose", "teardown"],
  ["cancel", "abort"],
  ["check", "validate", "verify", "ensure"],
  ["find", "lookup", "search", "locate"],
  ["fetch", "retrieve", "load"],
  ["save", "persist", "store"],
  ["write", "emit", "output"],
  ["send", "dispatch", "publish"],
  ["receive", "accept"],
  ["convert", "transform", "cast", "coerce"],
  ["parse", "decode", "unmarshal", "deserialize"],
  ["serialize", "encode", "marshal"],
  ["error", "failure", "exception", "panic", "fault"],
  ["retry", "backoff", "reattempt"],
  ["wait", "block", "sleep", "park", "await"],
  ["schedule", "submit", "enqueue"],
  ["limit", "cap", "bound", "throttle", "quota"],
  ["timeout", "deadline", "expire", "expiry"],
  ["copy", "clone", "duplicate"],
  ["merge", "combine", "union"],
  ["split", "partition", "chunk"],
  ["register", "subscribe", "attach"],
  ["unregister", "unsubscribe", "detach"],
  ["notify", "signal", "wake", "broadcast"],
  ["lock", "mutex", "latch"],
  ["unlock", "release"],
  ["update", "modify", "patch"],
  ["count", "size", "length"],
  ["render", "draw", "display"],
  ["handler", "callback", "hook", "listener", "observer"],
  ["authenticate", "login", "signin"],
  ["permission", "authorize", "privilege"],
  ["cache", "memoize", "memo"],
  ["settings", "config", "options", "preferences"],
  ["directory", "folder"],
  ["connection", "socket"],
  ["thread", "worker", "goroutine"],
  ["task", "job"],
  ["execute", "invoke", "run"],
  ["initialize", "setup", "bootstrap"],
  ["route", "endpoint"],
  ["middleware", "interceptor"],
  ["escape", "sanitize"],
  ["plugin", "extension", "addon"],
];

/** Stemmed word → the stemmed other words of its groups. */
const _BY_TERM: ReadonlyMap<string, readonly string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const group of _GROUPS) {
    const terms = [...new Set(group.map(queryTerm).filter((t) => t !== ""))];
    for (const t of terms) {
      const list = out.get(t) ?? [];
      for (const other of terms) if (other !== t && !list.includes(other)) list.push(other);
      out.set(t, list);
    }
  }
  return out;
})();

/** The synonyms (as index terms) of a query term, `[]` when none. */
export function synonymsOf(term: string): readonly string[] {
  return _BY_TERM.get(term) ?? [];
}
