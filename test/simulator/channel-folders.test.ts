/** Channel folders (zerver/views/channel_folders.py, zerver/actions/channel_folders.py) through the in-process API. */
import { describe, expect, it } from 'vitest';
import { activeUserIds } from '../../simulator/engine/core.ts';
import { channelFoldersRegisterState } from '../../simulator/engine/channels/folders.ts';
import { FixtureError, type Simulator } from '../../simulator/index.ts';
import { ID, NOW, devFixture, sim, watchEvents } from './helpers.ts';

/** The events users' queues received while `action` ran, each with who got it. */
async function eventsOf(s: Simulator, action: () => Promise<unknown>) {
  const watch = watchEvents(s);
  await action();
  return watch.take();
}

const call = (s: Simulator, method: string, path: string, body: Record<string, unknown> = {}, as: number = ID.iago) =>
  s.request({ method, path: `/api/v1${path}`, as, body });

const create = (s: Simulator, name: string, description = '') => call(s, 'POST', '/channel_folders/create', { name, description });

/** A realm with three folders: Frontend (1), Backend (2), and Old (3, archived). */
async function withFolders() {
  const s = sim();
  await create(s, 'Frontend', 'The **web** app');
  await create(s, 'Backend');
  await create(s, 'Old');
  await call(s, 'PATCH', '/channel_folders/3', { is_archived: true });
  return s;
}

const folderNames = (body: { channel_folders: { name: string }[] }) => body.channel_folders.map((f) => f.name);

describe('POST /channel_folders/create', () => {
  it('creates a folder (order = id) and announces it to the whole realm', async () => {
    const s = sim();
    const folder = {
      id: 1,
      name: 'Frontend',
      description: 'The **web** app',
      rendered_description: '<p>The <strong>web</strong> app</p>',
      order: 1,
      date_created: NOW,
      creator_id: ID.iago,
      is_archived: false,
    };
    const events = await eventsOf(s, async () => {
      const res = await create(s, 'Frontend', 'The **web** app');
      expect(res.body).toEqual({ result: 'success', msg: '', channel_folder_id: 1 });
    });
    expect(events).toEqual([{ event: { type: 'channel_folder', op: 'add', channel_folder: folder }, users: activeUserIds(s.engine) }]);
    expect(events[0]!.users).toEqual(expect.arrayContaining([ID.polonius, ID.hamlet, ID.desdemona]));
    expect((await call(s, 'GET', '/channel_folders', {}, ID.polonius)).body).toEqual({ result: 'success', msg: '', channel_folders: [folder] });
  });

  const refused: [string, Record<string, unknown>, string][] = [
    ['no parameters (description is read first)', {}, "Missing 'description' argument"],
    ['no name', { description: '' }, "Missing 'name' argument"],
    ['a description over 1024 characters', { description: 'd'.repeat(1025), name: 'x'.repeat(61) }, 'description is too long (limit: 1024 characters)'],
    ['a name over 60 characters', { description: '', name: 'x'.repeat(61) }, 'name is too long (limit: 60 characters)'],
    ['a blank name', { description: '', name: '  ' }, "Channel folder name can't be empty."],
    ['a control character', { description: '', name: 'ab\u0007' }, 'Invalid character in channel folder name, at position 3.'],
    ['a name in use, ignoring case', { description: '', name: 'BACKEND' }, 'Channel folder name already in use'],
    ['the name of an archived folder', { description: '', name: 'old' }, 'Channel folder name already in use'],
  ];
  it.each(refused)('refuses %s', async (_name, body, msg) => {
    const s = await withFolders();
    const res = await call(s, 'POST', '/channel_folders/create', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', msg });
    expect(s.engine.state.channelFolders.size).toBe(3);
  });

  it.each([ID.shiva, ID.hamlet, ID.polonius])('is for administrators only (user %i)', async (as) => {
    const res = await call(sim(), 'POST', '/channel_folders/create', { name: 'x', description: '' }, as);
    expect(res.body).toEqual({ result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
  });
});

describe('GET /channel_folders', () => {
  it('lists by order, archived folders only on request', async () => {
    const s = await withFolders();
    expect(folderNames((await call(s, 'GET', '/channel_folders', {}, ID.hamlet)).body)).toEqual(['Frontend', 'Backend']);
    const all = await s.request({ method: 'GET', path: '/api/v1/channel_folders', as: ID.hamlet, query: { include_archived: true } });
    expect(folderNames(all.body)).toEqual(['Frontend', 'Backend', 'Old']);
    expect(folderNames(channelFoldersRegisterState(s.engine))).toEqual(['Frontend', 'Backend', 'Old']);
  });
});

describe('PATCH /channel_folders (reorder)', () => {
  it('sets each folder to its index and announces the order as sent', async () => {
    const s = await withFolders();
    const events = await eventsOf(s, async () => {
      expect((await call(s, 'PATCH', '/channel_folders', { order: [3, 2, 99, 1] })).body).toEqual({ result: 'success', msg: '' });
    });
    expect(events).toEqual([{ event: { type: 'channel_folder', op: 'reorder', order: [3, 2, 99, 1] }, users: activeUserIds(s.engine) }]);
    const all = channelFoldersRegisterState(s.engine).channel_folders;
    expect(all.map((f) => [f.name, f.order])).toEqual([
      ['Old', 0],
      ['Backend', 1],
      ['Frontend', 3],
    ]);
  });

  it('takes the last position of a repeated id', async () => {
    const s = await withFolders();
    await call(s, 'PATCH', '/channel_folders', { order: [1, 2, 3, 1] });
    expect(folderNames(channelFoldersRegisterState(s.engine))).toEqual(['Backend', 'Old', 'Frontend']);
  });

  it('must list every folder, archived ones included', async () => {
    const s = await withFolders();
    const res = await call(s, 'PATCH', '/channel_folders', { order: [2, 1] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', msg: 'Invalid order mapping', code: 'BAD_REQUEST' });
    expect(folderNames(channelFoldersRegisterState(s.engine))).toEqual(['Frontend', 'Backend', 'Old']);
  });

  it('is for administrators only', async () => {
    const s = await withFolders();
    const res = await call(s, 'PATCH', '/channel_folders', { order: [1, 2, 3] }, ID.shiva);
    expect(res.body).toEqual({ result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
  });
});

describe('PATCH /channel_folders/{id}', () => {
  it('announces each changed aspect separately, and skips unchanged values', async () => {
    const s = await withFolders();
    const audience = activeUserIds(s.engine);
    const events = await eventsOf(s, async () => {
      const res = await call(s, 'PATCH', '/channel_folders/2', { name: 'Server', description: 'APIs', is_archived: true });
      expect(res.body).toEqual({ result: 'success', msg: '' });
      expect((await call(s, 'PATCH', '/channel_folders/2', { name: 'Server', description: 'APIs', is_archived: true })).status).toBe(200);
      expect((await call(s, 'PATCH', '/channel_folders/2', { is_archived: false })).status).toBe(200);
    });
    expect(events).toEqual([
      { event: { type: 'channel_folder', op: 'update', channel_folder_id: 2, data: { name: 'Server' } }, users: audience },
      {
        event: { type: 'channel_folder', op: 'update', channel_folder_id: 2, data: { description: 'APIs', rendered_description: '<p>APIs</p>' } },
        users: audience,
      },
      { event: { type: 'channel_folder', op: 'update', channel_folder_id: 2, data: { is_archived: true } }, users: audience },
      { event: { type: 'channel_folder', op: 'update', channel_folder_id: 2, data: { is_archived: false } }, users: audience },
    ]);
  });

  it('refuses an unknown folder', async () => {
    const res = await call(sim(), 'PATCH', '/channel_folders/9', { name: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', msg: 'Invalid channel folder ID', code: 'BAD_REQUEST' });
  });

  it('checks a new name like creation does (its own name in another case counts as taken)', async () => {
    const s = await withFolders();
    expect((await call(s, 'PATCH', '/channel_folders/1', { name: 'frontend' })).body.msg).toBe('Channel folder name already in use');
    expect((await call(s, 'PATCH', '/channel_folders/1', { name: ' ' })).body.msg).toBe("Channel folder name can't be empty.");
  });

  it('refuses to archive a folder that still holds a channel, changing nothing', async () => {
    const s = await withFolders();
    const created = await call(s, 'POST', '/channels/create', { name: 'web-ui', subscribers: [ID.iago], folder_id: 1 });
    expect(created.status).toBe(200);
    const events = await eventsOf(s, async () => {
      const res = await call(s, 'PATCH', '/channel_folders/1', { name: 'Web', is_archived: true });
      expect(res.body).toEqual({ result: 'error', msg: 'You need to remove all the channels from this folder to archive it.', code: 'BAD_REQUEST' });
    });
    expect(events).toEqual([]);
    expect(s.engine.state.channelFolders.get(1)).toMatchObject({ name: 'Frontend', isArchived: false });
  });
});

describe('channels in folders', () => {
  it('a new channel may name a folder, archived or not; GET /streams shows it', async () => {
    const s = await withFolders();
    for (const [name, folder] of [['web-ui', 1], ['attic', 3]] as const) {
      expect((await call(s, 'POST', '/channels/create', { name, subscribers: [ID.iago], folder_id: folder })).status).toBe(200);
    }
    const streams = (await call(s, 'GET', '/streams')).body.streams as { name: string; folder_id: number | null }[];
    expect(streams.filter((c) => c.folder_id !== null).map((c) => [c.name, c.folder_id])).toEqual([
      ['attic', 3],
      ['web-ui', 1],
    ]);
  });

  it.each([
    ['POST', '/channels/create', { name: 'web-ui', subscribers: [ID.iago], folder_id: 9 }],
    ['POST', '/users/me/subscriptions', { subscriptions: [{ name: 'web-ui' }], folder_id: 9 }],
  ])('%s %s with an unknown folder fails and creates nothing', async (method, path, body) => {
    const s = await withFolders();
    const res = await call(s, method, path, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', msg: 'Invalid channel folder ID', code: 'BAD_REQUEST' });
    expect(s.engine.state.streamsByName.has('web-ui')).toBe(false);
  });
});

describe('channel folders in a fixture', () => {
  it('loads folders in their listed order and puts channels in them', async () => {
    const fixture = devFixture();
    fixture.channel_folders = [
      { id: 5, name: 'Cities', description: 'Places', creator: 'iago@zulip.com' },
      { id: 2, name: 'Archive', is_archived: true },
    ];
    fixture.streams.find((c) => c.name === 'Verona')!.folder_id = 5;
    const s = sim({ fixture });
    const listed = await s.request({ method: 'GET', path: '/api/v1/channel_folders', as: ID.hamlet, query: { include_archived: true } });
    expect(listed.body.channel_folders).toEqual([
      { id: 5, name: 'Cities', description: 'Places', rendered_description: '<p>Places</p>', order: 0, date_created: 1_700_000_000, creator_id: ID.iago, is_archived: false },
      { id: 2, name: 'Archive', description: '', rendered_description: '', order: 1, date_created: 1_700_000_000, creator_id: null, is_archived: true },
    ]);
    const verona = (await call(s, 'GET', '/streams', {}, ID.hamlet)).body.streams.find((c: { name: string }) => c.name === 'Verona');
    expect(verona.folder_id).toBe(5);
    expect((await create(s, 'New')).body.channel_folder_id).toBe(6);
  });

  it.each([
    ['an unknown folder id on a channel', (f: ReturnType<typeof devFixture>) => (f.streams[0]!.folder_id = 4), '/streams/0/folder_id: no channel folder 4'],
    [
      'duplicate folder names',
      (f: ReturnType<typeof devFixture>) => (f.channel_folders = [{ id: 1, name: 'A' }, { id: 2, name: 'a' }]),
      '/channel_folders/1/name: duplicate channel folder name a',
    ],
  ])('refuses %s', (_name, mutate, expected) => {
    const fixture = devFixture();
    mutate(fixture);
    expect(() => sim({ fixture })).toThrow(FixtureError);
    expect(() => sim({ fixture })).toThrow(expected);
  });
});
