// Realm linkifiers (Zulip's prepare_linkifier_pattern + RFC 6570 URL templates): links in
// rendered content and the `topic_links` of channel messages.
import { describe, expect, test } from 'vitest';
import { createSimulator, DEFAULT_FIXTURE } from '../../../simulator/index.ts';
import { get, HAMLET, post, sim } from './helpers.ts';

type Sim = ReturnType<typeof sim>;

async function sendAndRead(s: Sim, topic: string, content: string) {
  const sent = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic, content });
  expect(sent.status).toBe(200);
  const read = await get(s, HAMLET, `/messages/${sent.body.id}`);
  return read.body.message as { content: string; topic_links: { text: string; url: string }[] };
}

const desktop = (id: string) => `https://github.com/zulip/zulip-desktop/pull/${id}`;
const a = (url: string, text: string) => `<a href="${url}">${text}</a>`;

describe('dev realm linkifiers in message content', () => {
  const rows: [string, string, string][] = [
    ['a match at the start', '#D123 is merged', `<p>${a(desktop('123'), '#D123')} is merged</p>`],
    ['after a space, before punctuation', 'see #D42.', `<p>see ${a(desktop('42'), '#D42')}.</p>`],
    ['after an opening parenthesis', '(#D42)', `<p>(${a(desktop('42'), '#D42')})</p>`],
    ['not after a letter', 'x#D42', '<p>x#D42</p>'],
    ['not followed by a letter or digit', '#D42x', '<p>#D42x</p>'],
    ['the id needs 2 to 8 digits', '#D1', '<p>#D1</p>'],
    ['two adjacent matches', '#D12 #D13', `<p>${a(desktop('12'), '#D12')} ${a(desktop('13'), '#D13')}</p>`],
    ['the earlier linkifier wins an overlap', 'zulip-mobile#45', `<p>${a('https://github.com/zulip/zulip-mobile/pull/45', 'zulip-mobile#45')}</p>`],
    ['groups fill the template', 'zulip-terminal#99', `<p>${a('https://github.com/zulip/terminal/pull/99', 'zulip-terminal#99')}</p>`],
    ['inside emphasis', '**#D42**', `<p><strong>${a(desktop('42'), '#D42')}</strong></p>`],
    ['never in code', '`#D42`', '<p><code>#D42</code></p>'],
    ['never inside a link', '[#D42](https://example.com)', `<p>${a('https://example.com', '#D42')}</p>`],
    ['after a line break', 'one\n#D42', `<p>one<br>\n${a(desktop('42'), '#D42')}</p>`],
  ];
  test.each(rows)('%s', async (_name, content, html) => {
    expect((await sendAndRead(sim(), 'linkifiers', content)).content).toBe(html);
  });
});

describe('topic_links', () => {
  const rows: [string, string, { text: string; url: string }[]][] = [
    ['no links', 'plain topic', []],
    ['a linkifier match', 'fix #D123', [{ text: '#D123', url: desktop('123') }]],
    [
      'several linkifiers, in topic order',
      'zulip-mobile#45 and #D12',
      [
        { text: 'zulip-mobile#45', url: 'https://github.com/zulip/zulip-mobile/pull/45' },
        { text: '#D12', url: desktop('12') },
      ],
    ],
    ['a raw URL', 'see https://example.com/a?b=1', [{ text: 'https://example.com/a?b=1', url: 'https://example.com/a?b=1' }]],
    ['a scheme-less domain gets https', 'moved to zulip.com/help', [{ text: 'zulip.com/help', url: 'https://zulip.com/help' }]],
    ['no linkifier match inside a URL (no delimiter before it): the URL is one link', 'https://github.com/#D45', [{ text: 'https://github.com/#D45', url: 'https://github.com/#D45' }]],
  ];
  test.each(rows)('%s', async (_name, topic, links) => {
    expect((await sendAndRead(sim(), topic, 'hi')).topic_links).toEqual(links);
  });

  test('direct messages have no topic links', async () => {
    const s = sim();
    const sent = await post(s, HAMLET, '/messages', { type: 'direct', to: '[11]', content: '#D12' });
    const read = await get(s, HAMLET, `/messages/${sent.body.id}`);
    expect(read.body.message.topic_links).toEqual([]);
    expect(read.body.message.content).toBe(`<p>${a(desktop('12'), '#D12')}</p>`);
  });
});

describe('URL templates (RFC 6570) and invalid patterns', () => {
  const withLinkifiers = (linkifiers: { id: number; pattern: string; url_template: string }[]) =>
    createSimulator({ seed: 7, fixture: { ...DEFAULT_FIXTURE, realm: { ...DEFAULT_FIXTURE.realm, linkifiers } } });

  const rows: [string, string, string, string][] = [
    ['simple expansion percent-encodes reserved characters', 'T:(?P<q>[a-z/&]+)', 'https://t.example/search/{q}', 'https://t.example/search/a%2Fb%26c'],
    ['+ keeps reserved characters', 'T:(?P<q>[a-z/&]+)', 'https://t.example/{+q}', 'https://t.example/a/b&c'],
    ['? builds a query', 'T:(?P<q>[a-z/&]+)', 'https://t.example/s{?q}', 'https://t.example/s?q=a%2Fb%26c'],
    ['# builds a fragment', 'T:(?P<q>[a-z/&]+)', 'https://t.example/s{#q}', 'https://t.example/s#a/b&c'],
  ];
  test.each(rows)('%s', async (_name, pattern, template, url) => {
    const s = withLinkifiers([{ id: 1, pattern, url_template: template }]);
    const message = await sendAndRead(s, 'T:a/b&c', 'T:a/b&c');
    expect(message.topic_links).toEqual([{ text: 'T:a/b&c', url }]);
    expect(message.content).toBe(`<p><a href="${url.replace(/&/g, '&amp;')}">T:a/b&amp;c</a></p>`);
  });

  test('a fixture linkifier Zulip would refuse is refused at load, with Zulip\'s message and its place', () => {
    expect(() =>
      withLinkifiers([
        { id: 1, pattern: '(?P<broken', url_template: 'https://x.example/{broken}' },
        { id: 2, pattern: 'BUG-(?P<n>[0-9]+)', url_template: 'https://bugs.example/{m}' },
        { id: 3, pattern: 'BUG-(?P<n>[0-9]+)', url_template: 'https://bugs.example/{n}' },
      ]),
    ).toThrow(
      [
        'Invalid fixture:',
        '  /realm/linkifiers/0: Bad regular expression: invalid named capture group: (?P<broken',
        "  /realm/linkifiers/1: Group 'm' in URL template is not present in linkifier pattern.",
        '  /realm/linkifiers/2: Realm filter with this Realm and Pattern already exists.',
      ].join('\n'),
    );
  });

  test('a pattern RE2 accepts but re2js cannot compile (\\C, any byte) matches nothing, and the others still apply', async () => {
    const s = withLinkifiers([
      { id: 1, pattern: 'BUG\\C(?P<n>[0-9]+)', url_template: 'https://x.example/{n}' },
      { id: 2, pattern: 'BUG-(?P<n>[0-9]+)', url_template: 'https://bugs.example/{n}' },
    ]);
    const message = await sendAndRead(s, 'BUG-7', 'BUG-7');
    expect(message.topic_links).toEqual([{ text: 'BUG-7', url: 'https://bugs.example/7' }]);
    expect(message.content).toBe('<p><a href="https://bugs.example/7">BUG-7</a></p>');
  });

  test('a pattern of plain letters and digits links a plain line too', async () => {
    const s = withLinkifiers([{ id: 1, pattern: 'ticket(?P<n>[0-9]+)', url_template: 'https://t.example/{n}' }]);
    expect((await sendAndRead(s, 't', 'See ticket12 now')).content).toBe('<p>See <a href="https://t.example/12">ticket12</a> now</p>');
  });
});
