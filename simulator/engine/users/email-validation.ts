/**
 * Whether an address may join the realm, as Zulip asks before inviting it
 * (zerver/lib/email_validation.py: get_realm_email_validator, validate_email_is_valid). An
 * organization restricted to its domains takes only addresses at one of them (or at a subdomain
 * of one that allows subdomains), and none with `+` in the local part; an unrestricted one that
 * disallows disposable addresses refuses those; else any well-formed address passes.
 */
import type { Engine } from '../core.ts';
import { isValidEmail } from './emails.ts';

/**
 * Domains of throwaway mailboxes (zerver/lib/name_restrictions.py is_disposable_domain, which
 * reads the disposable-email-domains blocklist). The blocklist has thousands of entries; the
 * simulator knows these few well-known ones, enough for a test or a bot to meet the refusal.
 */
export const DISPOSABLE_DOMAINS: ReadonlySet<string> = new Set([
  'mailnator.com',
  'mailinator.com',
  'guerrillamail.com',
  'sharklasers.com',
  '10minutemail.com',
  'yopmail.com',
  'trashmail.com',
  'maildrop.cc',
  'dispostable.com',
  'throwawaymail.com',
]);

function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

function localPartOf(email: string): string {
  return email.slice(0, email.lastIndexOf('@'));
}

/** The realm's rule as a function of one address: null when allowed, else Zulip's reason. */
export function realmEmailValidator(engine: Engine): (email: string) => string | null {
  const realm = engine.state.realm;
  if (!realm.emails_restricted_to_domains) {
    if (!realm.disallow_disposable_email_addresses) return () => null;
    return (email) => (DISPOSABLE_DOMAINS.has(domainOf(email)) ? 'Please use your real email address.' : null);
  }
  const allowed = new Set(realm.domains.map((d) => d.domain));
  const allowedSubdomains = new Set(realm.domains.filter((d) => d.allow_subdomains).map((d) => d.domain));
  return (email) => {
    if (localPartOf(email).includes('+')) return 'Email addresses containing + are not allowed.';
    let domain = domainOf(email);
    if (allowed.has(domain)) return null;
    // Each parent of the address's domain, dropping one label at a time.
    while (domain.length > 0) {
      const dot = domain.indexOf('.');
      domain = dot === -1 ? '' : domain.slice(dot + 1);
      if (allowedSubdomains.has(domain)) return null;
    }
    return 'Outside your domain.';
  };
}

/** validate_email_is_valid: Django's address check first ("Invalid address."), then the realm's rule. */
export function emailRefusal(email: string, allowedInRealm: (email: string) => string | null): string | null {
  if (!isValidEmail(email)) return 'Invalid address.';
  return allowedInRealm(email);
}
