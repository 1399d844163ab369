/**
 * Bots (zerver/views/users.py, zerver/actions/bots.py): creating one (POST /bots), listing one's own (GET /bots),
 * editing one (PATCH /bots/{id}) and giving it a new API key. Deactivation lives with the users'
 * (../users/users.ts). Who hears of a change: `realm_bot` to the owner and the administrators
 * (botOwnerUserIds), `realm_user` to everyone who can see the bot.
 */
import { avatarUrl, canAccessStreamContent, getStreamByName, type Engine } from '../core.ts';
import {
  BOT_TYPE,
  EMBEDDED_BOT_NAMES,
  INTERFACE_TYPES,
  botOwnerChangeEvents,
  botOwnerUserIds,
  checkCanCreateBot,
  createdBotEvent,
  streamNameOrNull,
} from './rules.ts';
import { randomApiKey } from '../deps.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import { ROLE, type Role, type StreamRecord, type UserRecord } from '../state.ts';
import type { CreateBotResponse } from '../../../schemas/generated/types/chat/responses/create-bot.ts';
import type { GetBotsResponse } from '../../../schemas/generated/types/chat/responses/get-bots.ts';
import type { UpdateBotResponse } from '../../../schemas/generated/types/chat/responses/update-bot.ts';
import { addAccount, changeFullName, changeUserRole, checkFullName, checkRoleChange, isValidEmail, notifyCreatedUser, userByDeliveryEmail } from '../users/admin.ts';
import { accessBotById, avatarChangeEvents } from '../users/users.ts';

/** An uploaded avatar: only whether one was sent matters (images are not kept). */
export interface AvatarUpload {
  count: number;
}

/** access_stream_by_name for a bot's default channels: a channel the actor can read, else `Invalid channel name`. */
function accessStreamByName(engine: Engine, actor: UserRecord, name: string): StreamRecord {
  const stream = getStreamByName(engine, name);
  if (!stream || stream.is_archived || !canAccessStreamContent(engine, actor, stream)) {
    throw ChatError.badRequest(`Invalid channel name '${name}'`);
  }
  return stream;
}

/** check_bot_name_available: no active account may already have the name. */
function checkBotNameAvailable(engine: Engine, fullName: string, self?: UserRecord): void {
  const name = fullName.trim();
  for (const u of engine.state.users.values()) {
    if (u.is_active && !u.is_system_bot && u.id !== self?.id && u.full_name === name) throw ChatError.badRequest('Name is already in use.');
  }
}

function checkAvatar(avatar: AvatarUpload): boolean {
  if (avatar.count > 1) throw ChatError.badRequest('You may only upload one file at a time');
  return avatar.count === 1;
}

/** What POST /bots and GET /bots show of a bot's defaults. */
function defaultsOf(engine: Engine, bot: UserRecord) {
  return {
    default_sending_stream: streamNameOrNull(engine, bot.default_sending_stream_id),
    default_events_register_stream: streamNameOrNull(engine, bot.default_events_register_stream_id),
    default_all_public_streams: bot.default_all_public_streams,
  };
}

// ---------------------------------------------------------------- POST /bots

export interface CreateBotParams {
  fullName: string;
  shortName: string;
  botType: number;
  payloadUrl: string;
  serviceName: string | undefined;
  configData: Record<string, string>;
  interfaceType: number;
  defaultSendingStream: string | undefined;
  defaultEventsRegisterStream: string | undefined;
  defaultAllPublicStreams: boolean | undefined;
  avatar: AvatarUpload;
}

/** What POST /bots answers (schemas/chat/responses/create-bot.schema.json). */
export type CreatedBot = CreateBotResponse;

/**
 * POST /bots (guests and bots refused by the route), with add_bot_backend's checks in its order:
 * the short name, the full name, embedded bots, the address `{short}-bot@{realm host}`, its use,
 * the name's use, who may create which kind, the interface, the avatar, the default channels.
 */
export function createBot(engine: Engine, actor: UserRecord, p: CreateBotParams): Outcome<CreatedBot> {
  const short = p.shortName.trim();
  if (short === '') throw ChatError.badRequest('Bad name or username');
  const serviceName = p.botType !== BOT_TYPE.incomingWebhook ? p.serviceName || short : p.serviceName;
  const fullName = checkFullName(engine, p.fullName, actor);
  const email = `${short}-bot@${engine.state.realm.host}`;
  if (p.botType === BOT_TYPE.embedded) {
    if (!engine.state.realm.embedded_bots_enabled) throw ChatError.badRequest('Embedded bots are not enabled.');
    if (!EMBEDDED_BOT_NAMES.includes(serviceName ?? '')) throw ChatError.badRequest('Invalid embedded bot name.');
  }
  if (!isValidEmail(email)) throw ChatError.badRequest('Bad name or username');
  if (userByDeliveryEmail(engine, email)) throw ChatError.badRequest('Username already in use');
  checkBotNameAvailable(engine, fullName);
  checkCanCreateBot(engine, actor, p.botType);
  if (!INTERFACE_TYPES.includes(p.interfaceType)) throw ChatError.badRequest('Invalid interface type');
  const uploaded = checkAvatar(p.avatar);
  const sending = p.defaultSendingStream === undefined ? null : accessStreamByName(engine, actor, p.defaultSendingStream);
  const register = p.defaultEventsRegisterStream === undefined ? null : accessStreamByName(engine, actor, p.defaultEventsRegisterStream);

  const bot = addAccount(engine, {
    email,
    fullName,
    password: null,
    role: ROLE.member,
    bot: {
      type: p.botType,
      ownerId: actor.id,
      defaultSendingStreamId: sending?.id ?? null,
      defaultEventsRegisterStreamId: register?.id ?? null,
      defaultAllPublicStreams: p.defaultAllPublicStreams ?? false,
    },
  });
  if (uploaded) bot.avatar_source = 'U';
  const events = notifyCreatedUser(engine, bot);
  if (p.botType === BOT_TYPE.outgoingWebhook || p.botType === BOT_TYPE.embedded) {
    bot.bot_services.push({ name: serviceName!, base_url: p.payloadUrl, interface: p.interfaceType, token: randomApiKey(engine.deps.random) });
  }
  if (p.botType === BOT_TYPE.incomingWebhook && serviceName) bot.bot_config.integration_id = serviceName;
  if (p.botType === BOT_TYPE.incomingWebhook || p.botType === BOT_TYPE.embedded) Object.assign(bot.bot_config, p.configData);
  events.push(effect(createdBotEvent(engine, bot), botOwnerUserIds(engine, bot)));
  return outcome({ user_id: bot.id, api_key: bot.api_key, avatar_url: avatarUrl(engine, bot, { clientGravatar: false })!, ...defaultsOf(engine, bot) }, events);
}

// ---------------------------------------------------------------- GET /bots

/** GET /bots: the caller's active bots, oldest first. */
export function listOwnBots(engine: Engine, actor: UserRecord): GetBotsResponse['bots'] {
  return [...engine.state.users.values()]
    .filter((u) => u.is_bot && u.is_active && u.bot_owner_id === actor.id)
    .sort((a, b) => a.date_joined - b.date_joined || a.id - b.id)
    .map((bot) => ({
      username: bot.email,
      full_name: bot.full_name,
      api_key: bot.api_key,
      avatar_url: avatarUrl(engine, bot, { clientGravatar: false })!,
      ...defaultsOf(engine, bot),
    }));
}

// ---------------------------------------------------------------- PATCH /bots/{bot_id}

export interface UpdateBotParams {
  botId: number;
  fullName?: string | undefined;
  role?: Role | undefined;
  botOwnerId?: number | undefined;
  configData?: Record<string, string> | undefined;
  servicePayloadUrl?: string | undefined;
  serviceInterface: number;
  /** '' clears. */
  defaultSendingStream?: string | undefined;
  defaultEventsRegisterStream?: string | undefined;
  defaultAllPublicStreams?: boolean | undefined;
  avatar: AvatarUpload;
}

/**
 * PATCH /bots/{bot_id} (patch_bot_backend): the bot's owner or an administrator; name, role,
 * owner, default channels, outgoing-webhook endpoint, configuration and avatar, checked in
 * Zulip's order and all before anything changes. Answers the bot's resulting settings.
 */
export function updateBot(engine: Engine, actor: UserRecord, p: UpdateBotParams): Outcome<UpdateBotResponse> {
  const bot = accessBotById(engine, actor, p.botId);
  let fullName: string | undefined;
  if (p.fullName !== undefined) {
    const name = checkFullName(engine, p.fullName, bot);
    // The web app sends the name back unchanged: that is silently no change.
    if (name !== bot.full_name) {
      checkBotNameAvailable(engine, name);
      fullName = name;
    }
  }
  const roleChanges = p.role !== undefined && p.role !== bot.role;
  if (roleChanges) checkRoleChange(engine, actor, bot, p.role!);
  let owner: UserRecord | undefined;
  if (p.botOwnerId !== undefined) {
    owner = engine.state.users.get(p.botOwnerId);
    if (!owner || owner.is_system_bot) throw ChatError.badRequest('Failed to change owner, no such user');
    if (!owner.is_active) throw ChatError.badRequest('Failed to change owner, user is deactivated');
    if (owner.is_bot) throw ChatError.badRequest("Failed to change owner, bots can't own other bots");
  }
  const streamFor = (name: string | undefined) => (name === undefined ? undefined : name === '' ? null : accessStreamByName(engine, actor, name));
  const sending = streamFor(p.defaultSendingStream);
  const register = streamFor(p.defaultEventsRegisterStream);
  if (p.servicePayloadUrl !== undefined && !INTERFACE_TYPES.includes(p.serviceInterface)) throw ChatError.badRequest('Invalid interface type');
  const uploaded = checkAvatar(p.avatar);

  const events: Effect[] = [];
  const botUpdate = (data: Record<string, unknown>) => events.push(effect({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, ...data } }, botOwnerUserIds(engine, bot)));
  if (fullName !== undefined) events.push(...changeFullName(engine, bot, fullName));
  if (roleChanges) events.push(...changeUserRole(engine, bot, p.role!));
  if (owner && owner.id !== bot.bot_owner_id) {
    const previous = bot.bot_owner_id === null ? undefined : engine.state.users.get(bot.bot_owner_id);
    bot.bot_owner_id = owner.id;
    events.push(...botOwnerChangeEvents(engine, bot, owner, previous));
  }
  if (sending !== undefined) {
    bot.default_sending_stream_id = sending?.id ?? null;
    botUpdate({ default_sending_stream: sending?.name ?? null });
  }
  if (register !== undefined) {
    bot.default_events_register_stream_id = register?.id ?? null;
    botUpdate({ default_events_register_stream: register?.name ?? null });
  }
  if (p.defaultAllPublicStreams !== undefined) {
    bot.default_all_public_streams = p.defaultAllPublicStreams;
    botUpdate({ default_all_public_streams: p.defaultAllPublicStreams });
  }
  if (p.servicePayloadUrl !== undefined && bot.bot_services.length > 0) {
    const service = bot.bot_services[0]!;
    service.base_url = p.servicePayloadUrl;
    service.interface = p.serviceInterface;
    botUpdate({ services: [{ base_url: service.base_url, interface: service.interface, token: service.token }] });
  }
  if (p.configData !== undefined) {
    Object.assign(bot.bot_config, p.configData);
    botUpdate({ services: [{ config_data: { ...bot.bot_config } }] });
  }
  if (uploaded) {
    bot.avatar_source = 'U';
    bot.avatar_version += 1;
    events.push(...avatarChangeEvents(engine, bot));
  }

  const result: UpdateBotResponse = {
    full_name: bot.full_name,
    avatar_url: avatarUrl(engine, bot, { clientGravatar: false })!,
    service_interface: p.serviceInterface,
    service_payload_url: p.servicePayloadUrl ?? null,
    config_data: p.configData ?? null,
    ...defaultsOf(engine, bot),
  };
  if (bot.bot_owner_id !== null) result.bot_owner = engine.state.users.get(bot.bot_owner_id)!.email;
  return outcome(result, events);
}

// ---------------------------------------------------------------- API keys

/** POST /bots/{bot_id}/api_key/regenerate: a fresh key from the seeded source; the old one stops working. */
/**
 * GET /bots/{bot_id}/api_key (zulip.yaml get-bot-api-key): the key, for whoever may manage the bot
 * (access_bot_by_id: its owner or an administrator; others get "Insufficient permission", an
 * id that is no bot, or a system bot, "No such bot"), read only: no event.
 */
export function getBotApiKey(engine: Engine, actor: UserRecord, botId: number): Outcome<{ api_key: string }> {
  return outcome({ api_key: accessBotById(engine, actor, botId).api_key });
}

export function regenerateBotApiKey(engine: Engine, actor: UserRecord, botId: number): Outcome<{ api_key: string }> {
  return regenerateApiKey(engine, accessBotById(engine, actor, botId));
}

/**
 * do_regenerate_api_key: a new key, the old one dead at once; a bot's owners are told the new key
 * (`realm_bot` update). POST /users/me/api_key/regenerate (regenerate-api-key) is this for the
 * caller, bots included: Zulip leaves out @human_users_only there so that a bot can renew its own.
 */
export function regenerateApiKey(engine: Engine, user: UserRecord): Outcome<{ api_key: string }> {
  engine.state.usersByApiKey.delete(user.api_key);
  user.api_key = randomApiKey(engine.deps.random);
  engine.state.usersByApiKey.set(user.api_key, user.id);
  const events = user.is_bot ? [effect({ type: 'realm_bot', op: 'update', bot: { user_id: user.id, api_key: user.api_key } }, botOwnerUserIds(engine, user))] : [];
  return outcome({ api_key: user.api_key }, events);
}
