// The emoji a request names, resolved and validated as Zulip's zerver/lib/emoji.py does it, for
// every endpoint that takes an emoji_name / emoji_code / reaction_type triple (reactions and
// user statuses share these two functions).
import { ChatError } from '../errors.ts';
import type { RealmEmoji } from '../state.ts';
import {
  EXTRA_EMOJI,
  EXTRA_EMOJI_TYPE,
  findRealmEmojiById,
  isKnownUnicodeCode,
  resolveEmojiName,
  unicodeCodeForName,
  type ResolvedEmoji,
} from './index.ts';

/** Zulip's get_emoji_data: what a bare name stands for, or `Emoji '<name>' does not exist`. */
export function emojiDataForName(realmEmoji: ReadonlyMap<string, RealmEmoji>, name: string): ResolvedEmoji {
  const resolved = resolveEmojiName(realmEmoji, name);
  if (!resolved) throw ChatError.badRequest(`Emoji '${name}' does not exist`);
  return resolved;
}

export interface EmojiRequest {
  name: string;
  code: string;
  /** Already normalized (`zulip_extra_emoji` read as the specification's `service_extra_emoji`). */
  type: string;
}

export interface EmojiCheckWording {
  /** Zulip says `Invalid emoji code.`; the specification words the reaction row without the period. */
  invalidCode: string;
}

const ZULIP_WORDING: EmojiCheckWording = { invalidCode: 'Invalid emoji code.' };

/**
 * Zulip's check_emoji_request: does the code exist for its type, and does the name match it?
 * The first failing rule answers, with Zulip's message for it.
 */
export function checkEmojiRequest(
  realmEmoji: ReadonlyMap<string, RealmEmoji>,
  emoji: EmojiRequest,
  wording: EmojiCheckWording = ZULIP_WORDING,
): void {
  const { name, code, type } = emoji;
  if (type === 'realm_emoji') {
    const custom = findRealmEmojiById(realmEmoji, code);
    if (!custom) throw ChatError.badRequest('Invalid custom emoji.');
    if (custom.name !== name) throw ChatError.badRequest('Invalid custom emoji name.');
    if (custom.deactivated) throw ChatError.badRequest('This custom emoji has been deactivated.');
  } else if (type === EXTRA_EMOJI_TYPE) {
    if (!EXTRA_EMOJI.has(code)) throw ChatError.badRequest(wording.invalidCode);
    if (name !== code) throw ChatError.badRequest('Invalid emoji name.');
  } else if (type === 'unicode_emoji') {
    if (!isKnownUnicodeCode(code)) throw ChatError.badRequest(wording.invalidCode);
    if (unicodeCodeForName(name) !== code) throw ChatError.badRequest('Invalid emoji name.');
  } else {
    throw ChatError.badRequest('Invalid emoji type.');
  }
}
