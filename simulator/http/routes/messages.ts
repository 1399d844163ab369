// Message endpoints: sending, fetching (with narrows), single fetch, matches_narrow, reactions.
// Parameters are declared here and decoded by the dispatcher; handlers only call the engine.
import { getMessagesJson, getSingleMessage, matchesNarrow } from '../../engine/messages/fetch.ts';
import { previewRendering } from '../../engine/messages/preview.ts';
import { addReaction, removeReaction } from '../../engine/messages/reactions.ts';
import { clientName, sendMessage } from '../../engine/messages/send.ts';
import { parseNarrow } from '../../engine/narrow/parse.ts';
import { SerializedFields } from '../envelope.ts';
import { mapOutcome, withValue } from '../../engine/events/effects.ts';
import { nonNegative, nonNegativeList } from '../checks.ts';
import { defineRoute, paramList } from '../define-route.ts';
import type { ResponseOf, Route } from '../route.ts';
import type { GetMessagesResponse } from '../../../schemas/generated/types/chat/responses/get-messages.ts';

/** Zulip's settings.MAX_MESSAGE_LENGTH: the longest content POST /messages/render accepts. */
const MAX_RENDER_LENGTH = 10_000;

const emojiParams = paramList([
  { name: 'message_id', type: 'int', in: 'path', required: true },
  { name: 'emoji_name', type: 'string' },
  { name: 'emoji_code', type: 'string' },
  { name: 'reaction_type', type: 'string' },
]);

export const messageRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/messages',
    response: 'send-message',
    auth: 'user',
    // rest_path("messages", POST=(send_message_backend, {"allow_incoming_webhooks"})): the only
    // message route an incoming-webhook bot may call.
    allowIncomingWebhooks: true,
    summary: 'Send a message to a channel topic or a direct-message conversation',
    // send_message_backend's keyword parameters, alphabetically by Python name (forged, local_id,
    // content, queue_id, read_by_sender, sender, to, type, time, topic, widget_content): the first
    // invalid one is reported, so a missing content wins over an invalid type.
    params: [
      { name: 'forged', type: 'string' },
      { name: 'local_id', type: 'string' },
      { name: 'content', type: 'string', required: true },
      { name: 'queue_id', type: 'string' },
      { name: 'read_by_sender', type: 'bool' },
      { name: 'sender', type: 'string' },
      { name: 'to', type: 'string' },
      { name: 'type', type: 'string', required: true, oneOf: ['direct', 'private', 'stream', 'channel'] },
      // Only used with `forged`, which no simulated user may do; still parsed as Json[float].
      { name: 'time', type: 'float' },
      { name: 'topic', type: 'string', aliases: ['subject'] },
      { name: 'widget_content', type: 'string' },
      // Read by Zulip's request-logging middleware (never unsupported).
      { name: 'client', type: 'string' },
    ],
    handler(ctx) {
      const p = ctx.params;
      const sent = sendMessage(ctx.engine, ctx.user, {
        type: p.type,
        to: p.to,
        topic: p.topic,
        content: p.content,
        client: clientName(p.client, ctx.headers['user-agent']),
        readBySender: p.read_by_sender,
        queueId: p.queue_id,
        localId: p.local_id,
        forged: p.forged,
        mirrorSender: p.sender,
        widgetContent: p.widget_content,
      });
      // Its one member written as it is: JSON.stringify of a one-field object cost a send more
      // than the rest of its envelope.
      return mapOutcome(sent, ({ id }) => new SerializedFields<ResponseOf<'send-message'>>(`"id":${id}`));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/messages',
    response: 'get-messages',
    // Zulip serves spectators only on /json (allow_anonymous_user_web); on /api/v1 a request
    // without an Authorization header is refused before the view (rest_dispatch).
    auth: 'user',
    summary: 'Fetch messages around an anchor, optionally within a narrow',
    // get_messages_backend declares its keyword parameters alphabetically (by Python name:
    // client_requested_message_ids is `message_ids`), and the first invalid one is reported.
    params: [
      { name: 'allow_empty_topic_name', type: 'bool', default: false },
      { name: 'anchor', type: 'string' },
      { name: 'apply_markdown', type: 'bool', default: true },
      { name: 'client_gravatar', type: 'bool', default: true },
      { name: 'message_ids', type: 'int_array', validate: nonNegativeList },
      { name: 'include_anchor', type: 'bool', default: true },
      // NarrowParameter is validated while parameters are read (before num_after / num_before).
      { name: 'narrow', type: 'json', default: [], validate: (v) => parseNarrow(v) },
      { name: 'num_after', type: 'int', default: 0, validate: nonNegative },
      { name: 'num_before', type: 'int', default: 0, validate: nonNegative },
      { name: 'use_first_unread_anchor', type: 'bool', default: false },
    ],
    handler(ctx) {
      const p = ctx.params;
      const members = getMessagesJson(ctx.engine, ctx.user, {
        anchor: p.anchor,
        numBefore: p.num_before,
        numAfter: p.num_after,
        includeAnchor: p.include_anchor,
        narrow: p.narrow,
        messageIds: p.message_ids,
        useFirstUnreadAnchor: p.use_first_unread_anchor,
        applyMarkdown: p.apply_markdown,
        clientGravatar: p.client_gravatar,
        allowEmptyTopicName: p.allow_empty_topic_name,
      });
      return new SerializedFields<GetMessagesResponse>(members);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/messages/render',
    response: 'render-message',
    auth: 'user',
    summary: 'Render Markdown as a message would be rendered, without sending it',
    params: [{ name: 'content', type: 'string', required: true, maxLength: MAX_RENDER_LENGTH }],
    handler: (ctx) => previewRendering(ctx.engine, ctx.user, ctx.params.content),
  }),
  defineRoute({
    method: 'GET',
    path: '/messages/matches_narrow',
    response: 'check-messages-match-narrow',
    auth: 'user',
    summary: 'Which of the given messages match a narrow',
    params: [
      { name: 'msg_ids', type: 'int_array', required: true },
      { name: 'narrow', type: 'json', required: true },
    ],
    handler(ctx) {
      return matchesNarrow(ctx.engine, ctx.user, ctx.params.msg_ids, parseNarrow(ctx.params.narrow));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/messages/{message_id}',
    response: 'get-message',
    auth: 'user',
    summary: 'Fetch one message',
    params: [
      { name: 'message_id', type: 'int', in: 'path', required: true },
      { name: 'apply_markdown', type: 'bool', default: true },
      { name: 'allow_empty_topic_name', type: 'bool', default: false },
    ],
    handler(ctx) {
      return getSingleMessage(ctx.engine, ctx.user, ctx.params.message_id, {
        applyMarkdown: ctx.params.apply_markdown,
        allowEmptyTopicName: ctx.params.allow_empty_topic_name,
      });
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/messages/{message_id}/reactions',
    response: 'empty',
    auth: 'user',
    summary: 'Add an emoji reaction (or vote for an existing one)',
    params: emojiParams.map((s) => (s.name === 'emoji_name' ? { ...s, required: true } : s)),
    handler(ctx) {
      const p = ctx.params;
      return withValue(addReaction(ctx.engine, ctx.user, p.message_id, {
        emojiName: p.emoji_name,
        emojiCode: p.emoji_code,
        reactionType: p.reaction_type,
      }), {});
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/messages/{message_id}/reactions',
    response: 'empty',
    auth: 'user',
    summary: 'Remove your emoji reaction',
    params: emojiParams,
    handler(ctx) {
      const p = ctx.params;
      return withValue(removeReaction(ctx.engine, ctx.user, p.message_id, {
        emojiName: p.emoji_name,
        emojiCode: p.emoji_code,
        reactionType: p.reaction_type,
      }), {});
    },
  }),
];
