/**
 * The organization's allowed email domains (zerver/views/realm_domains.py, zerver/actions/
 * realm_domains.py): listing them (anyone), adding, changing and removing one (owners). Each change
 * is announced to every active user (`realm_domains` add / change / remove); removing the last one
 * of a realm restricted to its domains lifts the restriction first, as Zulip does.
 */
import { activeUserIds, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import { nextId } from '../state.ts';

export interface RealmDomainDict {
  domain: string;
  allow_subdomains: boolean;
}

/** get_realm_domains: in the order added. */
export function realmDomains(engine: Engine): RealmDomainDict[] {
  return engine.state.realm.domains.map((d) => ({ domain: d.domain, allow_subdomains: d.allow_subdomains }));
}

/** zerver/lib/domains.py validate_domain: null when valid, else its message. */
export function domainProblem(domain: string): string | null {
  if (domain.length === 0) return "Domain can't be empty.";
  if (!domain.includes('.')) return 'Domain must have at least one dot (.)';
  if (domain.length > 255) return 'Domain is too long';
  if (domain.startsWith('.') || domain.endsWith('.')) return 'Domain cannot start or end with a dot (.)';
  for (const label of domain.split('.')) {
    if (label === '') return "Consecutive '.' are not allowed.";
    if (label.startsWith('-') || label.endsWith('-')) return "Subdomains cannot start or end with a '-'.";
    if (!/^[a-z0-9-]*$/.test(label)) return "Domain can only have letters, numbers, '.' and '-'s.";
  }
  return null;
}

/** POST /realm/domains (create_realm_domain): trimmed and lower-cased, validated, new to the realm. */
export function addRealmDomain(engine: Engine, rawDomain: string, allowSubdomains: boolean): Outcome<{ new_domain: [number, string] }> {
  const domain = rawDomain.trim().toLowerCase();
  const problem = domainProblem(domain);
  if (problem !== null) throw ChatError.badRequest(`Invalid domain: ${problem}`);
  const domains = engine.state.realm.domains;
  if (domains.some((d) => d.domain === domain)) throw ChatError.badRequest(`The domain ${domain} is already a part of your organization.`);
  const record = { id: nextId(engine.state, 'realm_domain'), domain, allow_subdomains: allowSubdomains };
  domains.push(record);
  const event = effect({ type: 'realm_domains', op: 'add', realm_domain: { domain, allow_subdomains: allowSubdomains } }, activeUserIds(engine));
  return outcome({ new_domain: [record.id, domain] }, [event]);
}

/** The realm's row for a path's domain, matched exactly (the path is not lower-cased). */
function domainRecord(engine: Engine, domain: string) {
  const record = engine.state.realm.domains.find((d) => d.domain === domain);
  if (!record) throw ChatError.badRequest(`No entry found for domain ${domain}.`);
  return record;
}

/** PATCH /realm/domains/{domain} (patch_realm_domain): whether it allows subdomains. */
export function changeRealmDomain(engine: Engine, domain: string, allowSubdomains: boolean): Outcome<Record<string, never>> {
  const record = domainRecord(engine, domain);
  record.allow_subdomains = allowSubdomains;
  const event = effect({ type: 'realm_domains', op: 'change', realm_domain: { domain: record.domain, allow_subdomains: allowSubdomains } }, activeUserIds(engine));
  return outcome({}, [event]);
}

/** DELETE /realm/domains/{domain} (delete_realm_domain, do_remove_realm_domain). */
export function removeRealmDomain(engine: Engine, domain: string): Outcome<Record<string, never>> {
  const record = domainRecord(engine, domain);
  const realm = engine.state.realm;
  realm.domains = realm.domains.filter((d) => d !== record);
  const everyone = activeUserIds(engine);
  const events: Effect[] = [];
  // The feature does nothing without domains: the restriction goes with the last one, announced first.
  if (realm.domains.length === 0 && realm.emails_restricted_to_domains) {
    realm.emails_restricted_to_domains = false;
    events.push(effect({ type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: false }, everyone));
  }
  events.push(effect({ type: 'realm_domains', op: 'remove', domain: record.domain }, everyone));
  return outcome({}, events);
}
