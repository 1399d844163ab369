// Deactivating a user with the delete_*_messages actions removes their messages of those kinds
// (the messages helper's deleter behind DELETE /users/{user_id}), with delete_message events.
import { describe, expect, test } from 'vitest';
import { del, fetchMessages, get, IAGO, OTHELLO, post, sim } from './helpers.ts';

describe('message deletion on deactivation', () => {
  test.each([
    ['public channels only', { delete_public_channel_messages: true }, { channel: false, dm: true }],
    ['direct messages only', { delete_direct_messages: true }, { channel: true, dm: false }],
    ['both', { delete_public_channel_messages: true, delete_direct_messages: true }, { channel: false, dm: false }],
  ])('%s', async (_name, actions, survives) => {
    const s = sim();
    const channelMsg = await post(s, OTHELLO, '/messages', { type: 'stream', to: 'Denmark', topic: 'bye', content: 'leaving soon' });
    const dm = await post(s, OTHELLO, '/messages', { type: 'direct', to: '[11]', content: 'secret farewell' });
    // Search once first, so the word index exists before the deletion and must be refreshed.
    const early = await fetchMessages(s, IAGO, { anchor: 'newest', num_before: 100, narrow: [['search', 'farewell']] });
    expect(early.body.messages.length).toBe(1);
    const before = s.engine.eventLog.length;
    const res = await del(s, IAGO, '/users/12', { actions });
    expect(res.status).toBe(200);
    expect((await get(s, IAGO, `/messages/${channelMsg.body.id}`)).status).toBe(survives.channel ? 200 : 400);
    expect((await get(s, IAGO, `/messages/${dm.body.id}`)).status).toBe(survives.dm ? 200 : 400);
    const deletions = s.engine.eventLog.slice(before).filter((e) => e.event.type === 'delete_message');
    if (!survives.dm) {
      expect(deletions).toContainEqual({
        event: { type: 'delete_message', message_ids: expect.arrayContaining([dm.body.id]), message_type: 'private' },
        users: expect.arrayContaining([11, 12]),
      });
    }
    if (!survives.channel) {
      expect(deletions.some((e) => e.event.message_type === 'stream' && (e.event.message_ids as number[]).includes(channelMsg.body.id))).toBe(true);
    }
    // Indexes stay consistent: narrowed fetches and search no longer see deleted messages.
    const bySender = await fetchMessages(s, IAGO, { anchor: 'newest', num_before: 1000, narrow: [['sender', 'user12@zulip.testserver']] });
    const ids = (bySender.body.messages as { id: number; type: string }[]).map((m) => m.id);
    expect(ids.includes(channelMsg.body.id)).toBe(survives.channel);
    const search = await fetchMessages(s, IAGO, { anchor: 'newest', num_before: 100, narrow: [['search', 'farewell']] });
    expect(search.body.messages.length).toBe(survives.dm ? 1 : 0);
  });
});
