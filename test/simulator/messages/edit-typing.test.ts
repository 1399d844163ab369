// POST /messages/{id}/typing: the "is editing" indicator, allowed to whoever may edit the message's
// content right now (no grace period), heard by the channel's subscribers or the DM's participants.
import { describe, expect, test } from 'vitest';
import { devFixture, ID, watchEvents } from '../helpers.ts';
import { clockedSim, error, eventsSince, HAMLET, IAGO, OTHELLO, patch, post, PROSPERO } from './helpers.ts';

describe('POST /messages/{id}/typing', () => {
  test('a channel message: typing_edit_message to the subscribers, start and stop', async () => {
    const { s } = clockedSim();
    const id = (await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: 'plans', content: 'x' })).body.id;
    for (const op of ['start', 'stop']) {
      const mark = watchEvents(s);
      const res = await post(s, HAMLET, `/messages/${id}/typing`, { op });
      expect(res.body).toEqual({ result: 'success', msg: '' });
      expect(eventsSince(mark)).toEqual([
        {
          event: { type: 'typing_edit_message', op, sender_id: ID.hamlet, message_id: id, recipient: { type: 'channel', channel_id: 4, topic: 'plans' } },
          users: [ID.zoe, ID.desdemona, ID.hamlet, ID.iago, ID.othello, ID.prospero, ID.shiva],
        },
      ]);
    }
  });

  test('a direct message: the editor and the recipient, named in the event', async () => {
    const { s } = clockedSim();
    const dm = (await post(s, HAMLET, '/messages', { type: 'direct', to: JSON.stringify([ID.othello]), content: 'x' })).body.id;
    const mark = watchEvents(s);
    expect((await post(s, HAMLET, `/messages/${dm}/typing`, { op: 'start' })).status).toBe(200);
    expect(eventsSince(mark)).toEqual([
      {
        event: { type: 'typing_edit_message', op: 'start', sender_id: ID.hamlet, message_id: dm, recipient: { type: 'direct', user_ids: [ID.hamlet, ID.othello] } },
        users: [ID.hamlet, ID.othello],
      },
    ]);
    const group = (await post(s, HAMLET, '/messages', { type: 'direct', to: JSON.stringify([ID.othello, ID.iago]), content: 'x' })).body.id;
    const mark2 = watchEvents(s);
    await post(s, HAMLET, `/messages/${group}/typing`, { op: 'stop' });
    expect(eventsSince(mark2)[0]!.event.recipient).toEqual({ type: 'direct', user_ids: [ID.hamlet, ID.iago, ID.othello] });
  });

  test('only while the content may be edited: the sender, within the limit, no grace', async () => {
    const { s, advance } = clockedSim();
    const id = (await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: 'plans', content: 'x' })).body.id;
    expect((await post(s, IAGO, `/messages/${id}/typing`, { op: 'start' })).body).toEqual(error('BAD_REQUEST', "You don't have permission to edit this message"));
    advance(600);
    expect((await post(s, HAMLET, `/messages/${id}/typing`, { op: 'start' })).status).toBe(200);
    advance(1);
    expect((await post(s, HAMLET, `/messages/${id}/typing`, { op: 'start' })).body).toEqual(
      error('BAD_REQUEST', 'The time limit for editing this message has passed'),
    );
  });

  test('a realm without editing refuses', async () => {
    const fixture = devFixture();
    fixture.realm.allow_message_editing = false;
    const { s } = clockedSim(fixture);
    const id = (await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: 'plans', content: 'x' })).body.id;
    expect((await post(s, HAMLET, `/messages/${id}/typing`, { op: 'start' })).body).toEqual(error('BAD_REQUEST', 'Your organization has turned off message editing'));
  });

  test.each([
    ['no op', {}, error('REQUEST_VARIABLE_MISSING', "Missing 'op' argument", { var_name: 'op' })],
    ['an unknown op', { op: 'pause' }, error('BAD_REQUEST', 'Invalid op')],
  ])('%s', async (_name, body, expected) => {
    const { s } = clockedSim();
    const id = (await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: 'plans', content: 'x' })).body.id;
    expect((await post(s, HAMLET, `/messages/${id}/typing`, body)).body).toEqual(expected);
  });

  test("the editor's send_*_typing_notifications settings refuse; recipients who do not receive typing are left out", async () => {
    const { s } = clockedSim();
    const id = (await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: 'plans', content: 'x' })).body.id;
    const dm = (await post(s, HAMLET, '/messages', { type: 'direct', to: JSON.stringify([ID.othello]), content: 'x' })).body.id;
    await patch(s, OTHELLO, '/settings', { receives_typing_notifications: false });
    let mark = watchEvents(s);
    await post(s, HAMLET, `/messages/${id}/typing`, { op: 'start' });
    await post(s, HAMLET, `/messages/${dm}/typing`, { op: 'start' });
    expect(eventsSince(mark)).toEqual([
      { event: expect.objectContaining({ message_id: id }), users: [ID.zoe, ID.desdemona, ID.hamlet, ID.iago, ID.prospero, ID.shiva] },
      { event: expect.objectContaining({ message_id: dm, recipient: { type: 'direct', user_ids: [ID.hamlet] } }), users: [ID.hamlet] },
    ]);
    await patch(s, HAMLET, '/settings', { send_stream_typing_notifications: false });
    expect((await post(s, HAMLET, `/messages/${id}/typing`, { op: 'start' })).body).toEqual(
      error('BAD_REQUEST', 'User has disabled typing notifications for channel messages'),
    );
    expect((await post(s, HAMLET, `/messages/${dm}/typing`, { op: 'start' })).status).toBe(200);
    await patch(s, HAMLET, '/settings', { send_private_typing_notifications: false });
    mark = watchEvents(s);
    expect((await post(s, HAMLET, `/messages/${dm}/typing`, { op: 'start' })).body).toEqual(
      error('BAD_REQUEST', 'User has disabled typing notifications for direct messages'),
    );
    expect(eventsSince(mark)).toEqual([]);
  });

  test('a message one cannot see: Invalid message(s)', async () => {
    const { s } = clockedSim();
    const dm = (await post(s, HAMLET, '/messages', { type: 'direct', to: JSON.stringify([ID.othello]), content: 'x' })).body.id;
    expect((await post(s, PROSPERO, `/messages/${dm}/typing`, { op: 'start' })).body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
    expect((await post(s, OTHELLO, '/messages/999999/typing', { op: 'start' })).body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
  });
});
