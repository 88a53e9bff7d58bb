import type { GrammarSpec } from "../language_spec.ts";
import { typescript } from "./typescript.ts";

/** TSX: the TypeScript entry with the TSX grammar (JSX in TypeScript). */
export const tsx: GrammarSpec = {
  ...typescript,
  id: "tsx",
  extensions: [".tsx"],
  grammar: "tsx",
};
