/** Email addresses: Django's validation as Zulip applies it, and finding the account that has one. */
import type { Engine } from '../core.ts';
import type { UserRecord } from '../state.ts';

/**
 * Django's EmailValidator, in short: a dot-atom local part and a dotted domain whose last label
 * is letters (or `localhost`, or an IP literal in brackets).
 */
const EMAIL_LOCAL = /^[-!#$%&'*+/=?^_`{}|~0-9a-z]+(?:\.[-!#$%&'*+/=?^_`{}|~0-9a-z]+)*$/i;
const EMAIL_DOMAIN = /^(?:(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}|localhost|\[[0-9a-f:.]+\])$/i;

export function isValidEmail(email: string): boolean {
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  return local.length <= 64 && EMAIL_LOCAL.test(local) && EMAIL_DOMAIN.test(domain) && !domain.endsWith('-');
}

/** get_user_by_delivery_email: any account of the realm with that real address (case-insensitive), bots and deactivated ones included. */
export function userByDeliveryEmail(engine: Engine, email: string): UserRecord | undefined {
  const key = email.trim().toLowerCase();
  for (const u of engine.state.users.values()) if (!u.is_system_bot && u.delivery_email.toLowerCase() === key) return u;
  return undefined;
}
