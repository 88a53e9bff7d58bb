/**
 * The codec's view of the tools: each tool's tier-1 spec, made from the MUNCH layout its
 * declaration derives (`Tool.layout`). The codec knows no tool; the server passes these in
 * (`envelope.ts`), and decoders of extended payloads take {@linkcode CODEC_SPECS}.
 *
 * @module
 */
import type { EncoderSpec } from "../codec/spec.ts";
import { type Tool, toolByName, TOOLS } from "../tools/mod.ts";

const _specs = new WeakMap<Tool, EncoderSpec>();

/** The tier-1 spec of a tool, or undefined when it encodes with the generic layout. */
export function codecSpec(tool: Tool): EncoderSpec | undefined {
  const layout = tool.layout;
  if (layout === undefined) return undefined;
  let spec = _specs.get(tool);
  if (spec === undefined) {
    // Assignable by type: a Reshape the codec does not define fails here.
    spec = { ...layout, tool: tool.name };
    _specs.set(tool, spec);
  }
  return spec;
}

/** Every tool's tier-1 spec (for decoding extended payloads: `decode(text, { specs })`). */
export const CODEC_SPECS: readonly EncoderSpec[] = TOOLS.flatMap((t) => {
  const spec = codecSpec(t);
  return spec === undefined ? [] : [spec];
});

/** `encode` / `encodeResponse` options with the layout of the tool named `name` (or none). */
export function codecOptions(name: string): { spec?: EncoderSpec } {
  const tool = toolByName(name);
  const spec = tool === undefined ? undefined : codecSpec(tool);
  return spec === undefined ? {} : { spec };
}
