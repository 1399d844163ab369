/**
 * The control API under /__simulator (simulator/control/): who may call it, its OpenAPI
 * description (linted, and held to the routes that serve it, answers included), and reset,
 * snapshot and restore over HTTP.
 */
import { networkInterfaces } from 'node:os';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTROL_ROUTES } from '../../../simulator/control/routes.ts';
import { SNAPSHOT_VERSION } from '../../../simulator/control/snapshot.ts';
import { CONTROL_PREFIX, createSimulator, DEFAULT_FIXTURE, fixedClock, type Simulator } from '../../../simulator/index.ts';
import type { Fixture } from '../../../schemas/generated/types/chat/fixture.ts';

const T = 1_700_200_000;
const fresh = (options: Parameters<typeof createSimulator>[0] = {}) => createSimulator({ seed: 3, clock: fixedClock(T), ...options });

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

async function serve(s: Simulator, host = '127.0.0.1'): Promise<string> {
  const listening = await s.listen(0, host);
  closers.push(() => listening.close());
  return `http://127.0.0.1:${listening.port}`;
}

/** A control request straight to the dispatcher, as the HTTP server would hand it over. */
function control(s: Simulator, method: string, path: string, extra: { headers?: Record<string, string>; remoteAddress?: string; body?: string } = {}) {
  return s.handle({
    method,
    url: `${CONTROL_PREFIX}${path}`,
    headers: { host: '127.0.0.1:9991', ...extra.headers },
    body: extra.body,
    remoteAddress: extra.remoteAddress ?? '127.0.0.1',
  });
}

const firstNonLoopbackAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i !== undefined && i.family === 'IPv4' && !i.internal)?.address;

describe('who may use the control API', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'])('a client at %s may', async (remoteAddress) => {
    const res = await control(fresh(), 'GET', '/faults', { remoteAddress });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ faults: [] });
  });

  it.each(['192.0.2.7', '10.0.0.1', '::ffff:192.168.1.1', 'fd00::2'])('a client at %s gets 403, unless remote control is allowed', async (remoteAddress) => {
    const res = await control(fresh(), 'POST', '/reset', { remoteAddress });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toEqual({
      result: 'error',
      code: 'FORBIDDEN',
      msg: `The control API answers clients on this machine only (this request came from ${remoteAddress}); start the simulator with --allow-remote-control to open it`,
    });
    expect((await control(fresh({ allowRemoteControl: true }), 'POST', '/reset', { remoteAddress })).status).toBe(204);
  });

  it('a loopback client naming another host (DNS rebinding) gets 403; localhost names and in-process calls are fine', async () => {
    const s = fresh();
    const rebound = await control(s, 'GET', '/faults', { headers: { host: 'attacker.example:9991' } });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).msg).toBe(
      'The control API answers requests for loopback names only (Host: attacker.example:9991); start the simulator with --allow-remote-control to open it',
    );
    for (const host of ['localhost:9991', 'app.localhost', '[::1]:9991', '127.0.0.1']) expect((await control(s, 'GET', '/faults', { headers: { host } })).status).toBe(200);
    expect((await s.request({ method: 'GET', path: `${CONTROL_PREFIX}/faults` })).status).toBe(200);
  });

  it('a web page of another origin gets 403, whatever the address; the same origin may', async () => {
    const s = fresh({ allowRemoteControl: true });
    for (const origin of ['https://evil.example', 'null', 'http://localhost:3000']) {
      const res = await control(s, 'POST', '/reset', { headers: { origin } });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body).msg).toBe(`The control API refuses requests from web pages of other origins (Origin: ${origin})`);
    }
    expect((await control(s, 'POST', '/reset', { headers: { origin: 'http://127.0.0.1:9991' } })).status).toBe(204);
  });

  it('over real HTTP: loopback is answered', async () => {
    const base = await serve(fresh());
    const res = await fetch(`${base}${CONTROL_PREFIX}/faults`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ faults: [] });
  });

  it.skipIf(firstNonLoopbackAddress === undefined)(
    `over real HTTP from this machine's network address (${firstNonLoopbackAddress ?? 'none: skipped'}): refused, or answered when allowed`,
    async () => {
      for (const allowRemoteControl of [false, true]) {
        const listening = await fresh({ allowRemoteControl }).listen(0, '0.0.0.0');
        closers.push(() => listening.close());
        const res = await fetch(`http://${firstNonLoopbackAddress}:${listening.port}${CONTROL_PREFIX}/faults`);
        expect(res.status).toBe(allowRemoteControl ? 200 : 403);
        // The chat API itself answers from anywhere either way.
        expect((await fetch(`http://${firstNonLoopbackAddress}:${listening.port}/api/v1/server_settings`)).status).toBe(200);
      }
    },
  );

  it('never asks for credentials, and chat credentials do not matter', async () => {
    const s = fresh();
    const res = await s.request({ method: 'GET', path: `${CONTROL_PREFIX}/faults`, as: { username: 'nobody@zulip.com', password: 'wrong' } });
    expect(res.status).toBe(200);
  });
});

describe('the control API answers what it cannot do', () => {
  const cases: [string, string, string | undefined, number, string, string][] = [
    ['an unknown endpoint', 'GET', undefined, 404, 'NOT_FOUND', `No control endpoint at ${CONTROL_PREFIX}/nope (GET ${CONTROL_PREFIX}/openapi.json lists them)`],
    ['a method the endpoint lacks', 'PATCH', undefined, 405, 'METHOD_NOT_ALLOWED', `PATCH is not allowed on ${CONTROL_PREFIX}/faults (allowed: GET, POST, DELETE)`],
    ['a body that is not JSON', 'POST', '{route:', 400, 'BAD_REQUEST', 'The body is not JSON'],
    ['a body missing', 'POST', undefined, 400, 'BAD_REQUEST', `POST ${CONTROL_PREFIX}/faults needs a JSON body (FaultRequest)`],
    ['a body of the wrong shape', 'POST', '{"error":{"code":"NO_SUCH_CODE"},"tims":3}', 400, 'BAD_REQUEST', 'Invalid FaultRequest: the body: unknown field "tims"; error.code: must be one of'],
  ];
  it.each(cases)('%s', async (_name, method, body, status, code, msg) => {
    const s = fresh();
    const path = _name === 'an unknown endpoint' ? '/nope' : '/faults';
    const res = await control(s, method, path, body === undefined ? {} : { body });
    expect(res.status).toBe(status);
    const answer = JSON.parse(res.body) as { code: string; msg: string };
    expect(answer.code).toBe(code);
    expect(answer.msg).toContain(msg);
    if (status === 405) expect(res.headers.allow).toBe('GET, POST, DELETE');
  });
});

describe('the OpenAPI description', () => {
  async function served(): Promise<Record<string, any>> {
    const res = await fresh().request({ method: 'GET', path: `${CONTROL_PREFIX}/openapi.json` });
    expect(res.status).toBe(200);
    return res.body as Record<string, any>;
  }

  it('is served by the control API and is a valid OpenAPI 3.1 document', async () => {
    const doc = await served();
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it("is clean under Redocly's strictest recommended rules", async () => {
    const config = await createConfig({ extends: ['recommended-strict'] });
    const problems = await lintFromString({ source: JSON.stringify(await served()), absoluteRef: '/__simulator/openapi.json', config });
    expect(problems.map((p) => `${p.ruleId}: ${p.message} ${p.location[0]?.pointer ?? ''}`)).toEqual([]);
  });

  it('documents exactly the control routes, each with its operation, body and answers', async () => {
    const doc = await served();
    const documented = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(CONTROL_ROUTES.map((r) => `${r.method} ${CONTROL_PREFIX}${r.path}`).sort());
    for (const route of CONTROL_ROUTES) {
      const op = doc.paths[`${CONTROL_PREFIX}${route.path}`][route.method.toLowerCase()];
      expect(op.operationId).toBe(route.operationId);
      expect(Object.keys(op.responses)).toContain(String(route.response.status));
      expect(Object.keys(op.responses)).toContain('403');
      expect(op.requestBody?.content['application/json'].schema.$ref).toBe(route.body ? `#/components/schemas/${route.body.schema}` : undefined);
    }
  });

  it("the answers match it: each route called, its answer validated against the documented schema", async () => {
    const doc = await served();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const s = fresh();
    await s.request({ method: 'POST', path: '/api/v1/messages', as: 'hamlet@zulip.com', body: { type: 'stream', to: 'Denmark', topic: 't', content: 'journaled' } });
    const snapshot = s.snapshot();
    const bodies: Record<string, unknown> = {
      advanceClock: { seconds: 60 },
      setClock: { time: T + 3600 },
      followRealTime: { follow: false },
      reset: {},
      restoreSnapshot: snapshot,
      addFault: { route: 'POST /messages', error: { code: 'RATE_LIMIT_HIT' }, times: 1 },
      setPushService: { failure: 'server_error', times: 2 },
      setRateLimit: { enabled: true },
    };
    const validated: string[] = [];
    for (const route of CONTROL_ROUTES) {
      let path = route.path;
      if (path.includes('{id}')) {
        const fault = await s.request({ method: 'POST', path: `${CONTROL_PREFIX}/faults`, json: { latency_ms: 0 } });
        path = path.replace('{id}', String(fault.body.id));
      }
      const res = await s.request({
        method: route.method,
        path: `${CONTROL_PREFIX}${path}`,
        ...(bodies[route.operationId] !== undefined ? { json: bodies[route.operationId] } : {}),
      });
      expect([route.operationId, res.status]).toEqual([route.operationId, route.response.status]);
      const documented = doc.paths[`${CONTROL_PREFIX}${route.path}`][route.method.toLowerCase()].responses[String(route.response.status)];
      if (route.response.status === 204) {
        expect(res.body).toBe('');
        continue;
      }
      const schema = documented.content['application/json'].schema as { $ref?: string };
      if (!schema.$ref) continue;
      const validate = ajv.getSchema(`doc${schema.$ref}`)!;
      expect([route.operationId, validate(res.body) ? [] : validate.errors]).toEqual([route.operationId, []]);
      validated.push(route.operationId);
    }
    expect(validated).toEqual([
      'getSnapshot',
      'getOutbox',
      'listFaults',
      'addFault',
      'getPushService',
      'setPushService',
      'getClock',
      'advanceClock',
      'setClock',
      'tickClock',
      'followRealTime',
      'getJournal',
      'getJournalFeed',
      'getRateLimit',
      'setRateLimit',
      'getLiveWatcher',
    ]);
  });
});

describe('reset, snapshot and restore over HTTP', () => {
  it('POST /reset goes back to the fixture: same keys, the sent message gone', async () => {
    const s = fresh();
    const base = await serve(s);
    const key = s.engine.state.users.get(10)!.api_key;
    await s.request({ method: 'POST', path: '/api/v1/messages', as: 'hamlet@zulip.com', body: { type: 'stream', to: 'Denmark', topic: 't', content: 'gone soon' } });
    const count = s.engine.state.messages.messages.length;
    const res = await fetch(`${base}${CONTROL_PREFIX}/reset`, { method: 'POST' });
    expect(res.status).toBe(204);
    expect(s.engine.state.messages.messages.length).toBe(count - 1);
    expect(s.engine.state.users.get(10)!.api_key).toBe(key);
  });

  it('POST /reset with a fixture resets to that fixture, this once; a bad fixture is refused and changes nothing', async () => {
    const s = fresh();
    const base = await serve(s);
    const small: Fixture = structuredClone(DEFAULT_FIXTURE);
    small.realm.name = 'Elsinore';
    small.messages = [];
    const post = (body: unknown) =>
      fetch(`${base}${CONTROL_PREFIX}/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post({ fixture: small })).status).toBe(204);
    expect(s.engine.state.realm.name).toBe('Elsinore');
    expect(s.engine.state.messages.messages).toEqual([]);
    const bad = await post({ fixture: { ...small, realm: { ...small.realm, name: 42 } } });
    expect(bad.status).toBe(400);
    const answer = (await bad.json()) as { code: string; msg: string };
    expect(answer.code).toBe('INVALID_FIXTURE');
    expect(answer.msg).toContain('/realm/name: must be string');
    expect(s.engine.state.realm.name).toBe('Elsinore');
    // A plain reset returns to the simulator's own fixture.
    await fetch(`${base}${CONTROL_PREFIX}/reset`, { method: 'POST' });
    expect(s.engine.state.realm.name).toBe('Zulip Dev');
  });

  it('GET /snapshot and PUT /snapshot carry the state between simulators', async () => {
    const from = fresh();
    const to = fresh();
    const [fromBase, toBase] = await Promise.all([serve(from), serve(to)]);
    await from.request({ method: 'POST', path: '/api/v1/messages', as: 'hamlet@zulip.com', body: { type: 'stream', to: 'Denmark', topic: 'carried', content: 'over' } });
    const text = await (await fetch(`${fromBase}${CONTROL_PREFIX}/snapshot`)).text();
    const put = await fetch(`${toBase}${CONTROL_PREFIX}/snapshot`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: text });
    expect(put.status).toBe(204);
    expect(`${JSON.stringify(to.snapshot())}\n`).toBe(text);
    const refused = await fetch(`${toBase}${CONTROL_PREFIX}/snapshot`, {
      method: 'PUT',
      body: JSON.stringify({ ...JSON.parse(text), version: 99 }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      result: 'error',
      code: 'INVALID_SNAPSHOT',
      msg: `Invalid snapshot: snapshot format version 99, but this simulator reads version ${SNAPSHOT_VERSION} (and 4) only (written by another version of the simulator?)`,
    });
  });
});
