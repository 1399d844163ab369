/**
 * Bots (zerver/views/users.py, zerver/actions/bots.py): create, list your own, edit, new API key. DELETE is with the users' routes.
 * Renewing one's own key (zerver/views/user_settings.py regenerate_api_key) is here too: it is the same action.
 */
import { createBot, listOwnBots, regenerateApiKey, getBotApiKey, regenerateBotApiKey, updateBot } from '../../engine/bots/bots.ts';
import { isValidUrl } from '../../engine/users/profile-fields.ts';
import { ChatError } from '../../engine/errors.ts';
import { ROLES } from '../../engine/users/admin.ts';
import { stringValues } from '../checks.ts';
import { defineRoute } from '../define-route.ts';
import type { Route, UploadedFile } from '../route.ts';

/** check_url on a JSON-encoded string (Zulip reads these two as Json[str]). */
function jsonUrl(value: unknown, name: string): string {
  if (typeof value !== 'string') throw ChatError.badRequest(`${name} is not a string`);
  if (!isValidUrl(value)) throw ChatError.badRequest(`${name} is not a URL`);
  return value;
}

const botIdInPath = { name: 'bot_id', type: 'int', in: 'path', required: true } as const;
const avatar = { name: 'avatar', type: 'file', anyField: true } as const;
const avatarCount = (params: { avatar: UploadedFile[] }) => ({ count: params.avatar.length });

export const botRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/bots',
    response: 'create-bot',
    // Zulip's require_member_or_admin: no guests, no bots.
    auth: 'human_member',
    summary: 'create a bot you own (generic, incoming or outgoing webhook, embedded)',
    params: [
      { name: 'full_name', type: 'string', required: true },
      { name: 'short_name', type: 'string', required: true },
      { name: 'bot_type', type: 'int', default: 1 },
      { name: 'payload_url', type: 'json', default: '', validate: jsonUrl },
      { name: 'service_name', type: 'string' },
      { name: 'config_data', type: 'json_object', default: {}, validate: stringValues },
      { name: 'interface_type', type: 'int', default: 1 },
      { name: 'default_sending_stream', type: 'string' },
      { name: 'default_events_register_stream', type: 'string' },
      { name: 'default_all_public_streams', type: 'bool' },
      avatar,
    ],
    handler({ engine, user, params }) {
      return {
        ...createBot(engine, user, {
          fullName: params.full_name,
          shortName: params.short_name,
          botType: params.bot_type,
          payloadUrl: params.payload_url,
          serviceName: params.service_name,
          configData: params.config_data,
          interfaceType: params.interface_type,
          defaultSendingStream: params.default_sending_stream,
          defaultEventsRegisterStream: params.default_events_register_stream,
          defaultAllPublicStreams: params.default_all_public_streams,
          avatar: avatarCount(params),
        }),
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/bots',
    response: 'get-bots',
    auth: 'human_member',
    summary: 'your active bots, oldest first',
    params: [],
    handler: ({ engine, user }) => ({ bots: listOwnBots(engine, user) }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/bots/{bot_id}',
    response: 'update-bot',
    // The bot's owner or an administrator (access_bot_by_id), decided per target.
    auth: 'human_member',
    summary: "change a bot's name, role, owner, default channels, service or avatar",
    params: [
      botIdInPath,
      { name: 'full_name', type: 'string' },
      { name: 'role', type: 'int', oneOf: ROLES },
      { name: 'bot_owner_id', type: 'int' },
      { name: 'config_data', type: 'json_object', validate: stringValues },
      { name: 'service_payload_url', type: 'json', validate: jsonUrl },
      { name: 'service_interface', type: 'int', default: 1 },
      { name: 'default_sending_stream', type: 'string' },
      { name: 'default_events_register_stream', type: 'string' },
      { name: 'default_all_public_streams', type: 'bool' },
      avatar,
    ],
    handler({ engine, user, params }) {
      return updateBot(engine, user, {
        botId: params.bot_id,
        fullName: params.full_name,
        role: params.role,
        botOwnerId: params.bot_owner_id,
        configData: params.config_data,
        servicePayloadUrl: params.service_payload_url,
        serviceInterface: params.service_interface,
        defaultSendingStream: params.default_sending_stream,
        defaultEventsRegisterStream: params.default_events_register_stream,
        defaultAllPublicStreams: params.default_all_public_streams,
        avatar: avatarCount(params),
      });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/bots/{bot_id}/api_key',
    response: 'get-bot-api-key',
    auth: 'human_member',
    summary: "read a bot's API key",
    params: [botIdInPath],
    handler({ engine, user, params }) {
      return getBotApiKey(engine, user, params.bot_id);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/bots/{bot_id}/api_key/regenerate',
    response: 'regenerate-bot-api-key',
    auth: 'human_member',
    summary: "replace a bot's API key",
    params: [botIdInPath],
    handler({ engine, user, params }) {
      return regenerateBotApiKey(engine, user, params.bot_id);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/users/me/api_key/regenerate',
    response: 'regenerate-api-key',
    auth: 'user',
    summary: 'replace your own API key (a bot may renew its own)',
    params: [],
    handler: ({ engine, user }) => regenerateApiKey(engine, user),
  }),
];
