/**
 * Which addresses POST /invites takes (zerver/actions/invites.py do_invite_users with
 * zerver/lib/email_validation.py): the realm's domain restriction, the `+` rule that comes with
 * it, the disposable-address refusal, the error listing those refused together with those
 * already taken, and the account age a member needs in a realm anyone may join.
 */
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../simulator/index.ts';
import { ID, NOW, devFixture, sim } from './helpers.ts';

type Body = Record<string, unknown>;
const encode = (body: Body) => Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
const send = (s: Simulator, as: number, invitee_emails: string) =>
  s.request({ method: 'POST', path: '/api/v1/invites', as, body: encode({ invitee_emails, stream_ids: [] }) });
const invitedEmails = async (s: Simulator) =>
  ((await s.request({ method: 'GET', path: '/api/v1/invites', as: ID.iago })).body.invites as { email?: string }[]).flatMap((i) => (i.email === undefined ? [] : [i.email]));
const failed = (msg: string, errors: [string, string, boolean][]) => ({
  result: 'error',
  msg,
  code: 'INVITATION_FAILED',
  errors,
  sent_invitations: false,
  license_limit_reached: false,
  daily_limit_reached: false,
});
const DID_NOT_VALIDATE = "Some emails did not validate, so we didn't send any invitations.";

/** The owner turns on emails_restricted_to_domains (only owners may). */
async function restrictToDomains(s: Simulator) {
  const res = await s.request({ method: 'PATCH', path: '/api/v1/realm', as: ID.desdemona, body: { emails_restricted_to_domains: 'true' } });
  expect(res.status).toBe(200);
}

describe('POST /invites: the realm email rules', () => {
  it('refuses a disposable address (the dev realm disallows them) and sends no invitation at all', async () => {
    const s = sim();
    const res = await send(s, ID.iago, 'throwaway@mailnator.com, newcomer@example.com');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(failed(DID_NOT_VALIDATE, [['throwaway@mailnator.com', 'Please use your real email address.', false]]));
    expect(await invitedEmails(s)).toEqual([]);
  });

  it('takes a disposable address once the organization allows them', async () => {
    const s = sim();
    const res = await s.request({ method: 'PATCH', path: '/api/v1/realm', as: ID.desdemona, body: { disallow_disposable_email_addresses: 'false' } });
    expect(res.status).toBe(200);
    expect((await send(s, ID.iago, 'throwaway@mailnator.com')).status).toBe(200);
    expect(await invitedEmails(s)).toEqual(['throwaway@mailnator.com']);
  });

  it('restricted to its domains, refuses other domains and + addresses, and lists taken ones after them', async () => {
    const s = sim();
    await restrictToDomains(s);
    const res = await send(s, ID.iago, 'someone@example.com, a+b@zulip.com, throwaway@mailnator.com, hamlet@zulip.com, fine@ZULIP.com');
    expect(res.body).toEqual(
      failed(DID_NOT_VALIDATE, [
        ['someone@example.com', 'Outside your domain.', false],
        ['a+b@zulip.com', 'Email addresses containing + are not allowed.', false],
        // Restricted realms check domains only: a disposable domain is just another outside one.
        ['throwaway@mailnator.com', 'Outside your domain.', false],
        ['hamlet@zulip.com', 'Already has an account.', false],
      ]),
    );
    expect(await invitedEmails(s)).toEqual([]);
    expect((await send(s, ID.iago, 'fine@ZULIP.com')).status).toBe(200);
  });

  it('takes subdomains of a domain that allows them, and only of that one', async () => {
    const fixture = devFixture();
    fixture.realm.domains = [
      { domain: 'zulip.com', allow_subdomains: false },
      { domain: 'example.org', allow_subdomains: true },
    ];
    const s = sim({ fixture });
    await restrictToDomains(s);
    expect((await send(s, ID.iago, 'a@team.example.org, b@example.org, c@deep.team.example.org')).status).toBe(200);
    const res = await send(s, ID.iago, 'd@team.zulip.com, e@notexample.org');
    expect(res.body).toEqual(
      failed(DID_NOT_VALIDATE, [
        ['d@team.zulip.com', 'Outside your domain.', false],
        ['e@notexample.org', 'Outside your domain.', false],
      ]),
    );
  });

  it('passes over empty addresses: only empty ones is a success that sends nothing', async () => {
    const s = sim();
    const res = await send(s, ID.iago, ' , \n');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await invitedEmails(s)).toEqual([]);
  });

  it("counts the empty address when all others are taken, as Zulip does (so it is not 'anyone')", async () => {
    const s = sim();
    expect((await send(s, ID.iago, 'hamlet@zulip.com')).body).toMatchObject({ msg: "We weren't able to invite anyone.", errors: [['hamlet@zulip.com', 'Already has an account.', false]] });
    const res = await send(s, ID.iago, 'hamlet@zulip.com,');
    expect(res.body).toMatchObject({
      msg: "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
      errors: [['hamlet@zulip.com', 'Already has an account.', false]],
      sent_invitations: true,
    });
  });
});

describe('POST /invites: how old a member must be', () => {
  const recentHamlet = () => {
    const fixture = devFixture();
    fixture.users.find((u) => u.id === ID.hamlet)!.date_joined = NOW - 3600;
    return fixture;
  };

  it('refuses a member whose account is under three days old, in a realm anyone may join', async () => {
    const s = sim({ fixture: recentHamlet() });
    const open = await s.request({ method: 'PATCH', path: '/api/v1/realm', as: ID.desdemona, body: { invite_required: 'false' } });
    expect(open.status).toBe(200);
    const res = await send(s, ID.hamlet, 'friend@zulip.com');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      failed('Your account is too new to send invites for this organization. Ask an organization admin, or a more experienced user.', []),
    );
    // Administrators are not held to it.
    expect((await send(s, ID.iago, 'friend@zulip.com')).status).toBe(200);
  });

  it('lets that member invite while the realm requires invitations (the fixture default)', async () => {
    expect((await send(sim({ fixture: recentHamlet() }), ID.hamlet, 'friend@zulip.com')).status).toBe(200);
  });
});

describe('/register realm_domains', () => {
  it("lists the dev realm's zulip.com, as Zulip's populate_db makes it", async () => {
    const res = await sim().request({ method: 'POST', path: '/api/v1/register', as: ID.hamlet, body: { fetch_event_types: '["realm_domains"]' } });
    expect(res.body.realm_domains).toEqual([{ domain: 'zulip.com', allow_subdomains: false }]);
  });
});
