// Zulip's URL-hash encoding for narrow links (zerver/lib/url_encoding.py hash_util_encode):
// percent-encode everything but ASCII letters, digits and `_-~`, encode "." too, then write
// every "%" as ".", so "my topic" becomes "my.20topic".
export function narrowHashEncode(text: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(text)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_\-~]/.test(c) ? c : '.' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}
