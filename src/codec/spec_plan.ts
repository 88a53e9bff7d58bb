/**
 * What both MUNCH encoders (strict v1 in `encode_v1.ts`, extended in `generic.ts`) work out once
 * rather than per call: a spec's lookup maps, and whether a tool name may stand in a header (a
 * server encodes one tool's answers in a row, so the last name that passed is remembered).
 *
 * @module
 */
import type { EncoderSpec, TableSpec } from "./spec.ts";

/** What an encoder derives from a spec. */
export interface SpecPlan {
  /** The spec's tables by key path. */
  tables: Map<string, TableSpec>;
  /** Scalar key → its place in the spec's scalar order. */
  scalarRank: Map<string, number>;
}

const _plans = new WeakMap<EncoderSpec, SpecPlan>();

/** The plan of `spec`, made on its first use. */
export function specPlan(spec: EncoderSpec): SpecPlan {
  let plan = _plans.get(spec);
  if (plan === undefined) {
    plan = {
      tables: new Map(spec.tables.map((t) => [t.key, t])),
      scalarRank: new Map(spec.scalars.map((k, i) => [k, i])),
    };
    _plans.set(spec, plan);
  }
  return plan;
}

/** A tool name a header can carry. */
const TOOL_NAME = /^[A-Za-z0-9_.-]+$/;

/** The last tool name that passed {@linkcode checkToolName} (none yet: the first call checks). */
let _lastTool: string | undefined;

/**
 * Throw a `TypeError` unless `tool` can stand in a `#MUNCH/1` header.
 *
 * @example Usage
 * ```ts
 * import { throws } from "node:assert/strict";
 * import { checkToolName } from "./spec_plan.ts";
 * checkToolName("search_symbols");
 * throws(() => checkToolName(""), TypeError);
 * throws(() => checkToolName("a b"), TypeError);
 * ```
 */
export function checkToolName(tool: string): void {
  if (tool === _lastTool) return;
  if (!TOOL_NAME.test(tool)) {
    throw new TypeError(`Cannot encode response: invalid tool name "${tool}"`);
  }
  _lastTool = tool;
}
