import type { LanguageSpec } from "../language_spec.ts";
import { typescript } from "./typescript.ts";

/** TSX: the TypeScript entry with the TSX grammar (JSX in TypeScript). */
export const tsx: LanguageSpec = {
  ...typescript,
  id: "tsx",
  extensions: [".tsx"],
  grammar: "tsx",
};
