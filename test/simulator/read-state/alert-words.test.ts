// Alert words: GET/POST/DELETE /users/me/alert_words (Zulip's cleaning, case rules and parameter
// errors), the `alert_words` event to the user alone, /register's `alert_words`, and the
// `has_alert_word` flag new and edited messages get, which `is:alerted` finds.
import { describe, expect, test } from 'vitest';
import { register } from '../events/helpers.ts';
import { call, CORDELIA, error, flagsOf, HAMLET, idsIn, IAGO, OTHELLO, recordEvents, sendTo, stillSim } from './helpers.ts';

type Sim = ReturnType<typeof stillSim>;
const add = (s: Sim, as: string, words: unknown) => call(s, 'POST', as, '/users/me/alert_words', { alert_words: JSON.stringify(words) });
const remove = (s: Sim, as: string, words: unknown) => call(s, 'DELETE', as, '/users/me/alert_words', { alert_words: JSON.stringify(words) });
const list = async (s: Sim, as: string) => (await call(s, 'GET', as, '/users/me/alert_words')).body.alert_words as string[];
const answer = (alert_words: string[]) => ({ result: 'success', msg: '', alert_words });

describe('GET, POST and DELETE /users/me/alert_words', () => {
  test('a user starts with none', async () => {
    const s = stillSim();
    const res = await call(s, 'GET', HAMLET, '/users/me/alert_words');
    expect([res.status, res.body]).toEqual([200, answer([])]);
  });

  test('adding strips words, drops blank ones and answers the whole list; the user alone hears it', async () => {
    const s = stillSim();
    const events = recordEvents(s);
    const res = await add(s, HAMLET, ['one ', '\n two', '   ', 'three', 'multi-word word', '☃']);
    const words = ['one', 'two', 'three', 'multi-word word', '☃'];
    expect([res.status, res.body]).toEqual([200, answer(words)]);
    expect(events.take()).toEqual([{ event: { type: 'alert_words', alert_words: words }, users: [10] }]);
    expect(await list(s, HAMLET)).toEqual(words);
    expect(await list(s, OTHELLO)).toEqual([]);
  });

  test('words already there are skipped ignoring case; among new ones the last spelling wins; the event goes out anyway', async () => {
    const s = stillSim();
    await add(s, HAMLET, ['alert']);
    const events = recordEvents(s);
    const again = await add(s, HAMLET, ['ALert', 'ALERT']);
    expect(again.body).toEqual(answer(['alert']));
    expect(events.take()).toEqual([{ event: { type: 'alert_words', alert_words: ['alert'] }, users: [10] }]);
    const spelled = await add(s, HAMLET, ['Foo', 'bar', 'FOO']);
    expect(spelled.body).toEqual(answer(['alert', 'FOO', 'bar']));
  });

  test('removing matches ignoring case, does not strip, and ignores unknown words', async () => {
    const s = stillSim();
    await add(s, HAMLET, ['one', 'two', 'three']);
    const events = recordEvents(s);
    const res = await remove(s, HAMLET, ['ONE', ' two', 'nine']);
    expect([res.status, res.body]).toEqual([200, answer(['two', 'three'])]);
    expect(events.take()).toEqual([{ event: { type: 'alert_words', alert_words: ['two', 'three'] }, users: [10] }]);
    expect((await remove(s, HAMLET, ['two', 'three'])).body).toEqual(answer([]));
    expect((await remove(s, OTHELLO, ['anything'])).body).toEqual(answer([]));
  });

  test('/register holds the same list, and bots have words too', async () => {
    const s = stillSim();
    await add(s, HAMLET, ['lunch', 'Dinner']);
    const state = await register(s, HAMLET, { fetch_event_types: ['alert_words'] });
    expect(state.alert_words).toEqual(['lunch', 'Dinner']);
    const bot = await add(s, 'default-bot@zulip.com', ['deploy']);
    expect(bot.body).toEqual(answer(['deploy']));
  });

  test.each([
    ['missing', undefined, 'REQUEST_VARIABLE_MISSING', "Missing 'alert_words' argument", { var_name: 'alert_words' }],
    ['not JSON', 'one,two', 'BAD_REQUEST', 'alert_words is not valid JSON', {}],
    ['not a list', '"one"', 'BAD_REQUEST', 'alert_words is not a list', {}],
    ['a number in it', '["one", 2]', 'BAD_REQUEST', 'alert_words[1] is not a string', {}],
    ['a word over 100 characters', JSON.stringify(['long'.repeat(26)]), 'BAD_REQUEST', 'alert_words[0] is too long (limit: 100 characters)', {}],
    ['a long word before a number', JSON.stringify(['x'.repeat(101), 5]), 'BAD_REQUEST', 'alert_words[0] is too long (limit: 100 characters)', {}],
    ['a number before a long word', JSON.stringify([5, 'x'.repeat(101)]), 'BAD_REQUEST', 'alert_words[0] is not a string', {}],
  ])('POST refuses %s, changing nothing', async (_name, raw, code, msg, extra) => {
    const s = stillSim();
    const events = recordEvents(s);
    const res = await call(s, 'POST', HAMLET, '/users/me/alert_words', raw === undefined ? {} : { alert_words: raw });
    expect([res.status, res.body]).toEqual([400, error(code, msg, extra)]);
    expect(events.take()).toEqual([]);
    expect(await list(s, HAMLET)).toEqual([]);
  });

  test('the length limit counts code points before stripping, and DELETE has none', async () => {
    const s = stillSim();
    expect((await add(s, HAMLET, ['😀'.repeat(100)])).status).toBe(200);
    const padded = await add(s, HAMLET, [` ${'y'.repeat(100)}`]);
    expect(padded.body).toEqual(error('BAD_REQUEST', 'alert_words[0] is too long (limit: 100 characters)'));
    expect((await remove(s, HAMLET, ['z'.repeat(500)])).status).toBe(200);
    const bad = await call(s, 'DELETE', HAMLET, '/users/me/alert_words', { alert_words: '[true]' });
    expect(bad.body).toEqual(error('BAD_REQUEST', 'alert_words[0] is not a string'));
  });
});

describe('has_alert_word', () => {
  test("a new message gets the flag for each recipient whose word it contains, the sender's own included", async () => {
    const s = stillSim();
    await add(s, HAMLET, ['lunch']);
    await add(s, IAGO, ['Dinner']);
    await add(s, CORDELIA, ['lunch']);
    const events = recordEvents(s);
    const id = await sendTo(s, OTHELLO, 'Denmark', 'plans', 'Lunch or dinner?');
    expect(await flagsOf(s, HAMLET, id)).toContain('has_alert_word');
    expect(await flagsOf(s, IAGO, id)).toContain('has_alert_word');
    expect(await flagsOf(s, OTHELLO, id)).not.toContain('has_alert_word');
    const delivered = events.take().filter((e) => e.event.type === 'message');
    const flagged = delivered.filter((e) => e.event.flags.includes('has_alert_word')).flatMap((e) => e.users);
    // Cordelia is not subscribed to Denmark: she received nothing to flag.
    expect(flagged.sort((a, b) => a - b)).toEqual([10, 11]);

    const own = await sendTo(s, HAMLET, 'Denmark', 'plans', 'I said lunch.');
    expect(await flagsOf(s, HAMLET, own)).toContain('has_alert_word');
  });

  test('words in a code block or inside another word do not alert; in a quote they do', async () => {
    const s = stillSim();
    await add(s, HAMLET, ['lunch']);
    const code = await sendTo(s, OTHELLO, 'Denmark', 'plans', '```\nlunch()\n```');
    const inside = await sendTo(s, OTHELLO, 'Denmark', 'plans', 'lunchbox');
    const quoted = await sendTo(s, OTHELLO, 'Denmark', 'plans', '```quote\nlunch?\n```');
    expect(await flagsOf(s, HAMLET, code)).not.toContain('has_alert_word');
    expect(await flagsOf(s, HAMLET, inside)).not.toContain('has_alert_word');
    expect(await flagsOf(s, HAMLET, quoted)).toContain('has_alert_word');
  });

  test('is:alerted lists the flagged messages', async () => {
    const s = stillSim();
    await add(s, HAMLET, ['lunch']);
    const yes = await sendTo(s, OTHELLO, 'Denmark', 'plans', 'lunch at noon');
    await sendTo(s, OTHELLO, 'Denmark', 'plans', 'no food talk');
    const dm = await call(s, 'POST', OTHELLO, '/messages', { type: 'private', to: JSON.stringify([10]), content: 'LUNCH!' });
    expect(await idsIn(s, HAMLET, [{ operator: 'is', operand: 'alerted' }])).toEqual([yes, dm.body.id]);
  });

  test('a word added later does not flag older messages but does new ones; a removed word no longer flags new ones', async () => {
    const s = stillSim();
    const before = await sendTo(s, OTHELLO, 'Denmark', 'plans', 'lunch at noon');
    await add(s, HAMLET, ['lunch']);
    expect(await flagsOf(s, HAMLET, before)).not.toContain('has_alert_word');
    const flagged = await sendTo(s, OTHELLO, 'Denmark', 'plans', 'lunch at noon');
    expect(await flagsOf(s, HAMLET, flagged)).toContain('has_alert_word');
    await add(s, HAMLET, ['dinner']);
    const newWord = await sendTo(s, OTHELLO, 'Denmark', 'plans', 'dinner at eight');
    expect(await flagsOf(s, HAMLET, newWord)).toContain('has_alert_word');
    await remove(s, HAMLET, ['lunch']);
    const after = await sendTo(s, OTHELLO, 'Denmark', 'plans', 'lunch at noon');
    expect(await flagsOf(s, HAMLET, after)).not.toContain('has_alert_word');
  });

  test("a deactivated user's words come back with the account", async () => {
    const s = stillSim();
    await add(s, HAMLET, ['lunch']);
    await call(s, 'DELETE', IAGO, '/users/10');
    await call(s, 'POST', IAGO, '/users/10/reactivate');
    expect(await list(s, HAMLET)).toEqual(['lunch']);
    const id = await sendTo(s, OTHELLO, 'Denmark', 'plans', 'lunch at noon');
    expect(await flagsOf(s, HAMLET, id)).toContain('has_alert_word');
  });

  test('editing the content decides the flag again, and update_message carries it', async () => {
    const s = stillSim();
    await add(s, HAMLET, ['ALERT']);
    const id = await sendTo(s, HAMLET, 'Denmark', 'plans', 'this is an ALERT for you');
    expect(await flagsOf(s, HAMLET, id)).toContain('has_alert_word');
    await call(s, 'PATCH', HAMLET, `/messages/${id}`, { content: 'new ALERT for you' });
    expect(await flagsOf(s, HAMLET, id)).toContain('has_alert_word');
    const events = recordEvents(s);
    const res = await call(s, 'PATCH', HAMLET, `/messages/${id}`, { content: 'sorry false alarm' });
    expect(res.status).toBe(200);
    expect(await flagsOf(s, HAMLET, id)).not.toContain('has_alert_word');
    const hamletsUpdate = events.take().find((e) => e.event.type === 'update_message' && e.users.includes(10));
    expect(hamletsUpdate?.event.flags).not.toContain('has_alert_word');
    await add(s, OTHELLO, ['alarm']);
    await call(s, 'PATCH', HAMLET, `/messages/${id}`, { content: 'still a false alarm' });
    expect(await flagsOf(s, OTHELLO, id)).toContain('has_alert_word');
  });

  test('has_alert_word cannot be set by hand', async () => {
    const s = stillSim();
    const id = await sendTo(s, OTHELLO, 'Denmark', 'plans', 'hello');
    const res = await call(s, 'POST', HAMLET, '/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'has_alert_word' });
    expect([res.status, res.body]).toEqual([400, error('BAD_REQUEST', "Flag not editable: 'has_alert_word'")]);
  });
});
