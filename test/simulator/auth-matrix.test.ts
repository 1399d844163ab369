/**
 * Generated from THE route table, so every route is covered:
 * no credentials, a bad key, a deactivated user, an incoming-webhook bot and the wrong role each
 * answer as the route declares.
 */
import { describe, expect, it } from 'vitest';
import { basicAuth, routePrefix, routes } from '../../simulator/index.ts';
import type { Route } from '../../simulator/http/route.ts';
import { ID, devFixture, sim } from './helpers.ts';

function concretePath(route: Route): string {
  return `${routePrefix(route)}${route.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const spec = route.params.find((p) => p.name === name)!;
    return spec.type === 'int' ? '1' : 'x';
  })}`;
}

const label = (r: Route) => `${r.method} ${r.path}`;
const authenticated = routes.filter((r) => r.auth !== 'none' && r.auth !== 'dev');
const required = authenticated.filter((r) => r.auth !== 'optional');

/** A dev realm where Othello has been deactivated (his key still exists). */
async function withDeactivatedOthello() {
  const s = sim();
  const res = await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.othello}`, as: ID.iago });
  expect(res.status).toBe(200);
  return s;
}

/** Who fails each role requirement, and how. */
const WRONG_ROLE: Partial<Record<Route['auth'], { as: number; status: number; code: string; msg: string }>> = {
  admin: { as: ID.hamlet, status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' },
  owner: { as: ID.iago, status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' },
  bot: { as: ID.hamlet, status: 400, code: 'PERMISSION_DENIED', msg: 'Must be a bot user' },
  human: { as: ID.defaultBot, status: 400, code: 'BAD_REQUEST', msg: 'This endpoint does not accept bot requests.' },
  member: { as: ID.polonius, status: 400, code: 'BAD_REQUEST', msg: 'Not allowed for guest users' },
  human_member: { as: ID.defaultBot, status: 400, code: 'BAD_REQUEST', msg: 'This endpoint does not accept bot requests.' },
};

describe('auth matrix over the route table', () => {
  it('has routes to check', () => {
    expect(required.length).toBeGreaterThan(5);
  });

  it.each(required.map((r) => [label(r), r] as const))('%s: no credentials → 401 UNAUTHORIZED', async (_l, route) => {
    const res = await sim().request({ method: route.method, path: concretePath(route) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      result: 'error',
      msg: 'Not logged in: API authentication or user session required',
      code: 'UNAUTHORIZED',
    });
  });

  it.each(authenticated.map((r) => [label(r), r] as const))('%s: a bad key → 401 Invalid API key', async (_l, route) => {
    const res = await sim().request({
      method: route.method,
      path: concretePath(route),
      headers: { authorization: basicAuth('hamlet@zulip.com', 'x'.repeat(32)) },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' });
  });

  it.each(authenticated.map((r) => [label(r), r] as const))('%s: a deactivated user → 401', async (_l, route) => {
    const s = await withDeactivatedOthello();
    const res = await s.request({ method: route.method, path: concretePath(route), as: ID.othello });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ result: 'error', msg: 'Account is deactivated', code: 'UNAUTHORIZED' });
  });

  it.each(authenticated.map((r) => [label(r), r] as const))('%s: incoming-webhook bot as declared', async (_l, route) => {
    const res = await sim().request({ method: route.method, path: concretePath(route), as: ID.webhookBot });
    if (route.allowIncomingWebhooks) expect(res.status).not.toBe(401);
    else expect(res.body).toEqual({ result: 'error', msg: 'This API is not available to incoming webhook bots.', code: 'UNAUTHORIZED' });
  });

  const roleRoutes = authenticated.filter((r) => WRONG_ROLE[r.auth]);
  it.each(roleRoutes.map((r) => [label(r), r] as const))('%s: the wrong role is refused before parameters', async (_l, route) => {
    const wrong = WRONG_ROLE[route.auth]!;
    const res = await sim().request({ method: route.method, path: concretePath(route), as: wrong.as });
    expect(res.status).toBe(wrong.status);
    expect(res.body).toEqual({ result: 'error', msg: wrong.msg, code: wrong.code });
  });

  it.each(routes.filter((r) => r.auth === 'none' || r.auth === 'dev').map((r) => [label(r), r] as const))(
    '%s: needs no credentials',
    async (_l, route) => {
      const res = await sim().request({ method: route.method, path: concretePath(route) });
      expect(res.status).not.toBe(401);
      expect(res.body.code).not.toBe('UNAUTHORIZED');
    },
  );

  it('dev helpers are refused when the realm disables development login', async () => {
    const fixture = devFixture();
    fixture.realm.dev_auth_enabled = false;
    for (const route of routes.filter((r) => r.auth === 'dev')) {
      const res = await sim({ fixture }).request({ method: route.method, path: concretePath(route), body: { username: 'hamlet@zulip.com' } });
      expect(res.body).toEqual({ result: 'error', msg: 'DevAuthBackend not enabled.', code: 'BAD_REQUEST' });
    }
  });
});
