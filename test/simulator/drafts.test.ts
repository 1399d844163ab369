/** Drafts (zerver/views/drafts.py, zerver/lib/drafts.py) through the in-process API: shapes, validation order, events. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draftsRegisterState } from '../../simulator/engine/messages/drafts.ts';
import { fixedClock, type Simulator } from '../../simulator/index.ts';
import { ID, NOW, devFixture, sim, watchEvents } from './helpers.ts';

const VERONA = 3;
const CORE_TEAM = 8;

function post(s: Simulator, drafts: unknown, as: number = ID.hamlet) {
  return s.request({ method: 'POST', path: '/api/v1/drafts', as, body: { drafts } });
}

function list(s: Simulator, as: number = ID.hamlet) {
  return s.request({ method: 'GET', path: '/api/v1/drafts', as });
}

/** The events users' queues received while `action` ran, each with who got it. */
async function eventsOf(s: Simulator, action: () => Promise<unknown>) {
  const watch = watchEvents(s);
  await action();
  return watch.take();
}

const draft = (fields: Record<string, unknown> = {}) => ({ type: 'stream', to: [VERONA], topic: 'plans', content: 'Hello', ...fields });

describe('POST /drafts', () => {
  it('creates drafts in order, normalised as Zulip stores them, and announces them to the author', async () => {
    const s = sim();
    const events = await eventsOf(s, async () => {
      const res = await post(s, [
        draft({ content: '  trimmed  ', timestamp: 1_600_000_000.9 }),
        { type: 'private', to: [ID.iago, ID.othello, ID.hamlet, ID.iago], topic: 'dropped', content: 'group' },
        { type: 'private', to: [ID.hamlet], topic: 'x', content: 'note to self' },
        { type: 'private', to: [], topic: 'x', content: 'nobody yet' },
        { type: '', to: [VERONA], topic: 'x', content: 'unaddressed' },
      ]);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: 'success', msg: '', ids: [1, 2, 3, 4, 5] });
    });
    const stored = [
      { id: 1, type: 'stream', to: [VERONA], topic: 'plans', content: 'trimmed', timestamp: 1_600_000_000 },
      { id: 2, type: 'private', to: [ID.iago, ID.othello], topic: '', content: 'group', timestamp: NOW },
      { id: 3, type: 'private', to: [ID.hamlet], topic: '', content: 'note to self', timestamp: NOW },
      { id: 4, type: '', to: [], topic: '', content: 'nobody yet', timestamp: NOW },
      { id: 5, type: '', to: [], topic: '', content: 'unaddressed', timestamp: NOW },
    ];
    expect(events).toEqual([{ event: { type: 'drafts', op: 'add', drafts: stored }, users: [ID.hamlet] }]);
    expect((await list(s)).body).toEqual({ result: 'success', msg: '', count: 5, drafts: stored });
  });

  it('truncates long topics (no trimming) and long content like messages', async () => {
    const s = sim();
    await post(s, [draft({ topic: ` ${'t'.repeat(70)}`, content: 'c'.repeat(10_001) })]);
    const [stored] = (await list(s)).body.drafts;
    expect(stored.topic).toBe(` ${'t'.repeat(56)}...`);
    expect([...stored.topic]).toHaveLength(60);
    expect(stored.content).toBe(`${'c'.repeat(9980)}\n[message truncated]`);
  });

  it('still sends an add event for an empty list', async () => {
    const s = sim();
    const events = await eventsOf(s, async () => expect((await post(s, [])).body.ids).toEqual([]));
    expect(events).toEqual([{ event: { type: 'drafts', op: 'add', drafts: [] }, users: [ID.hamlet] }]);
  });

  it('lets bots keep drafts too', async () => {
    const s = sim();
    expect((await post(s, [draft()], ID.defaultBot)).status).toBe(200);
    expect((await list(s, ID.defaultBot)).body.count).toBe(1);
  });

  const refused: [string, unknown, string][] = [
    ['no drafts parameter', undefined, "Missing 'drafts' argument"],
    ['not a list', { type: 'stream' }, 'drafts is not a list'],
    ['an item that is not an object', [1], 'drafts[0] is not a dict'],
    ['a missing key', [{ type: 'stream', to: [VERONA], content: 'x' }], 'drafts[0]["topic"] field is missing'],
    ['an unknown type', [draft({ type: 'direct' })], 'Invalid drafts[0]["type"]'],
    ['a non-integer recipient', [draft({ to: ['Verona'] })], 'drafts[0]["to"][0] is not an integer'],
    ['a topic that is not a string', [draft({ topic: 5 })], 'drafts[0]["topic"] is not a string'],
    ['blank content', [draft({ content: ' \n ' })], 'drafts[0]["content"] cannot be blank'],
    ['a timestamp that is not a number', [draft({ timestamp: '1' })], 'drafts[0]["timestamp"] is not a float'],
    ['an id (unknown key)', [draft({ id: 4 })], 'Argument "id" at drafts[0] is unexpected'],
    ['a bad second draft', [draft(), draft({ content: '' })], 'drafts[1]["content"] cannot be blank'],
    ['null bytes in the content', [draft({ content: 'a\u0000b' })], 'Message must not contain null bytes'],
    ['a negative timestamp', [draft({ timestamp: -1 })], 'Timestamp must not be negative.'],
    ['null bytes in a channel topic', [draft({ topic: 'a\u0000' })], 'Topic must not contain null bytes'],
    ['two channels', [draft({ to: [VERONA, 4] })], 'Must specify exactly 1 channel ID for channel messages'],
    ['no channel', [draft({ to: [] })], 'Must specify exactly 1 channel ID for channel messages'],
    ['an unknown channel', [draft({ to: [999] })], 'Invalid channel ID'],
    ['a private channel the author cannot read', [draft({ to: [CORE_TEAM] })], 'Invalid channel ID'],
    ['an unknown DM recipient', [{ type: 'private', to: [ID.iago, 999], topic: '', content: 'x' }], 'Invalid user ID 999'],
    // Checks run in Zulip's order: content before the recipients.
    ['null bytes before a bad channel', [draft({ to: [999], content: '\u0000' })], 'Message must not contain null bytes'],
  ];
  it.each(refused)('refuses %s, creating nothing', async (_name, drafts, msg) => {
    const s = sim();
    const res = await s.request({ method: 'POST', path: '/api/v1/drafts', as: ID.othello, body: drafts === undefined ? {} : { drafts } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', msg });
    expect(s.engine.state.drafts.size).toBe(0);
  });

  it('refuses a DM draft to a deactivated user', async () => {
    const s = sim();
    await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.othello}`, as: ID.iago });
    const res = await post(s, [{ type: 'private', to: [ID.othello], topic: '', content: 'x' }]);
    expect(res.body).toEqual({ result: 'error', msg: "'user12@zulip.testserver' is no longer using Zulip.", code: 'BAD_REQUEST' });
  });

  it('accepts the private channel for its subscriber', async () => {
    const s = sim();
    expect((await post(s, [draft({ to: [CORE_TEAM] })])).status).toBe(200);
  });
});

describe('PATCH /drafts/{id} and DELETE /drafts/{id}', () => {
  it('replaces the draft whole, resetting the edit time when none is sent', async () => {
    let now = NOW;
    const s = sim({ clock: { now: () => now } });
    await post(s, [draft({ timestamp: 5 })]);
    now = NOW + 60;
    const events = await eventsOf(s, async () => {
      const res = await s.request({
        method: 'PATCH',
        path: '/api/v1/drafts/1',
        as: ID.hamlet,
        body: { draft: { type: 'private', to: [ID.cordelia], topic: 'x', content: 'changed' } },
      });
      expect(res.body).toEqual({ result: 'success', msg: '' });
    });
    const updated = { id: 1, type: 'private', to: [ID.cordelia], topic: '', content: 'changed', timestamp: NOW + 60 };
    expect(events).toEqual([{ event: { type: 'drafts', op: 'update', draft: updated }, users: [ID.hamlet] }]);
    expect((await list(s)).body.drafts).toEqual([updated]);
  });

  it('deletes and announces the removal', async () => {
    const s = sim();
    await post(s, [draft(), draft()]);
    const events = await eventsOf(s, async () => {
      expect((await s.request({ method: 'DELETE', path: '/api/v1/drafts/1', as: ID.hamlet })).body).toEqual({ result: 'success', msg: '' });
    });
    expect(events).toEqual([{ event: { type: 'drafts', op: 'remove', draft_id: 1 }, users: [ID.hamlet] }]);
    expect((await list(s)).body.drafts.map((d: { id: number }) => d.id)).toEqual([2]);
  });

  it.each([
    ['PATCH', { draft: draft() }],
    ['DELETE', {}],
  ])("%s: an unknown id, or another user's draft, is 404 Draft does not exist", async (method, body) => {
    const s = sim();
    await post(s, [draft()]);
    for (const [path, as] of [['/api/v1/drafts/99', ID.hamlet], ['/api/v1/drafts/1', ID.iago]] as const) {
      const res = await s.request({ method, path, as, body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ result: 'error', msg: 'Draft does not exist', code: 'BAD_REQUEST' });
    }
    expect((await list(s)).body.drafts).toHaveLength(1);
  });

  it('PATCH parses the draft before looking it up, then validates it', async () => {
    const s = sim();
    await post(s, [draft()]);
    const bad = await s.request({ method: 'PATCH', path: '/api/v1/drafts/99', as: ID.hamlet, body: { draft: { type: 'x' } } });
    expect(bad.body.msg).toBe('Invalid draft["type"]');
    const invalid = await s.request({ method: 'PATCH', path: '/api/v1/drafts/1', as: ID.hamlet, body: { draft: draft({ to: [999] }) } });
    expect(invalid.body.msg).toBe('Invalid channel ID');
    expect((await list(s)).body.drafts[0].to).toEqual([VERONA]);
  });
});

describe('GET /drafts and the /register state', () => {
  it('lists oldest edit first; /register newest first', async () => {
    const s = sim();
    await post(s, [draft({ timestamp: 300 }), draft({ timestamp: 100 }), draft({ timestamp: 200 })]);
    expect((await list(s)).body.drafts.map((d: { id: number }) => d.id)).toEqual([2, 3, 1]);
    const hamlet = s.engine.state.users.get(ID.hamlet)!;
    expect(draftsRegisterState(s.engine, hamlet).drafts.map((d) => d.id)).toEqual([1, 3, 2]);
    expect(draftsRegisterState(s.engine, s.engine.state.users.get(ID.iago)!)).toEqual({ drafts: [] });
  });

  it("shows only the caller's drafts", async () => {
    const s = sim();
    await post(s, [draft()]);
    expect((await list(s, ID.iago)).body).toEqual({ result: 'success', msg: '', count: 0, drafts: [] });
  });
});

describe('drafts synchronization turned off (fixture)', () => {
  const fixture = devFixture();
  fixture.users.find((u) => u.email === 'hamlet@zulip.com')!.enable_drafts_synchronization = false;

  it.each([
    ['GET', '/api/v1/drafts', {}],
    ['POST', '/api/v1/drafts', { drafts: 'not even JSON' }],
    ['PATCH', '/api/v1/drafts/1', {}],
    ['DELETE', '/api/v1/drafts/1', {}],
  ])('%s %s is refused before its parameters are read', async (method, path, body) => {
    const s = sim({ fixture });
    const res = await s.request({ method, path, as: ID.hamlet, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', msg: 'User has disabled synchronizing drafts.', code: 'BAD_REQUEST' });
  });

  it('and /register hands out no drafts', () => {
    const s = sim({ fixture });
    expect(draftsRegisterState(s.engine, s.engine.state.users.get(ID.hamlet)!)).toEqual({ drafts: [] });
  });
});

describe('property: any draft object either round-trips or is refused with a 400', () => {
  const anyDraft = fc.record(
    {
      type: fc.constantFrom('', 'stream', 'private', 'direct', 5),
      to: fc.oneof(fc.array(fc.constantFrom(VERONA, CORE_TEAM, ID.iago, ID.hamlet, 999, -1, 1.5, 'x'), { maxLength: 3 }), fc.constant(null)),
      topic: fc.oneof(fc.string({ maxLength: 70 }), fc.constant(null)),
      content: fc.oneof(fc.string({ maxLength: 20 }), fc.constant(' '), fc.constant(3)),
      timestamp: fc.oneof(fc.constant(null), fc.integer({ min: -5, max: 2_000_000_000 }), fc.double({ noNaN: true, noDefaultInfinity: true })),
      extra: fc.string(),
    },
    { requiredKeys: [] },
  );

  it('holds', async () => {
    const s = sim({ clock: fixedClock(NOW) });
    await fc.assert(
      fc.asyncProperty(anyDraft, async (d) => {
        const before = s.engine.state.drafts.size;
        const res = await post(s, [d]);
        if (res.status === 200) {
          const [id] = res.body.ids;
          const stored = (await list(s)).body.drafts.find((x: { id: number }) => x.id === id);
          expect(['', 'stream', 'private']).toContain(stored.type);
          expect(Number.isInteger(stored.timestamp)).toBe(true);
          expect(stored.content).toBe((d.content as string).trim().slice(0, stored.content.length));
        } else {
          expect(res.status).toBe(400);
          expect(res.body.code).toBe('BAD_REQUEST');
          expect(s.engine.state.drafts.size).toBe(before);
        }
      }),
      { numRuns: 300, seed: 8 },
    );
  });
});
