import { DEFAULT_SEMANTICS, type LanguageSemantics, type LivenessRules } from "../language_spec.ts";
import { ECMASCRIPT_IMPORTS } from "../import_writers/ecmascript.ts";

/**
 * JavaScript/TypeScript liveness conventions: `constructor`, `toString`, `toJSON`, `then` and the
 * custom-element callbacks are called by the runtime; any decorator registers (Angular, Nest);
 * `export` declarations, `exports.f` and the names of `module.exports = {…}` / `= name` are
 * exported; config files of the usual tools, `bin/` and `scripts/` files and `#!` node scripts
 * are entry points; `obj[name]` and `require(variable)` reach names written in strings.
 */
export const ECMASCRIPT_LIVENESS: LivenessRules = {
  hookMethods:
    /^(?:constructor|toString|valueOf|toJSON|then|inspect|connectedCallback|disconnectedCallback|adoptedCallback|attributeChangedCallback)$/,
  registeringDecorators: /^@/,
  exports: "keyword",
  exportKeyword: /^\s*export\b/,
  exportList: /\bmodule\.exports\s*=\s*(\{[^}]*\}|[A-Za-z_$][\w$]*)/,
  entryFiles:
    /(?:^|\/)(?:bin|scripts?)\/[^/]+$|(?:^|\/)(?:vite|webpack|rollup|jest|vitest|babel|eslint|prettier|tailwind|postcss|next|nuxt|svelte|astro|playwright|karma)\.config\.[cm]?[jt]s$|(?:^|\/)(?:Gruntfile|gulpfile)\.[cm]?js$/i,
  entryText: /^#!.*\bnode\b/,
  declarationFiles: /\.d\.[cm]?ts$/,
  dynamicAccess: /\w\[\s*[A-Za-z_$][\w$.]*\s*\]|\brequire\s*\(\s*[^'"`\s)]/,
};

/**
 * JavaScript, TypeScript and the component formats that embed them (one family: a `.ts` file
 * calls `.js` functions): a module per file; `this` (and `self`, the `var self = this` idiom);
 * `name: Type` parameters; `extends`/`implements`; `* as ns` and bare `require("./x")` bind module
 * names; an `index.*` barrel and any `export … from` line pass on what they import; objects built
 * by assignment (`res.render = function`) own their methods, `exports.f` is the module's `f`.
 */
export const ECMASCRIPT_SEMANTICS: LanguageSemantics = {
  ...DEFAULT_SEMANTICS,
  family: "ecmascript",
  selfNames: ["this", "self"],
  superNames: ["super"],
  moduleBinding: "names_or_file",
  reexportFile: /(?:^|\/)index\.(?:[cm]?[jt]sx?|vue)$/,
  reexportLine: /^\s*export\b/,
  prototypeObjects: true,
  exportObjects: ["exports", "module.exports"],
  liveness: ECMASCRIPT_LIVENESS,
  importWriter: ECMASCRIPT_IMPORTS,
  reservedWords:
    /^(?:break|case|catch|class|const|continue|debugger|default|delete|do|else|enum|export|extends|false|finally|for|function|if|import|in|instanceof|new|null|return|super|switch|this|throw|true|try|typeof|var|void|while|with|yield|let|static|implements|interface|package|private|protected|public|await)$/,
  publicApi: "package_entries",
};
