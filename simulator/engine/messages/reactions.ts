// Emoji reactions (zerver/views/reactions.py, zerver/actions/reactions.py). Adding with the code
// and type of an existing reaction is a vote and takes that reaction's name; otherwise the
// name/code/type triple is validated. Removing never validates the emoji, only looks it up.
import { ChatError } from '../errors.ts';
import { effect, outcome, type Outcome } from '../events/effects.ts';
import type { Engine } from '../core.ts';
import { checkEmojiRequest, emojiDataForName } from '../emoji/check.ts';
import { normalizeReactionType } from '../emoji/index.ts';
import type { UserRecord } from '../state.ts';
import { eventRecipientsForMessages } from './access.ts';
import { accessMessage } from './fetch.ts';
import { FLAG_BITS, setUserFlagBits, type ReactionType, type StoredMessage } from './store.ts';

export interface ReactionParams {
  emojiName: string | undefined;
  emojiCode: string | undefined;
  reactionType: string | undefined;
}

/** The specification words the reaction's unknown-code error without Zulip's period. */
const REACTION_WORDING = { invalidCode: 'Invalid emoji code' };

function reactionEvent(engine: Engine, op: 'add' | 'remove', user: UserRecord, message: StoredMessage, name: string, code: string, type: string) {
  return effect(
    {
      type: 'reaction',
      op,
      user_id: user.id,
      user: { user_id: user.id, email: user.email, full_name: user.full_name },
      message_id: message.id,
      emoji_name: name,
      emoji_code: code,
      reaction_type: type,
    },
    // event_recipient_ids_for_action_on_messages, as for deletions.
    eventRecipientsForMessages(engine, [message]),
  );
}

export function addReaction(engine: Engine, user: UserRecord, messageId: number, params: ReactionParams): Outcome<Record<string, never>> {
  const { message, bits } = accessMessage(engine, user, messageId);
  const name = params.emojiName ?? '';
  let code = params.emojiCode;
  let type = params.reactionType === undefined ? undefined : normalizeReactionType(params.reactionType);
  if (code === undefined || type === undefined) {
    const data = emojiDataForName(engine.state.realm.emoji, name);
    code ??= data.emojiCode;
    type ??= data.reactionType;
  }
  const reactions = message.reactions ?? [];
  if (reactions.some((r) => r.userId === user.id && r.emojiCode === code && r.reactionType === type)) {
    throw new ChatError('REACTION_ALREADY_EXISTS', 'Reaction already exists.');
  }
  const existing = reactions.find((r) => r.emojiCode === code && r.reactionType === type);
  let emojiName = name;
  if (existing) emojiName = existing.emojiName;
  else checkEmojiRequest(engine.state.realm.emoji, { name, code, type }, REACTION_WORDING);

  // Reacting to a message one never received creates a historical UserMessage row, as in Zulip.
  if ((bits & FLAG_BITS.historical) !== 0) setUserFlagBits(engine.state.messages, message, user.id, bits);
  message.reactions = [...reactions, { emojiName, emojiCode: code, reactionType: type as ReactionType, userId: user.id }];
  return outcome({}, [reactionEvent(engine, 'add', user, message, emojiName, code, type)]);
}

export function removeReaction(engine: Engine, user: UserRecord, messageId: number, params: ReactionParams): Outcome<Record<string, never>> {
  const { message } = accessMessage(engine, user, messageId);
  const type = normalizeReactionType(params.reactionType ?? 'unicode_emoji');
  let code = params.emojiCode;
  if (code === undefined) {
    if (params.emojiName === undefined) {
      throw ChatError.badRequest('At least one of the following arguments must be present: emoji_name, emoji_code');
    }
    code = emojiDataForName(engine.state.realm.emoji, params.emojiName).emojiCode;
  }
  const reactions = message.reactions ?? [];
  const index = reactions.findIndex((r) => r.userId === user.id && r.emojiCode === code && r.reactionType === type);
  if (index < 0) throw new ChatError('REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");
  const [removed] = reactions.splice(index, 1);
  message.reactions = reactions.length > 0 ? reactions : null;
  return outcome({}, [reactionEvent(engine, 'remove', user, message, removed!.emojiName, code, type)]);
}
