// POST / DELETE /messages/{id}/reactions: resolution of names, voting, Zulip's emoji errors with
// the specification's wording, and the reaction events.
import { describe, expect, test } from 'vitest';
import type { Simulator } from '../../../simulator/index.ts';
import { CORDELIA, del, error, get, HAMLET, IAGO, OTHELLO, post, sim } from './helpers.ts';
import { watchEvents } from '../helpers.ts';

async function freshMessage(s: Simulator): Promise<number> {
  const res = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: 'reactions', content: 'react to me' });
  return res.body.id as number;
}

async function reactionsOf(s: Simulator, id: number) {
  return (await get(s, HAMLET, `/messages/${id}`)).body.message.reactions;
}

describe('adding reactions', () => {
  test.each([
    ['unicode by name (Zulip names: smile is 263a)', { emoji_name: 'smile' }, { emoji_name: 'smile', emoji_code: '263a', reaction_type: 'unicode_emoji' }],
    ['unicode by a Zulip name iamcal gives elsewhere', { emoji_name: 'point_up' }, { emoji_name: 'point_up', emoji_code: '1f446', reaction_type: 'unicode_emoji' }],
    ['unicode alias +1', { emoji_name: '+1' }, { emoji_name: '+1', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }],
    ['Zulip name thumbs_up', { emoji_name: 'thumbs_up' }, { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }],
    ['variation selector dropped', { emoji_name: 'heart' }, { emoji_name: 'heart', emoji_code: '2764', reaction_type: 'unicode_emoji' }],
    ['realm emoji by name', { emoji_name: 'green_tick' }, { emoji_name: 'green_tick', emoji_code: '1', reaction_type: 'realm_emoji' }],
    ['extra emoji', { emoji_name: 'zulip' }, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' }],
    ['extra emoji, Zulip spelling of the type', { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' }],
    ['explicit code and type', { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' }, { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' }],
  ])('%s', async (_name, body, expected) => {
    const s = sim();
    const id = await freshMessage(s);
    const res = await post(s, IAGO, `/messages/${id}/reactions`, body);
    expect([res.status, res.body]).toEqual([200, { result: 'success', msg: '' }]);
    expect(await reactionsOf(s, id)).toEqual([{ ...expected, user_id: 11 }]);
  });

  test('a vote takes the existing reaction’s name; order is oldest first', async () => {
    const s = sim();
    const id = await freshMessage(s);
    await post(s, IAGO, `/messages/${id}/reactions`, { emoji_name: 'thumbs_up' });
    await post(s, OTHELLO, `/messages/${id}/reactions`, { emoji_name: '+1', emoji_code: '1f44d', reaction_type: 'unicode_emoji' });
    expect(await reactionsOf(s, id)).toEqual([
      { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji', user_id: 11 },
      { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji', user_id: 12 },
    ]);
  });

  test('a vote skips name validation', async () => {
    const s = sim();
    const id = await freshMessage(s);
    await post(s, IAGO, `/messages/${id}/reactions`, { emoji_name: 'smile' });
    const res = await post(s, OTHELLO, `/messages/${id}/reactions`, { emoji_name: 'anything', emoji_code: '263a', reaction_type: 'unicode_emoji' });
    expect(res.status).toBe(200);
  });

  test('reacting to a public-channel message one never received creates a historical row', async () => {
    const s = sim();
    const id = await freshMessage(s);
    expect((await post(s, CORDELIA, `/messages/${id}/reactions`, { emoji_name: 'smile' })).status).toBe(200);
    expect((await get(s, CORDELIA, `/messages/${id}`)).body.message.flags).toEqual(['read', 'historical']);
    expect(s.engine.state.messages.byUser.get(8)).toContain(id);
  });

  test('reaction events go to the message’s audience', async () => {
    const s = sim();
    const id = await freshMessage(s);
    const watch = watchEvents(s);
    await post(s, IAGO, `/messages/${id}/reactions`, { emoji_name: 'smile' });
    await del(s, IAGO, `/messages/${id}/reactions`, { emoji_name: 'smile' });
    const events = watch.take();
    expect(events.map((e) => e.event)).toEqual([
      {
        type: 'reaction',
        op: 'add',
        user_id: 11,
        user: { user_id: 11, email: 'user11@zulip.testserver', full_name: 'Iago' },
        message_id: id,
        emoji_name: 'smile',
        emoji_code: '263a',
        reaction_type: 'unicode_emoji',
      },
      expect.objectContaining({ type: 'reaction', op: 'remove', emoji_code: '263a' }),
    ]);
    const denmark = s.engine.state.streamsByName.get('denmark')!;
    const subscribers = [...s.engine.state.subscriptions.get(denmark)!.keys()].sort((a, b) => a - b);
    expect(events[0]!.users).toEqual(subscribers);
  });
});

describe('reaction errors', () => {
  const rows: [string, string, Record<string, unknown>, number, Record<string, unknown>][] = [
    ['unknown name', 'POST', { emoji_name: 'not_an_emoji' }, 400, error('BAD_REQUEST', "Emoji 'not_an_emoji' does not exist")],
    ['name does not match the code', 'POST', { emoji_name: 'smile', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }, 400, error('BAD_REQUEST', 'Invalid emoji name.')],
    ['unknown unicode code', 'POST', { emoji_name: 'smile', emoji_code: 'zzzz', reaction_type: 'unicode_emoji' }, 400, error('BAD_REQUEST', 'Invalid emoji code')],
    ['unknown custom emoji id', 'POST', { emoji_name: 'green_tick', emoji_code: '999', reaction_type: 'realm_emoji' }, 400, error('BAD_REQUEST', 'Invalid custom emoji.')],
    ['custom emoji name mismatch', 'POST', { emoji_name: 'red_tick', emoji_code: '1', reaction_type: 'realm_emoji' }, 400, error('BAD_REQUEST', 'Invalid custom emoji name.')],
    ['extra emoji bad code', 'POST', { emoji_name: 'zulip', emoji_code: 'octopus', reaction_type: 'service_extra_emoji' }, 400, error('BAD_REQUEST', 'Invalid emoji code')],
    ['unknown type', 'POST', { emoji_name: 'smile', emoji_code: '263a', reaction_type: 'sticker' }, 400, error('BAD_REQUEST', 'Invalid emoji type.')],
    ['missing emoji_name', 'POST', { emoji_code: '263a' }, 400, error('REQUEST_VARIABLE_MISSING', "Missing 'emoji_name' argument", { var_name: 'emoji_name' })],
    ['remove without name or code', 'DELETE', {}, 400, error('BAD_REQUEST', 'At least one of the following arguments must be present: emoji_name, emoji_code')],
    ['remove a reaction one does not have', 'DELETE', { emoji_name: 'smile' }, 400, error('REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.")],
    ['remove with an unknown name', 'DELETE', { emoji_name: 'not_an_emoji' }, 400, error('BAD_REQUEST', "Emoji 'not_an_emoji' does not exist")],
  ];
  test.each(rows)('%s', async (_name, method, body, status, expected) => {
    const s = sim();
    const id = await freshMessage(s);
    const res = method === 'POST' ? await post(s, IAGO, `/messages/${id}/reactions`, body) : await del(s, IAGO, `/messages/${id}/reactions`, body);
    expect([res.status, res.body]).toEqual([status, expected]);
    expect(await reactionsOf(s, id)).toEqual([]);
  });

  test('adding the same reaction twice', async () => {
    const s = sim();
    const id = await freshMessage(s);
    await post(s, IAGO, `/messages/${id}/reactions`, { emoji_name: 'smile' });
    const res = await post(s, IAGO, `/messages/${id}/reactions`, { emoji_name: 'smile' });
    expect([res.status, res.body]).toEqual([400, error('REACTION_ALREADY_EXISTS', 'Reaction already exists.')]);
  });

  test('deactivated custom emoji', async () => {
    const s = sim();
    const id = await freshMessage(s);
    s.engine.state.realm.emoji.get('1')!.deactivated = true;
    const byName = await post(s, IAGO, `/messages/${id}/reactions`, { emoji_name: 'green_tick' });
    expect(byName.body).toEqual(error('BAD_REQUEST', "Emoji 'green_tick' does not exist"));
    const byCode = await post(s, IAGO, `/messages/${id}/reactions`, { emoji_name: 'green_tick', emoji_code: '1', reaction_type: 'realm_emoji' });
    expect(byCode.body).toEqual(error('BAD_REQUEST', 'This custom emoji has been deactivated.'));
  });

  test('removing a realm-emoji reaction by name needs reaction_type (the type is not inferred)', async () => {
    const s = sim();
    const id = await freshMessage(s);
    await post(s, IAGO, `/messages/${id}/reactions`, { emoji_name: 'green_tick' });
    expect((await del(s, IAGO, `/messages/${id}/reactions`, { emoji_name: 'green_tick' })).body.code).toBe('REACTION_DOES_NOT_EXIST');
    expect((await del(s, IAGO, `/messages/${id}/reactions`, { emoji_name: 'green_tick', reaction_type: 'realm_emoji' })).status).toBe(200);
    expect(await reactionsOf(s, id)).toEqual([]);
  });

  test('messages one cannot access', async () => {
    const s = sim();
    const dm = await post(s, HAMLET, '/messages', { type: 'direct', to: '[11]', content: 'private' });
    const res = await post(s, OTHELLO, `/messages/${dm.body.id}/reactions`, { emoji_name: 'smile' });
    expect([res.status, res.body]).toEqual([400, error('BAD_REQUEST', 'Invalid message(s)')]);
    const missing = await post(s, OTHELLO, '/messages/999999/reactions', { emoji_name: 'smile' });
    expect(missing.body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
  });
});
