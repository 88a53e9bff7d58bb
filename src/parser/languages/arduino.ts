import type { GrammarSpec } from "../language_spec.ts";
import { cpp } from "./cpp.ts";

/**
 * Arduino sketches (`.ino`): C++ with an implicit `#include <Arduino.h>`, parsed by the C++
 * grammar and queries unchanged (`setup`, `loop` and the sketch's functions, classes, `#define`s).
 */
export const arduino: GrammarSpec = { ...cpp, id: "arduino", extensions: [".ino"] };
