/**
 * The shape of one entry of THE route table. Everything a request needs before reaching its
 * handler (method match, authentication, role, parameter decoding and validation,
 * `ignored_parameters_unsupported`, the envelope) is derived from this declaration by
 * `dispatch.ts`, once, for every route.
 */
import type { Engine } from '../engine/core.ts';
import type { UserRecord } from '../engine/state.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';

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
 */
export type ParamType =
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
  /** Path parameters only: the value may span several segments (Django's `<path:…>`), e.g. `narrow/is/starred`. */
  spansSegments?: boolean;
  /** Extra validation after decoding; throw a ChatError, or return the (possibly normalised) value. */
  validate?: (value: unknown, name: string) => unknown;
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
  /** Request headers, lower-cased names. */
  headers: Record<string, string>;
  /** Compare a stored secret with a given one (constant time; the dispatcher's choice). */
  secretsEqual: (expected: string, given: string) => boolean;
}

export type RouteResult = Record<string, unknown>;

export interface Route {
  method: Method;
  /** Relative to /api/v1, `{name}` for path parameters, e.g. '/messages/{message_id}/reactions'. */
  path: string;
  /**
   * Other paths that reach the same route: the real Zulip names of endpoints the specification
   * renames (`/users/me/apns_device_token` for `/users/me/push_a_device_token`), which real clients send.
   */
  aliasPaths?: string[];
  auth: RouteAuth;
  params: ParamSpec[];
  /** Returns the fields merged into the success envelope (may be async, e.g. JWT verification). */
  handler(ctx: RouteContext): RouteResult | Promise<RouteResult>;
  /**
   * A check run after authentication and the role check, before any parameter is decoded: Zulip's
   * view decorators (e.g. drafts need the author's synchronization setting on). Throws to refuse.
   */
  guard?(engine: Engine, user: UserRecord): void;
  /** Incoming-webhook bots may call it (Zulip's `allow_incoming_webhooks` tag, e.g. POST /messages). */
  allowIncomingWebhooks?: boolean;
  /** Short description for docs and test output. */
  summary?: string;
}
