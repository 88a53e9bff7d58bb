import type { ExtractorSpec } from "../language_spec.ts";

/** Dockerfiles and Containerfiles, read by npm `dockerfile-ast` (`extractors/dockerfile.ts`). */
export const dockerfile: ExtractorSpec = {
  id: "dockerfile",
  extensions: [".dockerfile", ".containerfile"],
  fileNames: ["Dockerfile", "Containerfile"],
  // `Dockerfile.dev`, `Dockerfile.prod`: a name that starts so.
  detect: { extensions: [""], path: /(^|\/)(Dockerfile|Containerfile)\.[^/]+$/ },
  extractor: "dockerfile",
};
