/**
 * A value derived from one document (its word count, its links, its addresses), kept on the
 * document object itself in a hidden property: it lives exactly as long as the document, as in a
 * WeakMap keyed by documents, without being one. V8 handles every WeakMap entry as an ephemeron
 * in each garbage collection, which on a large catalog is a measurable share of the build's
 * CPU (docs/performance-catalog.md), and `watch`, which keeps documents across rebuilds, still
 * must not keep the ones it replaced.
 */
export interface DocMemo<D extends object, V> {
  get(doc: D): V | undefined;
  /** Remember `value` for `doc` and return it. */
  set(doc: D, value: V): V;
}

export function docMemo<D extends object, V>(description: string): DocMemo<D, V> {
  const slot = Symbol(description);
  // A frozen document cannot carry the value: it is kept beside it instead.
  const frozen = new WeakMap<D, V>();
  return {
    get: (doc) => (Object.hasOwn(doc, slot) ? (doc as Record<symbol, V>)[slot] : frozen.get(doc)),
    set(doc, value) {
      // Not enumerable: spreads, JSON and equality checks see the document as it was.
      if (Object.isExtensible(doc)) Object.defineProperty(doc, slot, { value, writable: true, configurable: true, enumerable: false });
      else frozen.set(doc, value);
      return value;
    },
  };
}
