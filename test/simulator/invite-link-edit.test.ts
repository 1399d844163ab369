/**
 * Editing a reusable invitation link (`PATCH /invites/multiuse/{invite_id}`, operationId
 * edit-invite-link) exists only in an unmerged Zulip pull request (zulip/zulip#32830): neither
 * zerver/openapi/zulip.yaml nor zproject/urls.py has it, where `invites/multiuse/<int:invite_id>`
 * routes DELETE alone. A client that tries it gets Django's 405, and the link is untouched.
 */
import { describe, expect, it } from 'vitest';
import { ID, sim } from './helpers.ts';

describe('PATCH /invites/multiuse/{invite_id}', () => {
  it('is not allowed, as in Zulip: 405 naming DELETE, and the link keeps its role', async () => {
    const s = sim();
    const made = await s.request({ method: 'POST', path: '/api/v1/invites/multiuse', as: ID.iago, body: { invite_as: '400' } });
    expect(made.status).toBe(200);
    type Invite = { id: number; invited_as: number; is_multiuse: boolean };
    const links = ((await s.request({ method: 'GET', path: '/api/v1/invites', as: ID.iago })).body.invites as Invite[]).filter((i) => i.is_multiuse);
    const link = links.reduce((a, b) => (b.id > a.id ? b : a));
    const res = await s.request({ method: 'PATCH', path: `/api/v1/invites/multiuse/${link.id}`, as: ID.iago, body: { invite_as: '600' } });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ result: 'error', msg: 'Method Not Allowed', allowed_methods: ['DELETE'] });
    const after = (await s.request({ method: 'GET', path: '/api/v1/invites', as: ID.iago })).body.invites as Invite[];
    expect(after.find((i) => i.id === link.id)?.invited_as).toBe(400);
  });
});
