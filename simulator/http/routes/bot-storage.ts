/** Bot storage (zerver/views/storage.py, zerver/lib/bot_storage.py): bots only, as the specification says (feature level 494). */
import { getBotStorage, putBotStorage, removeBotStorage } from '../../engine/bots/storage.ts';
import { ChatError } from '../../engine/errors.ts';
import { withValue } from '../../engine/events/effects.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

/** Zulip's dict[str, str]: every value a string. */
function storageValues(value: Record<string, unknown>, name: string): Record<string, string> {
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw ChatError.badRequest(`${name}[${JSON.stringify(key)}] is not a string`);
  }
  return value as Record<string, string>;
}

const keys = { name: 'keys', type: 'string_array' } as const;

export const botStorageRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/bot_storage',
    response: 'get-bot-storage',
    auth: 'bot',
    summary: "the bot's stored values (all, or the keys asked for)",
    params: [keys],
    handler({ engine, user, params }) {
      return { storage: getBotStorage(engine, user, params.keys) };
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/bot_storage',
    response: 'empty',
    auth: 'bot',
    summary: 'store string values under string keys',
    params: [{ name: 'storage', type: 'json_object', required: true, validate: storageValues }],
    handler({ engine, user, params }) {
      return withValue(putBotStorage(engine, user, params.storage), {});
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/bot_storage',
    response: 'empty',
    auth: 'bot',
    summary: 'remove stored keys (all by default)',
    params: [keys],
    handler({ engine, user, params }) {
      return withValue(removeBotStorage(engine, user, params.keys), {});
    },
  }),
];
