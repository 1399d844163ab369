// Every message the simulator hands out (fetches, single fetch, search results, message events)
// matches schemas/chat/message.schema.json.
import { Ajv } from 'ajv';
import { describe, expect, test } from 'vitest';
import schema from '../../../schemas/chat/message.schema.json' with { type: 'json' };
import { fetchMessages, get, HAMLET, IAGO, POLONIUS, post, sim } from './helpers.ts';
import { watchEvents } from '../helpers.ts';

const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

function check(message: unknown): void {
  const ok = validate(message);
  expect(validate.errors ?? []).toEqual([]);
  expect(ok).toBe(true);
}

describe('Message schema', () => {
  test.each([HAMLET, IAGO, POLONIUS])('GET /messages as %s: every message, raw and rendered', async (as) => {
    const s = sim();
    for (const apply_markdown of ['true', 'false']) {
      const res = await fetchMessages(s, as, { anchor: 'oldest', num_after: 1000, apply_markdown });
      expect(res.body.messages.length).toBeGreaterThan(0);
      for (const m of res.body.messages) check(m);
    }
  });

  test('single fetch, search results and message events', async () => {
    const s = sim();
    const watch = watchEvents(s);
    const sent = await post(s, HAMLET, '/messages', { type: 'direct', to: '[11, 12]', content: 'schema check :smile:' });
    check((await get(s, IAGO, `/messages/${sent.body.id}`)).body.message);
    const search = await fetchMessages(s, IAGO, { anchor: 'newest', num_before: 50, narrow: [{ operator: 'search', operand: 'schema' }] });
    expect(search.body.messages).toHaveLength(1);
    for (const m of search.body.messages) check(m);
    const events = watch.take().filter((e) => e.event.type === 'message');
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) check(e.event.message);
  });
});
