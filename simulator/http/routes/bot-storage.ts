/** Bot storage (zerver/views/storage.py, zerver/lib/bot_storage.py): bots only, as the specification says (feature level 494). */
import { commit } from '../../engine/core.ts';
import { getBotStorage, putBotStorage, removeBotStorage } from '../../engine/bot-storage.ts';
import { ChatError } from '../../engine/errors.ts';
import type { ParamSpec, Route } from '../route.ts';

/** Zulip's dict[str, str]: every value a string. */
function stringValues(value: unknown, name: string): Record<string, string> {
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v !== 'string') throw ChatError.badRequest(`${name}[${JSON.stringify(key)}] is not a string`);
  }
  return value as Record<string, string>;
}

const keys: ParamSpec = { name: 'keys', type: 'string_array' };

export const botStorageRoutes: Route[] = [
  {
    method: 'GET',
    path: '/bot_storage',
    response: 'get-bot-storage',
    auth: 'bot',
    summary: "the bot's stored values (all, or the keys asked for)",
    params: [keys],
    handler({ engine, user, params }) {
      return { storage: getBotStorage(engine, user!, params.keys as string[] | undefined) };
    },
  },
  {
    method: 'PUT',
    path: '/bot_storage',
    response: 'empty',
    auth: 'bot',
    summary: 'store string values under string keys',
    params: [{ name: 'storage', type: 'json_object', required: true, validate: stringValues }],
    handler({ engine, user, params }) {
      commit(engine, putBotStorage(engine, user!, params.storage as Record<string, string>));
      return {};
    },
  },
  {
    method: 'DELETE',
    path: '/bot_storage',
    response: 'empty',
    auth: 'bot',
    summary: 'remove stored keys (all by default)',
    params: [keys],
    handler({ engine, user, params }) {
      commit(engine, removeBotStorage(engine, user!, params.keys as string[] | undefined));
      return {};
    },
  },
];
