// A group's can_mention_group on the send, edit and schedule paths (Zulip's
// check_user_group_mention_allowed): a non-silent @*group* mention needs the sender in the
// setting; silent mentions never count; role:everyone lets anyone; system bots only that.
import { describe, expect, test } from 'vitest';
import { checkUserGroupMentions, renderFor } from '../../../simulator/engine/messages/send.ts';
import { notificationBot } from '../../../simulator/engine/core.ts';
import type { Simulator } from '../../../simulator/index.ts';
import { ID, sim } from '../helpers.ts';

const G = { moderators: 12, everyone: 15 };
const refused = (name: string) => ({ result: 'error', code: 'BAD_REQUEST', msg: `You are not allowed to mention user group '${name}'.` });

function call(s: Simulator, method: string, path: string, as: number, body: Record<string, unknown>) {
  const form = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  return s.request({ method, path: `/api/v1${path}`, as, body: form });
}

/** A realm with `leadership` (Othello), which only moderators may mention, and `support`, which anyone may. */
async function realm(): Promise<{ s: Simulator; leadership: number; support: number }> {
  const s = sim();
  const make = async (name: string, can_mention_group: number) => {
    const res = await call(s, 'POST', '/user_groups/create', ID.iago, { name, description: '', members: [ID.othello], can_mention_group });
    expect(res.status).toBe(200);
    return res.body.group_id as number;
  };
  return { s, leadership: await make('leadership', G.moderators), support: await make('support', G.everyone) };
}

const send = (s: Simulator, as: number, content: string) => call(s, 'POST', '/messages', as, { type: 'stream', to: 'Verona', topic: 'mentions', content });

describe('can_mention_group', () => {
  test.each([
    ['a member outside the setting, channel message', ID.cordelia, '@*leadership* please', refused('leadership')],
    ['a moderator', ID.shiva, '@*leadership* please', null],
    ['an administrator (moderators include them)', ID.iago, '@*leadership* please', null],
    ['a silent mention never counts', ID.cordelia, '@_*leadership* fyi', null],
    ['a group anyone may mention', ID.cordelia, '@*support* help', null],
    ['the first refused group is named', ID.cordelia, '@*support* and @*leadership*', refused('leadership')],
  ])('%s', async (_name, as, content, expected) => {
    const { s } = await realm();
    const res = await send(s, as, content);
    if (expected) expect(res.body).toEqual(expected);
    else expect(res.body).toMatchObject({ result: 'success' });
  });

  test('direct messages are checked too, and nothing is stored when refused', async () => {
    const { s } = await realm();
    const before = s.engine.state.messages.messages.length;
    const res = await call(s, 'POST', '/messages', ID.cordelia, { type: 'direct', to: [ID.hamlet], content: '@*leadership* hi' });
    expect(res.body).toEqual(refused('leadership'));
    expect(s.engine.state.messages.messages.length).toBe(before);
  });

  test('an edit that adds the mention is refused; a silent one is allowed', async () => {
    const { s } = await realm();
    const sent = await send(s, ID.cordelia, 'plain');
    const id = sent.body.id as number;
    expect((await call(s, 'PATCH', `/messages/${id}`, ID.cordelia, { content: 'now @*leadership*' })).body).toEqual(refused('leadership'));
    expect((await call(s, 'PATCH', `/messages/${id}`, ID.cordelia, { content: 'now @_*leadership*' })).body).toMatchObject({ result: 'success' });
  });

  test('a scheduled message is checked when scheduled', async () => {
    const { s } = await realm();
    const res = await call(s, 'POST', '/scheduled_messages', ID.cordelia, {
      type: 'stream',
      to: s.engine.state.streamsByName.get('verona') ?? 0,
      topic: 'later',
      content: '@*leadership*',
      scheduled_delivery_timestamp: Math.floor(s.engine.deps.clock.now()) + 3600,
    });
    expect(res.body).toEqual(refused('leadership'));
  });

  test('a system bot may mention only groups anyone may mention', async () => {
    const { s } = await realm();
    const bot = notificationBot(s.engine)!;
    expect(() => checkUserGroupMentions(s.engine, bot, renderFor(s.engine, bot, '@*support*'))).not.toThrow();
    expect(() => checkUserGroupMentions(s.engine, bot, renderFor(s.engine, bot, '@*leadership*'))).toThrow("You are not allowed to mention user group 'leadership'.");
  });
});
