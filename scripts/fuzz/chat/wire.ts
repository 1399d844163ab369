/** A fuzzed request as bytes on the wire: the URL, headers and body a client would send. */
import type { RawRequest } from '../../../simulator/http/dispatch.ts';
import type { Field, FuzzRequest } from './requests.ts';
import { percentEncode } from './percent.ts';
import type { World } from './world.ts';

function formText(fields: readonly Field[]): string {
  return fields.map((f) => `${percentEncode(f.name)}=${f.raw ? f.value : percentEncode(f.value)}`).join('&');
}

/** A fixed boundary keeps the bytes of a sequence the same from run to run. */
const BOUNDARY = '----chatfuzzboundary7MA4YWxkTrZu0gW';

function multipart(req: FuzzRequest): Buffer {
  const parts: Buffer[] = [];
  const quote = (s: string) => s.replace(/[\r\n"]/g, (c) => encodeURIComponent(c));
  for (const f of req.fields) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${quote(f.name)}"\r\n\r\n${f.value}\r\n`, 'utf8'));
  }
  for (const file of req.files) {
    const type = file.type ? `Content-Type: ${file.type}\r\n` : '';
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${quote(file.field)}"; filename="${quote(file.filename)}"\r\n${type}\r\n`, 'utf8'));
    parts.push(Buffer.from(file.content, 'latin1'), Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

export function toRawRequest(world: World, req: FuzzRequest): RawRequest {
  const headers: Record<string, string | undefined> = { 'user-agent': 'chat-fuzz' };
  const authorization = world.authorization(req.actor);
  if (authorization !== undefined) headers.authorization = authorization;
  let url = req.path;
  let body: Buffer | undefined;
  switch (req.encoding) {
    case 'query':
      if (req.fields.length > 0) url += `?${formText(req.fields)}`;
      break;
    case 'form':
    case 'untyped':
      body = Buffer.from(formText(req.fields), 'utf8');
      if (req.encoding === 'form') headers['content-type'] = 'application/x-www-form-urlencoded';
      break;
    case 'latin1':
      // Django reads a body that is not UTF-8 as ISO-8859-1.
      body = Buffer.from(req.fields.map((f) => `${f.name}=${f.raw ? f.value : f.value.replace(/[&=%+]/g, percentEncode)}`).join('&'), 'latin1');
      headers['content-type'] = 'application/x-www-form-urlencoded';
      break;
    case 'multipart':
      body = multipart(req);
      headers['content-type'] = `multipart/form-data; boundary=${BOUNDARY}`;
      break;
    case 'json':
      body = Buffer.from(JSON.stringify(Object.fromEntries(req.fields.map((f) => [f.name, f.value]))), 'utf8');
      headers['content-type'] = 'application/json';
      break;
    case 'text':
      body = Buffer.from(req.fields.map((f) => `${f.name}: ${f.value}`).join('\n'), 'utf8');
      headers['content-type'] = 'text/plain';
      break;
  }
  for (const [k, v] of Object.entries(req.headers)) headers[k] = v;
  return { method: req.method, url, headers, body };
}

/** The request as a line of a report: method, URL, who, and the body's fields. */
export function describeRequest(req: FuzzRequest): string {
  const shown = (v: string) => (v.length > 200 ? `${JSON.stringify(v.slice(0, 40))}… (${v.length} characters)` : JSON.stringify(v));
  const fields = req.fields.map((f) => `${f.name}=${shown(f.value)}${f.raw ? ' (raw)' : ''}`).join(' ');
  const files = req.files.map((f) => `file ${f.field}=${JSON.stringify(f.filename)} (${f.content.length} bytes)`).join(' ');
  const headers = Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`).join('; ');
  return [`${req.method} ${req.path.length > 300 ? `${req.path.slice(0, 120)}… (${req.path.length} characters)` : req.path}`, `as ${req.actor}`, `[${req.encoding}]`, fields, files, headers && `{${headers}}`, `(from ${req.route})`]
    .filter(Boolean)
    .join('  ');
}
