import type { ExtractorSpec } from "../language_spec.ts";

/**
 * GraphQL schemas and documents, read by npm `graphql` (`extractors/graphql.ts` says what becomes
 * which kind). `#import` lines resolve as paths.
 */
export const graphql: ExtractorSpec = {
  id: "graphql",
  extensions: [".graphql", ".gql", ".graphqls"],
  extractor: "graphql",
  resolver: "path",
};
