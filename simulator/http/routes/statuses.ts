/** User statuses (zerver/views/presence.py, zerver/actions/user_status.py). */
import { commit } from '../../engine/core.ts';
import { ChatError } from '../../engine/errors.ts';
import { MAX_STATUS_TEXT_LENGTH, getStatusOf, updateOwnStatus, updateStatusOf } from '../../engine/user-status.ts';
import { codePointLength } from '../../engine/text.ts';
import type { ParamSpec, Route } from '../route.ts';

/** Zulip strips the text first, then counts code points (StringConstraints(strip_whitespace, max_length=60)). */
function trimmedStatusText(value: unknown, name: string): string {
  const text = (value as string).trim();
  if (codePointLength(text) > MAX_STATUS_TEXT_LENGTH) {
    throw ChatError.badRequest(`${name} is too long (limit: ${MAX_STATUS_TEXT_LENGTH} characters)`);
  }
  return text;
}

const statusText: ParamSpec = { name: 'status_text', type: 'string', validate: trimmedStatusText };
const emojiName: ParamSpec = { name: 'emoji_name', type: 'string' };
const emojiCode: ParamSpec = { name: 'emoji_code', type: 'string' };
const reactionType: ParamSpec = { name: 'reaction_type', type: 'string' };
const userIdInPath: ParamSpec = { name: 'user_id', type: 'int', in: 'path', required: true };

export const statusRoutes: Route[] = [
  {
    method: 'POST',
    path: '/users/me/status',
    response: 'empty',
    auth: 'human',
    summary: 'set your status text, emoji, or (deprecated) away flag',
    // Zulip's declaration order, which decides which bad parameter is reported first.
    params: [{ name: 'away', type: 'bool' }, emojiCode, emojiName, reactionType, statusText],
    handler({ engine, user, params }) {
      commit(
        engine,
        updateOwnStatus(engine, user!, {
          away: params.away as boolean | undefined,
          statusText: params.status_text as string | undefined,
          emojiName: params.emoji_name as string | undefined,
          emojiCode: params.emoji_code as string | undefined,
          reactionType: params.reaction_type as string | undefined,
        }),
      );
      return {};
    },
  },
  {
    method: 'POST',
    path: '/users/{user_id}/status',
    response: 'empty',
    // Administrators only (bots among them, since feature level 473); checked after the target
    // lookup, as Zulip does, so it answers `Insufficient permission` (see accessUser).
    auth: 'user',
    summary: "set another user's status (administrators)",
    params: [userIdInPath, statusText, emojiName, emojiCode, reactionType],
    handler({ engine, user, params }) {
      commit(
        engine,
        updateStatusOf(engine, user!, params.user_id as number, {
          statusText: params.status_text as string | undefined,
          emojiName: params.emoji_name as string | undefined,
          emojiCode: params.emoji_code as string | undefined,
          reactionType: params.reaction_type as string | undefined,
        }),
      );
      return {};
    },
  },
  {
    method: 'GET',
    path: '/users/{user_id}/status',
    response: 'get-user-status',
    auth: 'user',
    summary: "a user's status",
    params: [userIdInPath],
    handler({ engine, user, params }) {
      return { status: getStatusOf(engine, user!, params.user_id as number) };
    },
  },
];
