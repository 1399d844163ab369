/**
 * Email invitations (zerver/views/invite.py invite_users_backend, zerver/actions/invites.py):
 * POST /invites and its checks, the outbox, GET /invites listing them beside reusable links,
 * DELETE /invites/{id} and POST /invites/{id}/resend.
 */
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../simulator/index.ts';
import { ID, NOW, sim, watchEvents } from './helpers.ts';

const VERONA = 3;
const DENMARK = 4;
const TEN_DAYS_MINUTES = 60 * 24 * 10;

type Body = Record<string, unknown>;
const encode = (body: Body) => Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const invitationFailed = (msg: string, errors: [string, string, boolean][], sent: boolean, daily = false) => ({
  result: 'error',
  msg,
  code: 'INVITATION_FAILED',
  errors,
  sent_invitations: sent,
  license_limit_reached: false,
  daily_limit_reached: daily,
});

const send = (s: Simulator, as: number, body: Body) => s.request({ method: 'POST', path: '/api/v1/invites', as, body: encode(body) });
const list = async (s: Simulator, as: number) => (await s.request({ method: 'GET', path: '/api/v1/invites', as })).body.invites as Record<string, unknown>[];

describe('POST /invites', () => {
  it("sends python_examples.py's invitations: one email each in the outbox, listed by GET /invites, invites_changed to administrators", async () => {
    const s = sim();
    const watch = watchEvents(s);
    const res = await send(s, ID.iago, { invitee_emails: 'example@zulip.com, logan@zulip.com', invite_expires_in_minutes: TEN_DAYS_MINUTES, invite_as: 400, stream_ids: [VERONA, DENMARK] });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(s.engine.state.outbox.slice(-2).map((m) => [m.to, m.template])).toEqual([
      ['example@zulip.com', 'zerver/emails/invitation'],
      ['logan@zulip.com', 'zerver/emails/invitation'],
    ]);
    expect(await list(s, ID.iago)).toEqual([
      { id: 1, invited_by_user_id: ID.iago, invited: NOW, expiry_date: NOW + TEN_DAYS_MINUTES * 60, invited_as: 400, email: 'example@zulip.com', is_multiuse: false, notify_referrer_on_join: true },
      { id: 2, invited_by_user_id: ID.iago, invited: NOW, expiry_date: NOW + TEN_DAYS_MINUTES * 60, invited_as: 400, email: 'logan@zulip.com', is_multiuse: false, notify_referrer_on_join: true },
    ]);
    expect(watch.take()).toEqual([{ event: { type: 'invites_changed' }, users: [ID.desdemona, ID.iago] }]);
  });

  it('takes "Name <address>" and newlines, and an empty channel list', async () => {
    const s = sim();
    expect((await send(s, ID.iago, { invitee_emails: 'Delete Me <delete-invite@zulip.com>\nother@zulip.com', stream_ids: [] })).status).toBe(200);
    expect((await list(s, ID.iago)).map((i) => i.email)).toEqual(['delete-invite@zulip.com', 'other@zulip.com']);
  });

  it('lets a member invite members, and shows members only their own invitations', async () => {
    const s = sim();
    await send(s, ID.iago, { invitee_emails: 'a@zulip.com', stream_ids: [] });
    expect((await send(s, ID.hamlet, { invitee_emails: 'b@zulip.com', stream_ids: [] })).status).toBe(200);
    expect((await list(s, ID.hamlet)).map((i) => i.email)).toEqual(['b@zulip.com']);
    expect((await list(s, ID.iago)).map((i) => i.email)).toEqual(['a@zulip.com', 'b@zulip.com']);
  });

  it.each([
    ['a member inviting an administrator', ID.hamlet, { invitee_emails: 'x@zulip.com', stream_ids: [], invite_as: 200 }, error('Must be an organization administrator')],
    ['an administrator inviting an owner', ID.iago, { invitee_emails: 'x@zulip.com', stream_ids: [], invite_as: 100 }, error('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL')],
    ['no address', ID.iago, { invitee_emails: '', stream_ids: [] }, error('You must specify at least one email address.')],
    ['a channel that does not exist', ID.iago, { invitee_emails: 'x@zulip.com', stream_ids: [999] }, error('Invalid channel ID 999. No invites were sent.')],
    ['a custom welcome text from a member', ID.hamlet, { invitee_emails: 'x@zulip.com', stream_ids: [], welcome_message_custom_text: 'hi' }, error('Must be an organization administrator')],
  ])('refuses %s', async (_what, as, body, expected) => {
    const s = sim();
    expect((await send(s, as, body)).body).toEqual(expected);
    expect(await list(s, ID.iago)).toEqual([]);
  });

  it('needs stream_ids and refuses an invite_as outside the five roles', async () => {
    const s = sim();
    expect((await send(s, ID.iago, { invitee_emails: 'x@zulip.com' })).body).toEqual({ ...error("Missing 'stream_ids' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'stream_ids' });
    expect((await send(s, ID.iago, { invitee_emails: 'x@zulip.com', stream_ids: [], invite_as: 500 })).status).toBe(400);
  });

  it('refuses guests and bots first', async () => {
    const s = sim();
    expect((await send(s, ID.polonius, { invitee_emails: 'x@zulip.com', stream_ids: [] })).body).toEqual(error('Not allowed for guest users'));
    expect((await send(s, ID.defaultBot, { invitee_emails: 'x@zulip.com', stream_ids: [] })).body.msg).toBe('This endpoint does not accept bot requests.');
  });

  it('sends nothing when an address does not validate', async () => {
    const s = sim();
    const before = s.engine.state.outbox.length;
    expect((await send(s, ID.iago, { invitee_emails: 'good@zulip.com, not-an-email', stream_ids: [] })).body).toEqual(
      invitationFailed("Some emails did not validate, so we didn't send any invitations.", [['not-an-email', 'Invalid address.', false]], false),
    );
    expect(s.engine.state.outbox.length).toBe(before);
  });

  it("skips system bots' addresses and taken ones, inviting the others (get_existing_user_errors)", async () => {
    const s = sim();
    const res = await send(s, ID.iago, { invitee_emails: 'emailgateway@zulip.com, hamlet@zulip.com, new@zulip.com', stream_ids: [] });
    expect(res.body).toEqual(
      invitationFailed(
        "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
        [
          ['emailgateway@zulip.com', 'Reserved for system bots.', false],
          ['hamlet@zulip.com', 'Already has an account.', false],
        ],
        true,
      ),
    );
    expect((await list(s, ID.iago)).map((i) => i.email)).toEqual(['new@zulip.com']);
    expect((await send(s, ID.iago, { invitee_emails: 'notification-bot@zulip.com', stream_ids: [] })).body).toEqual(
      invitationFailed("We weren't able to invite anyone.", [['notification-bot@zulip.com', 'Reserved for system bots.', false]], false),
    );
  });

  it('keeps to the daily limit of 100 invitations', async () => {
    const s = sim();
    const many = Array.from({ length: 100 }, (_, i) => `person${i}@zulip.com`).join(',');
    expect((await send(s, ID.iago, { invitee_emails: many, stream_ids: [] })).status).toBe(200);
    expect((await send(s, ID.iago, { invitee_emails: 'one-more@zulip.com', stream_ids: [] })).body).toEqual(
      invitationFailed(
        'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.',
        [],
        false,
        true,
      ),
    );
  });
});

describe('DELETE /invites/{invite_id} and POST /invites/{invite_id}/resend', () => {
  it('revokes an invitation: it is gone from the list, and a second revocation finds nothing', async () => {
    const s = sim();
    await send(s, ID.iago, { invitee_emails: 'delete-invite@zulip.com', stream_ids: [] });
    const watch = watchEvents(s);
    expect((await s.request({ method: 'DELETE', path: '/api/v1/invites/1', as: ID.iago })).body).toEqual({ result: 'success', msg: '' });
    expect(watch.take()).toEqual([{ event: { type: 'invites_changed' }, users: [ID.desdemona, ID.iago] }]);
    expect(await list(s, ID.iago)).toEqual([]);
    expect((await s.request({ method: 'DELETE', path: '/api/v1/invites/1', as: ID.iago })).body).toEqual(error('No such invitation'));
  });

  it("lets only the inviter or an administrator touch someone's invitation", async () => {
    const s = sim();
    await send(s, ID.hamlet, { invitee_emails: 'friend@zulip.com', stream_ids: [] });
    expect((await s.request({ method: 'DELETE', path: '/api/v1/invites/1', as: ID.othello })).body).toEqual(error('Must be an organization administrator'));
    expect((await s.request({ method: 'POST', path: '/api/v1/invites/1/resend', as: ID.othello })).body).toEqual(error('Must be an organization administrator'));
    expect((await s.request({ method: 'POST', path: '/api/v1/invites/1/resend', as: ID.hamlet })).status).toBe(200);
  });

  it('resends the email, dated now', async () => {
    const clock = { t: NOW, now() {
      return this.t;
    } };
    const s = sim({ clock });
    await send(s, ID.iago, { invitee_emails: 'later@zulip.com', stream_ids: [], invite_expires_in_minutes: 60 });
    clock.t += 600;
    const before = s.engine.state.outbox.length;
    expect((await s.request({ method: 'POST', path: '/api/v1/invites/1/resend', as: ID.iago })).body).toEqual({ result: 'success', msg: '' });
    expect(s.engine.state.outbox.slice(before).map((m) => [m.to, m.timestamp])).toEqual([['later@zulip.com', NOW + 600]]);
    expect((await list(s, ID.iago))[0]).toMatchObject({ invited: NOW + 600, expiry_date: NOW + 600 + 3600 });
    expect((await s.request({ method: 'POST', path: '/api/v1/invites/9/resend', as: ID.iago })).body).toEqual(error('No such invitation'));
  });
});
