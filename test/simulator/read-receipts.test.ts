/** GET /messages/{message_id}/read_receipts (zerver/views/read_receipts.py). */
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../simulator/index.ts';
import { ID, devFixture, sim } from './helpers.ts';

const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

async function send(s: Simulator, as: number, body: Record<string, unknown>): Promise<number> {
  const res = await s.request({ method: 'POST', path: '/api/v1/messages', as, body });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

const receipts = (s: Simulator, id: number, as: number) => s.request({ method: 'GET', path: `/api/v1/messages/${id}/read_receipts`, as });

async function markRead(s: Simulator, as: number, id: number) {
  const res = await s.request({ method: 'POST', path: '/api/v1/messages/flags', as, body: { messages: JSON.stringify([id]), op: 'add', flag: 'read' } });
  expect(res.status).toBe(200);
}

describe('GET /messages/{message_id}/read_receipts', () => {
  it('lists who has read the message, the sender left out, in the dev realm (read receipts on)', async () => {
    const s = sim();
    const id = await send(s, ID.hamlet, { type: 'stream', to: 'Verona', topic: 'receipts', content: 'hello' });
    expect((await receipts(s, id, ID.hamlet)).body).toEqual({ result: 'success', msg: '', user_ids: [] });
    await markRead(s, ID.othello, id);
    await markRead(s, ID.cordelia, id);
    expect((await receipts(s, id, ID.hamlet)).body).toEqual({ result: 'success', msg: '', user_ids: [ID.cordelia, ID.othello] });
    // Marking it unread again takes the receipt back.
    await s.request({ method: 'POST', path: '/api/v1/messages/flags', as: ID.othello, body: { messages: JSON.stringify([id]), op: 'remove', flag: 'read' } });
    expect((await receipts(s, id, ID.iago)).body.user_ids).toEqual([ID.cordelia]);
  });

  it('leaves out those the viewer muted, those who muted the viewer, deactivated users and those who turned receipts off', async () => {
    const s = sim();
    const id = await send(s, ID.hamlet, { type: 'stream', to: 'Verona', topic: 'receipts', content: 'hello' });
    for (const reader of [ID.othello, ID.cordelia, ID.iago, ID.prospero]) await markRead(s, reader, id);
    await s.request({ method: 'POST', path: `/api/v1/users/me/muted_users/${ID.othello}`, as: ID.aaron });
    await s.request({ method: 'POST', path: `/api/v1/users/me/muted_users/${ID.aaron}`, as: ID.cordelia });
    await s.request({ method: 'PATCH', path: '/api/v1/settings', as: ID.iago, body: { send_read_receipts: 'false' } });
    await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.prospero}`, as: ID.desdemona });
    expect((await receipts(s, id, ID.aaron)).body.user_ids).toEqual([]);
    expect((await receipts(s, id, ID.hamlet)).body.user_ids).toEqual([ID.cordelia, ID.othello]);
  });

  it('counts bots that mark messages read, as Zulip does', async () => {
    const s = sim();
    const id = await send(s, ID.hamlet, { type: 'direct', to: JSON.stringify([ID.defaultBot]), content: 'for the bot' });
    await markRead(s, ID.defaultBot, id);
    expect((await receipts(s, id, ID.hamlet)).body.user_ids).toEqual([ID.defaultBot]);
  });

  it('answers only for a message the viewer can access, then only when the realm has read receipts on', async () => {
    const s = sim();
    const dm = await send(s, ID.hamlet, { type: 'direct', to: JSON.stringify([ID.othello]), content: 'private' });
    expect((await receipts(s, dm, ID.cordelia)).body).toEqual(error('Invalid message(s)'));
    expect((await receipts(s, 999_999, ID.hamlet)).body).toEqual(error('Invalid message(s)'));
    const fixture = devFixture();
    fixture.realm.enable_read_receipts = false;
    const off = sim({ fixture });
    const id = await send(off, ID.hamlet, { type: 'stream', to: 'Verona', topic: 'receipts', content: 'hello' });
    expect((await receipts(off, id, ID.hamlet)).body).toEqual(error('Read receipts are disabled in this organization.'));
    expect((await receipts(off, 999_999, ID.hamlet)).body).toEqual(error('Invalid message(s)'));
  });
});
