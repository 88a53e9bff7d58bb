import type { ExtractorSpec } from "../language_spec.ts";

/**
 * OpenAPI and Swagger documents, YAML or JSON, read by npm `yaml` (`extractors/openapi.ts`): a
 * file named `*.openapi.yaml`, `swagger.json`... or any `.yaml`/`.yml`/`.json` whose top level
 * declares `openapi:` or `swagger:`. `$ref`s to other files resolve as paths.
 */
export const openapi: ExtractorSpec = {
  id: "openapi",
  content: "data",
  extensions: [
    ".openapi.yaml",
    ".openapi.yml",
    ".openapi.json",
    ".swagger.yaml",
    ".swagger.yml",
    ".swagger.json",
  ],
  fileNames: [
    "openapi.yaml",
    "openapi.yml",
    "openapi.json",
    "swagger.yaml",
    "swagger.yml",
    "swagger.json",
  ],
  detect: {
    extensions: [".yaml", ".yml", ".json"],
    content: /^(?:\{\s*)?["']?(?:openapi|swagger)["']?\s*:\s*["']?[23]\./m,
  },
  extractor: "openapi",
  resolver: "path",
  maxSymbolBytes: 4_000_000,
};
