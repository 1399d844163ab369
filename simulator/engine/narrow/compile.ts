// Turn validated narrow terms into a predicate over stored messages, for one viewer, resolving
// channel and user operands against the state and raising Zulip's BAD_NARROW errors
// (zerver/lib/narrow.py NarrowBuilder). Also picks the smallest index to scan.
import { getStreamById, getStreamByName, getUser, getUserByApiEmail, type Engine } from '../core.ts';
import { VISIBILITY_POLICY, type StreamRecord, type UserRecord } from '../state.ts';
import { canAccessMessage, canAccessStreamHistory, viewerFlagBits } from '../messages/access.ts';
import { dmKey, FLAG_BITS, getMessage, topicKey, type StoredMessage } from '../messages/store.ts';
import { isConversationMuted, topicVisibilityPolicy } from '../channels/user-topics.ts';
import { hasId, keywordLists, searchKeywords } from './search.ts';
import { badNarrow, CHANNEL_OPERATORS, CHANNELS_OPERATORS, type NarrowTerm, type Operand } from './parse.ts';

type Predicate = (message: StoredMessage, bits: number) => boolean;

export interface CompiledNarrow {
  terms: NarrowTerm[];
  /** Does a message (with the viewer's flag bits) satisfy every term? */
  test: Predicate;
  /** Sorted ids to scan, or null to scan every message. */
  candidates: readonly number[] | null;
  /** Whether messages the viewer never received may match (Zulip's ok_to_include_history). */
  includeHistory: boolean;
  /** Lower-cased search keywords; empty when the narrow has no `search` term. */
  searchWords: string[];
  /** Whether any `search` term is present (then match_content / match_subject are returned). */
  isSearch: boolean;
}

const RESOLVED_PREFIX = '✔ ';

/** The operand as Zulip's error text shows it: Python's str(), so a list of IDs reads "[10, 11]". */
function operandText(operand: Operand): string {
  return Array.isArray(operand) ? `[${operand.join(', ')}]` : String(operand);
}

function resolveStream(engine: Engine, operand: Operand): StreamRecord | undefined {
  if (typeof operand === 'number') return getStreamById(engine, operand);
  if (typeof operand === 'string') return getStreamByName(engine, operand);
  return undefined;
}

function resolveUser(engine: Engine, operand: Operand): UserRecord | undefined {
  if (typeof operand === 'number') return getUser(engine, operand);
  if (typeof operand === 'string') return getUserByApiEmail(engine, operand);
  return undefined;
}

function resolveUserList(engine: Engine, operand: Operand): UserRecord[] | undefined {
  const items = Array.isArray(operand)
    ? operand
    : typeof operand === 'number'
      ? [operand]
      : operand.split(',').map((s) => s.trim());
  const users: UserRecord[] = [];
  for (const item of items) {
    const user = resolveUser(engine, item);
    if (!user) return undefined;
    users.push(user);
  }
  return users;
}

const topicMatches = (engine: Engine, operand: string) => {
  // With allow_empty_topic_name off, clients may name the empty topic by its display name.
  const key = operand === engine.state.realm.realm_empty_topic_display_name ? '' : topicKey(operand.trim());
  return key;
};

/** Replace a `with` term by the conversation of the message it names (Zulip's with-operator rewrite). */
function expandWith(engine: Engine, viewer: UserRecord | undefined, terms: NarrowTerm[]): NarrowTerm[] {
  const withTerm = terms.find((t) => t.operator === 'with');
  if (!withTerm) return terms;
  const id = typeof withTerm.operand === 'number' ? withTerm.operand : Number(withTerm.operand);
  if (!Number.isInteger(id) || !/^\d+$/.test(String(withTerm.operand))) throw badNarrow("Invalid 'with' operand");
  const rest = terms.filter((t) => t !== withTerm);
  const message = getMessage(engine.state.messages, id);
  if (!message || !canAccessMessage(engine, viewer, message)) return rest;
  const conversation = ['channel', 'stream', 'topic', 'dm', 'pm-with', 'pm_with'];
  const kept = rest.filter((t) => !conversation.includes(t.operator));
  if (message.streamId !== null) {
    return [
      ...kept,
      { operator: 'channel', operand: message.streamId, negated: false },
      { operator: 'topic', operand: message.topic, negated: false },
    ];
  }
  return [...kept, { operator: 'dm', operand: [...(message.dmUserIds ?? [])], negated: false }];
}

function includeHistoryFor(engine: Engine, viewer: UserRecord | undefined, terms: NarrowTerm[]): boolean {
  // Spectators only ever read (web-public) history.
  if (!viewer) return true;
  let include = false;
  for (const term of terms) {
    if ((CHANNEL_OPERATORS as readonly string[]).includes(term.operator) && !term.negated) {
      const stream = resolveStream(engine, term.operand);
      include = stream !== undefined && canAccessStreamHistory(engine, viewer, stream);
    } else if (
      (CHANNELS_OPERATORS as readonly string[]).includes(term.operator) &&
      term.operand === 'public' &&
      !term.negated &&
      viewer !== undefined &&
      viewer.role !== 600
    ) {
      include = true;
    }
  }
  // Flags live on received messages only, so `is:` terms (but resolved/followed) drop history.
  for (const term of terms) {
    if (term.operator === 'is' && term.operand !== 'resolved' && term.operand !== 'followed') include = false;
  }
  return include;
}

export function compileNarrow(engine: Engine, viewer: UserRecord | undefined, rawTerms: NarrowTerm[]): CompiledNarrow {
  const terms = expandWith(engine, viewer, rawTerms);
  const store = engine.state.messages;
  const predicates: Predicate[] = [];
  const searchWords: string[] = [];
  let isSearch = false;
  let isChannelNarrow = false;
  let isDmNarrow = false;
  let candidates: readonly number[] | null = null;
  let candidateRank = 0; // 4 search words, 3 topic, 2 channel or DM conversation, 1 user rows

  const markKind = (negated: boolean, kind: 'channel' | 'dm') => {
    if (negated) return;
    if (kind === 'channel') isChannelNarrow = true;
    else isDmNarrow = true;
    if (isChannelNarrow && isDmNarrow) throw badNarrow('No message can be both a channel message and direct message');
  };
  const useCandidates = (rank: number, ids: readonly number[] | undefined) => {
    if (rank > candidateRank) {
      candidateRank = rank;
      candidates = ids ?? [];
    }
  };

  let channelForTopic: StreamRecord | undefined;
  for (const term of terms) {
    const { operator, operand, negated } = term;
    let predicate: Predicate;
    switch (operator) {
      case 'channel':
      case 'stream': {
        markKind(negated, 'channel');
        const stream = resolveStream(engine, operand);
        if (!stream) throw badNarrow(`unknown channel ${operandText(operand)}`);
        // Spectators may only name web-public channels.
        if (!viewer && !stream.is_web_public) throw badNarrow(`unknown web-public channel ${operandText(operand)}`);
        predicate = (m) => m.streamId === stream.id;
        if (!negated) {
          channelForTopic = stream;
          useCandidates(2, store.byStream.get(stream.id));
        }
        break;
      }
      case 'channels':
      case 'streams': {
        markKind(negated, 'channel');
        if (operand === 'public') {
          predicate = (m) => m.streamId !== null && engine.state.streams.get(m.streamId)?.invite_only === false;
        } else if (operand === 'web-public') {
          predicate = (m) => m.streamId !== null && engine.state.streams.get(m.streamId)?.is_web_public === true;
        } else {
          throw badNarrow(`unknown channels operand ${operandText(operand)}`);
        }
        break;
      }
      case 'topic':
      case 'subject': {
        markKind(negated, 'channel');
        const key = topicMatches(engine, String(operand));
        predicate = (m) => m.streamId !== null && topicKey(m.topic) === key;
        break;
      }
      case 'sender': {
        const sender = resolveUser(engine, operand);
        if (!sender) throw badNarrow(`unknown user ${operandText(operand)}`);
        predicate = (m) => m.senderId === sender.id;
        break;
      }
      case 'dm':
      case 'pm-with':
      case 'pm_with': {
        markKind(negated, 'dm');
        const users = resolveUserList(engine, operand);
        if (!users) throw badNarrow(`unknown user in ${operandText(operand)}`);
        const ids = users.map((u) => u.id);
        if (viewer) ids.push(viewer.id);
        const key = dmKey(ids);
        predicate = (m) => m.dmUserIds !== null && dmKey(m.dmUserIds) === key;
        if (!negated) useCandidates(2, store.byDmKey.get(key));
        break;
      }
      case 'dm-including': {
        markKind(negated, 'dm');
        const user = resolveUser(engine, operand);
        if (!user) throw badNarrow(`unknown user ${operandText(operand)}`);
        predicate = (m) => m.dmUserIds !== null && m.dmUserIds.includes(user.id);
        break;
      }
      case 'group-pm-with':
      case 'group_pm_with': {
        markKind(negated, 'dm');
        const user = resolveUser(engine, operand);
        if (!user) throw badNarrow(`unknown user ${operandText(operand)}`);
        predicate = (m) => m.dmUserIds !== null && m.dmUserIds.length > 2 && m.dmUserIds.includes(user.id);
        break;
      }
      case 'is':
        predicate = isPredicate(engine, viewer, String(operand), negated, (kind) => markKind(false, kind));
        break;
      case 'in': {
        if (operand === 'home') {
          // exclude_muting_conditions(user, []): muted channels (but their unmuted and followed
          // topics) and muted topics are not "home", whatever channel the narrow names.
          predicate = (m) => !(m.streamId !== null && viewer && isConversationMuted(engine, viewer.id, m.streamId, m.topic));
        } else if (operand === 'all') {
          predicate = () => true;
        } else {
          throw badNarrow(`unknown 'in' operand ${operandText(operand)}`);
        }
        break;
      }
      case 'has': {
        if (operand === 'link') predicate = (m) => m.hasLink;
        else if (operand === 'image') predicate = (m) => m.hasImage;
        else if (operand === 'attachment') predicate = (m) => m.hasAttachment;
        else if (operand === 'reaction') predicate = (m) => m.reactions !== null && m.reactions.length > 0;
        else throw badNarrow(`unknown 'has' operand ${operandText(operand)}`);
        break;
      }
      case 'search': {
        isSearch = true;
        const keywords = searchKeywords(String(operand));
        searchWords.push(...keywords);
        const lists = keywordLists(engine, store, keywords);
        predicate = (m) => lists.length > 0 && lists.every((ids) => hasId(ids, m.id));
        // The rarest keyword's messages contain every match, so a positive search scans only those.
        if (!negated) useCandidates(4, lists[0] ?? []);
        break;
      }
      case 'near':
        predicate = () => true;
        break;
      case 'id': {
        if (!/^\d+$/.test(String(operand))) throw badNarrow('Invalid message ID');
        const id = Number(operand);
        predicate = (m) => m.id === id;
        break;
      }
      default:
        throw badNarrow(`unknown operator ${operator}`);
    }
    predicates.push(negated ? (m, bits) => !predicate(m, bits) : predicate);
  }

  if (channelForTopic) {
    const topicTerm = terms.find((t) => (t.operator === 'topic' || t.operator === 'subject') && !t.negated);
    if (topicTerm) {
      const key = topicMatches(engine, String(topicTerm.operand));
      useCandidates(3, store.byTopic.get(channelForTopic.id)?.get(key));
    }
  }
  const includeHistory = includeHistoryFor(engine, viewer, terms);
  if (!includeHistory && viewer) useCandidates(1, store.byUser.get(viewer.id));

  return {
    terms,
    test: (m, bits) => predicates.every((p) => p(m, bits)),
    candidates,
    includeHistory,
    searchWords,
    isSearch,
  };
}

function isPredicate(
  engine: Engine,
  viewer: UserRecord | undefined,
  operand: string,
  negated: boolean,
  markKind: (kind: 'channel' | 'dm') => void,
): Predicate {
  const mentionMask = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;
  switch (operand) {
    case 'dm':
    case 'private':
      // A negated is:dm is a channel narrow, and a plain one a DM narrow (for the mixing check).
      markKind(negated ? 'channel' : 'dm');
      return (m) => m.streamId === null;
    case 'starred':
      return (_m, bits) => (bits & FLAG_BITS.starred) !== 0;
    case 'unread':
      return (_m, bits) => (bits & FLAG_BITS.read) === 0;
    case 'mentioned':
      return (_m, bits) => (bits & mentionMask) !== 0;
    case 'alerted':
      return (_m, bits) => (bits & FLAG_BITS.has_alert_word) !== 0;
    case 'resolved':
      return (m) => m.streamId !== null && m.topic.startsWith(RESOLVED_PREFIX);
    case 'followed':
      return (m) => m.streamId !== null && viewer !== undefined && topicVisibilityPolicy(engine, viewer.id, m.streamId, m.topic) === VISIBILITY_POLICY.followed;
    case 'muted':
      return (m) => m.streamId !== null && viewer !== undefined && isConversationMuted(engine, viewer.id, m.streamId, m.topic);
    default:
      throw badNarrow(`unknown 'is' operand ${operand}`);
  }
}

export { viewerFlagBits };
export { highlightHtml } from './search.ts';
