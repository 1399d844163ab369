/**
 * The live page's serving (simulator/live/): GET / and its files with their content types, cache
 * headers and CSP, read-only, under the control API's access rule; and the control endpoint that
 * hands the page the watcher's credentials, to loopback clients only. The page itself runs in a
 * real browser in live-page.browser.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { LIVE_CONTENT_SECURITY_POLICY } from '../../simulator/live/serve.ts';
import { CONTROL_PREFIX, createSimulator, fixedClock, type Simulator } from '../../simulator/index.ts';

const fresh = (options: Parameters<typeof createSimulator>[0] = {}) => createSimulator({ seed: 3, clock: fixedClock(1_700_200_000), ...options });

/** A request as the HTTP server hands it over, from a loopback client unless told otherwise. */
function get(s: Simulator, url: string, extra: { method?: string; headers?: Record<string, string>; remoteAddress?: string } = {}) {
  return s.handle({ method: extra.method ?? 'GET', url, headers: { host: '127.0.0.1:9991', ...extra.headers }, remoteAddress: extra.remoteAddress ?? '127.0.0.1' });
}

const FILES = [
  { url: '/', type: 'text/html; charset=utf-8', contains: '<html lang="en">' },
  { url: '/__simulator/live/live.js', type: 'text/javascript; charset=utf-8', contains: "'use strict';" },
  { url: '/__simulator/live/live.css', type: 'text/css; charset=utf-8', contains: ':focus-visible' },
  { url: '/__simulator/live/favicon.svg', type: 'image/svg+xml', contains: '<svg' },
];

describe('the live page and its files', () => {
  it.each(FILES)('GET $url: $type, revalidated by ETag, under a CSP that allows only this origin', async ({ url, type, contains }) => {
    const s = fresh();
    const res = await get(s, url);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.body).toContain(contains);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toBe(LIVE_CONTENT_SECURITY_POLICY);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers.etag).toMatch(/^"[\w-]{22}"$/);
    const again = await get(s, url, { headers: { 'if-none-match': res.headers.etag! } });
    expect([again.status, again.body]).toEqual([304, '']);
    const head = await get(s, url, { method: 'HEAD' });
    expect([head.status, head.body, head.headers['content-length']]).toEqual([200, '', String(Buffer.byteLength(res.body))]);
  });

  it('allows only this origin: every source in the CSP is self or none', () => {
    const sources = LIVE_CONTENT_SECURITY_POLICY.split(';').flatMap((directive) => directive.trim().split(/\s+/).slice(1));
    expect(new Set(sources)).toEqual(new Set(["'self'", "'none'"]));
  });

  it('the HTML loads its script and style from this origin, with no inline script or style', async () => {
    const html = (await get(fresh(), '/')).body;
    expect(html).toMatch(/<script src="\/__simulator\/live\/live\.js" defer><\/script>/);
    expect(html).not.toMatch(/<script>|<style|style="|\son\w+=/);
  });

  it('is read-only: other methods get 405 with Allow', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await get(fresh(), '/', { method });
      expect([res.status, res.headers.allow]).toEqual([405, 'GET, HEAD']);
    }
  });

  it('answers loopback clients only, unless remote control is allowed', async () => {
    const refused = await get(fresh(), '/', { remoteAddress: '192.0.2.7' });
    expect(refused.status).toBe(403);
    expect(refused.body).toBe(
      'The live page, like the control API, answers clients on this machine only (this request came from 192.0.2.7); start the simulator with --allow-remote-control to open it\n',
    );
    expect((await get(fresh(), '/', { headers: { host: 'attacker.example' } })).status).toBe(403);
    expect((await get(fresh({ allowRemoteControl: true }), '/', { remoteAddress: '192.0.2.7' })).status).toBe(200);
  });

  it('is not journaled, and leaves the chat API alone: another path is still a 404 there', async () => {
    const s = fresh();
    await get(s, '/');
    expect(s.journal.entries()).toEqual([]);
    const other = await get(s, '/index.html');
    expect([other.status, JSON.parse(other.body).result]).toEqual([404, 'error']);
  });
});

describe(`GET ${CONTROL_PREFIX}/live/watcher: whom the page watches as`, () => {
  it('the realm owner by default, with the API key to authenticate with', async () => {
    const s = fresh();
    const owner = s.engine.state.users.get(9)!;
    const res = await get(s, `${CONTROL_PREFIX}/live/watcher`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ user_id: 9, email: 'desdemona@zulip.com', full_name: 'Desdemona', role: 100, api_key: owner.api_key });
    expect(s.liveWatcher()).toEqual(JSON.parse(res.body));
  });

  it('?as=<email> watches as another active user, bots included; an unknown one is 404', async () => {
    const s = fresh();
    const hamlet = JSON.parse((await get(s, `${CONTROL_PREFIX}/live/watcher?as=${encodeURIComponent('Hamlet@zulip.com')}`)).body);
    expect([hamlet.email, hamlet.role]).toEqual(['hamlet@zulip.com', 400]);
    const bot = [...s.engine.state.users.values()].find((u) => u.is_bot && !u.is_system_bot && u.is_active)!;
    expect(JSON.parse((await get(s, `${CONTROL_PREFIX}/live/watcher?as=${encodeURIComponent(bot.delivery_email)}`)).body).user_id).toBe(bot.id);
    const unknown = await get(s, `${CONTROL_PREFIX}/live/watcher?as=nobody@zulip.com`);
    expect([unknown.status, JSON.parse(unknown.body)]).toEqual([404, { result: 'error', code: 'NOT_FOUND', msg: 'No active user with the email "nobody@zulip.com" to watch as' }]);
  });

  it('never hands credentials to a client that is not on loopback', async () => {
    const res = await get(fresh(), `${CONTROL_PREFIX}/live/watcher`, { remoteAddress: '10.0.0.1' });
    expect(res.status).toBe(403);
    expect(res.body).not.toMatch(/api_key/);
  });
});

describe('realm emoji badges', () => {
  it('serves an SVG badge per realm emoji name under the page rule; other names are not the page', async () => {
    const s = fresh();
    const res = await get(s, `${CONTROL_PREFIX}/live/realm-emoji/green_tick.svg`);
    expect([res.status, res.headers['content-type']]).toEqual([200, 'image/svg+xml']);
    expect(res.body).toContain('<title>green_tick</title>');
    expect(res.body).toContain('>GR</text>');
    const odd = await get(s, `${CONTROL_PREFIX}/live/realm-emoji/%3Cscript%3E.svg`);
    expect(odd.status).toBe(404);
  });
});

describe('listening on every address', () => {
  it('prints and answers at 127.0.0.1, not at 0.0.0.0', async () => {
    const { startSimulatorServer } = await import('../../simulator/cli/server.ts');
    const server = await startSimulatorServer({ port: 0, host: '0.0.0.0', print: false });
    try {
      expect(server.liveUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect((await fetch(server.liveUrl)).status).toBe(200);
      expect(server.simulator.engine.state.realm.url).toBe(server.liveUrl.replace(/\/$/, ''));
    } finally {
      await server.close();
    }
  });
});
