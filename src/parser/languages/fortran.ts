import type { ExtractorSpec } from "../language_spec.ts";

/**
 * Fortran, free form and fixed form (`.f`, `.for`: columns 1-6 and a `C`/`*` comment column),
 * read by our own scanner (`extractors/fortran.ts`): no tree-sitter grammar or parser of Fortran
 * is on npm. `use module` is an import, resolved to the file named after the module.
 */
export const fortran: ExtractorSpec = {
  id: "fortran",
  extensions: [".f90", ".f95", ".f03", ".f08", ".f", ".for", ".fpp", ".f77", ".ftn"],
  extractor: "fortran",
  resolver: "module_file",
};
