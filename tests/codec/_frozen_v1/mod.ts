/**
 * A frozen copy of the strict MUNCH v1 encoder and decoder as they were before the speed work
 * (commit 03f22d1), kept only as a test oracle: the optimised codec under src/codec must write
 * the very same bytes and read every payload (or refuse it) exactly as this copy does
 * (tests/codec/v1_sameness_test.ts). Only the modules the speed work changed are copied; the
 * others (escape, numbers, spec, types) are imported from src/codec. Do not edit these files;
 * delete the folder once the sameness test is no longer wanted.
 *
 * @module
 */
export { encodeStrict } from "./encode_v1.ts";
export { decodeV1 } from "./decode_v1.ts";
