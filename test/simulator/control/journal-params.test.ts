/**
 * A journal entry's `request.params` (simulator/control/journal-params.ts): the parameters as
 * dispatch read them, the same whatever the client's encoding (zulip-js sends multipart, the
 * Python client urlencoded, some clients put everything in the query string).
 */
import { describe, expect, it } from 'vitest';
import { createSimulator, encodeForm, fixedClock, type Simulator } from '../../../simulator/index.ts';

const T = 1_700_200_000;
const fresh = (options: Parameters<typeof createSimulator>[0] = {}) => createSimulator({ seed: 9, clock: fixedClock(T), ...options });

/** hamlet's Authorization header, read from a request the journal recorded. */
async function hamletAuth(s: Simulator): Promise<string> {
  await s.request({ method: 'GET', path: '/api/v1/users/me', as: 'hamlet@zulip.com' });
  const auth = s.journal.entries().at(-1)!.request.headers.authorization!;
  s.journal.clear();
  return auth;
}

/** One request sent three ways: an urlencoded body, a multipart body, the query string. */
async function sendThreeWays(s: Simulator, method: string, path: string, values: Record<string, string>) {
  const authorization = await hamletAuth(s);
  const form = new FormData();
  for (const [k, v] of Object.entries(values)) form.append(k, v);
  const multipart = new Request('http://x/', { method: 'POST', body: form });
  const statuses = [
    await s.handle({ method, url: `/api/v1${path}`, headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' }, body: encodeForm(values) }),
    await s.handle({
      method,
      url: `/api/v1${path}`,
      headers: { authorization, 'content-type': multipart.headers.get('content-type')! },
      body: Buffer.from(await multipart.arrayBuffer()),
    }),
    await s.handle({ method, url: `/api/v1${path}?${encodeForm(values)}`, headers: { authorization } }),
  ].map((r) => r.status);
  return { statuses, entries: s.journal.entries() };
}

describe("the journal's request params", () => {
  it('a message sent urlencoded, as multipart and in the query string gives the same params', async () => {
    const s = fresh();
    const values = { type: 'stream', to: 'Denmark', topic: 'reports', content: 'Build passed' };
    const { statuses, entries } = await sendThreeWays(s, 'POST', '/messages', values);
    expect(statuses).toEqual([200, 200, 200]);
    expect(entries.map((e) => e.request.params)).toEqual([values, values, values]);
    // The README's question, for any client: did the bot send exactly one message to this topic?
    expect(s.journal.entries({ route: 'POST /messages' }).filter((e) => e.request.params?.topic === 'reports')).toHaveLength(3);
  });

  it('reads an entry\'s params again as dispatch read them: the last of a repeated name, Latin-1 for bytes that are not UTF-8, the body over the query', async () => {
    const s = fresh();
    const authorization = await hamletAuth(s);
    // 0xE9 alone is not UTF-8: Django reads the whole body as ISO-8859-1, so the topic is "café".
    const body = Buffer.concat([Buffer.from('type=stream&to=Denmark&topic=caf'), Buffer.from([0xe9]), Buffer.from('&content=first&content=second')]);
    const res = await s.handle({
      method: 'POST',
      url: '/api/v1/messages?topic=from%20the%20query&client_message_id=7',
      headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(res.status).toBe(200);
    const sent = (await s.request({ method: 'GET', path: '/api/v1/messages', as: 'hamlet@zulip.com', query: { anchor: 'newest', num_before: 1, num_after: 0 } })).body as {
      messages: { subject: string; content: string }[];
    };
    expect(sent.messages[0]).toMatchObject({ subject: 'café', content: '<p>second</p>' });
    const entry = s.journal.entries({ route: 'POST /messages' }).at(-1)!;
    expect(entry.request.params).toEqual({ topic: 'café', client_message_id: '7', type: 'stream', to: 'Denmark', content: 'second' });
  });

  it("decodes the values of the route's JSON-typed parameters as Zulip does, whatever the encoding", async () => {
    const s = fresh();
    const sent = await s.request({ method: 'POST', path: '/api/v1/messages', as: 'hamlet@zulip.com', body: { type: 'stream', to: 'Denmark', topic: 't', content: 'c' } });
    const id = Number(sent.body.id);
    s.journal.clear();
    const values = { messages: JSON.stringify([id]), op: 'add', flag: 'starred' };
    const { statuses, entries } = await sendThreeWays(s, 'POST', '/messages/flags', values);
    expect(statuses).toEqual([200, 200, 200]);
    const expected = { messages: [id], op: 'add', flag: 'starred' };
    expect(entries.map((e) => e.request.params)).toEqual([expected, expected, expected]);
  });

  it('shows path parameters as the route reads them, a value that is not JSON as sent, undeclared ones as strings', async () => {
    const s = fresh();
    await s.request({ method: 'GET', path: '/api/v1/users/0010?client_gravatar=true&extra=1', as: 'hamlet@zulip.com' });
    await s.request({ method: 'POST', path: '/api/v1/messages/flags', as: 'hamlet@zulip.com', body: { messages: '[1,', op: 'add', flag: 'read' } });
    const [user, bad] = s.journal.entries();
    expect(user!.request.params).toEqual({ user_id: 10, client_gravatar: true, extra: '1' });
    expect(bad!.response!.status).toBe(400);
    expect(bad!.request.params).toEqual({ messages: '[1,', op: 'add', flag: 'read' });
  });

  it('describes uploaded files by name, type and size, without their bytes', async () => {
    const s = fresh();
    const authorization = await hamletAuth(s);
    const form = new FormData();
    form.append('note', 'hello');
    form.append('file', new Blob([new Uint8Array(300)], { type: 'image/png' }), 'dir/pic.png');
    const multipart = new Request('http://x/', { method: 'POST', body: form });
    const res = await s.handle({
      method: 'POST',
      url: '/api/v1/user_uploads',
      headers: { authorization, 'content-type': multipart.headers.get('content-type')! },
      body: Buffer.from(await multipart.arrayBuffer()),
    });
    expect(res.status).toBe(200);
    expect(s.journal.entries()[0]!.request.params).toEqual({ note: 'hello', file: [{ filename: 'pic.png', content_type: 'image/png', size: 300 }] });
  });

  it('counts params against the byte budget and drops them with the bodies', async () => {
    // Two sends' bodies and answers (about 460 bytes) fit in 520 bytes; with their params (about
    // 185 more each) they do not, so the older entry loses its body and its params.
    const s = fresh({ journal: { maxBodyBytes: 520 } });
    const content = 'x'.repeat(150);
    for (const topic of ['one', 'two']) {
      await s.request({ method: 'POST', path: '/api/v1/messages', as: 'hamlet@zulip.com', body: { type: 'stream', to: 'Denmark', topic, content } });
    }
    const [older, newer] = s.journal.entries();
    expect(older!.request).toMatchObject({ body: '', body_dropped: true, params: {} });
    expect(newer!.request.params).toMatchObject({ topic: 'two', content });
  });

  it('reads the same over GET /__simulator/journal', async () => {
    const s = fresh();
    await s.request({ method: 'POST', path: '/api/v1/messages', as: 'hamlet@zulip.com', body: { type: 'stream', to: 'Denmark', topic: 'over http', content: 'c' } });
    const res = await s.request({ method: 'GET', path: '/__simulator/journal?route=POST%20/messages' });
    expect(res.status).toBe(200);
    const entries = res.body.entries as { request: { params: Record<string, unknown> } }[];
    expect(entries.map((e) => e.request.params.topic)).toEqual(['over http']);
  });
});
