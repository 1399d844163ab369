// The narrow oracle shared by the property tests: random narrows over the dev realm, and a
// brute-force reading of what they must return, independent of the store's indexes.
import fc from 'fast-check';
import type { State } from '../../../simulator/engine/state.ts';
import { FLAG_BITS, userFlagBits, type StoredMessage } from '../../../simulator/engine/messages/store.ts';
import { CORDELIA, HAMLET, IAGO, POLONIUS } from './helpers.ts';

export type NarrowTermLike = { operator: string; operand: any; negated: boolean };

export const viewers = [HAMLET, IAGO, POLONIUS, CORDELIA];
const channelNames = ['Denmark', 'Verona', 'Scotland', 'core team', 'Rome', 'Atlantis'];
export const topics = ['release 2.0', 'castle security', 'welcome', 'lunch plans', 'nothing'];
const emails = ['hamlet@zulip.com', 'iago@zulip.com', 'othello@zulip.com', 'cordelia@zulip.com', 'nobody@zulip.com'];
export const words = ['castle', 'the', 'release', 'zebra', 'CI is', 'Rel'];

export interface NarrowVocabulary {
  topics: readonly string[];
  words: readonly string[];
  /** Channel + topic pairs that exist, so the topic index is exercised. */
  conversations: readonly [string | number, string][];
}

export const conversations: [string | number, string][] = [
  ['Denmark', 'release 2.0'],
  [4, 'castle security'],
  ['Verona', 'welcome'],
  ['verona', 'LUNCH PLANS'],
  ['core team', 'roadmap'],
];

/** Random narrows (valid or not) over the given topics, search words and conversations. */
export function narrowArbitrary(vocabulary: NarrowVocabulary = { topics, words, conversations }) {
  const termArb = fc.oneof(
    fc.record({ operator: fc.constantFrom('channel', 'stream'), operand: fc.constantFrom<string | number>(...channelNames, 4, 999) }),
    fc.record({ operator: fc.constantFrom('topic', 'subject'), operand: fc.constantFrom(...vocabulary.topics) }),
    fc.record({ operator: fc.constant('sender'), operand: fc.constantFrom<string | number>(...emails, 10, 12) }),
    fc.record({ operator: fc.constantFrom('dm', 'pm-with'), operand: fc.constantFrom<string | number[]>(...emails, [11], [8, 11, 12]) }),
    fc.record({
      operator: fc.constant('is'),
      operand: fc.constantFrom('dm', 'private', 'starred', 'unread', 'mentioned', 'resolved', 'followed', 'muted', 'shiny'),
    }),
    fc.record({ operator: fc.constant('has'), operand: fc.constantFrom('reaction', 'link', 'image', 'attachment', 'cheese') }),
    fc.record({ operator: fc.constant('search'), operand: fc.constantFrom(...vocabulary.words) }),
    fc.record({ operator: fc.constantFrom('near', 'id'), operand: fc.integer({ min: 0, max: 70 }) }),
    fc.record({ operator: fc.constantFrom('in', 'color'), operand: fc.constantFrom('home', 'all', 'x') }),
    fc.anything(),
  );
  const withNegation = fc
    .tuple(termArb, fc.boolean())
    .map(([t, negated]) => (typeof t === 'object' && t !== null && 'operator' in t ? { ...t, negated } : t));
  return fc.oneof(
    fc.array(withNegation, { maxLength: 3 }),
    // Real channel + topic pairs, so the topic index is exercised, plus up to one more term.
    fc.tuple(fc.constantFrom(...vocabulary.conversations), fc.array(withNegation, { maxLength: 1 })).map(([[channel, topic], rest]) => [
      { operator: 'channel', operand: channel, negated: false },
      { operator: 'topic', operand: topic, negated: false },
      ...rest,
    ]),
  );
}

export const narrowArb = narrowArbitrary();

/** An independent reading of the narrow semantics, over every stored message, ascending ids. */
export function bruteForce(state: State, viewerEmail: string, narrow: NarrowTermLike[]): number[] {
  const viewer = [...state.users.values()].find((u) => u.delivery_email.toLowerCase() === viewerEmail)!;
  const userId = (x: string | number) => (typeof x === 'number' ? x : [...state.users.values()].find((u) => u.delivery_email.toLowerCase() === x)?.id);
  const channel = (x: string | number) => [...state.streams.values()].find((c) => (typeof x === 'number' ? c.id === x : c.name.toLowerCase() === x.toLowerCase()));
  const subscribed = (streamId: number) => state.subscriptions.get(streamId)?.get(viewer.id)?.active === true;
  const historyOk = (streamId: number) => {
    const c = state.streams.get(streamId)!;
    if (c.is_web_public) return true;
    if (!c.history_public_to_subscribers) return false;
    return c.invite_only || viewer.role === 600 ? subscribed(c.id) : true;
  };
  let history = false;
  for (const t of narrow) if ((t.operator === 'channel' || t.operator === 'stream') && !t.negated) history = historyOk(channel(t.operand)!.id);
  if (narrow.some((t) => t.operator === 'is' && t.operand !== 'resolved' && t.operand !== 'followed')) history = false;
  // The viewer's topic settings, read straight from the rows (1 muted, 2 unmuted, 3 followed).
  const policy = (m: StoredMessage) => {
    for (const row of state.userTopics.get(viewer.id)?.values() ?? []) {
      if (row.streamId === m.streamId && row.topicName.toLowerCase() === m.topic.toLowerCase()) return row.visibilityPolicy;
    }
    return 0;
  };
  const muted = (m: StoredMessage) => {
    if (m.streamId === null) return false;
    if (policy(m) === 1) return true;
    const channelMuted = state.subscriptions.get(m.streamId)?.get(viewer.id)?.is_muted === true;
    return channelMuted && policy(m) !== 2 && policy(m) !== 3;
  };
  const text = (m: StoredMessage) => m.renderedContent.replace(/<[^>]*>/g, ' ').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
  const wordIn = (hay: string, w: string) => new RegExp(`(^|[^\\p{L}\\p{N}_])${w}($|[^\\p{L}\\p{N}_])`, 'iu').test(hay);
  const out: number[] = [];
  for (const m of state.messages.messages) {
    let bits = userFlagBits(m, viewer.id);
    if (bits === undefined) {
      if (!history || m.streamId === null || !historyOk(m.streamId)) continue;
      bits = FLAG_BITS.read | FLAG_BITS.historical;
    }
    const ok = narrow.every((t) => {
      let r: boolean;
      switch (t.operator) {
        case 'channel':
        case 'stream':
          r = m.streamId === channel(t.operand)!.id;
          break;
        case 'topic':
        case 'subject':
          r = m.streamId !== null && m.topic.toLowerCase() === String(t.operand).toLowerCase();
          break;
        case 'sender':
          r = m.senderId === userId(t.operand);
          break;
        case 'dm':
        case 'pm-with': {
          const list = Array.isArray(t.operand) ? t.operand : String(t.operand).split(',');
          const set = new Set([...list.map(userId), viewer.id]);
          r = m.dmUserIds !== null && m.dmUserIds.length === set.size && m.dmUserIds.every((u) => set.has(u));
          break;
        }
        case 'is':
          r =
            t.operand === 'dm' || t.operand === 'private'
              ? m.streamId === null
              : t.operand === 'starred'
                ? (bits! & FLAG_BITS.starred) !== 0
                : t.operand === 'unread'
                  ? (bits! & FLAG_BITS.read) === 0
                  : t.operand === 'mentioned'
                    ? (bits! & (FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned)) !== 0
                    : t.operand === 'followed'
                      ? m.streamId !== null && policy(m) === 3
                      : t.operand === 'muted'
                        ? muted(m)
                        : m.streamId !== null && m.topic.startsWith('✔ ');
          break;
        case 'has':
          r = t.operand === 'reaction' ? (m.reactions?.length ?? 0) > 0 : t.operand === 'link' ? m.hasLink : t.operand === 'image' ? m.hasImage : m.hasAttachment;
          break;
        case 'search':
          r = String(t.operand)
            .split(/\s+/)
            .every((w) => wordIn(text(m), w) || wordIn(m.topic, w));
          break;
        case 'id':
          r = m.id === t.operand;
          break;
        case 'in':
          r = t.operand === 'home' ? !muted(m) : true;
          break;
        default:
          r = true;
      }
      return t.negated ? !r : r;
    });
    if (ok) out.push(m.id);
  }
  return out;
}

