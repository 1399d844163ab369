/** User statuses (zerver/views/presence.py, zerver/actions/user_status.py). */
import { ChatError } from '../../engine/errors.ts';
import { MAX_STATUS_TEXT_LENGTH, getStatusOf, updateOwnStatus, updateStatusOf } from '../../engine/users/status.ts';
import { codePointLength } from '../../engine/text.ts';
import { withValue } from '../../engine/events/effects.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

/** Zulip strips the text first, then counts code points (StringConstraints(strip_whitespace, max_length=60)). */
function trimmedStatusText(value: string, name: string): string {
  const text = value.trim();
  if (codePointLength(text) > MAX_STATUS_TEXT_LENGTH) {
    throw ChatError.badRequest(`${name} is too long (limit: ${MAX_STATUS_TEXT_LENGTH} characters)`);
  }
  return text;
}

const statusText = { name: 'status_text', type: 'string', validate: trimmedStatusText } as const;
const emojiName = { name: 'emoji_name', type: 'string' } as const;
const emojiCode = { name: 'emoji_code', type: 'string' } as const;
const reactionType = { name: 'reaction_type', type: 'string' } as const;
const userIdInPath = { name: 'user_id', type: 'int', in: 'path', required: true } as const;

export const statusRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/users/me/status',
    response: 'empty',
    auth: 'human',
    summary: 'set your status text, emoji, or (deprecated) away flag',
    // Zulip's declaration order, which decides which bad parameter is reported first.
    params: [{ name: 'away', type: 'bool' }, emojiCode, emojiName, reactionType, statusText],
    handler({ engine, user, params }) {
      return withValue(updateOwnStatus(engine, user, {
        away: params.away,
        statusText: params.status_text,
        emojiName: params.emoji_name,
        emojiCode: params.emoji_code,
        reactionType: params.reaction_type,
      }), {});
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/users/{user_id}/status',
    response: 'empty',
    // Administrators only (bots among them, since feature level 473); checked after the target
    // lookup, as Zulip does, so it answers `Insufficient permission` (see accessUser).
    auth: 'user',
    summary: "set another user's status (administrators)",
    params: [userIdInPath, statusText, emojiName, emojiCode, reactionType],
    handler({ engine, user, params }) {
      return withValue(updateStatusOf(engine, user, params.user_id, {
        statusText: params.status_text,
        emojiName: params.emoji_name,
        emojiCode: params.emoji_code,
        reactionType: params.reaction_type,
      }), {});
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/users/{user_id}/status',
    response: 'get-user-status',
    auth: 'user',
    summary: "a user's status",
    params: [userIdInPath],
    handler({ engine, user, params }) {
      return { status: getStatusOf(engine, user, params.user_id) };
    },
  }),
];
