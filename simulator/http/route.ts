/**
 * The shape of one entry of THE route table. Everything a request needs before reaching its
 * handler (method match, authentication, role, parameter decoding and validation,
 * `ignored_parameters_unsupported`, the envelope) is derived from this declaration by
 * `dispatch.ts`, once, for every route.
 */
import type { Engine } from '../engine/core.ts';
import type { ChatError } from '../engine/errors.ts';
import type { Outcome } from '../engine/events/effects.ts';
import type { UserRecord } from '../engine/state.ts';
import type { ChatResponses } from '../../schemas/generated/types/chat/responses/index.ts';
import type { RawResponse, SerializedFields } from './envelope.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';

/** One file part of a multipart body. */
export interface UploadedFile {
  /** The form field it was sent under. */
  field: string;
  /** Its file name, as Django's parser leaves it (directories dropped). */
  filename: string;
  /** Its declared content type, '' when the part declares none. */
  contentType: string;
  bytes: Uint8Array;
}

/**
 * A handler's answer that is not Zulip's JSON envelope: a file, an HTML error page, a redirect.
 * Dispatch sends it as it is.
 */
export class RawReply {
  constructor(readonly response: RawResponse) {}
}

/**
 * A handler's refusal that keeps what it did first: dispatch commits `done`'s events, then answers
 * `error`. Zulip's own cases run outside the failing transaction (a video-call provider's rejected
 * token is cleared, and the user told, before the error answers); anything else a failing handler
 * did publishes nothing.
 */
export class Refusal {
  constructor(
    readonly error: ChatError,
    readonly done: Outcome<unknown>,
  ) {}
}

/**
 * Who may call the route.
 * - none: no credentials read at all (login endpoints).
 * - optional: credentials used when present; spectators allowed (the handler decides).
 * - user: any active user (HTTP Basic).
 * - admin / owner: role at least administrator / owner (`Must be an organization administrator` …).
 * - bot / human: only bots / only humans.
 * - member: any user but guests (`Not allowed for guest users`).
 * - human_member: Zulip's require_member_or_admin: no guests, then no bots (invitations).
 * - dev: unauthenticated development-server helper (refused when the realm disables dev auth).
 */
export type RouteAuth = 'none' | 'optional' | 'user' | 'admin' | 'owner' | 'bot' | 'human' | 'member' | 'human_member' | 'dev';

/**
 * Parameter types, with Zulip's decoding:
 * - string: taken as-is.
 * - int / bool / float: JSON-decoded then strictly typed (`true`/`false` only; `5` but not `5.0`).
 * - json: any JSON value (validate it yourself with `validate`).
 * - int_array / string_array / json_object / json_array: JSON-encoded list or object.
 * - int_or_string: a JSON string or a JSON integer, Zulip's `Json[str] | Json[int]`
 *   (`message_retention_days`: `"unlimited"` or `30`; a bare word is not valid JSON).
 * - int_array_or_string_array: principals (IDs or emails, not mixed).
 * - file: the files of a multipart body (Django's request.FILES, kept apart from the form fields):
 *   an `UploadedFile[]`, those sent under `name`, or with `anyField` one per field name whatever
 *   the name (the last file sent under it, as Django's MultiValueDict answers). Empty when none.
 */
export type ParamType =
  | 'file'
  | 'string'
  | 'int'
  | 'bool'
  | 'float'
  | 'json'
  | 'int_array'
  | 'string_array'
  | 'json_object'
  | 'json_array'
  | 'int_or_string'
  | 'int_array_or_string_array';

export interface ParamSpec {
  name: string;
  type: ParamType;
  required?: boolean;
  /** Value when absent (not applied to required params). */
  default?: unknown;
  /** Where it is read from. Default: body then query (Zulip's lookup order); `path` for `{name}` segments. */
  in?: 'path' | 'query' | 'body';
  /** File parameters only: take the files of every field name, not just `name` (Zulip's uploads). */
  anyField?: boolean;
  /** Path parameters only: the value may span several segments (Django's `<path:…>`), e.g. `narrow/is/starred`. */
  spansSegments?: boolean;
  /**
   * Extra validation after decoding; throw a ChatError, or return the (possibly normalised) value.
   * It takes the decoded value of the declared type (`defineRoute` types the handler's parameter
   * with what it returns).
   */
  validate?: (value: never, name: string) => unknown;
  /** Other names accepted for the same parameter (both sent → REQUEST_CONFUSING_VAR). */
  aliases?: string[];
  /** Maximum string length (Zulip: `{name} is too long (limit: N characters)`). */
  maxLength?: number;
  /** Allowed literal values (`Invalid {name}` otherwise). */
  oneOf?: readonly (string | number)[];
  /** Documented but not acted on by the simulator: consumed, so never in ignored_parameters_unsupported. */
  documentationOnly?: boolean;
}

export interface RouteContext {
  engine: Engine;
  /** The authenticated user; undefined for auth none/optional/dev without credentials. */
  user: UserRecord | undefined;
  /** Decoded parameters by name (absent optional params without default are undefined). */
  params: Record<string, unknown>;
  /** Request headers, lower-cased names (the request's own object: read it, do not change it). */
  headers: Readonly<Record<string, string | undefined>>;
  /** Compare a stored secret with a given one (constant time; the dispatcher's choice). */
  secretsEqual: (expected: string, given: string) => boolean;
  /** Aborted when the answer is wanted now (client gone, server shutting down): a held request answers. */
  signal: AbortSignal | undefined;
  /** How long a parked GET /events waits before answering with a heartbeat, in milliseconds. */
  longPollTimeoutMs(): number;
}

export type RouteResult = Record<string, unknown>;

/** The name of a success body's schema: schemas/chat/responses/<name>.schema.json. */
export type ResponseName = keyof ChatResponses;

/** The success fields a route naming that schema answers (schemas/generated/types/chat/responses, generated). */
export type ResponseOf<K extends ResponseName> = ChatResponses[K];

/**
 * What a handler may answer: its success fields (as an object or as JSON text), an action's
 * Outcome whose value they are (dispatch commits its events: the one place that does), or a raw
 * reply; at once or later.
 */
export type Answer<T> = T | SerializedFields<T> | RawReply | Outcome<T | SerializedFields<T>> | Refusal;
export type Reply<T> = Answer<T> | Promise<Answer<T>>;

/** A route and the type of its success fields, generated from the schema it names. */
type Answering<K extends ResponseName> = {
  /**
   * The schema of its success body (besides `result`, `msg`, `ignored_parameters_unsupported`):
   * its handler must return that type, and the test suite's contract validates every success
   * body against the schema.
   */
  response: K;
  /** Returns the fields merged into the success envelope (may be async, e.g. JWT verification). */
  handler(ctx: RouteContext): Reply<ChatResponses[K]>;
};

/**
 * One entry of the route table. Every route of the simulator names its response schema (a test
 * holds the table to it); a route without one (tests' own routes) returns any fields.
 */
export type Route = RouteBase &
  ({ [K in ResponseName]: Answering<K> }[ResponseName] | { response?: undefined; handler(ctx: RouteContext): Reply<RouteResult> });

export interface RouteBase {
  method: Method;
  /** Relative to /api/v1, `{name}` for path parameters, e.g. '/messages/{message_id}/reactions'. */
  path: string;
  /**
   * Served at the site root instead of under /api/v1: Zulip's file downloads
   * (`/user_uploads/…`), which clients fetch with the same Basic credentials.
   */
  outsideApi?: boolean;
  /**
   * Other paths that reach the same route: the real Zulip names of endpoints the specification
   * renames (`/users/me/apns_device_token` for `/users/me/push_a_device_token`), which real clients send.
   */
  aliasPaths?: string[];
  auth: RouteAuth;
  params: ParamSpec[];
  /**
   * A check run after authentication and the role check, before any parameter is decoded: Zulip's
   * view decorators (e.g. drafts need the author's synchronization setting on). Throws to refuse.
   */
  guard?(engine: Engine, user: UserRecord): void;
  /** Incoming-webhook bots may call it (Zulip's `allow_incoming_webhooks` tag, e.g. POST /messages). */
  allowIncomingWebhooks?: boolean;
  /**
   * The request may be held open until something happens (GET /events): the HTTP server lets it
   * wait past the idle timeout, and on shutdown aborts `signal` so that it answers at once.
   */
  longPoll?: boolean;
  /**
   * The route's own body limit in bytes, checked by the HTTP server as the body streams in
   * (POST /user_uploads: the realm's max_file_upload_size_mib plus the multipart framing).
   * Default: the server's general limit.
   */
  maxBodyBytes?: (engine: Engine) => number;
  /** The error for a body over maxBodyBytes (default: the server's 413 "Request body too large"). */
  bodyTooLarge?: (engine: Engine) => ChatError;
  /**
   * How Zulip's rate limiter treats the route, when rate limiting is on. Default: an authenticated
   * call counts per user (api_by_user), an unauthenticated one to a route that allows spectators
   * per client address (api_by_ip); a route that reads no credentials (auth none/dev) is not limited.
   * - exempt: never counted.
   * - events: per user, in a bucket of its own (Zulip's event server, Tornado, keeps its own limiter).
   * - password: per `username` parameter (authenticate_by_username); a success clears the record.
   */
  rateLimit?: 'exempt' | 'events' | 'password';
  /** Short description for docs and test output. */
  summary?: string;
}
