/**
 * Reusable invitation links (zerver/views/invite.py, zerver/actions/invites.py) through the in-process API: the link, the
 * listing, revocation, every check in Zulip's order, who may, and the invites_changed events.
 */
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../simulator/index.ts';
import { ID, NOW, sim, watchEvents } from './helpers.ts';

const VERONA = 3;
const DENMARK = 4;
const CORE_TEAM = 8;
const HAMLETCHARACTERS = 17;
const G = { owners: 10, administrators: 11, moderators: 12, members: 14 };
const TEN_DAYS = 14_400 * 60;

type Body = Record<string, unknown>;
const encode = (body: Body) => Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });

const invite = (s: Simulator, as: number, body: Body = {}) => s.request({ method: 'POST', path: '/api/v1/invites/multiuse', as, body: encode(body) });
const list = async (s: Simulator, as: number) => (await s.request({ method: 'GET', path: '/api/v1/invites', as })).body;
const revoke = (s: Simulator, as: number, id: number) => s.request({ method: 'DELETE', path: `/api/v1/invites/multiuse/${id}`, as });

/** A simulator whose clock a test can move. */
function withClock() {
  const clock = { t: NOW, now() {
    return this.t;
  } };
  return { s: sim({ clock }), clock };
}

/** The events users' queues received while `action` ran, each with who got it. */
async function eventsOf(s: Simulator, action: () => Promise<unknown>) {
  const watch = watchEvents(s);
  await action();
  return watch.take();
}

/** Anyone may create links, so that the later checks can be reached by every role. */
function openRealm(s: Simulator) {
  s.engine.state.realm.create_multiuse_invite_group = G.members;
  return s;
}

describe('POST /invites/multiuse', () => {
  it('answers a realistic link, lists it, and tells administrators and the creator', async () => {
    const s = sim();
    let link = '';
    const events = await eventsOf(s, async () => {
      const res = await invite(s, ID.iago, { stream_ids: [VERONA, CORE_TEAM], group_ids: [] });
      expect(res.status).toBe(200);
      link = res.body.invite_link;
      expect(res.body).toEqual({ result: 'success', msg: '', invite_link: link });
    });
    expect(link).toMatch(/^http:\/\/zulip\.testserver\/join\/[a-z2-7]{24}\/$/);
    expect(events).toEqual([{ event: { type: 'invites_changed' }, users: [ID.desdemona, ID.iago] }]);
    expect(await list(s, ID.iago)).toEqual({
      result: 'success',
      msg: '',
      invites: [{ id: 1, invited_by_user_id: ID.iago, invited: NOW, expiry_date: NOW + TEN_DAYS, invited_as: 400, link_url: link, is_multiuse: true }],
    });
    expect(s.engine.state.invites.get(1)).toMatchObject({ stream_ids: [VERONA, CORE_TEAM], welcome_message_custom_text: null, include_realm_default_subscriptions: false });
  });

  it('makes the same links for the same seed, a new one each time', async () => {
    const links = async () => {
      const s = sim();
      return [(await invite(s, ID.iago)).body.invite_link, (await invite(s, ID.iago)).body.invite_link];
    };
    const [a, b] = await links();
    expect(a).not.toBe(b);
    expect(await links()).toEqual([a, b]);
  });

  it('expires after the minutes asked for, never with null, by the simulated clock', async () => {
    const { s, clock } = withClock();
    await invite(s, ID.iago, { invite_expires_in_minutes: 60 });
    await invite(s, ID.iago, { invite_expires_in_minutes: null, invite_as: 600, include_realm_default_subscriptions: true, welcome_message_custom_text: '' });
    expect((await list(s, ID.iago)).invites.map((i: Body) => i.expiry_date)).toEqual([NOW + 3600, null]);
    expect(s.engine.state.invites.get(2)).toMatchObject({ invited_as: 600, include_realm_default_subscriptions: true, welcome_message_custom_text: '' });
    clock.t = NOW + 3599;
    expect((await list(s, ID.iago)).invites).toHaveLength(2);
    clock.t = NOW + 3600;
    expect((await list(s, ID.iago)).invites.map((i: Body) => i.id)).toEqual([2]);
  });

  const bad: [string, number, Body, string, string?][] = [
    ['a guest', ID.polonius, {}, 'Not allowed for guest users'],
    ['a bot', ID.defaultBot, {}, 'This endpoint does not accept bot requests.'],
    ['a role that does not exist', ID.iago, { invite_as: 500 }, 'Invalid invite_as: Value error, Not in the list of possible values'],
    ['a non-integer expiry', ID.iago, { invite_expires_in_minutes: 1.5 }, 'invite_expires_in_minutes is not an integer'],
    ['8001 code points of welcome text', ID.iago, { welcome_message_custom_text: '🎉'.repeat(8001) }, 'welcome_message_custom_text is too long (limit: 8000 characters)'],
    // Parameters are parsed before the permission is looked at.
    ['a member (create_multiuse_invite_group is administrators)', ID.hamlet, {}, 'Insufficient permission'],
    ['a member with a bad role', ID.hamlet, { invite_as: 1 }, 'Invalid invite_as: Value error, Not in the list of possible values'],
    ['an administrator inviting an owner', ID.iago, { invite_as: 100 }, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'],
    ['an unknown channel', ID.iago, { stream_ids: [VERONA, 999, 998] }, 'Invalid channel ID 999. No invites were sent.'],
    ['an unknown group', ID.iago, { group_ids: [999] }, 'Invalid user group'],
    ['a system group', ID.desdemona, { group_ids: [G.members] }, 'Insufficient permission'],
    ['a group the creator may not add to', ID.iago, { group_ids: [HAMLETCHARACTERS] }, 'Insufficient permission'],
    ['a bad channel before a bad group', ID.iago, { stream_ids: [999], group_ids: [999] }, 'Invalid channel ID 999. No invites were sent.'],
  ];
  it.each(bad)('refuses %s, creating nothing', async (_label, as, body, msg, code) => {
    const s = sim();
    const events = await eventsOf(s, async () => {
      const res = await invite(s, as, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error(msg, code));
    });
    expect(events).toEqual([]);
    expect(s.engine.state.invites.size).toBe(0);
  });

  it('bounds the role by the creator\'s own (a moderator may invite moderators: the spec)', async () => {
    const s = openRealm(sim());
    const roles = async (as: number) => {
      const out: Record<number, unknown> = {};
      for (const role of [100, 200, 300, 400, 600]) out[role] = (await invite(s, as, { invite_as: role })).body.msg;
      return out;
    };
    const owner = 'Must be an organization owner';
    const admin = 'Must be an organization administrator';
    expect(await roles(ID.hamlet)).toEqual({ 100: owner, 200: admin, 300: admin, 400: '', 600: '' });
    expect(await roles(ID.shiva)).toEqual({ 100: owner, 200: admin, 300: '', 400: '', 600: '' });
    expect(await roles(ID.iago)).toEqual({ 100: owner, 200: '', 300: '', 400: '', 600: '' });
    expect(await roles(ID.desdemona)).toEqual({ 100: '', 200: '', 300: '', 400: '', 600: '' });
  });

  it('takes only channels the creator can read, and default ones or ones they may add subscribers to', async () => {
    const s = openRealm(sim());
    // Shiva is not subscribed to the private core team.
    expect((await invite(s, ID.shiva, { stream_ids: [CORE_TEAM] })).body).toEqual(error(`Invalid channel ID ${CORE_TEAM}. No invites were sent.`));
    s.engine.state.realm.can_add_subscribers_group = G.administrators;
    expect((await invite(s, ID.shiva, { stream_ids: [VERONA, DENMARK] })).body).toEqual(error('You do not have permission to subscribe other users to channels.'));
    // Verona is a default channel: no permission needed.
    expect((await invite(s, ID.shiva, { stream_ids: [VERONA] })).status).toBe(200);
    expect((await invite(s, ID.iago, { stream_ids: [DENMARK] })).status).toBe(200);
  });

  it('takes groups the creator may add members to', async () => {
    const s = openRealm(sim());
    expect((await invite(s, ID.cordelia, { group_ids: [HAMLETCHARACTERS] })).status).toBe(200);
    expect(s.engine.state.invites.get(1)!.group_ids).toEqual([HAMLETCHARACTERS]);
    await s.request({ method: 'POST', path: `/api/v1/user_groups/${HAMLETCHARACTERS}/deactivate`, as: ID.cordelia });
    expect((await invite(s, ID.cordelia, { group_ids: [HAMLETCHARACTERS] })).body).toEqual(error('User group is deactivated.'));
  });

  it('lets only administrators set a welcome text, checked after channels and groups', async () => {
    const s = openRealm(sim());
    expect((await invite(s, ID.hamlet, { welcome_message_custom_text: 'Welcome!' })).body).toEqual(error('Must be an organization administrator'));
    expect((await invite(s, ID.hamlet, { welcome_message_custom_text: 'Welcome!', stream_ids: [999] })).body).toEqual(
      error('Invalid channel ID 999. No invites were sent.'),
    );
    expect((await invite(s, ID.iago, { welcome_message_custom_text: '🎉'.repeat(8000) })).status).toBe(200);
    expect(s.engine.state.invites.get(1)!.welcome_message_custom_text).toBe('🎉'.repeat(8000));
  });
});

describe('GET /invites', () => {
  it('shows administrators every valid link and others their own', async () => {
    const s = openRealm(sim());
    await invite(s, ID.hamlet);
    await invite(s, ID.othello);
    await invite(s, ID.iago);
    const ids = async (as: number) => (await list(s, as)).invites.map((i: Body) => i.id);
    expect(await ids(ID.iago)).toEqual([1, 2, 3]);
    expect(await ids(ID.desdemona)).toEqual([1, 2, 3]);
    expect(await ids(ID.hamlet)).toEqual([1]);
    expect(await ids(ID.cordelia)).toEqual([]);
    expect((await list(s, ID.polonius))).toEqual(error('Not allowed for guest users'));
  });

  it('drops the links of a user who is deactivated, telling administrators', async () => {
    const s = openRealm(sim());
    await invite(s, ID.hamlet);
    const events = await eventsOf(s, () => s.request({ method: 'DELETE', path: `/api/v1/users/${ID.hamlet}`, as: ID.iago }));
    expect(events.filter((e) => e.event.type === 'invites_changed')).toEqual([{ event: { type: 'invites_changed' }, users: [ID.desdemona, ID.iago] }]);
    expect((await list(s, ID.iago)).invites).toEqual([]);
  });
});

describe('DELETE /invites/multiuse/{id}', () => {
  it('revokes a link: gone from the listing, administrators and the creator told', async () => {
    const s = openRealm(sim());
    await invite(s, ID.hamlet);
    const events = await eventsOf(s, async () => {
      expect((await revoke(s, ID.hamlet, 1)).body).toEqual({ result: 'success', msg: '' });
    });
    expect(events).toEqual([{ event: { type: 'invites_changed' }, users: [ID.desdemona, ID.hamlet, ID.iago] }]);
    expect((await list(s, ID.iago)).invites).toEqual([]);
    expect((await revoke(s, ID.hamlet, 1)).body).toEqual(error('Invitation has already been revoked'));
  });

  it("lets administrators revoke others' links, owners' owner links only to owners", async () => {
    const s = openRealm(sim());
    await invite(s, ID.hamlet);
    await invite(s, ID.desdemona, { invite_as: 100 });
    expect((await revoke(s, ID.othello, 1)).body).toEqual(error('Must be an organization administrator'));
    expect((await revoke(s, ID.iago, 2)).body).toEqual(error('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'));
    expect((await revoke(s, ID.iago, 1)).status).toBe(200);
    expect((await revoke(s, ID.desdemona, 2)).status).toBe(200);
    expect((await revoke(s, ID.iago, 99)).body).toEqual(error('No such invitation'));
  });

  it('still revokes an expired link', async () => {
    const { s, clock } = withClock();
    await invite(s, ID.iago, { invite_expires_in_minutes: 1 });
    clock.t = NOW + 3600;
    expect((await revoke(s, ID.iago, 1)).status).toBe(200);
  });
});

describe('/register state', () => {
  it("gives the realm's invitation settings and whether the user may invite", async () => {
    const s = sim();
    const register = async (as: number) =>
      (await s.request({ method: 'POST', path: '/api/v1/register', as, body: { fetch_event_types: JSON.stringify(['realm', 'realm_user']) } })).body;
    expect(await register(ID.hamlet)).toMatchObject({
      realm_create_multiuse_invite_group: G.administrators,
      realm_can_invite_users_group: G.members,
      can_invite_others_to_realm: true,
    });
    expect((await register(ID.polonius)).can_invite_others_to_realm).toBe(false);
  });
});
