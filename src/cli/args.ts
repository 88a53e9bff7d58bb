/**
 * The command line parsed against the command table: the command is the first word that is
 * neither a flag nor a flag's value; flags are checked against the command's own. Pure (no I/O),
 * so the README test parses the README's commands with it.
 *
 * @module
 */
import type { Environment } from "../server/compose.ts";

/** A flag of a command: whether it takes a value, and the tool argument it sets. */
export interface FlagSpec {
  value: boolean;
  /** The tool argument this flag sets (errors about it are reported with the flag's name). */
  arg?: string;
  /** One-letter alias (`-y`). */
  short?: string;
}

/** A parsed command line. */
export interface Invocation {
  command: string;
  positional: string[];
  /** Flag values by canonical name (`"true"` for switches). */
  flags: Map<string, string>;
  /** How the user typed each flag (`--max`, `-y`), for messages. */
  typed: Map<string, string>;
}

/** A subcommand. */
export interface Command {
  /** Arguments after the command name, for the usage text. */
  usage: string;
  summary: string;
  flags: Record<string, FlagSpec>;
  run(inv: Invocation, environment: Environment): Promise<number>;
}

/**
 * A command-line mistake: printed with the usage hint, exit code 2. `unknown` is the word the
 * user typed and the words it should have been one of, for a "did you mean".
 */
export class UsageError extends Error {
  readonly unknown: { word: string; known: readonly string[] } | undefined;

  constructor(message: string, unknown?: { word: string; known: readonly string[] }) {
    super(message);
    this.unknown = unknown;
  }
}

/** The flags every command takes. */
const _GLOBAL: Record<string, string> = {
  "-h": "help",
  "--help": "help",
  "-V": "version",
  "--version": "version",
};

/** Parse the command line against the commands' flags. */
export function parseArgs(
  argv: readonly string[],
  commands: Readonly<Record<string, Command>>,
): Invocation {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  const typed = new Map<string, string>();
  const first = _commandIndex(argv, commands);
  const command = first === -1 ? "serve" : argv[first]!;
  const spec = commands[command];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (i === first) continue;
    if (_GLOBAL[a] !== undefined) flags.set(_GLOBAL[a], "true");
    else if (a === "--") positional.push(...argv.slice(i + 1)), i = argv.length;
    else if (a.startsWith("-") && a !== "-") {
      if (spec === undefined) continue; // reported as an unknown command
      i = _flag(argv, i, command, spec, flags, typed);
    } else positional.push(a);
  }
  return { command, positional, flags, typed };
}

/** Where the command word is: the first that is neither a flag nor a flag's value (-1: none). */
function _commandIndex(argv: readonly string[], commands: Readonly<Record<string, Command>>) {
  const valueFlags = new Set(
    Object.values(commands).flatMap((c) =>
      Object.entries(c.flags).filter(([, f]) => f.value).map(([n]) => `--${n}`)
    ),
  );
  for (let i = 0; i < argv.length; i++) {
    if (valueFlags.has(argv[i]!)) i++;
    else if (!argv[i]!.startsWith("-")) return i;
  }
  return -1;
}

/** Read the flag at `argv[i]` into `flags`; returns the index of the last word it used. */
function _flag(
  argv: readonly string[],
  i: number,
  command: string,
  spec: Command,
  flags: Map<string, string>,
  typed: Map<string, string>,
): number {
  const a = argv[i]!;
  const eq = a.indexOf("=");
  const written = eq === -1 ? a : a.slice(0, eq);
  const name = written.startsWith("--")
    ? written.slice(2)
    : Object.entries(spec.flags).find(([, f]) => `-${f.short}` === written)?.[0];
  const flag = name === undefined ? undefined : spec.flags[name];
  if (name === undefined || flag === undefined) {
    throw new UsageError(`Unknown option "${written}" for "${command}"`, {
      word: written,
      known: Object.keys(spec.flags).map((f) => `--${f}`),
    });
  }
  typed.set(name, written);
  if (!flag.value) {
    if (eq !== -1) throw new UsageError(`Option "${written}" takes no value`);
    flags.set(name, "true");
    return i;
  }
  const value = eq === -1 ? argv[i + 1] : a.slice(eq + 1);
  if (value === undefined || value === "") {
    throw new UsageError(`Option "${written}" needs a value`);
  }
  flags.set(name, value);
  return eq === -1 ? i + 1 : i;
}

/** Fail unless the command got exactly `n` positional arguments. */
export function expectPositional(inv: Invocation, n: number, what: string): void {
  if (inv.positional.length !== n) {
    throw new UsageError(
      `"${inv.command}" expects ${what}, got ${inv.positional.length} arguments`,
    );
  }
}
