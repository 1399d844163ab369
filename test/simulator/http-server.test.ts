/** Real HTTP on port 0: the node:http adapter answers exactly like the in-process API. */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenHttp, type Listening } from '../../simulator/http/node.ts';
import { basicAuth } from '../../simulator/index.ts';
import { ID, sim } from './helpers.ts';

describe('HTTP server', () => {
  const s = sim();
  let server: Listening;
  let hamletAuth: string;

  beforeAll(async () => {
    server = await listenHttp(s.handle, 0, '127.0.0.1', { maxBodyBytes: 4096 });
    hamletAuth = basicAuth('hamlet@zulip.com', s.engine.state.users.get(ID.hamlet)!.api_key);
  });
  afterAll(async () => {
    await server.close();
  });

  it('serves GET with Basic auth and the JSON envelope', async () => {
    const res = await fetch(`${server.url}/users/me`, { headers: { authorization: hamletAuth } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const text = await res.text();
    expect(text.endsWith('\n')).toBe(true);
    expect(JSON.parse(text)).toMatchObject({ result: 'success', user_id: ID.hamlet });
  });

  it('gives the same answer as the in-process API', async () => {
    const viaHttp = await (await fetch(`${server.url}/streams?include_all=true`, { headers: { authorization: hamletAuth } })).json();
    const inProcess = await s.request({ method: 'GET', path: '/api/v1/streams', as: ID.hamlet, query: { include_all: true } });
    expect(viaHttp).toEqual(inProcess.body);
  });

  it('sends text beyond ASCII whole, its Content-Length counting bytes', async () => {
    const content = 'naïve café 🐙 — 日本語';
    const sent = await s.request({ method: 'POST', path: '/api/v1/messages', as: ID.hamlet, body: { type: 'stream', to: 'Denmark', topic: 'ünïcode', content } });
    const res = await fetch(`${server.url}/messages/${sent.body.id}?apply_markdown=false`, { headers: { authorization: hamletAuth } });
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    expect(JSON.parse(bytes.toString('utf8'))).toMatchObject({ result: 'success', message: { content, subject: 'ünïcode' } });
  });

  it('sends a long answer beyond ASCII byte for byte as the in-process API writes it', async () => {
    for (let i = 0; i < 40; i++) {
      await s.request({ method: 'POST', path: '/api/v1/messages', as: ID.hamlet, body: { type: 'stream', to: 'Denmark', topic: 'långt svar', content: `nummer ${i}: naïve café 🐙 — 日本語` } });
    }
    const url = `/messages?anchor=newest&num_before=40&num_after=0&narrow=${encodeURIComponent(JSON.stringify([{ operator: 'channel', operand: 'Denmark' }]))}`;
    const inProcess = await s.handle({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: hamletAuth } });
    expect(inProcess.body.length).toBeGreaterThan(4096);
    const res = await fetch(`${server.url}${url}`, { headers: { authorization: hamletAuth } });
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    expect(bytes.toString('utf8')).toBe(inProcess.body);
  });

  it('reads form-encoded and multipart POST bodies', async () => {
    const form = new URLSearchParams({ subscriptions: JSON.stringify([{ name: 'Venice' }]) });
    const a = await fetch(`${server.url}/users/me/subscriptions`, { method: 'POST', headers: { authorization: hamletAuth }, body: form });
    expect(await a.json()).toMatchObject({ subscribed: { '10': ['Venice'] } });
    const multipart = new FormData();
    multipart.append('subscriptions', JSON.stringify([{ name: 'Venice' }, { name: 'Rome' }]));
    const b = await fetch(`${server.url}/users/me/subscriptions`, { method: 'POST', headers: { authorization: hamletAuth }, body: multipart });
    expect(await b.json()).toMatchObject({ subscribed: { '10': ['Rome'] }, already_subscribed: { '10': ['Venice'] } });
  });

  it('answers 401 with the Basic challenge header', async () => {
    const res = await fetch(`${server.url}/users/me`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
  });

  it('answers HEAD without a body and OPTIONS with Allow', async () => {
    const head = await fetch(`${server.url}/users/me`, { method: 'HEAD', headers: { authorization: hamletAuth } });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const get = await fetch(`${server.url}/users/me`, { headers: { authorization: hamletAuth } });
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    const options = await fetch(`${server.url}/users/me/subscriptions`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('DELETE, GET, HEAD, PATCH, POST');
  });

  it('refuses an oversized body with a clean JSON error', async () => {
    const res = await fetch(`${server.url}/users/me/subscriptions`, {
      method: 'POST',
      headers: { authorization: hamletAuth, 'content-type': 'application/x-www-form-urlencoded' },
      body: `subscriptions=${'x'.repeat(5000)}`,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ result: 'error', msg: 'Request body too large', code: 'BAD_REQUEST' });
  });

  it('answers 404 JSON for paths outside /api/v1', async () => {
    const res = await fetch(`${server.url.replace('/api/v1', '')}/elsewhere`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
  });

  // Answers made in one turn of the event loop are written together (node.ts): each still goes
  // to its own request, in the order a connection sent them.
  it('answers requests sent at once on one connection (pipelined) in order, each whole', async () => {
    const { port } = new URL(server.url);
    const iagoAuth = basicAuth('iago@zulip.com', s.engine.state.users.get(ID.iago)!.api_key);
    const head = (path: string, auth?: string) => `GET /api/v1${path} HTTP/1.1\r\nhost: x\r\n${auth ? `authorization: ${auth}\r\n` : ''}\r\n`;
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('utf8');
        if ((text.match(/HTTP\/1\.1 /g) ?? []).length === 3 && text.endsWith('\n')) socket.end();
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.write(head('/users/me', hamletAuth) + head('/users/me') + head('/users/me', iagoAuth));
    });
    const answers = raw.split(/(?=HTTP\/1\.1 )/).map((one) => {
      const [headers, body] = one.split('\r\n\r\n') as [string, string];
      expect(Number(/content-length: (\d+)/i.exec(headers)![1])).toBe(Buffer.byteLength(body));
      const names = headers.split('\r\n').slice(1).map((line) => line.slice(0, line.indexOf(':')).toLowerCase());
      return { status: Number(headers.split(' ')[1]), names, body: JSON.parse(body) };
    });
    // The answer's own headers in its order, then Content-Length once, then node's.
    expect(answers[1]!.names.slice(0, 3)).toEqual(['content-type', 'www-authenticate', 'content-length']);
    for (const a of answers) expect(a.names.filter((n) => n === 'content-length')).toHaveLength(1);
    expect(answers.map((a) => [a.status, a.body.user_id ?? a.body.code])).toEqual([
      [200, ID.hamlet],
      [401, 'UNAUTHORIZED'],
      [200, ID.iago],
    ]);
  });

  it('answers every one of many requests in flight at once', async () => {
    const ids = [ID.hamlet, ID.iago, ID.othello, ID.cordelia];
    const auths = ids.map((id) => basicAuth(s.engine.state.users.get(id)!.delivery_email, s.engine.state.users.get(id)!.api_key));
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => fetch(`${server.url}/users/me`, { headers: { authorization: auths[i % 4]! } }).then((r) => r.json() as Promise<{ user_id: number }>)),
    );
    expect(answers.map((a) => a.user_id)).toEqual(Array.from({ length: 40 }, (_, i) => ids[i % 4]));
  });
});
