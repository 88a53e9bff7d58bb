import type { ExtractorSpec } from "../language_spec.ts";

/**
 * Protocol Buffers (`.proto`), read by npm `protobufjs`'s parser (`extractors/protobuf.ts`).
 * `import "a/b.proto"` resolves as a path (relative to the file, then the repo root).
 */
export const proto: ExtractorSpec = {
  id: "proto",
  extensions: [".proto"],
  extractor: "protobuf",
  resolver: "path",
};
