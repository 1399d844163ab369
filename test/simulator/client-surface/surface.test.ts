/**
 * The client surface, executable: every method of the official Python client (with zulip-terminal's
 * extra calls and every method of zulip-js), read from python-client.json, is served by THE route table,
 * and an authenticated call to each answers from its handler (never the unknown-path 404 or a
 * 405). The methods the simulator does not serve are listed in the data file with the reason, and
 * asserted exactly: serving one of them fails this test until the data file says so.
 */
import { describe, expect, it } from 'vitest';
import { routePrefix, routes } from '../../../simulator/index.ts';
import type { Method, Route } from '../../../simulator/http/route.ts';
import { ID, sim } from '../helpers.ts';
import surface from './python-client.json' with { type: 'json' };

interface ClientMethod {
  method: string;
  calls: [string, string][];
  missing?: string;
}

const all: ClientMethod[] = [...(surface.methods as ClientMethod[]), ...(surface.otherClients as ClientMethod[])];

/** `users/{email}/presence` and `/users/{user_id_or_email}/presence` are the same route. */
const shape = (path: string) => path.replace(/\{\w+\}/g, '{}');

/** The call's path as the route table writes it: query dropped, /api/v1 implied unless it starts with a slash. */
function tablePath(path: string): { outsideApi: boolean; path: string } {
  const bare = path.split('?')[0]!;
  return bare.startsWith('/') ? { outsideApi: true, path: bare } : { outsideApi: false, path: `/${bare}` };
}

function routeFor(httpMethod: string, path: string): Route | undefined {
  const wanted = tablePath(path);
  return routes.find(
    (r) =>
      r.method === httpMethod &&
      Boolean(r.outsideApi) === wanted.outsideApi &&
      [r.path, ...(r.aliasPaths ?? [])].some((p) => shape(p) === shape(wanted.path)),
  );
}

const served = (m: ClientMethod) => m.calls.every(([verb, path]) => routeFor(verb, path) !== undefined);

/** Concrete values for the placeholders: existing rows of the dev realm where it matters. */
const SAMPLE: Record<string, string> = {
  stream_id: '1',
  stream_name: 'Denmark',
  user_id: String(ID.hamlet),
  email: 'hamlet@zulip.com',
  emoji_name: 'green_tick',
  filter_id: '1',
  field_id: '1',
  group_id: '1',
  realm_id: '2',
  filename: 'ab/cd/file.txt',
};

describe('the Python client surface (zulip/python-zulip-api: zulip/zulip/__init__.py)', () => {
  it('lists every method once', () => {
    const names = surface.methods.map((m) => m.method);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBe(74);
  });

  it('every call is in the route table, except exactly the methods marked missing', () => {
    const unserved = all.filter((m) => !served(m)).map((m) => m.method);
    const markedMissing = all.filter((m) => m.missing !== undefined).map((m) => m.method);
    expect(unserved).toEqual(markedMissing);
    expect(markedMissing).toEqual([
      'remove_user_group',
      'zulip-js filters.retrieve',
      'zulip-js users.me.pointer.retrieve',
      'zulip-js users.me.pointer.update',
    ]);
  });

  const calls = all
    .filter((m) => m.missing === undefined)
    .flatMap((m) => m.calls.map(([verb, path]) => [`${m.method}: ${verb} ${path}`, verb as Method, path] as const));

  it.each(calls)('%s answers from its handler', async (_label, verb, path) => {
    const s = sim();
    const sent = await s.request({
      method: 'POST',
      path: '/api/v1/messages',
      as: ID.iago,
      body: { type: 'stream', to: 'Denmark', topic: 'surface', content: 'hello' },
    });
    const values = { ...SAMPLE, message_id: String(sent.body.id) };
    const concrete = path.replace(/\{(\w+)\}/g, (_m, name: string) => values[name as keyof typeof values]!);
    const [bare, query] = concrete.split('?');
    const route = routeFor(verb, path)!;
    const as = route.auth === 'bot' ? ID.defaultBot : ID.iago;
    const res = await s.request({
      method: verb,
      path: bare!.startsWith('/') ? bare! : `${routePrefix(route)}/${bare}`,
      query: query ? Object.fromEntries(new URLSearchParams(query)) : undefined,
      as: route.auth === 'none' ? undefined : as,
    });
    expect(res.status).not.toBe(405);
    expect(res.status >= 500).toBe(false);
    expect(res.status === 404 && (res.body as { msg?: string } | undefined)?.msg === 'Not Found').toBe(false);
  });

  const gaps = all.filter((m) => m.missing !== undefined);
  it.each(gaps.map((m) => [m.method, m] as const))('%s: not served, as its reason says', async (_name, m) => {
    for (const [verb, path] of m.calls) {
      const res = await sim().request({
        method: verb as Method,
        path: `/api/v1/${path.replace(/\{\w+\}/g, '1')}`,
        as: ID.iago,
      });
      // 404 where no method is served at the path, 405 where another one is (Django's answer).
      expect(res.status).toBe(routes.some((r) => shape(r.path) === shape(tablePath(path).path)) ? 405 : 404);
    }
  });
});
