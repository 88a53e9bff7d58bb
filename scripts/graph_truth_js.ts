/**
 * An independent ground truth for the graph benchmark on JavaScript objects built by assignment
 * (Express's `res.render = function render (…)`), computed from the source text with regular
 * expressions — no tree-sitter, nothing from the index: which lines call a method of such an
 * object. A call of `obj.m` is, on a line with comments and strings blanked out:
 *
 * - `obj.m(` where `obj` stands alone (not `x.obj.m(`);
 * - `obj.a(…).m(`: a fluent chain on `obj` whose first link is one of its methods;
 * - `this.m(` inside the body of a function assigned to a member of `obj` (`obj.x = function`).
 *
 * Express names its request, response and application objects `req`, `res` and `app` wherever it
 * hands them to code (handlers, middleware, tests), which is what makes the text a truth here;
 * a response held in a variable of another name is not counted.
 */

/** Blank out comments and string contents (keeping quotes and line breaks). */
export function stripJs(text: string): string {
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
    } else if (c === "'" || c === '"' || c === "`") {
      out += c;
      i++;
      while (i < text.length && text[i] !== c) {
        if (text[i] === "\\") i++;
        else if (text[i] === "\n") {
          out += "\n";
          if (c !== "`") break;
        }
        i++;
      }
      out += c;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

function _escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** One method assigned to an object: `obj.name = function` at `file:line`. */
export interface ObjectMethod {
  object: string;
  name: string;
  file: string;
  line: number;
}

/** The JavaScript files of a tree read once, and the methods assigned to plain objects. */
export class JsTruth {
  readonly stripped = new Map<string, string[]>();
  readonly methods: ObjectMethod[] = [];
  /** Line ranges (1-based, inclusive) of each object's assigned functions, by file. */
  readonly #bodies = new Map<string, { object: string; from: number; to: number }[]>();

  constructor(files: readonly string[], read: (path: string) => string) {
    for (const f of files) {
      const lines = stripJs(read(f)).split("\n");
      this.stripped.set(f, lines);
      lines.forEach((text, i) => {
        const m = /^([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)\s*=\s*(?:[\w$.]+\s*=\s*)*function\b/
          .exec(text);
        if (m === null || m[1] === "exports" || m[1] === "module") return;
        this.methods.push({ object: m[1]!, name: m[2]!, file: f, line: i + 1 });
        const to = _bodyEnd(lines, i);
        const list = this.#bodies.get(f) ?? [];
        list.push({ object: m[1]!, from: i + 1, to });
        this.#bodies.set(f, list);
      });
    }
  }

  /** `file:line` of every call of the method `object.name` (see the module rules). */
  calls(object: string, name: string): Set<string> {
    const o = _escape(object), n = _escape(name);
    const direct = new RegExp(`(?<![\\w$.])${o}\\s*\\.\\s*${n}\\s*\\(`);
    const fluent = new RegExp(`(?<![\\w$.])${o}\\.([\\w$]+)\\([^()]*\\)\\s*\\.\\s*${n}\\s*\\(`);
    const own = new Set(this.methods.filter((m) => m.object === object).map((m) => m.name));
    const self = new RegExp(`(?<![\\w$.])this\\s*\\.\\s*${n}\\s*\\(`);
    const out = new Set<string>();
    for (const [f, lines] of this.stripped) {
      const bodies = (this.#bodies.get(f) ?? []).filter((b) => b.object === object);
      lines.forEach((text, i) => {
        const line = i + 1;
        const chain = fluent.exec(text);
        const inBody = bodies.some((b) => b.from <= line && line <= b.to);
        if (
          direct.test(text) || (chain !== null && own.has(chain[1]!)) ||
          (inBody && self.test(text))
        ) out.add(`${f}:${line}`);
      });
    }
    return out;
  }
}

/** The last line (1-based) of the function whose header is on line `start` (0-based). */
function _bodyEnd(lines: readonly string[], start: number): number {
  let depth = 0;
  let opened = false;
  for (let i = start; i < lines.length; i++) {
    for (const c of lines[i]!) {
      if (c === "{") {
        depth++;
        opened = true;
      } else if (c === "}") depth--;
    }
    if (opened && depth <= 0) return i + 1;
  }
  return lines.length;
}
