/**
 * Protocol Buffers, checked and read by npm `protobufjs`'s own `.proto` parser (syntax errors,
 * `package`, `import`s), with each definition placed in the text by a scan of its comment-free
 * form (the parser keeps no source positions): `message`s and `enum`s are `type`s, `service`s
 * `type`s with their `rpc`s as `method`s, fields, map fields and `oneof`s `field`s of their
 * message, enum values `constant`s, `extend` blocks `type`s named after what they extend, the
 * `package` a `class` named as written (`google.protobuf`: it qualifies no symbol here). The
 * comment lines above a definition are its docstring. An `rpc`'s request and response types are
 * references (calls) of those messages; `import "x.proto"` lines are imports. Options and
 * reserved ranges are not symbols.
 */
import protobuf from "protobufjs";
import type { Extracted, Extractor, SymbolDraft } from "./records.ts";
import { blankComments, commentAbove, matchBrace } from "./scan.ts";

const _BLOCK = /\b(message|enum|service|extend|oneof)\s+([A-Za-z_][\w.]*)\s*\{/y;
const _RPC =
  /\brpc\s+([A-Za-z_]\w*)\s*\(\s*(?:stream\s+)?([\w.]+)\s*\)\s*returns\s*\(\s*(?:stream\s+)?([\w.]+)\s*\)/y;
const _FIELD =
  /(?:(?:optional|required|repeated)\s+)?(?:map\s*<[^>]*>|[.\w]+)\s+([A-Za-z_]\w*)\s*=\s*\d+/y;
const _PACKAGE = /\bpackage\s+([A-Za-z_][\w.]*)\s*;/y;
const _ENUM_VALUE = /([A-Za-z_]\w*)\s*=\s*-?(?:0x[\da-fA-F]+|\d+)/y;

export const extractor: Extractor = {
  extract(text: string): Extracted {
    const found: Extracted = { symbols: [], imports: [], calls: [], errors: [] };
    try {
      const parsed = protobuf.parse(text, { keepCase: true, alternateCommentMode: true });
      for (const i of [...parsed.imports ?? [], ...parsed.weakImports ?? []]) {
        const at = text.indexOf(i);
        found.imports.push({ specifier: i, at: at === -1 ? 0 : at });
      }
    } catch (e) {
      found.errors.push(e instanceof Error ? e.message : String(e));
      // The scan below still places what it can read.
      for (const m of text.matchAll(/^\s*import\s+(?:public\s+|weak\s+)?"([^"]+)"/gm)) {
        found.imports.push({ specifier: m[1]!, at: m.index + m[0].indexOf('"') });
      }
    }
    const blanked = blankComments(text);
    _scanBody(text, blanked, 0, blanked.length, undefined, "file", found);
    return found;
  },
};

/** Read the statements between `from` and `to` (the inside of a block, or the whole file). */
function _scanBody(
  text: string,
  blanked: string,
  from: number,
  to: number,
  parent: number | undefined,
  block: string,
  found: Extracted,
): void {
  let i = from;
  while (i < to) {
    const c = blanked[i]!;
    if (/\s|;/.test(c)) {
      i++;
      continue;
    }
    _BLOCK.lastIndex = i;
    const b = _BLOCK.exec(blanked);
    if (b !== null) {
      const open = i + b[0].length - 1;
      const end = Math.min(matchBrace(blanked, open), to);
      const kind = b[1] === "oneof" ? "field" : "type";
      const index = _push(found, text, { name: b[2]!, kind, start: i, end }, parent);
      _scanBody(text, blanked, open + 1, end - 1, index, b[1]!, found);
      i = end;
      continue;
    }
    if (block === "file") {
      _PACKAGE.lastIndex = i;
      const p = _PACKAGE.exec(blanked);
      if (p !== null) {
        const end = i + p[0].length;
        _push(found, text, { name: p[1]!, kind: "class", start: i, end }, parent);
        i = end;
        continue;
      }
    }
    if (block === "service") {
      _RPC.lastIndex = i;
      const r = _RPC.exec(blanked);
      if (r !== null) {
        const end = _statementEnd(blanked, i + r[0].length, to);
        const index = _push(found, text, { name: r[1]!, kind: "function", start: i, end }, parent);
        const at = found.symbols[index]!.start;
        found.calls.push({ callee: _last(r[2]!), receiver: null, at: at + r[0].indexOf(r[2]!) });
        found.calls.push({
          callee: _last(r[3]!),
          receiver: null,
          at: at + r[0].lastIndexOf(r[3]!),
        });
        i = end;
        continue;
      }
    }
    const member = block === "enum"
      ? _ENUM_VALUE
      : block === "file" || block === "service"
      ? undefined
      : _FIELD;
    if (member !== undefined && !/^(option|reserved|extensions)\b/.test(blanked.slice(i, i + 12))) {
      member.lastIndex = i;
      const f = member.exec(blanked);
      if (f !== null) {
        const end = _statementEnd(blanked, i + f[0].length, to);
        const kind = block === "enum" ? "constant" : "field";
        _push(found, text, { name: f[1]!, kind, start: i, end }, parent);
        i = end;
        continue;
      }
    }
    i = _statementEnd(blanked, i, to);
  }
}

/** Just after the `;` (or the `{...}` block) that ends the statement starting at `from`. */
function _statementEnd(blanked: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    if (blanked[i] === ";") return i + 1;
    if (blanked[i] === "{") return Math.min(matchBrace(blanked, i), to);
    if (blanked[i] === "}") return i + 1;
  }
  return to;
}

function _push(
  found: Extracted,
  text: string,
  draft: SymbolDraft,
  parent: number | undefined,
): number {
  const docstring = commentAbove(text, draft.start, ["//"]);
  found.symbols.push(
    parent === undefined ? { ...draft, docstring } : { ...draft, docstring, parent },
  );
  return found.symbols.length - 1;
}

function _last(dotted: string): string {
  return dotted.slice(dotted.lastIndexOf(".") + 1);
}
