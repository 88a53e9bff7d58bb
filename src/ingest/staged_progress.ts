/** One rising progress count over the stages of an index run. */
import type { ProgressFn } from "./source.ts";

/**
 * Progress over the stages of one run, as one rising count: each stage's steps come after the
 * previous stage's, so a client never sees the count go back.
 */
export class StagedProgress {
  #offset = 0;
  #done = 0;
  #total = 0;
  #symbols = 0;
  readonly #fn: ProgressFn | undefined;
  constructor(fn: ProgressFn | undefined) {
    this.#fn = fn;
  }
  /** Report `done` of `total` steps of the current stage, and symbols newly extracted. */
  step(done: number, total: number, message: string, symbols = 0): void {
    this.#done = this.#offset + done;
    this.#total = this.#offset + total;
    this.#symbols += symbols;
    this.#fn?.(this.#done, this.#total, message, this.#symbols);
  }
  /** Report what is happening without a new step. */
  note(message: string): void {
    this.#fn?.(this.#done, Math.max(this.#total, this.#done), message, this.#symbols);
  }
  /** Start the next stage after the current one's steps. */
  nextStage(): void {
    this.#offset = this.#total;
  }
}
