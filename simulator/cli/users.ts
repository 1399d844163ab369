/**
 * The start-up banner's tables of accounts: how to log in as each user (login email, role, API
 * key), then how to address each one. Zulip's `to` (direct messages, typing) names users by id or
 * by API email, and the API email is the login email only where the user lets everyone see it:
 * in the dev realm most users hide it, so `to: ["desdemona@zulip.com"]` is refused ("Invalid
 * email") while `to: [9]` and `to: ["user9@zulip.testserver"]` are accepted.
 */
import type { Engine } from '../../simulator/index.ts';

const ROLE_NAMES: Record<number, string> = { 100: 'owner', 200: 'administrator', 300: 'moderator', 400: 'member', 600: 'guest' };
const VISIBILITY_NAMES: Record<number, string> = { 1: 'everyone', 2: 'members', 3: 'administrators', 4: 'nobody', 5: 'moderators' };

/** The lines of both tables, for the active accounts that are not system bots, in id order. */
export function userTables(engine: Engine): string[] {
  const users = [...engine.state.users.values()].filter((u) => !u.is_system_bot && u.is_active).sort((a, b) => a.id - b.id);
  // The first table's columns stay as they were: scripts read the API keys from it.
  const width = Math.max(...users.map((u) => u.delivery_email.length), 5);
  const lines = [`${'email'.padEnd(width)}  ${'role'.padEnd(13)}  api key`];
  for (const u of users) {
    const role = u.is_bot ? `bot (${ROLE_NAMES[u.role]})` : ROLE_NAMES[u.role]!;
    lines.push(`${u.delivery_email.padEnd(width)}  ${role.padEnd(13)}  ${u.api_key}`);
  }
  const hidden = users.filter((u) => u.email !== u.delivery_email);
  const apiWidth = Math.max(...users.map((u) => u.email.length), 9);
  lines.push(
    '',
    'Addressing users (`to` of POST /messages and /typing, /users/{id}): a user id or the API email.',
    hidden.length === 0
      ? 'Every API email here is the login email.'
      : `Where a user hides their email (email visibility below), the API email differs and \`to\` refuses the login email ("Invalid email").`,
    `${'user id'.padStart(7)}  ${'api email'.padEnd(apiWidth)}  ${'login email'.padEnd(width)}  email visible to`,
  );
  for (const u of users) {
    const visibility = VISIBILITY_NAMES[u.email_address_visibility] ?? String(u.email_address_visibility);
    lines.push(`${String(u.id).padStart(7)}  ${u.email.padEnd(apiWidth)}  ${u.delivery_email.padEnd(width)}  ${visibility}`);
  }
  return lines;
}
