/** Uploads and attachments (zerver/views/attachments.py, zerver/lib/attachments.py, zerver/views/upload.py): in-process and over real HTTP. */
import { describe, expect, it } from 'vitest';
import { basicAuth, type SimFile, type Simulator, type SimulatorOptions } from '../../simulator/index.ts';
import { commit } from '../../simulator/engine/core.ts';
import { deleteMessages } from '../../simulator/engine/messages/delete.ts';
import { ID, NOW, devFixture, sim, watchEvents } from './helpers.ts';

async function eventsOf(s: Simulator, action: () => Promise<unknown>) {
  const watch = watchEvents(s);
  await action();
  return watch.take();
}

const TEXT: SimFile = { filename: 'zulip.txt', content: 'Hello, Zulip!\n', type: 'text/plain' };

function upload(s: Simulator, files: Record<string, SimFile> = { file: TEXT }, as: number | null = ID.hamlet) {
  return s.request({ method: 'POST', path: '/api/v1/user_uploads', as, files });
}

/** Upload `file` as `as`; its URL path (/user_uploads/…). */
async function uploaded(s: Simulator, file: SimFile = TEXT, as: number = ID.hamlet): Promise<string> {
  const res = await upload(s, { file }, as);
  expect(res.status).toBe(200);
  return res.body.url as string;
}

const download = (s: Simulator, url: string, as: number | null = ID.hamlet, method = 'GET') => s.request({ method, path: url, as });

function send(s: Simulator, content: string, as: number = ID.hamlet, to = 'Denmark') {
  return s.request({ method: 'POST', path: '/api/v1/messages', as, body: { type: 'stream', to, topic: 'files', content } });
}

const attachments = async (s: Simulator, as: number = ID.hamlet) => (await s.request({ method: 'GET', path: '/api/v1/attachments', as })).body;

/** A realm without the dev realm's fixture uploads, so sizes and ids start from nothing. */
function bare(mutate: (f: ReturnType<typeof devFixture>) => void = () => {}, options: SimulatorOptions = {}) {
  const fixture = devFixture();
  delete fixture.uploads;
  fixture.messages = fixture.messages.filter((m) => !m.content.includes('/user_uploads/'));
  mutate(fixture);
  return sim({ ...options, fixture });
}

describe('POST /user_uploads', () => {
  it('stores the file, answers its URL, and announces the new attachment to the uploader', async () => {
    const s = bare();
    let body: Record<string, string> = {};
    const events = await eventsOf(s, async () => {
      const res = await upload(s);
      expect(res.status).toBe(200);
      body = res.body;
    });
    expect(body.url).toMatch(/^\/user_uploads\/2\/[0-9a-f]{2}\/[A-Za-z0-9_-]{24}\/zulip\.txt$/);
    expect(body).toEqual({ result: 'success', msg: '', uri: body.url, url: body.url, filename: 'zulip.txt' });
    const attachment = { id: 1, name: 'zulip.txt', path_id: body.url!.slice('/user_uploads/'.length), size: 14, create_time: NOW, message_ids: [] };
    expect(events).toEqual([{ event: { type: 'attachment', op: 'add', attachment, upload_space_used: 14 }, users: [ID.hamlet] }]);
    expect(await attachments(s)).toEqual({ result: 'success', msg: '', attachments: [attachment], upload_space_used: 14 });
    expect((await attachments(s, ID.iago)).attachments).toEqual([]);
  });

  it.each([
    ['my résumé (final).PDF', 'my-résumé-final.PDF'],
    ['a%20b.txt', 'a-b.txt'],
    ['../../etc/passwd', 'passwd'],
    ['!!!', 'uploaded-file'],
  ])('sanitizes the file name %j in the path (%s), keeping the name as uploaded', async (sent, inPath) => {
    const s = bare();
    const res = await upload(s, { file: { ...TEXT, filename: sent } });
    expect(res.body.url.split('/').pop()).toBe(inPath);
    const name = decodeURIComponent(sent.split('/').pop()!);
    expect(res.body.filename).toBe(name);
    expect((await attachments(s)).attachments[0].name).toBe(name);
  });

  it('accepts any field name, and takes the last file sent under one name', async () => {
    const s = bare();
    expect((await upload(s, { whatever: TEXT })).status).toBe(200);
    const form = new FormData();
    form.append('file', new Blob(['first']), 'a.txt');
    form.append('file', new Blob(['second!']), 'b.txt');
    const request = new Request('http://x/', { method: 'POST', body: form });
    const res = await s.handle({
      method: 'POST',
      url: '/api/v1/user_uploads',
      headers: { authorization: basicAuth('hamlet@zulip.com', s.engine.state.users.get(ID.hamlet)!.api_key), 'content-type': request.headers.get('content-type')! },
      body: Buffer.from(await request.arrayBuffer()),
    });
    expect(JSON.parse(res.body).filename).toBe('b.txt');
  });

  it('guesses the type from the name when the part declares none (as Python clients send files)', async () => {
    const s = bare();
    const body = '--XX\r\nContent-Disposition: form-data; name="file"; filename="photo.PNG"\r\n\r\n\x89PNG\r\n--XX--\r\n';
    const res = await s.handle({
      method: 'POST',
      url: '/api/v1/user_uploads',
      headers: { authorization: basicAuth('hamlet@zulip.com', s.engine.state.users.get(ID.hamlet)!.api_key), 'content-type': 'multipart/form-data; boundary=XX' },
      body: Buffer.from(body, 'latin1'),
    });
    const served = await download(s, JSON.parse(res.body).url);
    expect(served.headers).toMatchObject({ 'content-type': 'image/png', 'content-disposition': 'inline; filename="photo.PNG"' });
  });

  it.each([
    ['no file at all', () => ({ method: 'POST', path: '/api/v1/user_uploads', as: ID.hamlet, body: { file: 'not a file' } }), 'You must specify a file to upload'],
    ['two files', () => ({ method: 'POST', path: '/api/v1/user_uploads', as: ID.hamlet, files: { a: TEXT, b: TEXT } }), 'You may only upload one file at a time'],
  ])('refuses %s', async (_name, request, msg) => {
    const s = bare();
    const res = await s.request(request());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
    expect(s.engine.state.attachments.size).toBe(0);
  });

  it('lists a text field named like the file as ignored: the file is read from the files, never the form', async () => {
    // upload_file_backend takes no parameters (zerver/views/upload.py): a POST field "file" beside
    // the file is unread, so json_success names it in ignored_parameters_unsupported.
    const s = bare();
    const res = await s.request({ method: 'POST', path: '/api/v1/user_uploads', as: ID.hamlet, body: { file: 'GET' }, files: { file: TEXT } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: 'success', filename: 'zulip.txt', ignored_parameters_unsupported: ['file'] });
    expect(s.engine.state.attachments.size).toBe(1);
  });

  it("refuses a file over the realm's max_file_upload_size_mib, and accepts one at the limit", async () => {
    const s = bare((f) => (f.realm.max_file_upload_size_mib = 1));
    const over = await upload(s, { file: { filename: 'big.bin', content: new Uint8Array(1024 * 1024 + 1) } });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ result: 'error', msg: "File is larger than this server's configured maximum upload size (1 MiB).", code: 'BAD_REQUEST' });
    expect((await upload(s, { file: { filename: 'big.bin', content: new Uint8Array(1024 * 1024) } })).status).toBe(200);
  });
});

describe('downloading /user_uploads/{path}', () => {
  it('serves the uploader the bytes with their type, inline for safe types, as a download otherwise', async () => {
    const s = bare();
    const text = await uploaded(s);
    const res = await download(s, text);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(Buffer.from('Hello, Zulip!\n'));
    expect(res.headers).toMatchObject({ 'content-type': 'text/plain; charset="ascii"', 'content-disposition': 'inline; filename="zulip.txt"' });
    const zip = await uploaded(s, { filename: 'données.zip', content: new Uint8Array([80, 75, 5, 6]), type: 'application/zip' });
    const got = await download(s, zip);
    expect(got.headers).toMatchObject({ 'content-type': 'application/zip', 'content-disposition': "attachment; filename*=utf-8''donn%C3%A9es.zip" });
    const head = await download(s, text, ID.hamlet, 'HEAD');
    expect([head.status, head.headers['content-length'], head.body]).toEqual([200, '14', '']);
  });

  it('answers Zulip’s HTML pages: unknown file 404, no access 403, spectator sent to the login page', async () => {
    const s = bare();
    const url = await uploaded(s);
    const missing = await download(s, '/user_uploads/2/aa/nothing/here.txt');
    expect([missing.status, missing.body]).toEqual([404, '<p>This file does not exist or has been deleted.</p>']);
    const other = await download(s, url, ID.othello);
    expect([other.status, other.body]).toEqual([403, '<p>You are not authorized to view this file.</p>']);
    const spectator = await download(s, url, null);
    expect([spectator.status, spectator.headers.location]).toEqual([302, `/login/?next=${encodeURIComponent(url)}`]);
  });

  it('lets whoever can read a linking message download it: channel readers, guests only where they may read', async () => {
    const s = bare();
    const url = await uploaded(s);
    await send(s, `See [the file](${url})`, ID.hamlet, 'Denmark');
    expect((await download(s, url, ID.othello)).status).toBe(200);
    expect((await download(s, url, ID.polonius)).status).toBe(403);
    expect((await download(s, url, null)).status).toBe(302);
    // Linked in the web-public channel, spectators and guests may fetch it too.
    await send(s, `Also [here](http://zulip.testserver${url})`, ID.hamlet, 'Rome');
    expect((await download(s, url, null)).status).toBe(200);
    expect((await download(s, url, ID.polonius)).status).toBe(200);
  });

  it('GET /api/v1/user_uploads/… hands out a one-minute link that needs no credentials', async () => {
    let now = NOW;
    const clocked = bare(undefined, { clock: { now: () => now } });
    const url = await uploaded(clocked);
    const res = await clocked.request({ method: 'GET', path: `/api/v1${url}`, as: ID.hamlet });
    expect(res.body).toEqual({ result: 'success', msg: '', url: expect.stringMatching(/^\/user_uploads\/temporary\/[0-9A-F]+\/zulip\.txt$/) });
    const link = res.body.url as string;
    const fetched = await download(clocked, link, null);
    expect([fetched.status, fetched.body]).toEqual([200, Buffer.from('Hello, Zulip!\n')]);
    const renamed = await download(clocked, link.replace(/zulip\.txt$/, 'other.txt'), null);
    expect(renamed.body).toEqual({ result: 'error', msg: 'Invalid filename', code: 'BAD_REQUEST' });
    now += 60;
    expect((await download(clocked, link, null)).body).toEqual({ result: 'error', msg: 'Invalid token', code: 'BAD_REQUEST' });
    expect((await download(clocked, '/user_uploads/temporary/ABC/zulip.txt', null)).body.msg).toBe('Invalid token');
    const refused = await clocked.request({ method: 'GET', path: `/api/v1${url}`, as: ID.othello });
    expect(refused.status).toBe(403);
  });
});

describe('attachments and messages', () => {
  it('a message linking an upload claims it, announced to the sender before the message', async () => {
    const s = bare();
    const url = await uploaded(s);
    let messageId = 0;
    const events = await eventsOf(s, async () => {
      messageId = (await send(s, `[zulip.txt](${url})`)).body.id;
    });
    expect(events[0]).toEqual({
      event: {
        type: 'attachment',
        op: 'update',
        attachment: expect.objectContaining({ id: 1, message_ids: [messageId] }),
        upload_space_used: 14,
      },
      users: [ID.hamlet],
    });
    expect(events[1]!.event.type).toBe('message');
    expect((await attachments(s)).attachments[0].message_ids).toEqual([messageId]);
  });

  it("a link to someone else's upload one cannot see claims nothing", async () => {
    const s = bare();
    const url = await uploaded(s, TEXT, ID.iago);
    const events = await eventsOf(s, () => send(s, `[x](${url})`, ID.othello));
    expect(events.map((e) => e.event.type)).not.toContain('attachment');
    expect((await attachments(s, ID.iago)).attachments[0].message_ids).toEqual([]);
  });

  it('editing the link away returns the upload in detached_uploads; editing it back claims it again', async () => {
    const s = bare();
    const url = await uploaded(s);
    const id = (await send(s, `[zulip.txt](${url})`)).body.id;
    const edited = await s.request({ method: 'PATCH', path: `/api/v1/messages/${id}`, as: ID.hamlet, body: { content: 'never mind' } });
    expect(edited.body).toEqual({
      result: 'success',
      msg: '',
      detached_uploads: [{ id: 1, name: 'zulip.txt', path_id: url.slice('/user_uploads/'.length), size: 14, create_time: NOW, message_ids: [] }],
    });
    await s.request({ method: 'PATCH', path: `/api/v1/messages/${id}`, as: ID.hamlet, body: { content: `back: [f](${url})` } });
    expect((await attachments(s)).attachments[0].message_ids).toEqual([id]);
  });

  it('deleting the last message that links an upload deletes the upload', async () => {
    const s = bare();
    const url = await uploaded(s);
    const first = (await send(s, `[a](${url})`)).body.id;
    const second = (await send(s, `[b](${url})`)).body.id;
    // The engine's deletion, which message deletion and user deactivation both go through.
    const remove = async (id: number) => commit(s.engine, { value: null, events: deleteMessages(s.engine, [id], ID.iago) });
    const events = await eventsOf(s, () => remove(first));
    expect(events.filter((e) => e.event.type === 'attachment')).toEqual([
      { event: expect.objectContaining({ op: 'update', attachment: expect.objectContaining({ message_ids: [second] }) }), users: [ID.hamlet] },
    ]);
    const last = await eventsOf(s, () => remove(second));
    expect(last.filter((e) => e.event.type === 'attachment')).toEqual([
      { event: { type: 'attachment', op: 'remove', attachment: { id: 1 }, upload_space_used: 0 }, users: [ID.hamlet] },
    ]);
    expect((await attachments(s)).attachments).toEqual([]);
    expect((await download(s, url)).status).toBe(404);
  });
});

describe('DELETE /attachments/{id}', () => {
  it("deletes the uploader's file and announces it", async () => {
    const s = bare();
    const url = await uploaded(s);
    const events = await eventsOf(s, async () => {
      expect((await s.request({ method: 'DELETE', path: '/api/v1/attachments/1', as: ID.hamlet })).body).toEqual({ result: 'success', msg: '' });
    });
    expect(events).toEqual([{ event: { type: 'attachment', op: 'remove', attachment: { id: 1 }, upload_space_used: 0 }, users: [ID.hamlet] }]);
    expect((await download(s, url)).status).toBe(404);
  });

  it.each([
    ['an unknown id', 9, ID.hamlet],
    ["another user's upload", 1, ID.iago],
  ])('refuses %s with Invalid attachment', async (_name, id, as) => {
    const s = bare();
    await uploaded(s);
    const res = await s.request({ method: 'DELETE', path: `/api/v1/attachments/${id}`, as });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', msg: 'Invalid attachment', code: 'BAD_REQUEST' });
    expect(s.engine.state.attachments.size).toBe(1);
  });
});

describe('fixture uploads', () => {
  it('the dev realm has uploads, one linked from a message in Denmark', async () => {
    const s = sim();
    const hamlets = (await attachments(s)).attachments;
    expect(hamlets).toEqual([
      {
        id: 1,
        name: 'release-notes.txt',
        path_id: '2/4e/m2A3MSqFnWRLUf9SaPzQ0Up_/release-notes.txt',
        size: 50,
        create_time: 1_700_133_990,
        message_ids: [expect.any(Number)],
      },
    ]);
    const message = await s.request({ method: 'GET', path: `/api/v1/messages/${hamlets[0].message_ids[0]}`, as: ID.othello });
    expect(message.body.message.content).toContain('href="/user_uploads/2/4e/m2A3MSqFnWRLUf9SaPzQ0Up_/release-notes.txt"');
    expect((await download(s, '/user_uploads/2/4e/m2A3MSqFnWRLUf9SaPzQ0Up_/release-notes.txt', ID.othello)).body.toString()).toMatch(/^Release notes/);
    const dot = await download(s, '/user_uploads/2/a1/Xw8bqT0vZ3kLmN4pRs6uYc2d/dot.png', ID.iago);
    expect([dot.status, dot.headers['content-type'], dot.body.subarray(1, 4).toString()]).toEqual([200, 'image/png', 'PNG']);
    expect((await download(s, '/user_uploads/2/a1/Xw8bqT0vZ3kLmN4pRs6uYc2d/dot.png', ID.hamlet)).status).toBe(403);
  });

  it.each([
    ['a path outside the realm', (f: ReturnType<typeof devFixture>) => (f.uploads![0]!.path_id = '3/4e/x/a.txt'), '/uploads/0/path_id: must start with the realm id 2/'],
    ['an unknown owner', (f: ReturnType<typeof devFixture>) => (f.uploads![0]!.owner = 'ghost@zulip.com'), '/uploads/0/owner: no user with email ghost@zulip.com'],
    ['content that is not Base64', (f: ReturnType<typeof devFixture>) => (f.uploads![1]!.content = 'not base64!'), '/uploads/1/content: not Base64'],
  ])('refuses %s', (_name, mutate, expected) => {
    const fixture = devFixture();
    mutate(fixture);
    expect(() => sim({ fixture })).toThrow(expected);
  });
});

describe('over real HTTP', () => {
  it('a multipart upload, its download with Basic credentials, and the size limit', async () => {
    const fixture = devFixture();
    fixture.realm.max_file_upload_size_mib = 1;
    const s = sim({ fixture });
    const server = await s.listen(0);
    try {
      const origin = new URL(server.url).origin;
      const hamlet = s.engine.state.users.get(ID.hamlet)!;
      const auth = { authorization: basicAuth(hamlet.delivery_email, hamlet.api_key) };
      const bytes = new Uint8Array(256).map((_, i) => i);
      const form = new FormData();
      form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), 'bytes.bin');
      const res = await fetch(`${server.url}/user_uploads`, { method: 'POST', headers: auth, body: form });
      const body = (await res.json()) as { url: string; filename: string };
      expect([res.status, body.filename]).toEqual([200, 'bytes.bin']);
      const got = await fetch(`${origin}${body.url}`, { headers: auth });
      expect(got.status).toBe(200);
      expect(got.headers.get('content-disposition')).toBe('attachment; filename="bytes.bin"');
      expect(new Uint8Array(await got.arrayBuffer())).toEqual(bytes);

      const big = new FormData();
      big.append('file', new Blob([new Uint8Array(1024 * 1024 + 1)]), 'big.bin');
      const refused = await fetch(`${server.url}/user_uploads`, { method: 'POST', headers: auth, body: big });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({ result: 'error', msg: "File is larger than this server's configured maximum upload size (1 MiB).", code: 'BAD_REQUEST' });
    } finally {
      await server.close();
    }
  });
});
