/**
 * The closed set of error codes the simulator can answer with, each with the HTTP status Zulip
 * uses by default. Handlers throw `ChatError`; the HTTP layer renders it once, as Zulip's
 * `{"result":"error","msg":…,"code":…, …extra}` envelope.
 *
 * The engine never speaks HTTP, but the status travels with the error (as Zulip keeps it on its
 * exception classes) because the same code can mean 400, 401 or 403 depending on where it is
 * raised; an explicit `status` overrides the default.
 */
import type { ErrorEnvelope } from '../../schemas/generated/types/chat/envelope.ts';

export const ERROR_CODES = {
  BAD_REQUEST: 400,
  REQUEST_VARIABLE_MISSING: 400,
  REQUEST_CONFUSING_VAR: 400,
  UNAUTHORIZED: 401,
  AUTHENTICATION_FAILED: 401,
  USER_DEACTIVATED: 401,
  REALM_DEACTIVATED: 401,
  PASSWORD_AUTH_DISABLED: 401,
  PASSWORD_RESET_REQUIRED: 401,
  INVALID_API_KEY: 401,
  NONEXISTENT_SUBDOMAIN: 404,
  CSRF_FAILED: 403,
  RATE_LIMIT_HIT: 429,
  UNAUTHORIZED_PRINCIPAL: 400,
  STREAM_DOES_NOT_EXIST: 400,
  CHANNEL_ALREADY_EXISTS: 400,
  CANNOT_DEACTIVATE_LAST_USER: 400,
  REACTION_ALREADY_EXISTS: 400,
  REACTION_DOES_NOT_EXIST: 400,
  BAD_NARROW: 400,
  BAD_EVENT_QUEUE_ID: 400,
  INVALID_JSON: 400,
  PERMISSION_DENIED: 400,
  TOPIC_WILDCARD_MENTION_NOT_ALLOWED: 400,
  STREAM_WILDCARD_MENTION_NOT_ALLOWED: 400,
  INVALID_ZULIP_SERVER: 400,
  NO_ACTIVE_PUSH_DEVICE: 400,
  INVALID_PUSH_DEVICE_TOKEN: 400,
  // The push service's failures: a configuration problem, then the two upstream (gateway) ones.
  ADMIN_ACTION_REQUIRED: 403,
  FAILED_TO_CONNECT_BOUNCER: 502,
  INTERNAL_SERVER_ERROR_ON_BOUNCER: 502,
  USER_GROUP_DOES_NOT_EXIST: 400,
  CANNOT_DEACTIVATE_GROUP_IN_USE: 400,
  MOVE_MESSAGES_TIME_LIMIT_EXCEEDED: 400,
  EXPECTATION_MISMATCH: 400,
  INVALID_VIDEO_CALL_PROVIDER_TOKEN: 400,
  CANNOT_ADMINISTER_CHANNEL: 400,
  INVITATION_FAILED: 400,
  /** Not a Zulip code: only used for 404 on unknown paths, rendered with code BAD_REQUEST. */
  NOT_FOUND: 404,
  // Every code of the envelope schema, and no other (NOT_FOUND renders as BAD_REQUEST).
} as const satisfies Record<ErrorEnvelope['code'] | 'NOT_FOUND', number>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ChatErrorOptions {
  /** HTTP status override (e.g. BAD_REQUEST answered with 403 for AccessDeniedError). */
  status?: number;
  /** Extra keys merged into the error envelope next to `code` (e.g. `var_name`, `stream`). */
  extra?: Record<string, unknown>;
  /** Extra HTTP headers (e.g. `WWW-Authenticate` for 401). */
  headers?: Record<string, string>;
}

export class ChatError extends Error {
  readonly code: ErrorCode;
  readonly msg: string;
  readonly status: number;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, msg: string, options: ChatErrorOptions = {}) {
    super(msg);
    this.name = 'ChatError';
    this.code = code;
    this.msg = msg;
    this.status = options.status ?? ERROR_CODES[code];
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }

  /** Zulip's generic JsonableError: HTTP 400, code BAD_REQUEST. */
  static badRequest(msg: string, extra?: Record<string, unknown>): ChatError {
    return new ChatError('BAD_REQUEST', msg, extra ? { extra } : {});
  }

  static missingArgument(varName: string): ChatError {
    return new ChatError('REQUEST_VARIABLE_MISSING', `Missing '${varName}' argument`, {
      extra: { var_name: varName },
    });
  }

  static confusingVar(a: string, b: string): ChatError {
    return new ChatError('REQUEST_CONFUSING_VAR', `Can't decide between '${a}' and '${b}' arguments`, {
      extra: { var_name1: a, var_name2: b },
    });
  }

  /** Every API-key failure on /api/v1 is a 401 UNAUTHORIZED with the Basic challenge. */
  static unauthorized(msg = 'Not logged in: API authentication or user session required'): ChatError {
    return new ChatError('UNAUTHORIZED', msg, { headers: { 'WWW-Authenticate': 'Basic realm="zulip"' } });
  }

  static streamDoesNotExist(name: string): ChatError {
    return new ChatError('STREAM_DOES_NOT_EXIST', `Channel '${name}' does not exist`, { extra: { stream: name } });
  }

  static streamIdDoesNotExist(streamId: number): ChatError {
    return new ChatError('STREAM_DOES_NOT_EXIST', `Channel with ID '${streamId}' does not exist`, {
      extra: { stream_id: streamId },
    });
  }

  static invalidChannelId(): ChatError {
    return ChatError.badRequest('Invalid channel ID');
  }

  static memberRequired(): ChatError {
    return new ChatError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization member');
  }

  static adminRequired(): ChatError {
    return new ChatError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  }

  static ownerRequired(): ChatError {
    return new ChatError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
  }

  static insufficientPermission(): ChatError {
    return ChatError.badRequest('Insufficient permission');
  }
}

export function isChatError(err: unknown): err is ChatError {
  return err instanceof ChatError;
}
