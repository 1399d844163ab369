// Emoji name ↔ code resolution, as Zulip does it for reactions and for `:name:` in Markdown.
//
// Unicode emoji come from iamcal's emoji-datasource (Zulip's own source). Zulip's emoji_code is
// the code points in lower-case hex joined by '-', with every FE0F variation selector removed
// (Zulip "unqualifies" emoji rather than trusting the datasource's partial non_qualified field).
// Only emoji with images in both the google and twitter sets are offered, as in Zulip.
import emojiJson from 'emoji-datasource/emoji.json' with { type: 'json' };
import type { RealmEmoji } from '../state.ts';
import type { ReactionType } from '../messages/store.ts';
import { ZULIP_CANONICAL_NAMES, ZULIP_EXTRA_NAMES, ZULIP_NAME_OVERRIDES } from './zulip-names.ts';

// Package data imported as a JSON module, so the engine needs no node:* API to read it; its
// type is declared in emoji-datasource.d.ts.
const datasource = emojiJson;

export function unifiedToCode(unified: string): string {
  return unified
    .toLowerCase()
    .split('-')
    .filter((part) => part !== 'fe0f')
    .join('-');
}

const nameToCode = new Map<string, string>();
const codeToName = new Map<string, string>();
for (const entry of datasource) {
  if (!entry.has_img_google || !entry.has_img_twitter) continue;
  const code = unifiedToCode(entry.unified);
  for (const name of entry.short_names) nameToCode.set(name, code);
  if (!codeToName.has(code)) codeToName.set(code, entry.short_name);
}
for (const [name, code] of Object.entries(ZULIP_EXTRA_NAMES)) {
  if (!nameToCode.has(name) && codeToName.has(code)) nameToCode.set(name, code);
}
for (const [name, code] of Object.entries(ZULIP_NAME_OVERRIDES)) {
  if (codeToName.has(code)) nameToCode.set(name, code);
}
for (const [code, name] of Object.entries(ZULIP_CANONICAL_NAMES)) {
  if (codeToName.has(code)) codeToName.set(code, name);
}

/**
 * Zulip's extra emoji set. The specification's wire name for its reaction_type is
 * `service_extra_emoji` (the specification wins over Zulip's `zulip_extra_emoji`, which
 * normalizeReactionType still accepts from clients written against Zulip).
 */
export const EXTRA_EMOJI_TYPE: ReactionType = 'service_extra_emoji';
export const ZULIP_EXTRA_EMOJI_TYPE = 'zulip_extra_emoji';

export function normalizeReactionType(type: string): string {
  return type === ZULIP_EXTRA_EMOJI_TYPE ? EXTRA_EMOJI_TYPE : type;
}
export const EXTRA_EMOJI: ReadonlyMap<string, string> = new Map([['zulip', 'zulip']]);

export function unicodeCodeForName(name: string): string | undefined {
  return nameToCode.get(name);
}

export function nameForUnicodeCode(code: string): string | undefined {
  return codeToName.get(code);
}

export function isKnownUnicodeCode(code: string): boolean {
  return codeToName.has(code);
}

export interface ResolvedEmoji {
  emojiName: string;
  emojiCode: string;
  reactionType: ReactionType;
}

/**
 * Resolve a name the way Zulip's get_emoji_data does: an active realm emoji first, then the extra
 * emoji, then a Unicode emoji. Undefined when nothing matches.
 */
export function resolveEmojiName(realmEmoji: ReadonlyMap<string, RealmEmoji>, name: string): ResolvedEmoji | undefined {
  const realm = findRealmEmojiByName(realmEmoji, name);
  if (realm && !realm.deactivated) return { emojiName: name, emojiCode: realm.id, reactionType: 'realm_emoji' };
  const extra = EXTRA_EMOJI.get(name);
  if (extra) return { emojiName: name, emojiCode: extra, reactionType: EXTRA_EMOJI_TYPE };
  const code = nameToCode.get(name);
  if (code) return { emojiName: name, emojiCode: code, reactionType: 'unicode_emoji' };
  return undefined;
}

/** The realm emoji with that name; an active one wins over deactivated ones of the same name. */
export function findRealmEmojiByName(realmEmoji: ReadonlyMap<string, RealmEmoji>, name: string): RealmEmoji | undefined {
  let found: RealmEmoji | undefined;
  for (const emoji of realmEmoji.values()) {
    if (emoji.name !== name) continue;
    if (!emoji.deactivated) return emoji;
    found ??= emoji;
  }
  return found;
}

export function findRealmEmojiById(realmEmoji: ReadonlyMap<string, RealmEmoji>, id: string): RealmEmoji | undefined {
  const byKey = realmEmoji.get(id);
  if (byKey && byKey.id === id) return byKey;
  for (const emoji of realmEmoji.values()) if (emoji.id === id) return emoji;
  return undefined;
}
