/**
 * Python's text of values, where Zulip's worker shows it to people: `str()` of a JSON value (the
 * content an outgoing-webhook bot answers, `str(response_json["content"])`), and `repr()` of the
 * answer's body in the owner's notice (`{response_content!r}`: bytes for a refused request,
 * text for an unreadable answer).
 */

/** str.isprintable: not Unicode "Other" or "Separator", the ASCII space excepted. */
const NOT_PRINTABLE = /[\p{C}\p{Z}]/u;

function hexEscape(code: number): string {
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}

/** The quote repr() picks: single, unless the text holds single quotes and no double ones. */
function quoteFor(text: string): string {
  return text.includes("'") && !text.includes('"') ? '"' : "'";
}

const NAMED_ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** repr() of a str. */
export function pythonStrRepr(text: string): string {
  const quote = quoteFor(text);
  let out = quote;
  for (const char of text) {
    const named = NAMED_ESCAPES[char];
    if (named !== undefined) out += named;
    else if (char === quote) out += `\\${quote}`;
    else if (char !== ' ' && NOT_PRINTABLE.test(char)) out += hexEscape(char.codePointAt(0)!);
    else out += char;
  }
  return out + quote;
}

/** repr() of bytes: `b'…'`, ASCII shown as itself where printable, every other byte as \xNN. */
export function pythonBytesRepr(bytes: Uint8Array): string {
  let hasSingle = false;
  let hasDouble = false;
  for (const byte of bytes) {
    if (byte === 0x27) hasSingle = true;
    if (byte === 0x22) hasDouble = true;
  }
  const quote = hasSingle && !hasDouble ? '"' : "'";
  let out = `b${quote}`;
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    const named = NAMED_ESCAPES[char];
    if (named !== undefined) out += named;
    else if (char === quote) out += `\\${quote}`;
    else if (byte < 0x20 || byte >= 0x7f) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    else out += char;
  }
  return out + quote;
}

/** repr() of a float as Python writes it: always a fractional part or an exponent. */
function floatRepr(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  const text = String(n);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

/** repr() of a value json.loads made (JSON numbers with a fraction or exponent are floats). */
function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 2 ** 53 ? String(value) : floatRepr(value);
  if (typeof value === 'string') return pythonStrRepr(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([k, v]) => `${pythonStrRepr(k)}: ${pythonRepr(v)}`).join(', ')}}`;
}

/** str() of a value json.loads made: text as it is, the rest as repr() writes it. */
export function pythonStr(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}

/** Python's truthiness of a JSON value (`if response_json.get("response_not_required", False)`). */
export function pythonTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** str.strip() == "": only whitespace (Python's str.isspace set, close enough: Unicode White_Space). */
export function isBlank(text: string): boolean {
  return /^[\s\u001c-\u001f\u0085]*$/u.test(text);
}
