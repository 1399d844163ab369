/** Custom emoji (zerver/views/realm_emoji.py): list, upload, deactivate. */
import { addRealmEmoji, realmEmojiDict, removeRealmEmoji } from '../../engine/realm/custom-emoji.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';

const emojiName = { name: 'emoji_name', type: 'string', in: 'path', required: true } as const;

export const realmEmojiRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/realm/emoji',
    response: 'get-custom-emoji',
    // The list is public to every user of the realm.
    auth: 'user',
    summary: "the organization's custom emoji, deactivated ones included",
    params: [],
    handler: ({ engine }) => ({ emoji: realmEmojiDict(engine) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/realm/emoji/{emoji_name}',
    response: 'empty',
    // Zulip's require_member_or_admin: no guests, no bots; can_add_custom_emoji_group decides the rest.
    auth: 'human_member',
    summary: 'upload a custom emoji (multipart, one image under any field name)',
    params: [emojiName, { name: 'file', type: 'file', anyField: true }],
    handler({ engine, user, params }) {
      const files = params.file.map((f) => ({ name: f.filename, contentType: f.contentType, bytes: f.bytes }));
      return addRealmEmoji(engine, user, params.emoji_name, files);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/realm/emoji/{emoji_name}',
    response: 'empty',
    auth: 'user',
    summary: 'deactivate a custom emoji (administrators or its author)',
    params: [emojiName],
    handler({ engine, user, params }) {
      return removeRealmEmoji(engine, user, params.emoji_name);
    },
  }),
];
