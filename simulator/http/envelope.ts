/**
 * The only writer of response bodies: Zulip's success and error envelopes (zerver/lib/response.py),
 * compact JSON with a trailing newline. Its fast path (the envelope written as text around
 * SerializedFields) has the plain version for oracle, JSON.stringify of the envelope object; held
 * to it by test/simulator/envelope.property.test.ts.
 */
import type { ChatError } from '../engine/errors.ts';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  /** Text: JSON, HTML or nothing. */
  body: string;
  /** A file's bytes, sent instead of `body`. */
  bytes?: Uint8Array;
  /** No answer at all: the connection is closed (a fault). In-process, the request rejects. */
  dropConnection?: boolean;
}

/** How many bytes the response body has. */
export function bodyLength(response: RawResponse): number {
  return response.bytes ? response.bytes.length : Buffer.byteLength(response.body);
}

const JSON_TYPE = 'application/json';

const SUCCESS_HEAD = '{"result":"success","msg":""';
/** Whether the fields name a key of the envelope itself (then they override it, as a spread would). */
function hasEnvelopeKey(fields: object): boolean {
  return Object.hasOwn(fields, 'result') || Object.hasOwn(fields, 'msg') || Object.hasOwn(fields, 'ignored_parameters_unsupported');
}

/**
 * A handler's success fields already written as JSON text: the members of one object without
 * its braces (`"a":1,"b":[]`), none of whose keys is an envelope key. For answers so large that
 * serialising them was most of their cost, and that the engine writes more cheaply itself
 * (GET /messages). `T` is the object the text stands for. Members rather than an object: the
 * envelope is spliced around them as they are, where cutting the braces off a text built of many
 * pieces copied it whole.
 */
export class SerializedFields<T> {
  declare readonly fields?: T;
  constructor(readonly members: string) {}
}

export function successResponse(fields: object, ignored: string[]): RawResponse {
  const tail = ignored.length > 0 ? `,"ignored_parameters_unsupported":${JSON.stringify(ignored)}}\n` : '}\n';
  if (hasEnvelopeKey(fields)) {
    const body: Record<string, unknown> = { result: 'success', msg: '', ...fields };
    if (ignored.length > 0) body.ignored_parameters_unsupported = ignored;
    return { status: 200, headers: { 'content-type': JSON_TYPE }, body: `${JSON.stringify(body)}\n` };
  }
  // The fields' JSON spliced after result and msg: copying a large object into a new one, to
  // serialise that, costs V8 more than serialising itself.
  const members = fields instanceof SerializedFields ? fields.members : JSON.stringify(fields).slice(1, -1);
  const body = members === '' ? SUCCESS_HEAD + tail : `${SUCCESS_HEAD},${members}${tail}`;
  return { status: 200, headers: { 'content-type': JSON_TYPE }, body };
}

export function errorResponse(error: ChatError): RawResponse {
  // The 404 for unknown paths answers with Zulip's default code.
  const code = error.code === 'NOT_FOUND' ? 'BAD_REQUEST' : error.code;
  const body = { result: 'error', msg: error.msg, code, ...error.extra };
  return {
    status: error.status,
    headers: { 'content-type': JSON_TYPE, ...error.headers },
    body: `${JSON.stringify(body)}\n`,
  };
}

/**
 * Django's HttpResponseNotAllowed with Zulip's JSON body: no `code`, no trailing newline, and
 * Django's default content type (Zulip replaces the content but not the type).
 */
export function methodNotAllowedResponse(allowed: string[]): RawResponse {
  return {
    status: 405,
    headers: { 'content-type': 'text/html; charset=utf-8', allow: allowed.join(', ') },
    body: JSON.stringify({ result: 'error', msg: 'Method Not Allowed', allowed_methods: allowed }),
  };
}

export function internalErrorResponse(): RawResponse {
  return {
    status: 500,
    headers: { 'content-type': JSON_TYPE },
    body: `${JSON.stringify({ result: 'error', msg: 'Internal server error' })}\n`,
  };
}

/**
 * What the HTTP server itself refuses before any route runs (body or head too large, too slow,
 * malformed, too many connections): Zulip's error envelope with its default code.
 */
export function transportErrorResponse(status: number, msg: string): RawResponse {
  return {
    status,
    headers: { 'content-type': JSON_TYPE },
    body: `${JSON.stringify({ result: 'error', msg, code: 'BAD_REQUEST' })}\n`,
  };
}
