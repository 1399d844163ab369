/**
 * Data exports: POST/GET /export/realm, GET /export/realm/consents, DELETE /export/realm/{export_id}
 * (zerver/views/realm_export.py, zerver/actions/realm_export.py), as zerver/tests/test_realm_export.py
 * checks them: the export's row, the worker's direct message, the events, the limits.
 */
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../simulator/index.ts';
import { ID, NOW, sim, watchEvents } from './helpers.ts';

const post = (s: Simulator, body: Record<string, unknown> = {}, as: number = ID.iago) => s.request({ method: 'POST', path: '/api/v1/export/realm', as, body });
const list = (s: Simulator, as: number = ID.iago) => s.request({ method: 'GET', path: '/api/v1/export/realm', as });
const remove = (s: Simulator, id: number, as: number = ID.iago) => s.request({ method: 'DELETE', path: `/api/v1/export/realm/${id}`, as });
const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

/** The realm's active human administrators and owners, who hear about exports. */
const admins = (s: Simulator) =>
  [...s.engine.state.users.values()].filter((u) => u.is_active && !u.is_bot && u.role <= 200).map((u) => u.id).sort((a, b) => a - b);

describe('POST /export/realm', () => {
  it("answers the new export's id; GET lists it made, with a URL where Zulip's local storage serves it", async () => {
    const s = sim();
    expect((await post(s)).body).toEqual({ result: 'success', msg: '', id: 1 });
    const { exports } = (await list(s)).body as { exports: Record<string, unknown>[] };
    expect(exports).toEqual([
      {
        id: 1,
        acting_user_id: ID.iago,
        export_time: NOW,
        export_url: expect.stringMatching(new RegExp(`^${s.engine.state.realm.url}/user_avatars/exports/${s.engine.state.realm.id}/[\\w-]{24}/zulip-export-[a-z0-9_]{8}\\.tar\\.gz$`)),
        deleted_timestamp: null,
        failed_timestamp: null,
        pending: false,
        export_type: 1,
      },
    ]);
    expect((await post(s, { export_type: 2 })).body.id).toBe(2);
    const second = ((await list(s)).body as { exports: Record<string, unknown>[] }).exports[1]!;
    expect(second).toMatchObject({ id: 2, export_type: 2, pending: false });
    expect(second.export_url).not.toBe(exports[0]!.export_url);
  });

  it("tells the administrators it is pending, Notification Bot tells the one who asked, then they hear it is made", async () => {
    const s = sim();
    const watch = watchEvents(s);
    await post(s);
    const delivered = watch.take();
    expect(delivered.map((d) => d.event.type)).toEqual(['realm_export', 'message', 'realm_export']);
    const [pending, dm, made] = delivered;
    expect(pending!.users).toEqual(admins(s));
    expect((pending!.event.exports as Record<string, unknown>[])[0]).toMatchObject({ id: 1, pending: true, export_url: null });
    expect(made!.users).toEqual(admins(s));
    expect((made!.event.exports as Record<string, unknown>[])[0]).toMatchObject({ id: 1, pending: false, export_url: expect.stringContaining('/user_avatars/exports/') });
    expect(dm!.users).toEqual([ID.iago]);
    expect(dm!.event.message).toMatchObject({
      sender_email: expect.stringMatching(/^notification-bot@/),
      type: 'private',
      content: '<p>Your data export is complete. <a href="/#organization/data-exports-admin">View and download exports</a>.</p>',
    });
  });

  it.each([
    ['a member', ID.hamlet, 'Must be an organization administrator'],
    ['a moderator', ID.shiva, 'Must be an organization administrator'],
  ])('refuses %s', async (_who, as, msg) => {
    expect((await post(sim(), {}, as)).body).toMatchObject({ result: 'error', msg });
  });

  it('refuses an export type other than public (1) and full with consent (2)', async () => {
    for (const type of [0, 3]) {
      expect((await post(sim(), { export_type: type })).body).toEqual(error('Invalid export_type: Value error, Not in the list of possible values'));
    }
    expect((await post(sim(), { export_type: '"public"' })).body).toEqual(error('export_type is not an integer'));
  });

  it('allows five exports in seven days, deleted ones counted, and a sixth once a week has passed', async () => {
    const s = sim();
    for (let i = 1; i <= 5; i++) expect((await post(s)).body.id).toBe(i);
    await remove(s, 1);
    expect((await post(s)).body).toEqual(error('Exceeded rate limit.'));
    s.clock.advance(7 * 24 * 60 * 60 + 1);
    expect((await post(s)).body.id).toBe(6);
  });
});

describe('DELETE /export/realm/{export_id}', () => {
  it('marks the export deleted, tells the administrators, and refuses it twice or an unknown id', async () => {
    const s = sim();
    await post(s);
    s.clock.advance(60);
    const watch = watchEvents(s);
    expect((await remove(s, 1)).body).toEqual({ result: 'success', msg: '' });
    const [event] = watch.take();
    expect(event!.users).toEqual(admins(s));
    expect(event!.event.exports).toEqual([expect.objectContaining({ id: 1, deleted_timestamp: NOW + 60, export_url: null, pending: false })]);
    expect((await remove(s, 1)).body).toEqual(error('Export already deleted'));
    expect((await remove(s, 0)).body).toEqual(error('Invalid data export ID'));
    expect((await remove(s, 1, ID.hamlet)).body).toMatchObject({ msg: 'Must be an organization administrator' });
  });
});

describe('GET /export/realm/consents', () => {
  it("lists every active human's consent (off by default) and email visibility; a change tells the administrators", async () => {
    const s = sim();
    const watch = watchEvents(s);
    const settings = await s.request({ method: 'PATCH', path: '/api/v1/settings', as: ID.hamlet, body: { allow_private_data_export: 'true' } });
    expect(settings.status).toBe(200);
    const consentEvents = watch.take().filter((d) => d.event.type === 'realm_export_consent');
    expect(consentEvents).toEqual([{ event: { type: 'realm_export_consent', user_id: ID.hamlet, consented: true }, users: admins(s) }]);

    const { export_consents } = (await s.request({ method: 'GET', path: '/api/v1/export/realm/consents', as: ID.iago })).body as {
      export_consents: { user_id: number; consented: boolean; email_address_visibility: number }[];
    };
    const humans = [...s.engine.state.users.values()].filter((u) => u.is_active && !u.is_bot);
    expect(export_consents.map((c) => c.user_id)).toEqual(humans.map((u) => u.id));
    expect(export_consents.filter((c) => c.consented).map((c) => c.user_id)).toEqual([ID.hamlet]);
    expect(export_consents.find((c) => c.user_id === ID.iago)!.email_address_visibility).toBe(s.engine.state.users.get(ID.iago)!.email_address_visibility);
    expect((await s.request({ method: 'GET', path: '/api/v1/export/realm/consents', as: ID.hamlet })).body).toMatchObject({
      msg: 'Must be an organization administrator',
    });
  });
});
