/** URL encoding that never throws: what a client sends for any JavaScript string. */

/** %-encoding of the text's UTF-8 bytes (a lone surrogate becomes U+FFFD, as any encoder must send it). */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

