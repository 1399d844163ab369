/**
 * The organization's allowed email domains (zerver/views/realm_domains.py, zerver/actions/
 * realm_domains.py): who may list and change them, Zulip's checks and strings, the events, and
 * the restriction to domains lifted with the last one.
 */
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../simulator/index.ts';
import { ID, sim, watchEvents } from './helpers.ts';

const list = async (s: Simulator, as: number = ID.hamlet) => (await s.request({ method: 'GET', path: '/api/v1/realm/domains', as })).body;
const add = (s: Simulator, body: Record<string, string>, as: number = ID.desdemona) => s.request({ method: 'POST', path: '/api/v1/realm/domains', as, body });
const patch = (s: Simulator, domain: string, body: Record<string, string>, as: number = ID.desdemona) =>
  s.request({ method: 'PATCH', path: `/api/v1/realm/domains/${encodeURIComponent(domain)}`, as, body });
const remove = (s: Simulator, domain: string, as: number = ID.desdemona) => s.request({ method: 'DELETE', path: `/api/v1/realm/domains/${encodeURIComponent(domain)}`, as });
const bad = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

describe('GET /realm/domains', () => {
  it("lists the dev realm's zulip.com to any user, a guest too", async () => {
    const s = sim();
    expect(await list(s)).toEqual({ result: 'success', msg: '', domains: [{ domain: 'zulip.com', allow_subdomains: false }] });
    expect((await list(s, ID.polonius)).domains).toEqual([{ domain: 'zulip.com', allow_subdomains: false }]);
  });
});

describe('POST /realm/domains', () => {
  it('adds a domain, trimmed and lower-cased, answers its id, and tells every user', async () => {
    const s = sim();
    const watch = watchEvents(s);
    const res = await add(s, { domain: '  Example.ORG ', allow_subdomains: 'true' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '', new_domain: [2, 'example.org'] });
    const events = watch.take();
    expect(events).toHaveLength(1);
    expect(events[0]!.event).toEqual({ type: 'realm_domains', op: 'add', realm_domain: { domain: 'example.org', allow_subdomains: true } });
    expect(events[0]!.users).toContain(ID.hamlet);
    expect((await list(s)).domains).toEqual([
      { domain: 'zulip.com', allow_subdomains: false },
      { domain: 'example.org', allow_subdomains: true },
    ]);
  });

  it.each([
    ['', "Invalid domain: Domain can't be empty."],
    ['localhost', 'Invalid domain: Domain must have at least one dot (.)'],
    ['.example.com', 'Invalid domain: Domain cannot start or end with a dot (.)'],
    ['a..com', "Invalid domain: Consecutive '.' are not allowed."],
    ['-a.com', "Invalid domain: Subdomains cannot start or end with a '-'."],
    ['exa_mple.com', "Invalid domain: Domain can only have letters, numbers, '.' and '-'s."],
    ['ZULIP.com', 'The domain zulip.com is already a part of your organization.'],
  ])('refuses %j: %s', async (domain, msg) => {
    const res = await add(sim(), { domain, allow_subdomains: 'false' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(bad(msg));
  });

  it('is for owners only, and needs allow_subdomains', async () => {
    const s = sim();
    expect((await add(s, { domain: 'example.org', allow_subdomains: 'false' }, ID.iago)).body).toEqual({ result: 'error', msg: 'Must be an organization owner', code: 'UNAUTHORIZED_PRINCIPAL' });
    expect((await add(s, { domain: 'example.org' })).body).toMatchObject({ msg: "Missing 'allow_subdomains' argument", code: 'REQUEST_VARIABLE_MISSING' });
  });
});

describe('PATCH /realm/domains/{domain}', () => {
  it('changes allow_subdomains, with a change event', async () => {
    const s = sim();
    const watch = watchEvents(s);
    expect((await patch(s, 'zulip.com', { allow_subdomains: 'true' })).body).toEqual({ result: 'success', msg: '' });
    expect(watch.take().map((d) => d.event)).toEqual([{ type: 'realm_domains', op: 'change', realm_domain: { domain: 'zulip.com', allow_subdomains: true } }]);
    expect((await list(s)).domains).toEqual([{ domain: 'zulip.com', allow_subdomains: true }]);
  });

  it('matches the path exactly: another case is no entry', async () => {
    const res = await patch(sim(), 'ZULIP.com', { allow_subdomains: 'true' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(bad('No entry found for domain ZULIP.com.'));
  });
});

describe('DELETE /realm/domains/{domain}', () => {
  it('removes a domain with a remove event; an unknown one is no entry', async () => {
    const s = sim();
    await add(s, { domain: 'example.org', allow_subdomains: 'false' });
    const watch = watchEvents(s);
    expect((await remove(s, 'example.org')).status).toBe(200);
    expect(watch.take().map((d) => d.event)).toEqual([{ type: 'realm_domains', op: 'remove', domain: 'example.org' }]);
    expect((await remove(s, 'example.org')).body).toEqual(bad('No entry found for domain example.org.'));
  });

  it('lifts the restriction to domains with the last one, announcing that first', async () => {
    const s = sim();
    expect((await s.request({ method: 'PATCH', path: '/api/v1/realm', as: ID.desdemona, body: { emails_restricted_to_domains: 'true' } })).status).toBe(200);
    const watch = watchEvents(s);
    expect((await remove(s, 'zulip.com')).status).toBe(200);
    expect(watch.take().map((d) => d.event)).toEqual([
      { type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: false },
      { type: 'realm_domains', op: 'remove', domain: 'zulip.com' },
    ]);
    // Unrestricted again: any domain may be invited.
    const invited = await s.request({ method: 'POST', path: '/api/v1/invites', as: ID.iago, body: { invitee_emails: 'someone@example.com', stream_ids: '[]' } });
    expect(invited.status).toBe(200);
  });
});
