/**
 * What bot creation, editing and reactivation share (zerver/views/users.py, zerver/actions/bots.py): who hears about a
 * bot (`realm_bot` events), the bot object those events and /register carry, who may create which
 * kind of bot, and the events of an owner change.
 */
import { activeUserIds, avatarUrl, getStreamById, humanAdminIds, isAdmin, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, type Effect } from '../events/effects.ts';
import { hasRealmGroupPermission } from '../groups/groups.ts';
import type { UserRecord } from '../state.ts';

/** UserProfile bot types. */
export const BOT_TYPE = { generic: 1, incomingWebhook: 2, outgoingWebhook: 3, embedded: 4 } as const;

/** Service.ALLOWED_INTERFACE_TYPES: 1 generic, 2 Slack-compatible. */
export const INTERFACE_TYPES: readonly number[] = [1, 2];

/** The embedded bots Zulip ships (zerver/lib/integrations.py EMBEDDED_BOTS). */
export const EMBEDDED_BOT_NAMES: readonly string[] = ['converter', 'encrypt', 'helloworld', 'virtual_fs', 'giphy', 'followup'];

/** Each embedded bot's configuration template (its zulip_bots `.conf` file; only giphy has one). */
const EMBEDDED_BOT_CONFIG_TEMPLATES: Readonly<Record<string, Readonly<Record<string, string>>>> = { giphy: { key: '12345678' } };

/** The `realm_embedded_bots` fetch type of /register: every embedded bot Zulip ships. */
export function embeddedBotsRegisterState(): { realm_embedded_bots: { name: string; config: Record<string, string> }[] } {
  return { realm_embedded_bots: EMBEDDED_BOT_NAMES.map((name) => ({ name, config: { ...(EMBEDDED_BOT_CONFIG_TEMPLATES[name] ?? {}) } })) };
}

/**
 * bot_owner_user_ids: who hears about a bot: its owner, and the realm's human administrators
 * unless the bot is tied to a private channel (its default sending or events channel).
 */
export function botOwnerUserIds(engine: Engine, bot: UserRecord): number[] {
  const stream = (id: number | null) => (id === null ? undefined : getStreamById(engine, id));
  const privateBot = stream(bot.default_sending_stream_id)?.invite_only === true || stream(bot.default_events_register_stream_id)?.invite_only === true;
  const ids = new Set<number>();
  if (bot.bot_owner_id !== null) ids.add(bot.bot_owner_id);
  if (!privateBot) {
    for (const id of humanAdminIds(engine)) ids.add(id);
  }
  return [...ids].filter((id) => engine.state.users.get(id)?.is_active).sort((a, b) => a - b);
}

/** A bot's default channel by name, as the bot endpoints show it (null for none). */
export function streamNameOrNull(engine: Engine, id: number | null): string | null {
  return id === null ? null : (getStreamById(engine, id)?.name ?? null);
}

/** get_service_dicts_for_bot: an outgoing webhook's endpoint, an embedded bot's name and configuration. */
export function serviceDicts(bot: UserRecord): Record<string, unknown>[] {
  if (bot.bot_type === BOT_TYPE.outgoingWebhook) {
    return bot.bot_services.map((s) => ({ base_url: s.base_url, interface: s.interface, token: s.token }));
  }
  if (bot.bot_type === BOT_TYPE.embedded && bot.bot_services.length > 0) {
    return [{ config_data: { ...bot.bot_config }, service_name: bot.bot_services[0]!.name }];
  }
  return [];
}

/** created_bot_event's bot: what `realm_bot` `add` carries (owner_id only when the bot has one). */
export function botDict(engine: Engine, bot: UserRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {
    email: bot.email,
    user_id: bot.id,
    full_name: bot.full_name,
    bot_type: bot.bot_type,
    is_active: bot.is_active,
    api_key: bot.api_key,
    default_sending_stream: streamNameOrNull(engine, bot.default_sending_stream_id),
    default_events_register_stream: streamNameOrNull(engine, bot.default_events_register_stream_id),
    default_all_public_streams: bot.default_all_public_streams,
    avatar_url: avatarUrl(engine, bot, { clientGravatar: false }),
    services: serviceDicts(bot),
  };
  if (bot.bot_owner_id !== null) out.owner_id = bot.bot_owner_id;
  return out;
}

export function createdBotEvent(engine: Engine, bot: UserRecord): Effect['event'] {
  return { type: 'realm_bot', op: 'add', bot: botDict(engine, bot) };
}

/** The kinds of bot `user` may create (UserProfile.allowed_bot_types); guests none (the settings exclude them). */
export function allowedBotTypes(engine: Engine, user: UserRecord): number[] {
  const realm = engine.state.realm;
  if (hasRealmGroupPermission(engine, user, 'can_create_bots_group')) {
    const types: number[] = [BOT_TYPE.generic, BOT_TYPE.incomingWebhook, BOT_TYPE.outgoingWebhook];
    if (realm.embedded_bots_enabled) types.push(BOT_TYPE.embedded);
    return types;
  }
  if (hasRealmGroupPermission(engine, user, 'can_create_write_only_bots_group')) return [BOT_TYPE.incomingWebhook];
  return [];
}

/**
 * check_can_create_bot then check_valid_bot_type: outside both creation groups `Insufficient
 * permission`; a kind the user may not create (an embedded bot on a server without them, an
 * unknown type) `Invalid bot type`.
 */
export function checkCanCreateBot(engine: Engine, user: UserRecord, botType: number): void {
  const mayAll = hasRealmGroupPermission(engine, user, 'can_create_bots_group');
  const mayIncoming =
    botType === BOT_TYPE.incomingWebhook && hasRealmGroupPermission(engine, user, 'can_create_write_only_bots_group');
  if (!mayAll && !mayIncoming) throw ChatError.insufficientPermission();
  if (!allowedBotTypes(engine, user).includes(botType)) throw ChatError.badRequest('Invalid bot type');
}

/**
 * send_bot_owner_update_events: the previous owner (unless an administrator, who sees every bot)
 * gets `realm_bot` `delete`, the new one (likewise) the whole bot as `add`, the others who hear
 * about the bot `update` `{owner_id}`; everyone `realm_user` `update` `{bot_owner_id}`.
 */
export function botOwnerChangeEvents(engine: Engine, bot: UserRecord, newOwner: UserRecord, previousOwner: UserRecord | undefined): Effect[] {
  let told = botOwnerUserIds(engine, bot);
  const events: Effect[] = [];
  if (previousOwner && !isAdmin(previousOwner)) {
    // A deactivated previous owner has no queue to tell.
    if (previousOwner.is_active) events.push(effect({ type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } }, [previousOwner.id]));
    told = told.filter((id) => id !== previousOwner.id);
  }
  if (!isAdmin(newOwner)) {
    events.push(effect(createdBotEvent(engine, bot), [newOwner.id]));
    told = told.filter((id) => id !== newOwner.id);
  }
  events.push(effect({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, owner_id: newOwner.id } }, told));
  events.push(effect({ type: 'realm_user', op: 'update', person: { user_id: bot.id, bot_owner_id: newOwner.id } }, activeUserIds(engine)));
  return events;
}
