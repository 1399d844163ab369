/** Custom emoji (zerver/views/realm_emoji.py): GET /realm/emoji, POST and DELETE /realm/emoji/{name}. */
import { describe, expect, it } from 'vitest';
import type { SimFile, Simulator } from '../../simulator/index.ts';
import { ID, devFixture, sim, watchEvents } from './helpers.ts';

const PNG: SimFile = { filename: 'party.png', content: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), type: 'image/png' };

const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

function upload(s: Simulator, name: string, as: number = ID.hamlet, files: Record<string, SimFile> = { file: PNG }) {
  return s.request({ method: 'POST', path: `/api/v1/realm/emoji/${encodeURIComponent(name)}`, as, files });
}

function remove(s: Simulator, name: string, as: number = ID.hamlet) {
  return s.request({ method: 'DELETE', path: `/api/v1/realm/emoji/${encodeURIComponent(name)}`, as });
}

async function list(s: Simulator, as: number = ID.hamlet) {
  const res = await s.request({ method: 'GET', path: '/api/v1/realm/emoji', as });
  expect(res.status).toBe(200);
  return res.body.emoji as Record<string, Record<string, unknown>>;
}

async function eventsOf(s: Simulator, action: () => Promise<unknown>) {
  const watch = watchEvents(s);
  await action();
  return watch.take();
}

const everyoneActive = (s: Simulator) =>
  [...s.engine.state.users.values()].filter((u) => u.is_active && !u.is_system_bot).map((u) => u.id);

const GREEN_TICK = { id: '1', name: 'green_tick', source_url: '/user_avatars/2/emoji/images/1.png', deactivated: false, author_id: ID.iago, still_url: null };

describe('GET /realm/emoji', () => {
  it("lists the realm's emoji keyed by ID string, to any user (guests included)", async () => {
    const s = sim();
    expect(await list(s, ID.polonius)).toEqual({ '1': GREEN_TICK });
  });
});

describe('POST /realm/emoji/{emoji_name}', () => {
  it('adds the emoji, lists it, and sends the whole list to every active user', async () => {
    const s = sim();
    let res: Awaited<ReturnType<typeof upload>> | undefined;
    const events = await eventsOf(s, async () => {
      res = await upload(s, 'party_parrot');
    });
    expect([res!.status, res!.body]).toEqual([200, { result: 'success', msg: '' }]);
    const emoji = await list(s);
    expect(emoji['2']).toEqual({
      id: '2',
      name: 'party_parrot',
      source_url: expect.stringMatching(/^\/user_avatars\/2\/emoji\/images\/[0-9a-f]{8}\.png$/),
      deactivated: false,
      author_id: ID.hamlet,
      still_url: null,
    });
    expect(events).toEqual([{ event: { type: 'realm_emoji', op: 'update', realm_emoji: emoji }, users: everyoneActive(s) }]);
    expect(events[0]!.users).toEqual(expect.arrayContaining([ID.polonius, ID.defaultBot]));
  });

  it('normalizes the name: surrounding spaces dropped, inner spaces become underscores', async () => {
    const s = sim();
    expect((await upload(s, '  our team ')).status).toBe(200);
    expect(Object.values(await list(s)).map((e) => e.name)).toEqual(['green_tick', 'our_team']);
  });

  it('is usable at once in messages and reactions; deactivated, it is refused for new reactions', async () => {
    const s = sim();
    await upload(s, 'shipit');
    const sent = await s.request({ method: 'POST', path: '/api/v1/messages', as: ID.hamlet, body: { type: 'stream', to: 'Denmark', topic: 'emoji', content: 'Ready :shipit:' } });
    const id = sent.body.id as number;
    const got = await s.request({ method: 'GET', path: `/api/v1/messages/${id}`, as: ID.hamlet });
    expect(got.body.message.content).toMatch(/<img alt=":shipit:" class="emoji" src="\/user_avatars\/2\/emoji\/images\/[0-9a-f]{8}\.png" title="shipit">/);
    const reacted = await s.request({ method: 'POST', path: `/api/v1/messages/${id}/reactions`, as: ID.othello, body: { emoji_name: 'shipit' } });
    expect(reacted.status).toBe(200);
    expect((await s.request({ method: 'GET', path: `/api/v1/messages/${id}`, as: ID.hamlet })).body.message.reactions).toEqual([
      expect.objectContaining({ emoji_name: 'shipit', emoji_code: '2', reaction_type: 'realm_emoji', user_id: ID.othello }),
    ]);
    await remove(s, 'shipit');
    const again = await s.request({ method: 'POST', path: `/api/v1/messages/${id}/reactions`, as: ID.iago, body: { emoji_name: 'shipit' } });
    expect(again.body).toEqual(error("Emoji 'shipit' does not exist"));
  });

  it('takes the file under any field name (the Python client names it after the file path)', async () => {
    const s = sim();
    expect((await upload(s, 'anyfield', ID.hamlet, { '/home/me/party.png': PNG })).status).toBe(200);
  });

  it('guesses the type from the file name when the part declares none, and gives the file that extension', async () => {
    const s = sim();
    expect((await upload(s, 'gifname', ID.hamlet, { file: { filename: 'dance.GIF', content: 'GIF89a' } })).status).toBe(200);
    expect(Object.values(await list(s)).find((e) => e.name === 'gifname')!.source_url).toMatch(/\.gif$/);
  });

  it.each([
    ['   ', 'Emoji name is missing'],
    ['Party', 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'],
    ['emoji!', 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'],
    ['café', 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'],
    ['trailing_', 'Emoji names must end with either a letter or digit.'],
    ['dash-', 'Emoji names must end with either a letter or digit.'],
    ['trailing space _', 'Emoji names must end with either a letter or digit.'],
  ])('refuses the name %j: %s', async (name, msg) => {
    const s = sim();
    const res = await upload(s, name);
    expect([res.status, res.body]).toEqual([400, error(msg)]);
  });

  it('answers an empty path segment as an unknown path', async () => {
    const s = sim();
    const res = await s.request({ method: 'POST', path: '/api/v1/realm/emoji/', as: ID.hamlet, files: { file: PNG } });
    expect(res.status).toBe(404);
  });

  it('refuses guests and bots before anything else', async () => {
    const s = sim();
    expect((await upload(s, 'Bad!', ID.polonius)).body).toEqual(error('Not allowed for guest users'));
    expect((await upload(s, 'fine', ID.defaultBot)).body).toEqual(error('This endpoint does not accept bot requests.'));
  });

  it('follows can_add_custom_emoji_group (name checks come first)', async () => {
    const fixture = devFixture();
    fixture.realm.can_add_custom_emoji_group = 'role:moderators';
    const s = sim({ fixture });
    expect((await upload(s, 'Bad!', ID.hamlet)).body).toEqual(
      error('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'),
    );
    expect((await upload(s, 'fine', ID.hamlet)).body).toEqual(error('Insufficient permission'));
    expect((await upload(s, 'fine', ID.shiva)).status).toBe(200);
  });

  it('refuses a name an active emoji has, but reuses the name of a deactivated one under a new ID', async () => {
    const s = sim();
    expect((await upload(s, 'green_tick')).body).toEqual(error('A custom emoji with this name already exists.'));
    expect((await remove(s, 'green_tick', ID.iago)).status).toBe(200);
    expect((await upload(s, 'green_tick')).status).toBe(200);
    const emoji = await list(s);
    expect(Object.values(emoji).map((e) => [e.id, e.name, e.deactivated])).toEqual([
      ['1', 'green_tick', true],
      ['2', 'green_tick', false],
    ]);
    const sent = await s.request({ method: 'POST', path: '/api/v1/messages/1/reactions', as: ID.hamlet, body: { emoji_name: 'green_tick' } });
    expect(sent.status).toBe(200);
  });

  it('needs exactly one file', async () => {
    const s = sim();
    expect((await upload(s, 'nofile', ID.hamlet, {})).body).toEqual(error('You must upload exactly one file.'));
    expect((await upload(s, 'twofiles', ID.hamlet, { a: PNG, b: PNG })).body).toEqual(error('You must upload exactly one file.'));
  });

  it('lets only administrators override a built-in emoji name', async () => {
    const s = sim();
    expect((await upload(s, 'smile', ID.hamlet)).body).toEqual(error('Only administrators can override built-in emoji.'));
    expect((await upload(s, 'smile', ID.iago)).status).toBe(200);
    // The custom one now wins over the Unicode one in messages.
    const sent = await s.request({ method: 'POST', path: '/api/v1/messages', as: ID.hamlet, body: { type: 'stream', to: 'Denmark', topic: 'emoji', content: ':smile:' } });
    const got = await s.request({ method: 'GET', path: `/api/v1/messages/${sent.body.id}`, as: ID.hamlet });
    expect(got.body.message.content).toContain('class="emoji" src="/user_avatars/2/emoji/images/');
  });

  it('refuses files over 5 MiB, and non-images', async () => {
    const s = sim();
    const big: SimFile = { filename: 'big.png', content: new Uint8Array(5 * 1024 * 1024 + 1), type: 'image/png' };
    expect((await upload(s, 'big', ID.hamlet, { file: big })).body).toEqual(error('Uploaded file is larger than the allowed limit of 5 MiB'));
    const limit: SimFile = { ...big, content: new Uint8Array(5 * 1024 * 1024) };
    expect((await upload(s, 'atlimit', ID.hamlet, { file: limit })).status).toBe(200);
    const text: SimFile = { filename: 'notes.txt', content: 'not an image', type: 'text/plain' };
    expect((await upload(s, 'text', ID.hamlet, { file: text })).body).toEqual(error('Invalid image format'));
    const svg: SimFile = { filename: 'logo.svg', content: '<svg/>', type: 'image/svg+xml' };
    expect((await upload(s, 'svg', ID.hamlet, { file: svg })).body).toEqual(error('Invalid image format'));
  });

  it('changes nothing and sends nothing when refused', async () => {
    const s = sim();
    const events = await eventsOf(s, () => upload(s, 'smile', ID.hamlet));
    expect(events).toEqual([]);
    expect(Object.keys(await list(s))).toEqual(['1']);
  });
});

describe('DELETE /realm/emoji/{emoji_name}', () => {
  it("deactivates it (still listed), sends the list to everyone, and keeps existing reactions", async () => {
    const s = sim();
    const before = (await s.request({ method: 'GET', path: '/api/v1/messages/1', as: ID.iago })).body;
    let res: Awaited<ReturnType<typeof remove>> | undefined;
    const events = await eventsOf(s, async () => {
      res = await remove(s, 'green_tick', ID.iago);
    });
    expect([res!.status, res!.body]).toEqual([200, { result: 'success', msg: '' }]);
    const emoji = await list(s);
    expect(emoji).toEqual({ '1': { ...GREEN_TICK, deactivated: true } });
    expect(events).toEqual([{ event: { type: 'realm_emoji', op: 'update', realm_emoji: emoji }, users: everyoneActive(s) }]);
    const after = (await s.request({ method: 'GET', path: '/api/v1/messages/1', as: ID.iago })).body;
    expect(after.message.reactions).toEqual(before.message.reactions);
  });

  it('lets the author deactivate their own emoji, and nobody else but administrators', async () => {
    const s = sim();
    await upload(s, 'mine', ID.hamlet);
    expect((await remove(s, 'mine', ID.othello)).body).toEqual(error('Must be an organization administrator or emoji author'));
    expect((await remove(s, 'mine', ID.shiva)).body).toEqual(error('Must be an organization administrator or emoji author'));
    expect((await remove(s, 'mine', ID.hamlet)).status).toBe(200);
    expect((await remove(s, 'green_tick', ID.hamlet)).body).toEqual(error('Must be an organization administrator or emoji author'));
    expect((await remove(s, 'green_tick', ID.desdemona)).status).toBe(200);
  });

  it('answers an unknown or already deactivated name before checking permission', async () => {
    const s = sim();
    expect((await remove(s, 'nonesuch', ID.polonius)).body).toEqual(error("Emoji 'nonesuch' does not exist"));
    await remove(s, 'green_tick', ID.iago);
    expect((await remove(s, 'green_tick', ID.iago)).body).toEqual(error("Emoji 'green_tick' does not exist"));
  });
});
