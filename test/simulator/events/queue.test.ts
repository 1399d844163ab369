// Queue mechanics of GET /events and DELETE /events (zerver/tornado/views.py:get_events_backend, zerver/tornado/event_queue.py): event IDs,
// acknowledgement and pruning, the errors in Zulip's order, dont_block, lifetime on the simulated
// clock, memory bounds, compression, and per-queue capability variants.
import { describe, expect, it } from 'vitest';
import { commit } from '../../../simulator/engine/core.ts';
import { effect, outcome } from '../../../simulator/engine/events/effects.ts';
import { MAX_QUEUED_EVENTS } from '../../../simulator/engine/events/queues.ts';
import { manualClock } from '../../../simulator/index.ts';
import { ID, NOW, sim } from '../helpers.ts';
import { pending, poll, register, send } from './helpers.ts';

const HAMLET = ID.hamlet;

/**
 * A real event to count with: an alert-words update naming `word` (the contract holds queued
 * events to their schemas, so the markers are events Zulip sends).
 */
const marker = (word: string | number = 'x') => ({ type: 'alert_words', alert_words: [String(word)] });

/** Push synthetic events straight to users' queues (what every action does through commit). */
function emit(s: ReturnType<typeof sim>, events: Record<string, unknown>[], users: number[] = [HAMLET]) {
  commit(s.engine, outcome(null, events.map((e) => effect(e as { type: string }, users))));
}

const badQueue = (id: string) => ({ result: 'error', msg: `Bad event queue ID: ${id}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: id });
const badRequest = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

describe('register → event → acknowledge → next event', () => {
  it('numbers events from 0 per queue and returns every unacknowledged one until acknowledged', async () => {
    const s = sim();
    const { queue_id, last_event_id } = await register(s, HAMLET);
    expect(last_event_id).toBe(-1);
    emit(s, [marker('a')]);
    const first = await poll(s, HAMLET, { queue_id, last_event_id: -1 });
    // An immediate answer to a named queue does not repeat its ID.
    expect(first.body).toEqual({ result: 'success', msg: '', events: [{ ...marker('a'), id: 0 }] });
    emit(s, [marker('b')]);
    // Not acknowledged yet: the same poll answers both.
    expect((await pending(s, HAMLET, queue_id, -1)).map((e) => e.id)).toEqual([0, 1]);
    expect(await pending(s, HAMLET, queue_id, 0)).toEqual([{ ...marker('b'), id: 1 }]);
    // Sending the same last_event_id again is a harmless re-fetch.
    expect(await pending(s, HAMLET, queue_id, 0)).toEqual([{ ...marker('b'), id: 1 }]);
    expect(await pending(s, HAMLET, queue_id, 1)).toEqual([]);
  });

  it('gives each queue its own numbering', async () => {
    const s = sim();
    const a = await register(s, HAMLET);
    emit(s, [marker()]);
    const b = await register(s, HAMLET);
    emit(s, [marker()]);
    expect((await pending(s, HAMLET, a.queue_id)).map((e) => e.id)).toEqual([0, 1]);
    expect((await pending(s, HAMLET, b.queue_id)).map((e) => e.id)).toEqual([0]);
    expect(a.queue_id).not.toBe(b.queue_id);
    expect(a.queue_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('pruning by last_event_id (zerver/tornado/event_queue.py:fetch_events)', () => {
  it.each([
    ['events 0–4 delivered, client sends 2', [2], { ids: [3, 4] }],
    ['then 1', [2, 1], { error: 'An event newer than 1 has already been pruned!' }],
    ['client sends 9 for 0–4', [9], { error: 'Event 9 was not in this queue' }],
    ['acknowledged up to 4, 4 again', [4, 4], { ids: [] }],
  ] as const)('%s', async (_name, acks, expected) => {
    const s = sim();
    const { queue_id } = await register(s, HAMLET);
    emit(s, [0, 1, 2, 3, 4].map((n) => marker(n)));
    let last: Awaited<ReturnType<typeof poll>> | undefined;
    for (const ack of acks) last = await poll(s, HAMLET, { queue_id, last_event_id: ack, dont_block: true });
    if ('error' in expected) expect(last!.body).toEqual(badRequest(expected.error));
    else expect(last!.body.events.map((e: { id: number }) => e.id)).toEqual(expected.ids);
  });

  it('keeps the pruning of a failed poll (Zulip does not roll it back)', async () => {
    const s = sim();
    const { queue_id } = await register(s, HAMLET);
    emit(s, [marker(), marker()]);
    expect((await poll(s, HAMLET, { queue_id, last_event_id: 7, dont_block: true })).body).toEqual(badRequest('Event 7 was not in this queue'));
    expect(await pending(s, HAMLET, queue_id, 1)).toEqual([]);
    expect((await poll(s, HAMLET, { queue_id, last_event_id: 0, dont_block: true })).body).toEqual(
      badRequest('An event newer than 0 has already been pruned!'),
    );
  });
});

describe('GET /events errors, in Zulip order', () => {
  it('asks for queue_id first (a plain BAD_REQUEST), then for last_event_id', async () => {
    const s = sim();
    expect((await poll(s, HAMLET, {})).body).toEqual(badRequest("Missing 'queue_id' argument"));
    expect((await poll(s, HAMLET, { queue_id: 'nope' })).body).toEqual(badRequest("Missing 'last_event_id' argument"));
    expect((await poll(s, HAMLET, { queue_id: 'nope', last_event_id: -1 })).body).toEqual(badQueue('nope'));
  });

  it('answers another user’s queue exactly like an unknown one', async () => {
    const s = sim();
    const { queue_id } = await register(s, HAMLET);
    const res = await poll(s, ID.othello, { queue_id, last_event_id: -1, dont_block: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(badQueue(queue_id));
    const del = await s.request({ method: 'DELETE', path: '/api/v1/events', as: ID.othello, body: { queue_id } });
    expect(del.body).toEqual(badQueue(queue_id));
    // Still Hamlet's.
    expect(await pending(s, HAMLET, queue_id)).toEqual([]);
  });

  it.each([
    ['last_event_id', { queue_id: 'q', last_event_id: 'x' }, 'last_event_id is not valid JSON'],
    ['last_event_id float', { queue_id: 'q', last_event_id: '1.5' }, 'last_event_id is not an integer'],
    ['dont_block', { queue_id: 'q', last_event_id: -1, dont_block: 'yes' }, 'dont_block is not valid JSON'],
    ['dont_block number', { queue_id: 'q', last_event_id: -1, dont_block: 1 }, 'dont_block is not a boolean'],
  ])('refuses a bad %s', async (_name, query, msg) => {
    expect((await poll(sim(), HAMLET, query)).body).toEqual(badRequest(msg));
  });
});

describe('DELETE /events', () => {
  it('takes queue_id from the body (Python) or the query string (zulip-js)', async () => {
    const s = sim();
    const a = await register(s, HAMLET);
    const b = await register(s, HAMLET);
    expect((await s.request({ method: 'DELETE', path: '/api/v1/events', as: HAMLET, body: { queue_id: a.queue_id } })).body).toEqual({ result: 'success', msg: '' });
    expect((await s.request({ method: 'DELETE', path: '/api/v1/events', as: HAMLET, query: { queue_id: b.queue_id } })).body).toEqual({ result: 'success', msg: '' });
    expect((await poll(s, HAMLET, { queue_id: a.queue_id, last_event_id: -1 })).body).toEqual(badQueue(a.queue_id));
  });

  it('needs a queue_id (REQUEST_VARIABLE_MISSING, unlike GET)', async () => {
    const res = await sim().request({ method: 'DELETE', path: '/api/v1/events', as: HAMLET });
    expect(res.body).toEqual({ result: 'error', msg: "Missing 'queue_id' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'queue_id' });
  });
});

describe('dont_block', () => {
  it('answers at once with an empty list when nothing is queued', async () => {
    const s = sim();
    const { queue_id } = await register(s, HAMLET);
    expect((await poll(s, HAMLET, { queue_id, last_event_id: -1, dont_block: true })).body).toEqual({ result: 'success', msg: '', events: [] });
  });

  it('without queue_id creates a queue, named in the answer, with register-style options', async () => {
    const s = sim();
    const res = await poll(s, HAMLET, { dont_block: true, event_types: ['message'], apply_markdown: true });
    expect(res.body).toEqual({ result: 'success', msg: '', events: [], queue_id: expect.any(String) });
    await send(s, ID.iago, { type: 'direct', to: `[${HAMLET}]`, content: '**bold**' });
    emit(s, [marker()]);
    const [event, ...rest] = await pending(s, HAMLET, res.body.queue_id);
    expect(rest).toEqual([]);
    // apply_markdown as asked; client_gravatar defaults to false here (true on /register).
    expect(event).toMatchObject({ type: 'message', message: { content: '<p><strong>bold</strong></p>', content_type: 'text/html' } });
  });

  it('refuses all_public_streams from a guest when creating a queue', async () => {
    const res = await poll(sim(), ID.polonius, { dont_block: true, all_public_streams: true });
    expect(res.body).toEqual(badRequest('User not authorized for this query'));
  });
});

describe('lifetime on the simulated clock (zerver/tornado/event_queue.py)', () => {
  it('collects a queue nobody polled for 600 s; the client re-registers', async () => {
    const clock = manualClock(NOW);
    const s = sim({ clock });
    const { queue_id } = await register(s, HAMLET);
    clock.advance(599);
    expect(await pending(s, HAMLET, queue_id)).toEqual([]);
    // That poll counted as activity: 599 more seconds are fine, 600 are not.
    clock.advance(599);
    expect(await pending(s, HAMLET, queue_id)).toEqual([]);
    clock.advance(600);
    expect((await poll(s, HAMLET, { queue_id, last_event_id: -1, dont_block: true })).body).toEqual(badQueue(queue_id));
    const again = await register(s, HAMLET);
    expect(again.queue_id).not.toBe(queue_id);
    expect(await pending(s, HAMLET, again.queue_id)).toEqual([]);
  });

  it('honours queue_lifespan_secs up to seven days', async () => {
    const clock = manualClock(NOW);
    const s = sim({ clock });
    const hour = await register(s, HAMLET, { queue_lifespan_secs: 3600 });
    const forever = await register(s, HAMLET, { queue_lifespan_secs: 10 * 86_400 });
    clock.advance(3599);
    expect(await pending(s, HAMLET, hour.queue_id)).toEqual([]);
    clock.advance(3600);
    expect((await poll(s, HAMLET, { queue_id: hour.queue_id, last_event_id: -1 })).body).toEqual(badQueue(hour.queue_id));
    // Capped at seven days without a poll.
    clock.set(NOW + 7 * 86_400 - 1);
    expect(await pending(s, HAMLET, forever.queue_id)).toEqual([]);
    clock.advance(7 * 86_400);
    expect((await poll(s, HAMLET, { queue_id: forever.queue_id, last_event_id: -1 })).body).toEqual(badQueue(forever.queue_id));
  });

  it('sweeps expired queues out of memory every 60 simulated seconds', async () => {
    const clock = manualClock(NOW);
    const s = sim({ clock });
    for (let i = 0; i < 5; i++) await register(s, HAMLET);
    expect(s.engine.queues.byId.size).toBe(5);
    clock.advance(601);
    await register(s, ID.othello);
    expect(s.engine.queues.byId.size).toBe(1);
    expect(s.engine.queues.byUser.has(HAMLET)).toBe(false);
  });

  it('removes an abandoned queue when its time is up, even if its client never polls again', async () => {
    const clock = manualClock(NOW);
    const s = sim({ clock });
    const abandoned = await register(s, HAMLET);
    const live = await register(s, ID.othello);
    clock.advance(300);
    await poll(s, ID.othello, { queue_id: live.queue_id, last_event_id: -1, dont_block: true });
    clock.advance(360);
    // No queue endpoint is called after Hamlet's queue expired: it is gone when the clock passes
    // its expiry, so the next message queues nothing for it.
    await send(s, ID.othello, { type: 'direct', to: `[${HAMLET}]`, content: 'anyone?' });
    expect([...s.engine.queues.byId.keys()]).toEqual([live.queue_id]);
    expect((await poll(s, HAMLET, { queue_id: abandoned.queue_id, last_event_id: -1 })).body).toEqual(badQueue(abandoned.queue_id));
  });

  it('keeps a queue whose poll is parked, however long it waits', async () => {
    const clock = manualClock(NOW);
    const s = sim({ clock, longPollTimeoutMs: 60_000 });
    const { queue_id } = await register(s, HAMLET, { event_types: ['message'] });
    const parked = poll(s, HAMLET, { queue_id, last_event_id: -1 });
    clock.advance(7 * 86_400);
    await send(s, ID.othello, { type: 'direct', to: `[${HAMLET}]`, content: 'still there' });
    expect((await parked).body.events.map((e: { message: { content: string } }) => e.message.content)).toEqual(['still there']);
  });

  it('drops a queue that holds too many unread events instead of growing without bound', async () => {
    const s = sim();
    const { queue_id } = await register(s, HAMLET);
    emit(s, Array.from({ length: MAX_QUEUED_EVENTS }, () => marker()));
    expect((await pending(s, HAMLET, queue_id)).length).toBe(MAX_QUEUED_EVENTS);
    emit(s, [marker()]);
    expect((await poll(s, HAMLET, { queue_id, last_event_id: -1 })).body).toEqual(badQueue(queue_id));
  });
});

describe('compression of flag events (zerver/tornado/event_queue.py:EventQueue)', () => {
  it('merges add-flag events by (op, flag) at the ID of the last one; IDs skip', async () => {
    const s = sim();
    const { queue_id } = await register(s, HAMLET);
    const flags = (op: string, flag: string, messages: number[], all = false) => ({ type: 'update_message_flags', op, operation: op, flag, messages, all });
    emit(s, [flags('add', 'read', [1]), marker(), flags('add', 'read', [2, 3]), flags('add', 'starred', [4]), flags('remove', 'read', [5]), flags('add', 'read', [], true)]);
    expect(await pending(s, HAMLET, queue_id)).toEqual([
      { ...marker(), id: 1 },
      { ...flags('add', 'read', [1, 2, 3]), id: 2 },
      { ...flags('add', 'starred', [4]), id: 3 },
      { ...flags('remove', 'read', [5]), id: 4 },
      { ...flags('add', 'read', [], true), id: 5 },
    ]);
    // Once read, merged events are ordinary queued events.
    emit(s, [flags('add', 'read', [6])]);
    expect((await pending(s, HAMLET, queue_id, 2)).map((e) => e.id)).toEqual([3, 4, 5, 6]);
  });
});

describe('per-queue variants of an event (zerver/views/events_register.py, zerver/tornado/event_queue.py:ClientDescriptor)', () => {
  const deletion = { type: 'delete_message', message_type: 'stream', stream_id: 3, topic: '', message_ids: [41, 42] };

  it('splits bulk deletions for queues without bulk_message_deletion, and names the empty topic for old clients', async () => {
    const s = sim();
    const modern = await register(s, HAMLET, { client_capabilities: { notification_settings_null: true, bulk_message_deletion: true, empty_topic_name: true } });
    const old = await register(s, HAMLET);
    emit(s, [deletion]);
    expect(await pending(s, HAMLET, modern.queue_id)).toEqual([{ ...deletion, id: 0 }]);
    expect(await pending(s, HAMLET, old.queue_id)).toEqual([
      { type: 'delete_message', message_type: 'stream', stream_id: 3, topic: 'general chat', message_id: 41, id: 0 },
      { type: 'delete_message', message_type: 'stream', stream_id: 3, topic: 'general chat', message_id: 42, id: 1 },
    ]);
  });

  it('delivers channel typing only to stream_typing_notifications queues; DM typing to all', async () => {
    const s = sim();
    const modern = await register(s, HAMLET, { client_capabilities: { notification_settings_null: false, stream_typing_notifications: true } });
    const old = await register(s, HAMLET);
    const channelTyping = { type: 'typing', op: 'start', message_type: 'stream', sender: { user_id: 11, email: 'x' }, stream_id: 3, topic: 't' };
    const dmTyping = { type: 'typing', op: 'start', message_type: 'direct', sender: { user_id: 11, email: 'x' }, recipients: [] };
    emit(s, [channelTyping, dmTyping]);
    expect((await pending(s, HAMLET, modern.queue_id)).map((e) => e.message_type)).toEqual(['stream', 'direct']);
    expect((await pending(s, HAMLET, old.queue_id)).map((e) => e.message_type)).toEqual(['direct']);
  });

  it('filters by event_types but always lets heartbeats and drops legacy settings events for user_settings_object', async () => {
    const s = sim();
    const q = await register(s, HAMLET, { event_types: ['user_settings', 'update_display_settings', 'muted_topics', 'user_topic'], client_capabilities: { notification_settings_null: false, user_settings_object: true } });
    emit(s, [
      { type: 'user_settings', op: 'update', property: 'enter_sends', value: true },
      { type: 'update_display_settings', setting_name: 'enter_sends', setting: true, user: 'x' },
      { type: 'muted_topics', muted_topics: [] },
      { type: 'user_topic', stream_id: 3, topic_name: 't', last_updated: 1, visibility_policy: 1 },
      { type: 'realm_user', op: 'update', person: { user_id: 10, full_name: 'x' } },
    ]);
    expect((await pending(s, HAMLET, q.queue_id)).map((e) => e.type)).toEqual(['user_settings', 'user_topic']);
  });

  it('strips delivery-only keys and hides what a capability asks to hide', async () => {
    const s = sim();
    const incomplete = await register(s, HAMLET, { client_capabilities: { notification_settings_null: false, user_list_incomplete: true, include_deactivated_groups: true } });
    const plain = await register(s, HAMLET);
    const person = (await s.request({ method: 'GET', path: '/api/v1/users/12', as: HAMLET })).body.user;
    emit(s, [
      { type: 'realm_user', op: 'add', person, inaccessible_user: true },
      { type: 'user_group', op: 'update', group_id: 5, data: { name: 'x' }, deactivated: true },
      { type: 'user_group', op: 'remove', group_id: 5 },
    ]);
    expect(await pending(s, HAMLET, incomplete.queue_id)).toEqual([{ type: 'user_group', op: 'update', group_id: 5, data: { name: 'x' }, id: 0 }]);
    expect(await pending(s, HAMLET, plain.queue_id)).toEqual([
      { type: 'realm_user', op: 'add', person, id: 0 },
      { type: 'user_group', op: 'remove', group_id: 5, id: 1 },
    ]);
  });
});
