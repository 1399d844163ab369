/**
 * A request's form parameters as Django reads them: urlencoded bodies (UTF-8, else ISO-8859-1),
 * multipart bodies with their files kept apart (request.FILES), and the query string.
 */
import { isAscii } from 'node:buffer';
import { ChatError } from '../engine/errors.ts';
import { formFields } from './fast/form-fields.ts';
import type { UploadedFile } from './route.ts';

/** No parameters: shared by every request without a query or a body (nothing writes to them). */
export const NO_PARAMS: ReadonlyMap<string, string> = new Map();
export const NO_FILES: ReadonlyMap<string, UploadedFile[]> = new Map();
/** The body of a GET or HEAD, which Zulip never reads. */
export const NO_BODY: ParsedBody = { fields: NO_PARAMS, files: NO_FILES };

/** A query string's or urlencoded body's fields; of a repeated name, the last value (Django's QueryDict.get). */
export function toMap(text: string): Map<string, string> {
  return formFields(text);
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Django's QueryDict: the raw form bytes are UTF-8, and a body that is not valid UTF-8 is read
 * as ISO-8859-1 instead (each byte one character) before the %-escapes are decoded.
 */
function formText(body: Buffer): string {
  // Form bodies are mostly ASCII (their other bytes %-escaped): one byte per character is then
  // the text UTF-8 gives, read without the decoder's checks.
  if (isAscii(body)) return body.toString('latin1');
  try {
    return STRICT_UTF8.decode(body);
  } catch {
    return body.toString('latin1');
  }
}

/** A request body: its form fields, and (multipart only) its files, apart as Django keeps them. */
export interface ParsedBody {
  fields: ReadonlyMap<string, string>;
  files: ReadonlyMap<string, UploadedFile[]>;
}

/**
 * Django's MultiPartParser.sanitize_file_name: directories dropped, unprintable characters
 * removed; a part left without a name (or named `.`/`..`) is skipped, null.
 */
function djangoFileName(raw: string): string | null {
  const base = raw.slice(Math.max(raw.lastIndexOf('/'), raw.lastIndexOf('\\')) + 1);
  // Python's str.isprintable(): no control, format, unassigned or separator characters but the space.
  const name = base.replace(/[\p{C}\p{Z}]/gu, (ch) => (ch === ' ' ? ch : ''));
  return name === '' || name === '.' || name === '..' ? null : name;
}

/**
 * Which parts of a multipart body declare their own Content-Type, in order. The platform's parser
 * gives a file part without one the type text/plain; Django leaves it empty and Zulip then guesses
 * the type from the file name (Python's requests, and so the Python client, sends no type).
 */
function partsDeclaringType(body: Buffer | string, contentType: string): boolean[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) return [];
  const text = typeof body === 'string' ? body : body.toString('latin1');
  const parts = text.split(`--${boundary[1] ?? boundary[2]}`).slice(1);
  const out: boolean[] = [];
  for (const part of parts) {
    if (part.startsWith('--')) break;
    const end = part.indexOf('\r\n\r\n');
    out.push(/^content-type[ \t]*:/im.test(end < 0 ? part : part.slice(0, end)));
  }
  return out;
}

/** What parseBody reads of a request. */
export interface BodyOf {
  headers: Record<string, string | undefined>;
  body?: Buffer | string | undefined;
}

/** A request body's parameters: at once, but for multipart bodies, which the platform parses asynchronously. */
export function parseBody(req: BodyOf): ParsedBody | Promise<ParsedBody> {
  if (req.body === undefined || req.body.length === 0) return { fields: NO_PARAMS, files: NO_FILES };
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded')) {
    return { fields: toMap(typeof req.body === 'string' ? req.body : formText(req.body)), files: NO_FILES };
  }
  if (type.startsWith('multipart/form-data')) return parseMultipart(req.body, req.headers['content-type']!);
  // Zulip never reads JSON (or any other) bodies on API endpoints: parameters look missing.
  return { fields: NO_PARAMS, files: NO_FILES };
}

/** zulip-js posts FormData; the platform's own multipart parser reads it. */
async function parseMultipart(body: Buffer | string, contentType: string): Promise<ParsedBody> {
  let form: FormData;
  try {
    form = await new Request('http://simulator.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body }).formData();
  } catch {
    throw ChatError.badRequest('Malformed multipart body');
  }
  const fields = new Map<string, string>();
  const files = new Map<string, UploadedFile[]>();
  const typed = partsDeclaringType(body, contentType);
  let index = -1;
  for (const [field, value] of form) {
    index++;
    if (typeof value === 'string') {
      fields.set(field, value);
      continue;
    }
    // File parts go to Django's request.FILES: only routes that declare a file parameter see them.
    const filename = djangoFileName(value.name);
    if (filename === null) continue;
    const partType = typed[index] === false ? '' : value.type;
    const file: UploadedFile = { field, filename, contentType: partType, bytes: new Uint8Array(await value.arrayBuffer()) };
    const sent = files.get(field);
    if (sent) sent.push(file);
    else files.set(field, [file]);
  }
  return { fields, files };
}