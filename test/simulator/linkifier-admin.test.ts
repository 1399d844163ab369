// Linkifier administration through the in-process API: GET /realm/linkifiers, POST
// /realm/filters, PATCH and DELETE /realm/filters/{id}, PATCH /realm/linkifiers; Zulip's
// validation messages (from its own tests), the realm_linkifiers events, and that every change
// reaches the next rendered message and topic (no stale compiled pattern).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { activeUserIds } from '../../simulator/engine/core.ts';
import { checkPattern, templateVariables } from '../../simulator/engine/realm/linkifier-syntax.ts';
import type { Simulator } from '../../simulator/index.ts';
import { pending, register } from './events/helpers.ts';
import { sim, watchEvents } from './helpers.ts';
import { del, error, get, patch, post } from './messages/helpers.ts';

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';

const add = (s: Simulator, pattern: string, url_template: string, as = IAGO) => post(s, as, '/realm/filters', { pattern, url_template });
const list = async (s: Simulator) => (await get(s, HAMLET, '/realm/linkifiers')).body.linkifiers as { id: number; pattern: string; url_template: string }[];

/** A realm without linkifiers, as Zulip's own tests start. */
async function emptySim(): Promise<Simulator> {
  const s = sim();
  for (const l of await list(s)) expect((await del(s, IAGO, `/realm/filters/${l.id}`, {})).status).toBe(200);
  return s;
}

async function render(s: Simulator, content: string, topic = 'links') {
  const sent = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic, content });
  expect(sent.status).toBe(200);
  const read = await get(s, HAMLET, `/messages/${sent.body.id}`);
  return read.body.message as { content: string; topic_links: { text: string; url: string }[] };
}

describe('GET /realm/linkifiers', () => {
  test("any user reads the realm's linkifiers in order, as {pattern, url_template, id}", async () => {
    const s = sim();
    const res = await get(s, 'polonius@zulip.com', '/realm/linkifiers');
    expect(res.status).toBe(200);
    expect(res.body.linkifiers).toEqual([
      { pattern: '#D(?P<id>[0-9]{2,8})', url_template: 'https://github.com/zulip/zulip-desktop/pull/{id}', id: 1 },
      { pattern: 'zulip-mobile#(?P<id>[0-9]{2,8})', url_template: 'https://github.com/zulip/zulip-mobile/pull/{id}', id: 2 },
      { pattern: 'zulip-(?P<repo>[a-zA-Z-_0-9]+)#(?P<id>[0-9]{2,8})', url_template: 'https://github.com/zulip/{repo}/pull/{id}', id: 3 },
    ]);
  });
});

describe('POST /realm/filters', () => {
  test('an administrator adds one: its id, the whole list as an event to every active user, the end of the order', async () => {
    const s = sim();
    const watch = watchEvents(s, { linkifier_url_template: true });
    const res = await add(s, '  JIRA-(?P<id>[0-9]+) ', ' https://jira.example.com/browse/JIRA-{id}  ');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '', id: 4 });
    const after = await list(s);
    expect(after.at(-1)).toEqual({ pattern: 'JIRA-(?P<id>[0-9]+)', url_template: 'https://jira.example.com/browse/JIRA-{id}', id: 4 });
    expect(watch.take()).toEqual([{ event: { type: 'realm_linkifiers', realm_linkifiers: after }, users: activeUserIds(s.engine) }]);
  });

  test.each([
    ['a member', HAMLET],
    ['a moderator', 'shiva@zulip.com'],
  ])('%s may not', async (_who, as) => {
    const s = sim();
    expect((await add(s, 'X-(?P<id>[0-9]+)', 'https://x/{id}', as)).body).toEqual(error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'));
    expect(await list(s)).toHaveLength(3);
  });

  // Zulip's test_create, message for message.
  const refused: [string, string, string, Record<string, string[]>][] = [
    ['', 'https://realm.com/my_realm_filter/{id}', 'This field cannot be blank.', {
      pattern: ['This field cannot be blank.'],
      __all__: ["Group 'id' in URL template is not present in linkifier pattern."],
    }],
    ['(foo', 'https://realm.com/my_realm_filter/{id}', 'Bad regular expression: missing ): (foo', { __all__: ['Bad regular expression: missing ): (foo'] }],
    ['ZUL-(?P<id>\\d????)', 'https://realm.com/my_realm_filter/{id}', 'Bad regular expression: bad repetition operator: ????', {
      __all__: ['Bad regular expression: bad repetition operator: ????'],
    }],
    ['ZUL-(?P<id>\\d+)', '$fgfg', "Group 'id' in linkifier pattern is not present in URL template.", {
      __all__: ["Group 'id' in linkifier pattern is not present in URL template."],
    }],
    ['ZUL-(?P<id>\\d+)', 'https://realm.com/my_realm_filter/{hello}', "Group 'hello' in URL template is not present in linkifier pattern.", {
      __all__: ["Group 'hello' in URL template is not present in linkifier pattern."],
    }],
    ['ZUL-(?P<id>\\d+)-(?P<hello>\\d+)', 'https://realm.com/my_realm_filter/{hello}', "Group 'id' in linkifier pattern is not present in URL template.", {
      __all__: ["Group 'id' in linkifier pattern is not present in URL template."],
    }],
    ['#(?P<id>[123])', '{id', 'Invalid URL template.', { url_template: ['Invalid URL template.'] }],
    ['#(?P<id>[123])', '', 'This field cannot be blank.', { url_template: ['This field cannot be blank.'] }],
    ['#D(?P<id>[0-9]{2,8})', 'https://example.com/{id}', 'Realm filter with this Realm and Pattern already exists.', {
      __all__: ['Realm filter with this Realm and Pattern already exists.'],
    }],
  ];
  test.each(refused)('%j with %j: %s', async (pattern, template, msg, errors) => {
    const s = sim();
    const watch = watchEvents(s, { linkifier_url_template: true });
    const res = await add(s, pattern, template);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ ...error('BAD_REQUEST', msg), errors });
    expect(await list(s)).toHaveLength(3);
    expect(watch.take()).toEqual([]);
  });

  // Zulip's test_create successes, each then linking what it should.
  const accepted: [string, string, string, string][] = [
    ['ZUL-(?P<id>\\d+)', 'https://realm.com/my_realm_filter/#hashtag/{id}', 'ZUL-15', 'https://realm.com/my_realm_filter/#hashtag/15'],
    ['ZUL2-(?P<id>\\d+)', 'https://realm.com/my_realm_filter/?value={id}', 'ZUL2-15', 'https://realm.com/my_realm_filter/?value=15'],
    ['_code=(?P<id>[0-9a-zA-Z]+)', 'https://example.com/product/{id}/details', '_code=123abcdZ', 'https://example.com/product/123abcdZ/details'],
    ['PR (?P<id>[0-9]+)', 'https://example.com/~user/web#view_type=type&model=model&action=12345&id={id}', 'PR 123', 'https://example.com/~user/web#view_type=type&amp;model=model&amp;action=12345&amp;id=123'],
    ['lp/(?P<id>[0-9]+)', 'https://realm.com/my_realm_filter/?value={id}&sort=reverse', 'lp/123', 'https://realm.com/my_realm_filter/?value=123&amp;sort=reverse'],
    ['!(?P<id>[0-9]+)', 'https://realm.com/index.pl?Action=AgentTicketZoom;TicketNumber={id}', '!123', 'https://realm.com/index.pl?Action=AgentTicketZoom;TicketNumber=123'],
    ['ZULZ-(?P<hello>\\d+)-(?P<world>\\d+)', 'https://realm.com/my_realm_filter/{hello}/{world}', 'ZULZ-1-2', 'https://realm.com/my_realm_filter/1/2'],
    ['(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_-]+)#(?P<id>[0-9]+)', 'https://github.com/{org}/{repo}/issue/{id}', 'zulip/zulip#123', 'https://github.com/zulip/zulip/issue/123'],
  ];
  test.each(accepted)('%s is accepted and links the next message', async (pattern, template, text, href) => {
    const s = await emptySim();
    expect((await add(s, pattern, template)).status).toBe(200);
    expect((await render(s, `see ${text}`)).content).toBe(`<p>see <a href="${href}">${text}</a></p>`);
  });

  test("Zulip's most elaborate template is accepted", async () => {
    const s = sim();
    const res = await add(
      s,
      'FOO_(?P<id>[a-f]{5});(?P<zone>[a-f]);(?P<domain>[a-z]+);(?P<location>[a-z]+);(?P<name>[a-z]{2,8});(?P<chapter>[0-9]{2,3});(?P<fragment>[a-z]{2,8})',
      'https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}',
    );
    expect(res.status).toBe(200);
  });

  test('missing parameters', async () => {
    const s = sim();
    expect((await post(s, IAGO, '/realm/filters', { pattern: 'x' })).body).toEqual(error('REQUEST_VARIABLE_MISSING', "Missing 'url_template' argument", { var_name: 'url_template' }));
  });
});

describe('PATCH and DELETE /realm/filters/{id}', () => {
  test('an update replaces pattern and template; its validation is the same; unknown ids come first', async () => {
    const s = await emptySim();
    const id = (await add(s, '#(?P<id>[123])', 'https://realm.com/my_realm_filter/{id}')).body.id as number;
    const watch = watchEvents(s, { linkifier_url_template: true });
    const ok = await patch(s, IAGO, `/realm/filters/${id}`, { pattern: '#(?P<id>[0-9]+)', url_template: 'https://realm.com/my_realm_filter/issues/{id}' });
    expect(ok.body).toEqual({ result: 'success', msg: '' });
    const now = [{ pattern: '#(?P<id>[0-9]+)', url_template: 'https://realm.com/my_realm_filter/issues/{id}', id }];
    expect(await list(s)).toEqual(now);
    expect(watch.take()).toEqual([{ event: { type: 'realm_linkifiers', realm_linkifiers: now }, users: activeUserIds(s.engine) }]);
    expect((await patch(s, IAGO, `/realm/filters/${id}`, { pattern: 'ZUL-(?P<id>\\d????)', url_template: 'https://x/{id}' })).body).toMatchObject({
      msg: 'Bad regular expression: bad repetition operator: ????',
    });
    expect((await patch(s, IAGO, `/realm/filters/${id}`, { pattern: '#(?P<id>[123])', url_template: '{id' })).body).toMatchObject({ msg: 'Invalid URL template.' });
    // Unknown id beats an invalid pattern.
    expect((await patch(s, IAGO, `/realm/filters/${id + 1}`, { pattern: '(', url_template: '{id' })).body).toEqual(error('BAD_REQUEST', 'Linkifier not found.'));
    // Its own pattern is no duplicate.
    expect((await patch(s, IAGO, `/realm/filters/${id}`, { pattern: '#(?P<id>[0-9]+)', url_template: 'https://other/{id}' })).status).toBe(200);
  });

  test('a delete removes it (event with the rest); an unknown id is "Linkifier not found."', async () => {
    const s = sim();
    const watch = watchEvents(s, { linkifier_url_template: true });
    expect((await del(s, IAGO, '/realm/filters/99', {})).body).toEqual(error('BAD_REQUEST', 'Linkifier not found.'));
    expect((await del(s, IAGO, '/realm/filters/2', {})).body).toEqual({ result: 'success', msg: '' });
    expect((await list(s)).map((l) => l.id)).toEqual([1, 3]);
    expect(watch.take().map((d) => d.event.realm_linkifiers.map((l: { id: number }) => l.id))).toEqual([[1, 3]]);
    expect((await del(s, HAMLET, '/realm/filters/1', {})).body).toEqual(error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'));
  });
});

describe('PATCH /realm/linkifiers', () => {
  test('reorders; every id exactly once; an empty realm accepts [] without an event', async () => {
    const s = sim();
    const watch = watchEvents(s, { linkifier_url_template: true });
    const reorder = (ids: unknown) => patch(s, IAGO, '/realm/linkifiers', { ordered_linkifier_ids: JSON.stringify(ids) });
    expect((await reorder([3, 1, 3])).body).toEqual(error('BAD_REQUEST', 'The ordered list must not contain duplicated linkifiers'));
    expect((await reorder([3, 1])).body).toEqual(error('BAD_REQUEST', 'The ordered list must enumerate all existing linkifiers exactly once'));
    expect((await reorder([3, 1, 4])).body).toEqual(error('BAD_REQUEST', 'The ordered list must enumerate all existing linkifiers exactly once'));
    expect((await reorder([3, 2, 1])).body).toEqual({ result: 'success', msg: '' });
    expect((await list(s)).map((l) => l.id)).toEqual([3, 2, 1]);
    expect(watch.take().map((d) => d.event.realm_linkifiers.map((l: { id: number }) => l.id))).toEqual([[3, 2, 1]]);
    // A linkifier added later goes last.
    const id = (await add(s, 'NEW-(?P<id>[0-9]+)', 'https://n/{id}')).body.id as number;
    expect((await list(s)).map((l) => l.id)).toEqual([3, 2, 1, id]);
    const empty = await emptySim();
    const quiet = watchEvents(empty, { linkifier_url_template: true });
    expect((await patch(empty, IAGO, '/realm/linkifiers', { ordered_linkifier_ids: '[]' })).status).toBe(200);
    expect(quiet.take()).toEqual([]);
  });
});

describe('changes reach the next message: no stale compiled pattern', () => {
  test('add, change, reorder and remove, each seen by the very next render and its topic links', async () => {
    const s = await emptySim();
    expect((await render(s, 'ABC-12 and XYZ-12', 'ABC-12')).content).toBe('<p>ABC-12 and XYZ-12</p>');
    const first = (await add(s, 'ABC-(?P<id>[0-9]+)', 'https://a.example/{id}')).body.id as number;
    const linked = await render(s, 'ABC-12 and XYZ-12', 'ABC-12');
    expect(linked.content).toBe('<p><a href="https://a.example/12">ABC-12</a> and XYZ-12</p>');
    expect(linked.topic_links).toEqual([{ text: 'ABC-12', url: 'https://a.example/12' }]);

    await patch(s, IAGO, `/realm/filters/${first}`, { pattern: 'XYZ-(?P<id>[0-9]+)', url_template: 'https://x.example/{id}' });
    const changed = await render(s, 'ABC-12 and XYZ-12', 'ABC-12');
    expect(changed.content).toBe('<p>ABC-12 and <a href="https://x.example/12">XYZ-12</a></p>');
    expect(changed.topic_links).toEqual([]);

    // Two overlapping linkifiers: the earlier one wins, so the order decides.
    const second = (await add(s, 'XYZ-(?P<id>[0-9]+)2', 'https://second.example/{id}')).body.id as number;
    expect((await render(s, 'XYZ-12')).content).toBe('<p><a href="https://x.example/12">XYZ-12</a></p>');
    await patch(s, IAGO, '/realm/linkifiers', { ordered_linkifier_ids: JSON.stringify([second, first]) });
    expect((await render(s, 'XYZ-12')).content).toBe('<p><a href="https://second.example/1">XYZ-12</a></p>');

    await del(s, IAGO, `/realm/filters/${second}`, {});
    await del(s, IAGO, `/realm/filters/${first}`, {});
    expect((await render(s, 'XYZ-12', 'XYZ-12')).content).toBe('<p>XYZ-12</p>');
  });

  test('a pattern of 100,000 characters is accepted and links; messages around it still render', async () => {
    const s = await emptySim();
    expect((await add(s, 'x'.repeat(100_000), 'https://long.example/')).status).toBe(200);
    await add(s, 'ABC-(?P<id>[0-9]+)', 'https://a.example/{id}');
    const message = await render(s, 'xxx and ABC-12', 'ABC-7');
    expect(message.content).toBe('<p>xxx and <a href="https://a.example/12">ABC-12</a></p>');
    expect(message.topic_links).toEqual([{ text: 'ABC-7', url: 'https://a.example/7' }]);
    expect((await render(s, `see ${'x'.repeat(100_000)}`.slice(0, 9_000))).content).not.toContain('long.example');
  });

  test('a pattern past RE2\'s program budget is refused as RE2 refuses it; one inside it is accepted', async () => {
    const s = await emptySim();
    const res = await add(s, 'x{1000}'.repeat(180), 'https://x.example/');
    expect(res.body).toEqual({ ...error('BAD_REQUEST', 'Bad regular expression: pattern too large - compile failed'), errors: { __all__: ['Bad regular expression: pattern too large - compile failed'] } });
    expect((await add(s, 'x{1000}'.repeat(170), 'https://x.example/')).status).toBe(200);
  });

  test('a catastrophic pattern for a backtracking engine renders a long message promptly (RE2 runs in linear time)', async () => {
    const s = await emptySim();
    expect((await add(s, '(?P<id>(a+)+)b', 'https://ab.example/{id}')).status).toBe(200);
    const long = 'a'.repeat(9_000);
    const message = await render(s, long, 'a'.repeat(60));
    expect(message.content).toBe(`<p>${long}</p>`);
    expect(message.topic_links).toEqual([]);
    expect((await render(s, `${long.slice(0, 50)}b and aab`, 'aaab')).content).toBe(
      `<p><a href="https://ab.example/${long.slice(0, 50)}">${long.slice(0, 50)}b</a> and <a href="https://ab.example/aa">aab</a></p>`,
    );
  });

  test('a registered client gets realm_linkifiers (with linkifier_url_template) and its register state matches GET', async () => {
    const s = sim();
    const caps = JSON.stringify({ linkifier_url_template: true });
    const before = await register(s, HAMLET, { event_types: '["realm_linkifiers"]', client_capabilities: caps });
    expect(before.realm_linkifiers).toEqual(await list(s));
    await add(s, 'T-(?P<id>[0-9]+)', 'https://t/{id}');
    const events = await pending(s, HAMLET, before.queue_id);
    expect(events.map((e) => e.type)).toEqual(['realm_linkifiers']);
    expect(events[0]!.realm_linkifiers).toEqual(await list(s));
  });
});

describe('pattern and template syntax (RE2 and uri_template rules)', () => {
  const patterns: [string, string | string[]][] = [
    ['(?P<id>[0-9]+)', ['id']],
    ['(?<id>x)(?P<b_2>y)', ['id', 'b_2']],
    ['a(?:b|c)*d(?i)e', []],
    ['[a-z]\\d\\w\\s\\.\\#x{2,3}', []],
    ['(foo', 'missing ): (foo'],
    ['foo)', 'unexpected ): foo)'],
    ['a**', 'bad repetition operator: **'],
    ['*a', 'no argument for repetition operator: *'],
    ['(|+)', 'no argument for repetition operator: +'],
    ['[a-', 'missing ]: [a-'],
    ['[z-a]', 'invalid character class range: z-a'],
    ['(?=x)', 'invalid perl operator: (?='],
    ['(?<!x)', 'invalid perl operator: (?<!'],
    ['(?P<1-2>x)', 'invalid named capture group: (?P<1-2>'],
    ['(?P<id>a)(?P<id>b)', 'invalid named capture group: (?P<id>'],
    ['\\1', 'invalid escape sequence: \\1'],
    ['\\k', 'invalid escape sequence: \\k'],
    ['a{1001}', 'invalid repetition size: {1001}'],
    ['(a{100}){100}', 'invalid repetition size: {100}'],
    ['((a{10}){10}){11}', 'invalid repetition size: {11}'],
    ['((a{10}){10}){10}', []],
    ['a\\', 'trailing \\'],
  ];
  test.each(patterns)('%s', (pattern, expected) => {
    expect(checkPattern(pattern)).toEqual(typeof expected === 'string' ? { ok: false, error: expected } : { ok: true, groups: expected });
  });

  test("Zulip's valid and invalid URL templates", () => {
    const valid = [
      'http://example.com/',
      'https://user:password@example.com/',
      'https://example.com/foo[bar]',
      'https://example.com/{foo}{bars}',
      'https://example.com/%ba',
      'https://example.com/%%(foo)s',
      'https://example.com{/foo,bar,baz}',
      'https://example.com/{?foo*}',
      'https://example.com/{+foo,bar}',
      'https://chat{.domain}.com/{#foo}',
      '$not_a_url$',
    ];
    for (const t of valid) expect(templateVariables(t), t).not.toBeNull();
    for (const t of ['https://example.com/{foo', 'https://example.com/{{}', 'https://example.com/{//foo}', 'https://example.com/{bar++}', '{}', 'a}b']) {
      expect(templateVariables(t), t).toBeNull();
    }
    expect(templateVariables('https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}')).toEqual([
      'zone',
      'domain',
      'location',
      'id',
      'name',
      'chapter',
      'fragment',
    ]);
  });

  test('never crashes, whatever the text; an accepted pattern names each group once', () => {
    const char = fc.constantFrom(...'()[]{}?*+|\\^$.-:<>=!,P0123abcdxz'.split(''), '(?P<', '(?<', '(?:');
    fc.assert(
      fc.property(fc.array(char, { maxLength: 24 }).map((cs) => cs.join('')), (pattern) => {
        const result = checkPattern(pattern);
        if (result.ok) expect(new Set(result.groups).size).toBe(result.groups.length);
        else expect(result.error.length).toBeGreaterThan(0);
        expect(typeof templateVariables(pattern) === 'object').toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  test('a pattern built from valid pieces is accepted, with its groups in order', () => {
    const name = fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/);
    const atom = fc.constantFrom('a', '\\d', '[0-9a-f]', '.', '\\.', 'x+', 'y*?', 'z{2,4}', '(?:ab|cd)');
    fc.assert(
      fc.property(fc.uniqueArray(name, { maxLength: 4 }), fc.array(atom, { maxLength: 5 }), (names, atoms) => {
        const pattern = atoms.join('') + names.map((n) => `(?P<${n}>[a-z0-9]+)`).join('-');
        expect(checkPattern(pattern)).toEqual({ ok: true, groups: names });
      }),
    );
  });
});
