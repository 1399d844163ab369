/**
 * Editing a reusable invitation link, `PATCH /invites/multiuse/{invite_id}` (operationId
 * edit-invite-link), as zerver/openapi/python_examples.py's edit_reusable_invitation_link uses it:
 * a link made with invite_as 400 and channels, then changed to invite_as 600 and other channels.
 * The link is found as DELETE finds it (access_multiuse_invite_by_id); each field is checked as
 * POST /invites/multiuse checks it; invites_changed tells the administrators and the creator.
 */
import { describe, expect, it } from 'vitest';
import { ID, sim, watchEvents } from './helpers.ts';

type Invite = { id: number; invited_as: number; is_multiuse: boolean; link_url: string };
type S = ReturnType<typeof sim>;

async function makeLink(s: S, as: number, body: Record<string, unknown> = { invite_as: 400 }): Promise<Invite> {
  const made = await s.request({ method: 'POST', path: '/api/v1/invites/multiuse', as, body });
  expect(made.status).toBe(200);
  const links = ((await s.request({ method: 'GET', path: '/api/v1/invites', as })).body.invites as Invite[]).filter((i) => i.is_multiuse && i.link_url === made.body.invite_link);
  expect(links).toHaveLength(1);
  return links[0]!;
}
const edit = (s: S, id: number, as: number, body: Record<string, unknown>) => s.request({ method: 'PATCH', path: `/api/v1/invites/multiuse/${id}`, as, body });
const listed = async (s: S, id: number) => ((await s.request({ method: 'GET', path: '/api/v1/invites', as: ID.iago })).body.invites as Invite[]).find((i) => i.is_multiuse && i.id === id);
const subscribedIds = async (s: S, as: number) => ((await s.request({ method: 'GET', path: '/api/v1/users/me/subscriptions', as })).body.subscriptions as { stream_id: number }[]).map((x) => x.stream_id);

describe('PATCH /invites/multiuse/{invite_id}', () => {
  it("runs python_examples' edit_reusable_invitation_link: 200, the new role listed, the same URL, invites_changed", async () => {
    const s = sim();
    const streams = await subscribedIds(s, ID.iago);
    const link = await makeLink(s, ID.iago, { invite_expires_in_minutes: 14400, invite_as: 400, stream_ids: streams.slice(0, 3) });
    const watch = watchEvents(s);
    const res = await edit(s, link.id, ID.iago, { invite_as: 600, stream_ids: streams.slice(0, 2) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const after = await listed(s, link.id);
    expect(after?.invited_as).toBe(600);
    expect(after?.link_url).toBe(link.link_url);
    const events = watch.take().filter((e) => e.event.type === 'invites_changed');
    expect(events).toHaveLength(1);
    expect(events[0]!.users).toEqual([ID.desdemona, ID.iago]);
  });

  it("refuses a member editing someone else's link, an unknown id and a revoked link, changing nothing", async () => {
    const s = sim();
    const link = await makeLink(s, ID.iago);
    const watch = watchEvents(s);
    expect((await edit(s, link.id, ID.hamlet, { invite_as: 600 })).body).toEqual({ result: 'error', msg: 'Must be an organization administrator', code: 'BAD_REQUEST' });
    expect((await edit(s, 9999, ID.iago, { invite_as: 600 })).body).toEqual({ result: 'error', msg: 'No such invitation', code: 'BAD_REQUEST' });
    expect(watch.take()).toEqual([]);
    expect((await listed(s, link.id))?.invited_as).toBe(400);
    expect((await s.request({ method: 'DELETE', path: `/api/v1/invites/multiuse/${link.id}`, as: ID.iago })).status).toBe(200);
    expect((await edit(s, link.id, ID.iago, { invite_as: 600 })).body).toEqual({ result: 'error', msg: 'Invitation has already been revoked', code: 'BAD_REQUEST' });
  });

  it('checks the role and channels as creating a link does, and applies nothing when one check fails', async () => {
    const s = sim();
    const link = await makeLink(s, ID.iago);
    const bad = await edit(s, link.id, ID.iago, { invite_as: 999 });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('Invalid invite_as: Value error, Not in the list of possible values');
    // Owners are invited by owners only, even by an administrator on their own link.
    expect((await edit(s, link.id, ID.iago, { invite_as: 100 })).body).toEqual({ result: 'error', msg: 'Must be an organization owner', code: 'UNAUTHORIZED_PRINCIPAL' });
    const noChannel = await edit(s, link.id, ID.iago, { invite_as: 600, stream_ids: [424242] });
    expect(noChannel.body).toEqual({ result: 'error', msg: 'Invalid channel ID 424242. No invites were sent.', code: 'BAD_REQUEST' });
    expect((await listed(s, link.id))?.invited_as).toBe(400);
    // An owner may raise it to an owner invitation.
    expect((await edit(s, link.id, ID.desdemona, { invite_as: 100 })).status).toBe(200);
    expect((await listed(s, link.id))?.invited_as).toBe(100);
  });

  it("lets an owner edit an administrator's link, and only an owner edit someone else's owner link", async () => {
    const s = sim();
    const owners = await makeLink(s, ID.desdemona, { invite_as: 100 });
    expect((await edit(s, owners.id, ID.iago, { invite_as: 400 })).body).toEqual({ result: 'error', msg: 'Must be an organization owner', code: 'UNAUTHORIZED_PRINCIPAL' });
    expect((await listed(s, owners.id))?.invited_as).toBe(100);
    const admins = await makeLink(s, ID.iago);
    expect((await edit(s, admins.id, ID.desdemona, { invite_as: 200 })).status).toBe(200);
    expect((await listed(s, admins.id))?.invited_as).toBe(200);
  });

  it('is not for guests (require_member_or_admin, as creating and revoking)', async () => {
    const s = sim();
    const link = await makeLink(s, ID.iago);
    const res = await edit(s, link.id, ID.polonius, { invite_as: 600 });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Not allowed for guest users');
  });
});
