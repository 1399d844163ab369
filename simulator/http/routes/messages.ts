// Message endpoints: sending, fetching (with narrows), single fetch, matches_narrow, reactions.
// Parameters are declared here and decoded by the dispatcher; handlers only call the engine.
import { ChatError } from '../../engine/errors.ts';
import { commit } from '../../engine/engine.ts';
import { getMessages, getSingleMessage, matchesNarrow } from '../../engine/messages/fetch.ts';
import { addReaction, removeReaction } from '../../engine/messages/reactions.ts';
import { clientName, sendMessage } from '../../engine/messages/send.ts';
import { parseNarrow } from '../../engine/narrow/parse.ts';
import type { ParamSpec, Route, RouteContext } from '../route.ts';

/** num_before / num_after are NonNegativeInt in Zulip. */
function nonNegative(value: unknown, name: string): unknown {
  if (typeof value === 'number' && value < 0) throw ChatError.badRequest(`${name} is too small`);
  return value;
}

function requireUser(ctx: RouteContext) {
  if (!ctx.user) throw ChatError.unauthorized();
  return ctx.user;
}

const SPECTATOR_OPERATORS = new Set(['channel', 'stream', 'channels', 'streams', 'topic', 'sender', 'has', 'search', 'near', 'id', 'with']);

const str = (v: unknown): string | undefined => (v === undefined ? undefined : String(v));

const emojiParams: ParamSpec[] = [
  { name: 'message_id', type: 'int', in: 'path', required: true },
  { name: 'emoji_name', type: 'string' },
  { name: 'emoji_code', type: 'string' },
  { name: 'reaction_type', type: 'string' },
];

export const messageRoutes: Route[] = [
  {
    method: 'POST',
    path: '/messages',
    auth: 'user',
    summary: 'Send a message to a channel topic or a direct-message conversation',
    params: [
      // A Literal in Zulip: checked in declaration order, before `content` is found missing.
      { name: 'type', type: 'string', required: true, oneOf: ['direct', 'private', 'stream', 'channel'] },
      { name: 'to', type: 'string' },
      { name: 'topic', type: 'string', aliases: ['subject'] },
      { name: 'content', type: 'string', required: true },
      { name: 'queue_id', type: 'string' },
      { name: 'local_id', type: 'string' },
      { name: 'read_by_sender', type: 'bool' },
      { name: 'client', type: 'string' },
    ],
    handler(ctx) {
      const p = ctx.params;
      const { id } = commit(
        ctx.engine,
        sendMessage(ctx.engine, requireUser(ctx), {
          type: String(p.type),
          to: str(p.to),
          topic: str(p.topic),
          content: String(p.content),
          client: clientName(str(p.client), ctx.headers['user-agent']),
          readBySender: p.read_by_sender as boolean | undefined,
          queueId: str(p.queue_id),
          localId: str(p.local_id),
        }),
      );
      return { id };
    },
  },
  {
    method: 'GET',
    path: '/messages',
    auth: 'optional',
    summary: 'Fetch messages around an anchor, optionally within a narrow',
    params: [
      { name: 'anchor', type: 'string' },
      { name: 'num_before', type: 'int', default: 0, validate: nonNegative },
      { name: 'num_after', type: 'int', default: 0, validate: nonNegative },
      { name: 'include_anchor', type: 'bool' },
      { name: 'narrow', type: 'json', default: [] },
      { name: 'client_gravatar', type: 'bool', default: true },
      { name: 'apply_markdown', type: 'bool', default: true },
      { name: 'allow_empty_topic_name', type: 'bool', default: false },
      { name: 'message_ids', type: 'int_array' },
      { name: 'use_first_unread_anchor', type: 'bool', default: false },
    ],
    handler(ctx) {
      const p = ctx.params;
      const narrow = parseNarrow(p.narrow);
      // Spectators may only read web-public channels: through a `channels:web-public` narrow,
      // with operators that need no user (Zulip's is_web_public_narrow / is_spectator_compatible).
      if (!ctx.user) {
        const webPublic = narrow.some((t) => ['channels', 'streams'].includes(t.operator) && t.operand === 'web-public' && !t.negated);
        if (!webPublic || !narrow.every((t) => SPECTATOR_OPERATORS.has(t.operator))) throw ChatError.unauthorized();
      }
      return getMessages(ctx.engine, ctx.user, {
        anchor: str(p.anchor),
        numBefore: p.num_before as number,
        numAfter: p.num_after as number,
        includeAnchor: p.include_anchor !== false,
        includeAnchorSent: p.include_anchor === false,
        narrow,
        messageIds: p.message_ids as number[] | undefined,
        useFirstUnreadAnchor: p.use_first_unread_anchor as boolean,
        applyMarkdown: p.apply_markdown as boolean,
        clientGravatar: p.client_gravatar as boolean,
        allowEmptyTopicName: p.allow_empty_topic_name as boolean,
      });
    },
  },
  {
    method: 'GET',
    path: '/messages/matches_narrow',
    auth: 'user',
    summary: 'Which of the given messages match a narrow',
    params: [
      { name: 'msg_ids', type: 'int_array', required: true },
      { name: 'narrow', type: 'json', required: true },
    ],
    handler(ctx) {
      return matchesNarrow(ctx.engine, requireUser(ctx), ctx.params.msg_ids as number[], parseNarrow(ctx.params.narrow));
    },
  },
  {
    method: 'GET',
    path: '/messages/{message_id}',
    auth: 'user',
    summary: 'Fetch one message',
    params: [
      { name: 'message_id', type: 'int', in: 'path', required: true },
      { name: 'apply_markdown', type: 'bool', default: true },
      { name: 'allow_empty_topic_name', type: 'bool', default: false },
    ],
    handler(ctx) {
      return getSingleMessage(ctx.engine, requireUser(ctx), ctx.params.message_id as number, {
        applyMarkdown: ctx.params.apply_markdown as boolean,
        allowEmptyTopicName: ctx.params.allow_empty_topic_name as boolean,
      });
    },
  },
  {
    method: 'POST',
    path: '/messages/{message_id}/reactions',
    auth: 'user',
    summary: 'Add an emoji reaction (or vote for an existing one)',
    params: emojiParams.map((s) => (s.name === 'emoji_name' ? { ...s, required: true } : s)),
    handler(ctx) {
      const p = ctx.params;
      commit(
        ctx.engine,
        addReaction(ctx.engine, requireUser(ctx), p.message_id as number, {
          emojiName: str(p.emoji_name),
          emojiCode: str(p.emoji_code),
          reactionType: str(p.reaction_type),
        }),
      );
      return {};
    },
  },
  {
    method: 'DELETE',
    path: '/messages/{message_id}/reactions',
    auth: 'user',
    summary: 'Remove your emoji reaction',
    params: emojiParams,
    handler(ctx) {
      const p = ctx.params;
      commit(
        ctx.engine,
        removeReaction(ctx.engine, requireUser(ctx), p.message_id as number, {
          emojiName: str(p.emoji_name),
          emojiCode: str(p.emoji_code),
          reactionType: str(p.reaction_type),
        }),
      );
      return {};
    },
  },
];
