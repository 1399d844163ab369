/**
 * The Range header (RFC 9110 section 14.2), for one representation of a known length. The server
 * answers a single satisfiable byte range with 206, an unsatisfiable one with 416, and ignores
 * everything else (sending the whole representation with 200): another unit, a malformed or
 * invalid range set (`bytes=abc`, `bytes=5-2`), and a request for several ranges, which this
 * server does not answer as multipart/byteranges on purpose: no client of a JSON catalog needs
 * them, and the RFC lets a server ignore Range.
 */
export type RangeAnswer =
  | { kind: 'whole' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

const INT_RANGE = /^(\d+)-(\d*)$/;
const SUFFIX_RANGE = /^-(\d+)$/;
const WHOLE: RangeAnswer = { kind: 'whole' };

export function parseRange(header: string | undefined, length: number): RangeAnswer {
  if (header === undefined) return WHOLE;
  const eq = header.indexOf('=');
  if (eq < 0 || header.slice(0, eq).trim().toLowerCase() !== 'bytes') return WHOLE;
  // A list may hold empty elements (RFC 9110 section 5.6.1); they do not count.
  const specs = header.slice(eq + 1).split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (specs.length !== 1) return WHOLE;
  const spec = specs[0] as string;
  const suffix = SUFFIX_RANGE.exec(spec);
  if (suffix) {
    const n = Number(suffix[1]);
    if (n === 0 || length === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, length - n), end: length - 1 };
  }
  const int = INT_RANGE.exec(spec);
  if (!int) return WHOLE;
  const first = Number(int[1]);
  const last = int[2] === '' ? Infinity : Number(int[2]);
  if (last < first) return WHOLE; // an invalid range-spec: ignored, as the RFC allows
  if (first >= length) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start: first, end: Math.min(last, length - 1) };
}
