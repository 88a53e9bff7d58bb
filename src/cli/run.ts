/**
 * Run one command line: parse it against the command table, answer `--help` and `--version`, run
 * the command, and turn what it throws into a message and an exit code (2 for a usage mistake,
 * with a "did you mean" for a mistyped command or option; 1 for anything else).
 *
 * @module
 */
import type { Environment } from "../server/compose.ts";
import { SERVER_INFO } from "../server/stdio.ts";
import { type Invocation, parseArgs, UsageError } from "./args.ts";
import { COMMANDS, usage } from "./commands.ts";
import { load } from "./lazy.ts";

/** Run the CLI with these arguments in this environment; returns the exit code. */
export async function run(argv: readonly string[], environment: Environment): Promise<number> {
  let inv: Invocation;
  try {
    inv = parseArgs(argv, COMMANDS);
    if (inv.flags.has("help") || inv.command === "help") {
      console.log(usage());
      return 0;
    }
    if (inv.flags.has("version")) {
      console.log(`codemunch ${SERVER_INFO.version}`);
      return 0;
    }
    const command = COMMANDS[inv.command];
    if (command === undefined) {
      throw new UsageError(`Unknown command "${inv.command}"`, {
        word: inv.command,
        known: Object.keys(COMMANDS),
      });
    }
    return await command.run(inv, environment);
  } catch (e) {
    if (e instanceof UsageError || e instanceof RangeError) {
      const hint = e instanceof UsageError ? await _didYouMean(e) : "";
      console.error(`codemunch: ${e.message}.${hint} Run "codemunch --help" for usage`);
      return 2;
    }
    console.error(`codemunch: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

/** ` Did you mean "search"?` for a word close to a known one, else "". */
async function _didYouMean(e: UsageError): Promise<string> {
  if (e.unknown === undefined) return "";
  const { levenshtein } = await load("src/query/names.ts");
  const word = e.unknown.word.toLowerCase();
  const near = e.unknown.known
    .map((k) => ({ k, d: levenshtein(word, k.toLowerCase(), 2) }))
    .filter((x) => x.d <= Math.min(2, Math.floor(x.k.length / 3)))
    .sort((a, b) => a.d - b.d || a.k.localeCompare(b.k));
  return near.length === 0 ? "" : ` Did you mean "${near[0]!.k}"?`;
}
