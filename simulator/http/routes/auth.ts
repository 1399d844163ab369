/** Login endpoints (zerver/views/auth.py, zerver/views/development/dev_login.py): password, JWT and the development-server helpers. */
import { jwtVerify, errors as joseErrors } from 'jose';
import { getRealmUserByDeliveryEmail, type Engine } from '../../engine/core.ts';
import { ChatError } from '../../engine/errors.ts';
import type { UserRecord } from '../../engine/state.ts';
import { formatUser } from '../../engine/users/users.ts';
import { STAND_IN_PASSWORD } from '../auth.ts';
import { defineRoute } from '../define-route.ts';
import type { ResponseOf, Route } from '../route.ts';

// Django's validate_email, in short: a dotted domain (or localhost).
const EMAIL = /^[^@\s]+@(?:[^@\s.]+\.)+[^@\s.]+$|^[^@\s]+@localhost$/i;

function checkEmail(username: string): void {
  if (!EMAIL.test(username.trim())) throw ChatError.badRequest('Enter a valid email address.');
}

const authFailed = (): ChatError => new ChatError('AUTHENTICATION_FAILED', 'Your username or password is incorrect');

/** The realm and account checks every login path shares. */
function loginUser(engine: Engine, user: UserRecord | undefined): UserRecord {
  if (engine.state.realm.deactivated) throw new ChatError('REALM_DEACTIVATED', 'This organization has been deactivated');
  if (!user || user.is_system_bot) throw authFailed();
  if (!user.is_active) throw new ChatError('USER_DEACTIVATED', 'Account is deactivated');
  return user;
}

/** Login by delivery email only (Zulip's backends look users up by their real address). */
function userByDeliveryEmail(engine: Engine, email: string): UserRecord | undefined {
  return getRealmUserByDeliveryEmail(engine, email);
}

const routes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/fetch_api_key',
    response: 'fetch-api-key',
    auth: 'none',
    rateLimit: 'password',
    summary: 'API key from email and password',
    params: [
      { name: 'username', type: 'string', required: true },
      { name: 'password', type: 'string', required: true },
    ],
    handler({ engine, params, secretsEqual }) {
      const username = params.username;
      checkEmail(username);
      if (!engine.state.realm.password_auth_enabled) {
        throw new ChatError('PASSWORD_AUTH_DISABLED', 'Password authentication is disabled in this organization');
      }
      const found = userByDeliveryEmail(engine, username);
      const user = found?.is_system_bot ? undefined : found;
      // Compared before anything is decided, stand-in included, so that an unknown email costs
      // what a wrong password costs (see STAND_IN_PASSWORD).
      const passwordMatches = secretsEqual(user?.password ?? STAND_IN_PASSWORD, params.password);
      // Zulip's backend order: unknown user, deactivated user, deactivated realm, then the password.
      if (!user) throw authFailed();
      if (!user.is_active) throw new ChatError('USER_DEACTIVATED', 'Account is deactivated');
      if (engine.state.realm.deactivated) throw new ChatError('REALM_DEACTIVATED', 'This organization has been deactivated');
      if (user.password === null || !passwordMatches) throw authFailed();
      return { api_key: user.api_key, email: user.delivery_email, user_id: user.id };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/jwt/fetch_api_key',
    response: 'jwt-fetch-api-key',
    auth: 'none',
    summary: 'API key from a JSON web token (HS256, realm key)',
    params: [
      { name: 'token', type: 'string', default: '' },
      { name: 'include_profile', type: 'bool', default: false },
    ],
    async handler({ engine, params }) {
      const key = engine.state.realm.jwt_key;
      if (key === null) throw ChatError.badRequest('JWT authentication is not enabled for this organization');
      const token = params.token;
      if (token === '') throw ChatError.badRequest('No JSON web token passed in request');
      let payload: Record<string, unknown>;
      try {
        // Only HS256 is accepted: `alg: none` and other algorithms fail verification.
        ({ payload } = await jwtVerify(token, new TextEncoder().encode(key), { algorithms: ['HS256'] }));
      } catch (error) {
        if (error instanceof joseErrors.JOSEError || error instanceof TypeError) throw ChatError.badRequest('Bad JSON web token');
        throw error;
      }
      const email = payload.email;
      if (typeof email !== 'string' || email === '') throw ChatError.badRequest('No email specified in JSON web token claims');
      const user = loginUser(engine, userByDeliveryEmail(engine, email));
      const out: ResponseOf<'jwt-fetch-api-key'> = { api_key: user.api_key, email: user.delivery_email };
      if (params.include_profile) {
        out.user = formatUser(engine, user, user, { clientGravatar: false, includeCustomProfileFields: false });
      }
      return out;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/dev_fetch_api_key',
    response: 'dev-fetch-api-key',
    auth: 'dev',
    summary: 'development server: API key for any user, no password',
    params: [{ name: 'username', type: 'string', required: true }],
    handler({ engine, params }) {
      const username = params.username;
      checkEmail(username);
      if (engine.state.realm.deactivated) throw new ChatError('REALM_DEACTIVATED', 'This organization has been deactivated');
      const user = userByDeliveryEmail(engine, username);
      if (user && !user.is_active) throw new ChatError('USER_DEACTIVATED', 'Account is deactivated');
      if (!user || user.is_system_bot) throw authFailed();
      return { api_key: user.api_key, email: user.delivery_email, user_id: user.id };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/dev_list_users',
    response: 'dev-list-users',
    auth: 'dev',
    summary: 'development server: active human users, split by admin rights',
    params: [],
    handler({ engine }) {
      const humans = [...engine.state.users.values()]
        .filter((u) => u.is_active && !u.is_bot)
        // Sorted by the API email, as Zulip does (fake addresses for hidden-email users).
        .sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : a.id - b.id));
      const entry = (u: UserRecord) => ({ email: u.delivery_email, realm_url: engine.state.realm.url });
      return {
        direct_admins: humans.filter((u) => u.role <= 200).map(entry),
        direct_users: humans.filter((u) => u.role > 200).map(entry),
      };
    },
  }),
];

// dev_list_users is not REST-dispatched upstream: it answers any method.
const devList = routes.find((r) => r.path === '/dev_list_users')!;
export const authRoutes: Route[] = [
  ...routes,
  ...(['POST', 'PATCH', 'PUT', 'DELETE'] as const).map((method) => ({ ...devList, method })),
];
