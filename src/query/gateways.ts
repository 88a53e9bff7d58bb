/**
 * Entry points ("gateways") of a repo for `get_signal_chains`: where outside input comes in. Each
 * rule is data; the detector never branches on a language name.
 *
 * | kind  | recognised by |
 * |-------|---------------|
 * | http  | route decorators (Flask/FastAPI `@app.get("/x")`, `@router.post`, `@bp.route`, DRF `@api_view`, Spring `@GetMapping("/x")`, NestJS `@Get("x")`); route registrations (`app.get("/x", handler)` in Express/Koa/Fastify/Hono, Go `http.HandleFunc("/x", h)`, gin/echo/chi `r.GET("/x", h)`, Django `path("x/", view)` in `urls.py`, Flask `add_url_rule`); Go `ServeHTTP` methods; Next.js route files (`app/<route>/route.ts` `GET`/`POST`…, default handlers under `pages/api/`) |
 * | cli   | `@click.command`/`@*.command`/`@*.group` (click, typer), `program.command("x")` (commander, yargs), argparse `add_parser("x")`, Django `management/commands/<name>.py` `Command` classes |
 * | task  | `@shared_task`, `@*.task`, `@periodic_task`, Celery/Huey/Dramatiq/RQ decorators, Spring `@Scheduled`, `cron.schedule(...)`, `scheduler.add_job(f, …)`, `schedule.every(…).do(f)` |
 * | event | `@receiver` (Django signals), `@on_event`, `@*.on`, `@EventListener`/`@KafkaListener`, `x.on("event", h)`, `addEventListener("x", h)`, exported `handler` functions (AWS Lambda) |
 * | main  | functions named `main` (Go's `func main`, Python, C, Java/C# `Main`) |
 * | test  | `test_*` and Go `Test*` functions (only with `include_tests`) |
 *
 * A registration whose handler is a named function points at that function (looked up in the
 * same file, then the repo; `View.as_view()` at the class); an inline handler makes a gateway
 * without a symbol. Gateways in test, example and fixture files (`priors.ts`) are listed only with
 * `include_tests`.
 */
import type { SymbolRecord } from "../parser/types.ts";
import { semanticsOf } from "../parser/semantics/mod.ts";
import { facet, type RepoView } from "./view.ts";
import { SYMBOLS } from "./symbols.ts";
import { fileRole } from "./priors.ts";

/** What kind of entry point. */
export type GatewayKind = "http" | "cli" | "task" | "event" | "main" | "test";

/** Kinds in the order chains are listed. */
export const GATEWAY_KINDS: readonly GatewayKind[] = [
  "http",
  "cli",
  "task",
  "event",
  "main",
  "test",
];

/** One entry point. */
export interface Gateway {
  kind: GatewayKind;
  /** `GET /users`, `cli:migrate`, `task:send_mail`, `event:post_save`, `main:cmd/app/main.go`. */
  label: string;
  /** The handler symbol, or null for an inline handler. */
  symbol: SymbolRecord | null;
  file: string;
  line: number;
  /** How it was recognised: `decorator`, `registration`, `name` or `file`. */
  via: string;
  /** In a test, example or fixture file (listed only with `include_tests`). */
  inTest: boolean;
}

const _HTTP_VERBS = /^(get|post|put|delete|patch|head|options|all|any|route|api_route|websocket)$/i;

/** Decorator rules, first match wins. */
const _DECORATOR_RULES: readonly [GatewayKind, RegExp][] = [
  [
    "http",
    /^@?(?:[\w.]*\.)?(?:route|get|post|put|delete|patch|head|options|api_route|websocket)\s*\(|^@?(?:Get|Post|Put|Delete|Patch|Request)Mapping\b|^@?(?:Get|Post|Put|Delete|Patch|All|Head|Options)\s*\(|^@?api_view\b|^@?require_(?:http_methods|GET|POST|safe)\b/,
  ],
  ["cli", /^@?(?:click\.|typer\.)|^@?[\w.]*\.(?:command|group)\s*(?:\(|$)/],
  [
    "task",
    /^@?(?:shared_task|periodic_task|task)\b|^@?[\w.]*\.(?:task|periodic_task|actor|job|scheduled_job|cron)\s*(?:\(|$)|^@?(?:celery|huey|dramatiq|rq)\.|^@?Scheduled\b/,
  ],
  [
    "event",
    /^@?(?:receiver|on_event|event_handler|listens_for|subscriber)\b|^@?[\w.]*\.(?:on|on_event|event|listener|subscribe)\s*\(|^@?(?:EventListener|KafkaListener|RabbitListener|JmsListener|SqsListener)\b/,
  ],
];

/** Registration calls: [kind, callee, receiver (null: any), needs a route-like string]. */
const _REGISTRATIONS: readonly [GatewayKind, RegExp, RegExp | null][] = [
  [
    "http",
    /^(?:get|post|put|delete|patch|head|options|all|route|use|handle|HandleFunc|Handle|GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS|Any|Get|Post|Put|Delete|Patch|add_url_rule|add_route|add_api_route|HandlerFunc|Method|Methods)$/,
    /^(?:app|router|r|e|g|mux|server|srv|api|http|engine|group|v\d+|[\w$]*(?:[Rr]outer|[Gg]roup|[Aa]pp|[Mm]ux|[Ss]erver|[Rr]outes))$/,
  ],
  ["http", /^(?:path|re_path|url)$/, null],
  [
    "cli",
    /^(?:command|add_parser|add_command)$/,
    /^(?:program|cli|yargs|commander|subparsers|\w*[Pp]arser|\w*[Cc]li|app)$/,
  ],
  [
    "task",
    /^(?:schedule|add_job|do|every)$/,
    /^(?:cron|scheduler|\w*[Ss]cheduler|schedule[\w.()]*|agenda)$/,
  ],
  ["event", /^(?:on|once|addEventListener|addListener|subscribe)$/, null],
];

/** Files whose calls are route tables. */
const _URLCONF = /(?:^|\/)urls\.py$/;

/** The first string literal of a line. */
function _firstString(line: string): string | null {
  const m = /(["'`])((?:\\.|(?!\1).){0,200})\1/.exec(line);
  return m === null ? null : m[2]!;
}

/**
 * The last plain name passed on a call line (`…, handler)` → `handler`, `views.index` → `index`,
 * `views.LoginView.as_view()` → `LoginView`).
 */
function _handlerName(line: string): string | null {
  const view = /([A-Za-z_$][\w$]*)\.as_view\s*\(/.exec(line);
  if (view !== null) return view[1]!;
  const m = /,\s*(?:[\w$]+\.)*([A-Za-z_$][\w$]*)\s*(?:\)|,\s*name\s*=)/.exec(line) ??
    /,\s*(?:[\w$]+\.)*([A-Za-z_$][\w$]*)\s*\)?\s*[;)]?\s*$/.exec(line);
  if (m === null) return null;
  const name = m[1]!;
  return /^(?:function|async|true|false|null|None|nil|undefined)$/.test(name) ? null : name;
}

function _methodOf(decorator: string): string {
  const m =
    /\.(get|post|put|delete|patch|head|options|websocket)\s*\(|^@?(Get|Post|Put|Delete|Patch)(?:Mapping)?\b/i
      .exec(decorator);
  if (m !== null) return (m[1] ?? m[2]!).toUpperCase();
  const methods = /methods\s*=\s*\[\s*["'](\w+)/.exec(decorator);
  return methods !== null ? methods[1]!.toUpperCase() : "ANY";
}

function _decoratorLabel(kind: GatewayKind, decorator: string, s: SymbolRecord): string {
  const arg = _firstString(decorator);
  switch (kind) {
    case "http":
      return arg !== null ? `${_methodOf(decorator)} ${arg}` : `http:${s.name}`;
    case "cli":
      return `cli:${arg ?? s.name}`;
    case "task":
      return `task:${s.name}`;
    case "event":
      return `event:${arg ?? s.name}`;
    default:
      return `${kind}:${s.name}`;
  }
}

/** Every gateway of the repo (tests included), by kind, file and line. */
export const GATEWAYS = facet("gateways", (view): Gateway[] => findGateways(view));

/** Every gateway of a repo, tests included, by kind, file and line. */
export function findGateways(view: RepoView): Gateway[] {
  const out: Gateway[] = [];
  const seen = new Set<string>();
  const add = (found: Omit<Gateway, "inTest">) => {
    const role = fileRole(found.file);
    const g: Gateway = {
      ...found,
      inTest: found.kind === "test" || role === "test" || role === "fixture" || role === "example",
    };
    const key = `${g.symbol?.id ?? `${g.file}:${g.line}`}\u0000${g.label}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(g);
  };
  const table = view.get(SYMBOLS);
  const symbols = view.index.allSymbols();
  for (const s of symbols) {
    const command = /(?:^|\/)management\/commands\/(\w+)\.py$/.exec(s.file);
    if (command !== null && s.kind === "class" && s.name === "Command") {
      add({
        kind: "cli",
        label: `cli:${command[1]}`,
        symbol: s,
        file: s.file,
        line: s.line,
        via: "file",
      });
      continue;
    }
    if (s.kind !== "function" && s.kind !== "method") continue;
    let matched = false;
    for (const d of s.decorators) {
      const rule = _DECORATOR_RULES.find(([, re]) => re.test(d.trim()));
      if (rule === undefined) continue;
      add({
        kind: rule[0],
        label: _decoratorLabel(rule[0], d, s),
        symbol: s,
        file: s.file,
        line: s.line,
        via: "decorator",
      });
      matched = true;
      break;
    }
    if (matched) continue;
    const g = _byName(s);
    if (g !== null) add(g);
  }
  // Registration calls, read from the call sites' lines.
  const lines = new Map<string, string[]>();
  const lineOf = (file: string, line: number) => {
    let l = lines.get(file);
    if (l === undefined) lines.set(file, l = (view.index.fileText(file) ?? "").split(/\r\n|\r|\n/));
    return l[line - 1] ?? "";
  };
  for (const c of view.index.allCalls()) {
    for (const [kind, callee, receiver] of _REGISTRATIONS) {
      if (!callee.test(c.callee)) continue;
      const recv = c.receiver ?? "";
      if (receiver !== null && !receiver.test(recv.split(".").pop() ?? recv)) continue;
      if (receiver === null && kind === "http" && !_URLCONF.test(c.file)) continue;
      if (receiver === null && kind === "event" && recv === "") continue;
      const text = lineOf(c.file, c.line);
      // A decorator's call (`@app.get("/x")`) is the decorator rule's, on the function.
      if (text.trimStart().startsWith("@")) break;
      const arg = _firstString(text);
      if (arg === null) continue;
      if (kind === "http" && c.callee === "use" && !arg.startsWith("/")) continue;
      if (kind === "http" && receiver !== null && !/^[/*]|^\w+:\/\//.test(arg)) continue;
      const handler = _handlerName(text.slice(text.indexOf(arg) + arg.length));
      let symbol: SymbolRecord | null = null;
      if (handler !== null) {
        const named = table.byName(handler).filter((x) =>
          x.kind === "function" || x.kind === "method" || x.kind === "class"
        );
        symbol = named.find((x) => x.file === c.file) ?? (named.length === 1 ? named[0]! : null);
      }
      const verb = _HTTP_VERBS.test(c.callee) && !/^(?:route|all|any|api_route)$/i.test(c.callee)
        ? c.callee.toUpperCase()
        : "ANY";
      const label = kind === "http"
        ? `${verb} ${_URLCONF.test(c.file) && !arg.startsWith("/") ? "/" + arg : arg}`
        : kind === "cli"
        ? `cli:${arg}`
        : kind === "task"
        ? `task:${symbol?.name ?? arg}`
        : `event:${arg}`;
      add({ kind, label, symbol, file: c.file, line: c.line, via: "registration" });
      break;
    }
  }
  out.sort((a, b) =>
    GATEWAY_KINDS.indexOf(a.kind) - GATEWAY_KINDS.indexOf(b.kind) ||
    (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line ||
    (a.label < b.label ? -1 : a.label > b.label ? 1 : 0)
  );
  return out;
}

/** Gateways recognised by a function's name or file. */
function _byName(s: SymbolRecord): Omit<Gateway, "inTest"> | null {
  const at = { symbol: s, file: s.file, line: s.line };
  if ((s.name === "main" || s.name === "Main") && s.parent === null || s.name === "Main") {
    return { kind: "main", label: `main:${s.file}`, via: "name", ...at };
  }
  if (semanticsOf(s.language).liveness?.httpHandlerMethods?.test(s.name) === true) {
    return { kind: "http", label: `http:${s.qualified_name}`, via: "name", ...at };
  }
  // Next.js route handlers and API routes, named by their file's route.
  const next = /(?:^|\/)app\/(.*?)\/?route\.[cm]?[jt]sx?$/.exec(s.file);
  if (
    next !== null && /^(?:GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)$/.test(s.name) &&
    s.parent === null
  ) {
    return { kind: "http", label: `${s.name} /${next[1]}`, via: "file", ...at };
  }
  const api = /(?:^|\/)pages\/(api\/.*?)(?:\/index)?\.[cm]?[jt]sx?$/.exec(s.file);
  if (api !== null && s.parent === null && /^(?:handler|default)$/.test(s.name)) {
    return { kind: "http", label: `ANY /${api[1]}`, via: "file", ...at };
  }
  if (s.name === "handler" && s.parent === null && /\.[cm]?[jt]s$/.test(s.file)) {
    return { kind: "event", label: `event:${s.file}`, via: "name", ...at };
  }
  if (/^test_|^Test[A-Z_]/.test(s.name)) {
    return { kind: "test", label: `test:${s.name}`, via: "name", ...at };
  }
  return null;
}
