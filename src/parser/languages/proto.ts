import type { ExtractorSpec } from "../language_spec.ts";

/**
 * Protocol Buffers (`.proto`), read by npm `protobufjs`'s parser (`extractors/protobuf.ts`).
 * `import "a/b.proto"` resolves as a path (relative to the file, then the repo root). Until
 * extractor version 7 `.proto` files were text-only under the id `protobuf`: a filter by that name
 * still means this language.
 */
export const proto: ExtractorSpec = {
  id: "proto",
  extensions: [".proto"],
  aliases: ["protobuf"],
  extractor: "protobuf",
  resolver: "path",
};
