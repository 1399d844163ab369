/**
 * GET /messages writes its message objects as JSON text itself (simulator/engine/fast/format-json.ts) instead of
 * building objects for JSON.stringify. Its body must stay byte for byte what the objects gave:
 * formatMessage() with the viewer's flags (and match_* for searches) in the envelope, after any
 * history of sends, reactions, edits, moves, flag changes, renames and linkifiers, for any viewer
 * and any of the options that change a message object. Fetches come between the changes too:
 * what the writer keeps of a message or a sender from one answer to the next must never outlive a
 * change.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getUserByEmail } from '../../../simulator/engine/core.ts';
import { viewerFlagBits } from '../../../simulator/engine/messages/access.ts';
import { apiFlags, escapedTopic, formatMessage } from '../../../simulator/engine/messages/format.ts';
import { getMessage } from '../../../simulator/engine/messages/store.ts';
import { highlightHtml } from '../../../simulator/engine/narrow/search.ts';
import { searchKeywords } from '../../../simulator/engine/narrow/search.ts';
import { basicAuth, type Simulator } from '../../../simulator/index.ts';
import { CORDELIA, HAMLET, IAGO, OTHELLO, patch, post, sim } from './helpers.ts';

const PEOPLE = [HAMLET, IAGO, OTHELLO, CORDELIA];
const CHANNELS = ['Verona', 'Denmark'];
// Text that JSON must escape (quotes, backslashes, controls, a lone surrogate) or that is not ASCII.
const text = fc.oneof(
  fc.constantFrom('plain words', 'a "quoted" \\ back\\slash', 'tab\there\nnew line', 'émoji 🎉 and ✔', 'lone \ud800 surrogate', '**bold** `code` :smile:', 'see #123 and http://example.com', '/me waves'),
  fc.string({ minLength: 1, maxLength: 12 }),
);
const topic = fc.constantFrom('', 'topic one', '✔ resolved', 'issue #42', 'a "quoted" topic');

type Action =
  | { kind: 'channel'; as: number; channel: number; topic: string; content: string }
  | { kind: 'direct'; as: number; to: number[]; content: string }
  | { kind: 'react'; as: number; nth: number; emoji: string }
  | { kind: 'edit'; as: number; nth: number; content: string | null; topic: string | null }
  | { kind: 'move'; nth: number; channel: number }
  | { kind: 'star'; as: number; nth: number }
  | { kind: 'rename'; as: number; name: string }
  | { kind: 'renameChannel'; channel: number; name: string }
  | { kind: 'avatar'; as: number }
  | { kind: 'emailVisibility'; as: number; visibility: number }
  | { kind: 'linkifier' };

const person = fc.integer({ min: 0, max: PEOPLE.length - 1 });
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('channel' as const), as: person, channel: fc.integer({ min: 0, max: 1 }), topic, content: text }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('direct' as const), as: person, to: fc.uniqueArray(person, { minLength: 1, maxLength: 3 }), content: text }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('react' as const), as: person, nth: fc.nat(), emoji: fc.constantFrom('smile', 'heart', 'octopus') }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('edit' as const), as: person, nth: fc.nat(), content: fc.option(text), topic: fc.option(topic) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('move' as const), nth: fc.nat(), channel: fc.integer({ min: 0, max: 1 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('star' as const), as: person, nth: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rename' as const), as: person, name: fc.constantFrom('Hamlet "the Dane"', 'Ïago', 'Othello\\Moor') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('renameChannel' as const), channel: fc.integer({ min: 0, max: 1 }), name: fc.constantFrom('Ver"ona', 'Dänemark') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('avatar' as const), as: person }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('emailVisibility' as const), as: person, visibility: fc.constantFrom(1, 4) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'linkifier' as const }) },
);

const sent: number[] = [];
const nthSent = (nth: number): number | undefined => (sent.length === 0 ? undefined : sent[nth % sent.length]);

async function apply(s: Simulator, a: Action, channelIds: number[]): Promise<void> {
  const as = 'as' in a ? PEOPLE[a.as]! : IAGO;
  switch (a.kind) {
    case 'channel':
    case 'direct': {
      const body =
        a.kind === 'channel'
          ? { type: 'stream', to: String(channelIds[a.channel]), topic: a.topic, content: a.content }
          : { type: 'direct', to: JSON.stringify(a.to.map((i) => getUserByEmail(s.engine, PEOPLE[i]!)!.id)), content: a.content };
      const res = await post(s, as, '/messages', body);
      if (res.status === 200) sent.push(res.body.id as number);
      return;
    }
    case 'react': {
      const id = nthSent(a.nth);
      if (id !== undefined) await post(s, as, `/messages/${id}/reactions`, { emoji_name: a.emoji });
      return;
    }
    case 'edit': {
      const id = nthSent(a.nth);
      const body: Record<string, string> = {};
      if (a.content !== null) body.content = a.content;
      if (a.topic !== null) body.topic = a.topic;
      if (id !== undefined && Object.keys(body).length > 0) await patch(s, as, `/messages/${id}`, body);
      return;
    }
    case 'move': {
      // By an administrator, to the other channel (or the same one: then nothing moves).
      const id = nthSent(a.nth);
      if (id !== undefined) await patch(s, IAGO, `/messages/${id}`, { stream_id: String(channelIds[a.channel]) });
      return;
    }
    case 'star': {
      const id = nthSent(a.nth);
      if (id !== undefined) await post(s, as, '/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'starred' });
      return;
    }
    case 'rename':
      await patch(s, as, '/settings', { full_name: a.name });
      return;
    case 'renameChannel':
      await patch(s, IAGO, `/streams/${channelIds[a.channel]}`, { new_name: a.name });
      return;
    case 'avatar':
      getUserByEmail(s.engine, as)!.avatar_version += 1;
      return;
    case 'emailVisibility':
      // Changes the sender's sender_email (and, with client_gravatar, the avatar).
      await patch(s, as, '/settings', { email_address_visibility: String(a.visibility) });
      return;
    case 'linkifier':
      await post(s, IAGO, '/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://example.com/issues/{id}' });
      return;
  }
}

const query = fc.record({
  viewer: person,
  narrow: fc.constantFrom<{ operator: string; operand: string | 'first channel' }[]>(
    [],
    [{ operator: 'channel', operand: 'first channel' }],
    [{ operator: 'is', operand: 'dm' }],
    [{ operator: 'search', operand: 'quoted words' }],
    [{ operator: 'is', operand: 'starred' }],
  ),
  anchor: fc.constantFrom('newest', 'oldest', 'first_unread'),
  numBefore: fc.integer({ min: 0, max: 30 }),
  numAfter: fc.integer({ min: 0, max: 30 }),
  applyMarkdown: fc.boolean(),
  clientGravatar: fc.boolean(),
  allowEmptyTopicName: fc.boolean(),
  byIds: fc.boolean(),
});

type Query = typeof query extends fc.Arbitrary<infer Q> ? Q : never;

/** The answer as it was written before: objects from formatMessage(), serialised. */
function expectedBody(s: Simulator, viewerEmail: string, q: Query, answer: Record<string, unknown>, isSearch: boolean): string {
  const engine = s.engine;
  const viewer = getUserByEmail(engine, viewerEmail)!;
  const words = isSearch ? searchKeywords('quoted words') : [];
  const messages = (answer.messages as { id: number }[]).map(({ id }) => {
    const message = getMessage(engine.state.messages, id)!;
    const out = formatMessage(engine, message, { applyMarkdown: q.applyMarkdown, clientGravatar: q.clientGravatar, allowEmptyTopicName: q.allowEmptyTopicName });
    out.flags = apiFlags(viewerFlagBits(engine, viewer, message)!);
    if (isSearch) {
      out.match_content = highlightHtml(message.renderedContent, words);
      out.match_subject = highlightHtml(escapedTopic(message), words);
    }
    return out;
  });
  const fields: Record<string, unknown> = { result: 'success', msg: '', messages };
  for (const key of ['anchor', 'found_anchor', 'found_oldest', 'found_newest', 'history_limited']) {
    if (key in answer) fields[key] = answer[key];
  }
  return `${JSON.stringify(fields)}\n`;
}

/** One fetch with the query's options, its body compared with the serialised objects. */
async function expectWrittenAsObjects(s: Simulator, q: Query, channelIds: number[]): Promise<void> {
  const viewerEmail = PEOPLE[q.viewer]!;
  const viewer = getUserByEmail(s.engine, viewerEmail)!;
  const params = new URLSearchParams({
    apply_markdown: String(q.applyMarkdown),
    client_gravatar: String(q.clientGravatar),
    allow_empty_topic_name: String(q.allowEmptyTopicName),
    // By id: the channel may have been renamed.
    narrow: JSON.stringify(q.narrow.map((t) => (t.operand === 'first channel' ? { ...t, operand: channelIds[0] } : t))),
  });
  if (q.byIds) params.set('message_ids', JSON.stringify([...sent, 1, 2, 3]));
  else {
    params.set('anchor', q.anchor);
    params.set('num_before', String(q.numBefore));
    params.set('num_after', String(q.numAfter));
  }
  const res = await s.handle({ method: 'GET', url: `/api/v1/messages?${params}`, headers: { authorization: basicAuth(viewer.delivery_email, viewer.api_key) } });
  expect(res.status).toBe(200);
  const isSearch = q.narrow.some((t) => t.operator === 'search');
  expect(res.body).toBe(expectedBody(s, viewerEmail, q, JSON.parse(res.body) as Record<string, unknown>, isSearch));
}

describe('GET /messages written as JSON text', () => {
  it('is byte for byte the serialised message objects, after any history and for any options', async () => {
    // Rounds of changes, each followed by fetches: a fetch sees the changes made since the last one.
    const round = fc.tuple(fc.array(action, { minLength: 1, maxLength: 10 }), fc.array(query, { minLength: 1, maxLength: 3 }));
    await fc.assert(
      fc.asyncProperty(fc.array(round, { minLength: 1, maxLength: 4 }), async (rounds) => {
        const s = sim();
        sent.length = 0;
        const channelIds = CHANNELS.map((name) => [...s.engine.state.streams.values()].find((c) => c.name === name)!.id);
        for (const [actions, queries] of rounds) {
          for (const a of actions) await apply(s, a, channelIds);
          for (const q of queries) await expectWrittenAsObjects(s, q, channelIds);
        }
      }),
      { numRuns: 40 },
    );
  });
});
