/**
 * Fast path. Oracle: `plainFormFields` below, the plain version (node's URLSearchParams copied
 * into a Map, the last value of a repeated name winning, as Django's QueryDict.get answers);
 * held to it by test/simulator/form-fields.property.test.ts.
 *
 * Every request's query string and form body are read into a Map. URLSearchParams walks the
 * text one character at a time in JavaScript, concatenating each name and value piece by piece,
 * and then hands its pairs out through an iterator of two-element arrays: that was the largest
 * share of a POST /messages outside rendering. Here each pair is found with indexOf and cut out
 * with slice, and only a piece holding `%` is decoded, by decodeURIComponent, which is what
 * URLSearchParams calls for it too (node's querystring.unescape). A piece decodeURIComponent
 * refuses (a `%` that starts no valid escape, bytes that are not UTF-8) and text that is not
 * well-formed UTF-16 (URLSearchParams replaces lone surrogates first) are left to the oracle.
 */

/** The plain version: URLSearchParams, its pairs into a Map. */
export function plainFormFields(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(text)) out.set(k, v);
  return out;
}

const QUESTION_MARK = 0x3f;

/** ES2024's String.prototype.isWellFormed (node 20 has it; the project's lib is ES2023). */
const isWellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

/** One name or value as application/x-www-form-urlencoded decodes it; null: leave it to the oracle. */
function decodePiece(piece: string): string | null {
  if (!piece.includes('%')) return piece.includes('+') ? piece.replaceAll('+', ' ') : piece;
  return decodeAscii(piece) ?? decodeEscaped(piece);
}

function decodeEscaped(piece: string): string | null {
  // `+` is a space; an escaped plus (%2B) is decoded after, so it stays a plus.
  const spaced = piece.includes('+') ? piece.replaceAll('+', ' ') : piece;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return null;
  }
}

/** Hex digit values by character code below 256 (-1: not a hex digit). */
const HEX = new Int8Array(256).fill(-1);
for (let i = 0; i < 10; i++) HEX[0x30 + i] = i;
for (let i = 0; i < 6; i++) HEX[0x41 + i] = HEX[0x61 + i] = 10 + i;

/** Where decodeAscii writes; a piece longer than it takes the other path. */
const scratch = Buffer.allocUnsafeSlow(4096);
// Node's Latin-1 reader of a byte range, without toString's argument handling (which cost more than
// the decoding): on Buffer.prototype since Node's first releases, undocumented.
const latin1Slice = (scratch as unknown as { latin1Slice?: (start: number, end: number) => string }).latin1Slice;

/**
 * An escaped piece whose text and escapes are all ASCII, decoded in one pass (a `+`, an escape or
 * a character at a time into bytes, read back as Latin-1): what `+` then decodeURIComponent give it,
 * which replaceAll's and decodeURIComponent's passes cost twice over. undefined for anything else
 * (an escape of a byte above 0x7F, a `%` that starts no escape, other text): decodeEscaped reads it.
 */
function decodeAscii(piece: string): string | undefined {
  const n = piece.length;
  if (latin1Slice === undefined || n > scratch.length) return undefined;
  let w = 0;
  for (let i = 0; i < n; i++) {
    const c = piece.charCodeAt(i);
    if (c === 0x25 /* % */) {
      if (i + 2 >= n) return undefined;
      const high = piece.charCodeAt(i + 1);
      const low = piece.charCodeAt(i + 2);
      if (high > 0x7f || low > 0x7f || HEX[high]! < 0 || HEX[low]! < 0 || HEX[high]! > 7) return undefined;
      scratch[w++] = (HEX[high]! << 4) | HEX[low]!;
      i += 2;
    } else if (c === 0x2b /* + */) scratch[w++] = 0x20;
    else if (c > 0x7f) return undefined;
    else scratch[w++] = c;
  }
  return latin1Slice.call(scratch, 0, w);
}

/** A query string or form body's fields, as plainFormFields reads them. */
export function formFields(text: string): Map<string, string> {
  if (!isWellFormed(text)) return plainFormFields(text);
  const out = new Map<string, string>();
  const length = text.length;
  // URLSearchParams drops one leading `?`.
  let start = length > 0 && text.charCodeAt(0) === QUESTION_MARK ? 1 : 0;
  // The next `=` at or after `start` (-1: none left), kept across pairs so that no part of the
  // text is searched twice.
  let equals = -2;
  while (start < length) {
    let end = text.indexOf('&', start);
    if (end < 0) end = length;
    if (end > start) {
      if (equals !== -1 && equals < start) equals = text.indexOf('=', start);
      const cut = equals >= 0 && equals < end ? equals : end;
      const name = decodePiece(text.slice(start, cut));
      const value = cut === end ? '' : decodePiece(text.slice(cut + 1, end));
      if (name === null || value === null) return plainFormFields(text);
      out.set(name, value);
    }
    start = end + 1;
  }
  return out;
}
