/**
 * Compact JSON with reuse: an object that appears in several files (a service in its detail
 * file and in bundle.json, an area in areas.json and in the bundle) is stringified once. The
 * bundle is then assembled from the strings of its parts instead of being stringified again.
 */
export class JsonCache {
  readonly #strings = new WeakMap<object, string>();

  /** JSON.stringify, remembered per object identity (emitted objects are never mutated). */
  of(value: unknown): string {
    if (value === null || typeof value !== 'object') return JSON.stringify(value);
    let s = this.#strings.get(value);
    if (s === undefined) {
      s = JSON.stringify(value);
      this.#strings.set(value, s);
    }
    return s;
  }

  /**
   * The same bytes as JSON.stringify(value) for a plain object, as a stream of pieces built from
   * the cached strings of its fields and of the elements of its array fields: a 100 MB bundle is
   * written piece by piece and never exists as one string.
   */
  *chunks(value: Record<string, unknown>): Generator<string> {
    let sep = '{';
    for (const [key, field] of Object.entries(value)) {
      if (field === undefined) continue;
      if (Array.isArray(field)) {
        yield `${sep}${JSON.stringify(key)}:[`;
        for (let i = 0; i < field.length; i++) yield i === 0 ? this.of(field[i]) : `,${this.of(field[i])}`;
        yield ']';
      } else {
        yield `${sep}${JSON.stringify(key)}:${this.of(field)}`;
      }
      sep = ',';
    }
    yield sep === '{' ? '{}' : '}';
  }
}
