/**
 * Compact JSON with reuse: an object that appears in several files (a service in its detail
 * file and in bundle.json, an area in areas.json and in the bundle) is stringified once. The
 * bundle is then assembled from the strings of its parts instead of being stringified again.
 *
 * Only objects declared shared are remembered, and each only until its last use: holding the
 * string of every item of a large site until the end of the build is what made memory grow
 * several times faster than the content.
 */
export class JsonCache {
  readonly #strings = new WeakMap<object, string>();
  readonly #uses = new WeakMap<object, number>();
  /** Keep every object's string for as long as the object lives (`watch`, across rebuilds). */
  readonly #retain: boolean;

  constructor(opts: { retain?: boolean } = {}) {
    this.#retain = opts.retain ?? false;
  }

  /** `value` will be asked for `uses` times in all; its string is kept until the last one. */
  share(value: unknown, uses: number): void {
    if (value !== null && typeof value === 'object' && uses > 1) this.#uses.set(value, uses);
  }

  /** JSON.stringify, reused for shared objects (emitted objects are never mutated). */
  of(value: unknown): string {
    if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
    if (this.#retain) {
      let kept = this.#strings.get(value);
      if (kept === undefined) this.#strings.set(value, (kept = JSON.stringify(value)));
      return kept;
    }
    const left = this.#uses.get(value);
    if (left === undefined) return JSON.stringify(value);
    const s = this.#strings.get(value) ?? JSON.stringify(value);
    // Kept for the uses still to come; the last one drops it.
    if (left > 1) this.#strings.set(value, s);
    this.release(value);
    return s;
  }

  /** One use of `value` whose string the caller already holds: the last lets the cache drop it. */
  release(value: unknown): void {
    if (this.#retain || value === null || typeof value !== 'object') return;
    const left = this.#uses.get(value);
    if (left === undefined) return;
    if (left > 1) {
      this.#uses.set(value, left - 1);
    } else {
      this.#strings.delete(value);
      this.#uses.delete(value);
    }
  }

  /**
   * The same bytes as JSON.stringify(value) for a plain object, as a stream of pieces built from
   * the strings of its fields and of the elements of its array fields: a 100 MB bundle is
   * written piece by piece and never exists as one string.
   */
  *chunks(value: Record<string, unknown>): Generator<string> {
    for (const piece of parts(value)) yield typeof piece === 'string' ? piece : `${piece.before}${this.of(piece.value)}`;
  }
}

/** Literal JSON text, or a field value / array element to stringify, preceded by its punctuation. */
export type JsonPart = string | { before: string; value: unknown };

/**
 * The parts of a plain object's JSON: its own punctuation and keys as text, each field value and
 * each element of an array field as a part of its own. Joined (parts stringified), they give
 * exactly JSON.stringify(value).
 */
export function* parts(value: Record<string, unknown>): Generator<JsonPart> {
  let sep = '{';
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
    if (Array.isArray(field)) {
      yield `${sep}${JSON.stringify(key)}:[`;
      for (let i = 0; i < field.length; i++) yield { before: i === 0 ? '' : ',', value: field[i] };
      yield ']';
    } else {
      yield { before: `${sep}${JSON.stringify(key)}:`, value: field };
    }
    sep = ',';
  }
  yield sep === '{' ? '{}' : '}';
}
