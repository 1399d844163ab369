// POST /messages/render: the HTML the same content gets when sent, rendered as the caller (channel
// links only to channels the caller can read), with Zulip's length limit and nothing stored.
import { describe, expect, test } from 'vitest';
import { watchEvents } from '../helpers.ts';
import { CORDELIA, error, get, HAMLET, post, sim } from './helpers.ts';

const render = (as: string, content: unknown) => post(sim(), as, '/messages/render', { content });

describe('POST /messages/render', () => {
  const rows: [string, string][] = [
    ['hello', '<p>hello</p>'],
    ['a\nb', '<p>a<br>\nb</p>'],
    ['a\n\nb', '<p>a</p>\n<p>b</p>'],
    ['**b** *i* ~~s~~', '<p><strong>b</strong> <em>i</em> <del>s</del></p>'],
    ['`x`', '<p><code>x</code></p>'],
    ['> q', '<blockquote>\n<p>q</p>\n</blockquote>'],
    ['<b>', '<p>&lt;b&gt;</p>'],
    ['@**King Hamlet**', '<p><span class="user-mention" data-user-id="10">@King Hamlet</span></p>'],
    ['@**all**', '<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span></p>'],
    [':octopus:', '<p><span aria-label="octopus" class="emoji emoji-1f419" role="img" title="octopus">:octopus:</span></p>'],
    ['', ''],
  ];
  test.each(rows)('%j renders as Zulip renders it', async (content, html) => {
    const res = await render(HAMLET, content);
    expect([res.status, res.body]).toEqual([200, { result: 'success', msg: '', rendered: html }]);
  });

  test('the rendering is the one a sent message gets', async () => {
    const s = sim();
    const content = 'Hi @**Iago**, see #**Denmark** and :octopus: at https://zulip.com';
    const preview = await post(s, HAMLET, '/messages/render', { content });
    const sent = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: 'render', content });
    const message = await get(s, HAMLET, `/messages/${sent.body.id}`);
    expect(preview.body.rendered).toBe(message.body.message.content);
  });

  test("channel links resolve in the caller's context: a private channel only for its members", async () => {
    const member = await render(HAMLET, '#**core team**');
    expect(member.body.rendered).toMatch(/^<p><a class="stream" data-stream-id="8" href="\/#narrow\/channel\/8-core-team">#core team<\/a><\/p>$/);
    const outsider = await render(CORDELIA, '#**core team**');
    expect(outsider.body.rendered).toBe('<p>#<strong>core team</strong></p>');
  });

  test('stores nothing and sends no event', async () => {
    const s = sim();
    const watch = watchEvents(s);
    const before = JSON.stringify(s.snapshot());
    const res = await post(s, HAMLET, '/messages/render', { content: '@**Iago** hi' });
    expect(res.status).toBe(200);
    expect(JSON.stringify(s.snapshot())).toBe(before);
    expect(watch.take()).toEqual([]);
  });

  test('content is required and at most 10000 characters (code points)', async () => {
    const missing = await post(sim(), HAMLET, '/messages/render', {});
    expect([missing.status, missing.body]).toEqual([400, error('REQUEST_VARIABLE_MISSING', "Missing 'content' argument", { var_name: 'content' })]);
    const tooLong = await render(HAMLET, 'x'.repeat(10_001));
    expect([tooLong.status, tooLong.body]).toEqual([400, error('BAD_REQUEST', 'content is too long (limit: 10000 characters)')]);
    const astral = await render(HAMLET, '😀'.repeat(10_000));
    expect(astral.status).toBe(200);
  });
});
