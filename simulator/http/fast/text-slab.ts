/**
 * Fast path. Oracle: Buffer.from(text, 'utf8'), the plain version; held to it (lone surrogates
 * included, and while later answers are encoded) by test/simulator/text-slab.property.test.ts.
 *
 * Long answers (a page of messages) encoded to UTF-8 into slices of a shared slab, as node's own
 * Buffer pool does for short strings. Allocating a fresh buffer per long answer cost far more than
 * encoding into it (V8 tracks and sweeps every ArrayBuffer).
 *
 * Each answer gets bytes no other answer ever gets: the slab is only written past what it has
 * handed out, and a full slab is replaced, never rewound. A slice the socket has not sent yet
 * keeps its slab alive; nothing can overwrite it.
 */
/** Room for 36 answers of 28 KB; a slab is replaced when the next answer might not fit. */
export const SLAB_BYTES = 1024 * 1024;
/** UTF-8 takes at most 3 bytes per UTF-16 unit (a surrogate pair: 4 bytes for 2 units). */
const MAX_BYTES_PER_UNIT = 3;

export class TextSlab {
  private slab: Buffer;
  private used = 0;

  constructor(private readonly size = SLAB_BYTES) {
    this.slab = Buffer.allocUnsafe(size);
  }

  /** The text's UTF-8 bytes (lone surrogates as U+FFFD, like Buffer.from). */
  encode(text: string): Buffer {
    const most = text.length * MAX_BYTES_PER_UNIT;
    if (most > this.size) return Buffer.from(text);
    if (most > this.size - this.used) {
      this.slab = Buffer.allocUnsafe(this.size);
      this.used = 0;
    }
    // V8 encodes a concatenation (a tree of pieces) more slowly than it flattens it and encodes
    // the flat copy; converting a string to a number flattens it.
    void Number(text);
    const start = this.used;
    this.used += this.slab.write(text, start, 'utf8');
    return this.slab.subarray(start, this.used);
  }
}
