/**
 * HTTP Basic authentication on /api/v1 (zerver/decorator.py, zerver/lib/rest.py), and the per-route role checks.
 * The username may be the delivery email or the API email (spec README: accept either).
 */
import { ChatError } from '../engine/errors.ts';
import { getRealmUserByDeliveryEmail, getUserByEmail, isAdmin, isGuest, isOwner, type Engine } from '../engine/core.ts';
import type { UserRecord } from '../engine/state.ts';
import type { Route } from './route.ts';

const API_KEY = /^[A-Za-z0-9]{32}$/;
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Secrets (API keys, passwords) compared in constant time: the comparison never stops at the
 * first differing character, and does the same work whatever the characters are. Only the
 * length can show, and a wrong length still pays for a full comparison (of the expected secret
 * with itself); API keys all have the same, public length. No hashing and no copies: this runs on
 * every request, and encoding both strings into Buffers for crypto.timingSafeEqual cost two
 * allocations per request. Compares UTF-16 code units, which for the well-formed text that
 * credentials are (they are decoded as strict UTF-8) is the same as comparing their UTF-8 bytes.
 */
export function constantTimeEqual(expected: string, given: string): boolean {
  const length = expected.length;
  const other = given.length === length ? given : expected;
  let difference = given.length === length ? 0 : 1;
  for (let i = 0; i < length; i++) difference |= expected.charCodeAt(i) ^ other.charCodeAt(i);
  return difference === 0;
}

/** How secrets are compared: `constantTimeEqual`, or a test's counting wrapper around it. */
export type SecretsEqual = (expected: string, given: string) => boolean;

/**
 * What a given secret is compared with when no account owns it (unknown email, no password):
 * the comparison still runs, so a missing account takes as long as a wrong secret and response
 * times do not list the accounts. A match with a stand-in logs nobody in: the caller still
 * refuses for want of an account.
 */
const STAND_IN_API_KEY = '-'.repeat(32);
export const STAND_IN_PASSWORD = '-'.repeat(24);

/**
 * Python's lenient `base64.b64decode` followed by a strict UTF-8 decode: characters outside the
 * alphabet are dropped, padding stops the data, and missing padding or a dangling sextet is an
 * error (null). Node's decoder would accept unpadded input that Zulip refuses.
 */
function decodeBase64Like(encoded: string): string | null {
  const kept = encoded.replace(/[^A-Za-z0-9+/=]/g, '');
  const pad = kept.indexOf('=');
  const data = pad < 0 ? kept : kept.slice(0, pad);
  const padding = pad < 0 ? '' : kept.slice(pad).replace(/[^=]/g, '');
  const rest = data.length % 4;
  if (rest === 1) return null;
  if (rest !== 0 && padding.length < 4 - rest) return null;
  try {
    return STRICT_UTF8.decode(Buffer.from(data, 'base64'));
  } catch {
    return null;
  }
}

/** What an `Authorization: Basic …` header says: a username and an API key of the right shape. */
export interface BasicCredentials {
  readonly username: string;
  readonly key: string;
}

/**
 * Read `Authorization: Basic …`, or throw Zulip's error for the first check it fails. The header
 * alone decides: nothing here looks at accounts or keys (authenticate does, on every request).
 */
export function parseBasicAuth(header: string): BasicCredentials {
  const parts = header.trim().split(/\s+/);
  if (parts.length !== 2) throw ChatError.unauthorized('Invalid authorization header for basic auth');
  const [scheme, encoded] = parts as [string, string];
  if (scheme.toLowerCase() !== 'basic') {
    throw ChatError.badRequest('This endpoint requires HTTP basic authentication.');
  }
  const decoded = decodeBase64Like(encoded);
  if (decoded === null) throw ChatError.unauthorized('Invalid authorization header for basic auth');
  const pieces = decoded.split(':');
  if (pieces.length !== 2) throw ChatError.unauthorized('Invalid authorization header for basic auth');
  const username = pieces[0]!.trim();
  const key = pieces[1]!.trim();
  if (!API_KEY.test(key)) throw ChatError.unauthorized('Malformed API key');
  return { username, key };
}

/** Headers whose reading a credentials reader remembers at most (then it starts afresh). */
export const REMEMBERED_HEADERS = 256;

/**
 * parseBasicAuth with the readings of recent headers remembered: a client sends the same header
 * on every request, and decoding it was a tenth of the server's CPU for GET /users/me. A reading
 * depends on the header's text alone, so it cannot go stale; whether the key still opens the
 * account (rotated, deactivated, a reset or a restored snapshot) is judged afresh every time.
 * Headers that fail to parse are not remembered (they throw each time).
 */
export function createCredentialsReader(limit = REMEMBERED_HEADERS): (header: string) => BasicCredentials {
  let remembered = new Map<string, BasicCredentials>();
  return (header) => {
    let credentials = remembered.get(header);
    if (credentials === undefined) {
      credentials = parseBasicAuth(header);
      // Many distinct headers (a scan, a test making accounts): forget all and start again.
      if (remembered.size >= limit) remembered = new Map();
      remembered.set(header, credentials);
    }
    return credentials;
  };
}

/** Find the user the credentials of `Authorization: Basic …` name, or throw Zulip's error for the first failing check. */
export function authenticate(
  engine: Engine,
  credentials: BasicCredentials,
  route: Route | undefined,
  secretsEqual: SecretsEqual = constantTimeEqual,
): UserRecord {
  const { username, key } = credentials;
  let user = getUserByEmail(engine, username);
  // A realm user may share a system bot's address (the index keeps the bot): its own key names it.
  if (user?.is_system_bot) {
    const own = getRealmUserByDeliveryEmail(engine, username);
    if (own && secretsEqual(own.api_key, key)) user = own;
  }
  // The key is compared whether or not the email names someone, and the answer is the same
  // `Invalid API key` whichever of the two is wrong.
  const keyMatches = secretsEqual(user?.api_key ?? STAND_IN_API_KEY, key);
  if (!user || !keyMatches) throw ChatError.unauthorized('Invalid API key');
  if (engine.state.realm.deactivated) throw ChatError.unauthorized('This organization has been deactivated');
  if (!user.is_active) throw ChatError.unauthorized('Account is deactivated');
  // System bots live in the internal realm, not this one.
  if (user.is_system_bot) throw ChatError.unauthorized('Account is not associated with this subdomain');
  if (user.is_bot && user.bot_type === 2 && !route?.allowIncomingWebhooks) {
    throw ChatError.unauthorized('This API is not available to incoming webhook bots.');
  }
  return user;
}

/** The role/kind requirement of a route, checked after authentication and before parameters. */
export function checkRouteRole(route: Route, user: UserRecord): void {
  switch (route.auth) {
    case 'admin':
      if (!isAdmin(user)) throw ChatError.adminRequired();
      return;
    case 'owner':
      if (!isOwner(user)) throw ChatError.ownerRequired();
      return;
    case 'bot':
      if (!user.is_bot) throw new ChatError('PERMISSION_DENIED', 'Must be a bot user');
      return;
    case 'human':
      if (user.is_bot) throw ChatError.badRequest('This endpoint does not accept bot requests.');
      return;
    case 'member':
      if (isGuest(user)) throw ChatError.badRequest('Not allowed for guest users');
      return;
    case 'human_member':
      if (isGuest(user)) throw ChatError.badRequest('Not allowed for guest users');
      if (user.is_bot) throw ChatError.badRequest('This endpoint does not accept bot requests.');
      return;
    default:
      return;
  }
}
