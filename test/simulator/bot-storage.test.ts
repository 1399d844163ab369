/** Bot storage (zerver/views/storage.py, zerver/lib/bot_storage.py): GET, PUT and DELETE /bot_storage, bots only. */
import { describe, expect, it } from 'vitest';
import { ID, devFixture, sim, watchEvents } from './helpers.ts';

type Sim = ReturnType<typeof sim>;

const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

const put = (s: Sim, storage: unknown, as: number = ID.defaultBot) =>
  s.request({ method: 'PUT', path: '/api/v1/bot_storage', as, body: { storage } });
const get = (s: Sim, keys?: unknown, as: number = ID.defaultBot) =>
  s.request({ method: 'GET', path: '/api/v1/bot_storage', as, query: keys === undefined ? {} : { keys } });
const remove = (s: Sim, keys?: unknown, as: number = ID.defaultBot) =>
  s.request({ method: 'DELETE', path: '/api/v1/bot_storage', as, body: keys === undefined ? {} : { keys } });

describe('bot storage', () => {
  it("stores, reads back (all or some keys), updates and deletes, as in Zulip's own test", async () => {
    const s = sim();
    const initial = { 'key 1': 'value 1', 'key 2': 'value 2', 'key 3': 'value 3' };
    expect((await put(s, initial)).body).toEqual({ result: 'success', msg: '' });
    expect((await get(s, ['key 1', 'key 3'])).body).toEqual({ result: 'success', msg: '', storage: { 'key 1': 'value 1', 'key 3': 'value 3' } });
    expect((await get(s)).body.storage).toEqual(initial);

    await put(s, { 'key 1': 'new value', 'key 4': 'value 4' });
    const updated = { 'key 1': 'new value', 'key 2': 'value 2', 'key 3': 'value 3', 'key 4': 'value 4' };
    expect((await get(s)).body.storage).toEqual(updated);

    expect((await remove(s, ['key 1', 'key 2'])).body).toEqual({ result: 'success', msg: '' });
    expect((await get(s)).body.storage).toEqual({ 'key 3': 'value 3', 'key 4': 'value 4' });

    expect((await remove(s)).status).toBe(200);
    expect((await get(s)).body.storage).toEqual({});
  });

  it("keeps each bot's storage apart, and sends no events", async () => {
    const s = sim();
    const watch = watchEvents(s);
    await put(s, { shared: 'default bot' });
    await put(s, { shared: 'outgoing bot' }, ID.outgoingBot);
    expect((await get(s)).body.storage).toEqual({ shared: 'default bot' });
    expect((await get(s, undefined, ID.outgoingBot)).body.storage).toEqual({ shared: 'outgoing bot' });
    expect(watch.take()).toEqual([]);
  });

  it('treats an empty key list as every key', async () => {
    const s = sim();
    await put(s, { a: '1', b: '2' });
    expect((await get(s, [])).body.storage).toEqual({ a: '1', b: '2' });
    await remove(s, []);
    expect((await get(s)).body.storage).toEqual({});
  });

  it('fails the whole read when a key is missing', async () => {
    const s = sim();
    await put(s, { 'key 1': 'x' });
    const res = await get(s, ['key 1', 'nonexistent key']);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error('Key does not exist.'));
  });

  it('removes nothing when any listed key is missing (or listed twice)', async () => {
    const s = sim();
    await put(s, { a: '1', b: '2' });
    expect((await remove(s, ['a', 'nonexistent key'])).body).toEqual(error('Key does not exist.'));
    expect((await remove(s, ['a', 'a'])).body).toEqual(error('Key does not exist.'));
    expect((await get(s)).body.storage).toEqual({ a: '1', b: '2' });
  });

  it('enforces the size limit over keys plus values, counting code points, writing nothing on failure', async () => {
    const fixture = devFixture();
    fixture.realm.bot_storage_size_limit = 100;
    const s = sim({ fixture });
    const key = 'capacity-filling entry';
    expect((await put(s, { [key]: 'x'.repeat(100 - key.length) })).status).toBe(200);
    const over = await put(s, { 'too much data': 'a few bits too long' });
    expect(over.status).toBe(400);
    expect(over.body).toEqual(error('Request exceeds storage limit by 32 characters. The limit is 100 characters.'));
    expect(Object.keys((await get(s)).body.storage)).toEqual([key]);
    // Replacing a value counts only the difference; 🐙 is one character, not two.
    expect((await put(s, { [key]: '🐙'.repeat(100 - key.length) })).status).toBe(200);
    // Another bot has its own allowance.
    expect((await put(s, { 'another big entry': 'x'.repeat(60) }, ID.outgoingBot)).status).toBe(200);
  });

  it('reads, and writes refused, leave the state as it was (a bot that never stored anything gets no empty store)', async () => {
    const fixture = devFixture();
    fixture.realm.bot_storage_size_limit = 10;
    const s = sim({ fixture });
    const before = JSON.stringify(s.snapshot());
    expect((await get(s)).body.storage).toEqual({});
    expect((await get(s, ['missing'])).body).toEqual(error('Key does not exist.'));
    expect((await remove(s, ['missing'])).body).toEqual(error('Key does not exist.'));
    expect((await put(s, { key: 'a value too long' })).status).toBe(400);
    expect(JSON.stringify(s.snapshot())).toBe(before);
  });

  const malformed: [string, () => Promise<{ status: number; body: unknown }>, string][] = [
    ['a storage that is not an object', () => put(sim(), ['a']), 'storage is not a dict'],
    ['a non-string value', () => put(sim(), { foo: [1, 2, 3] }), 'storage["foo"] is not a string'],
    ['keys that are not JSON', () => get(sim(), 'This is a list, but should be a serialized string.'), 'keys is not valid JSON'],
    ['keys that are not strings', () => remove(sim(), [1]), 'keys[0] is not a string'],
  ];
  it.each(malformed)('refuses %s', async (_name, call, msg) => {
    const res = await call();
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
  });

  it('requires storage on PUT', async () => {
    const res = await sim().request({ method: 'PUT', path: '/api/v1/bot_storage', as: ID.defaultBot });
    expect(res.body).toEqual({ result: 'error', msg: "Missing 'storage' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'storage' });
  });

  it('is for bots only: PERMISSION_DENIED "Must be a bot user" (the specification), before any parameter', async () => {
    const s = sim();
    for (const call of [() => put(s, 'not json', ID.iago), () => get(s, undefined, ID.hamlet), () => remove(s, undefined, ID.polonius)]) {
      const res = await call();
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: 'error', msg: 'Must be a bot user', code: 'PERMISSION_DENIED' });
    }
  });
});
