/**
 * Content negotiation on Accept-Encoding (RFC 9110 section 12.5.3): which of the available encodings
 * to send, or null for the file as it is. Weights (`q=`) decide; `*` stands for any coding the
 * client did not name; `q=0` refuses; a tie goes to the earlier entry of `available` (the
 * smaller encoding first). Without the header, or when the client weights `identity` above
 * every available coding, the file goes as it is (also when nothing acceptable is available:
 * a catalog file is better than a 406).
 */
const WEIGHT = /^q=(0(\.\d{0,3})?|1(\.0{0,3})?)$/i;

/** Coding name → weight, as the client sent them; malformed entries are skipped. */
export function parseAcceptEncoding(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const element of header.split(',')) {
    const [name = '', ...params] = element.split(';').map((p) => p.trim());
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) continue;
    let q = 1;
    let valid = true;
    for (const p of params) {
      if (!/^q=/i.test(p)) continue;
      const m = WEIGHT.exec(p.replace(/\s+/g, ''));
      if (m) q = Number(p.replace(/\s+/g, '').slice(2));
      else valid = false;
    }
    const coding = name.toLowerCase() === 'x-gzip' ? 'gzip' : name.toLowerCase();
    if (valid && !weights.has(coding)) weights.set(coding, q);
  }
  return weights;
}

export function chooseEncoding<T extends string>(header: string | undefined, available: readonly T[]): T | null {
  if (header === undefined || available.length === 0) return null;
  const weights = parseAcceptEncoding(header);
  const any = weights.get('*');
  const identity = weights.get('identity') ?? 1;
  let best: T | null = null;
  let bestQ = 0;
  for (const coding of available) {
    const q = weights.get(coding) ?? any ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best !== null && bestQ >= identity ? best : null;
}
