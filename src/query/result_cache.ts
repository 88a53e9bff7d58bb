/**
 * Result caches tied to an index state: a tool's answers for the same arguments, kept per
 * {@linkcode RepoView} (so a re-index drops them with the view) and bounded by least recent use
 * (the reference's search result LRU, API.md §0.6).
 */
import { type Facet, facet } from "./view.ts";

/** A least-recently-used map of at most `size` entries. */
export class Lru<V> {
  readonly #size: number;
  readonly #map = new Map<string, V>();

  constructor(size: number) {
    this.#size = size;
  }

  /** The value for `key`, now the most recent; undefined when absent. */
  get(key: string): V | undefined {
    const v = this.#map.get(key);
    if (v === undefined) return undefined;
    this.#map.delete(key);
    this.#map.set(key, v);
    return v;
  }

  /** Keep `value` for `key`, dropping the least recent entry when full. */
  set(key: string, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.#size) this.#map.delete(this.#map.keys().next().value!);
  }

  /** Entries kept. */
  get size(): number {
    return this.#map.size;
  }
}

/**
 * A facet holding one LRU of `size` entries per index state.
 *
 * @example Usage
 * ```ts
 * import { lruFacet } from "./result_cache.ts";
 * const ANSWERS = lruFacet<string>("answers", 16);
 * ```
 */
export function lruFacet<V>(name: string, size: number): Facet<Lru<V>> {
  return facet(name, () => new Lru<V>(size));
}
