// POST /messages/{message_id}/report (zulip.yaml report-message; zerver/views/message_report.py,
// zerver/lib/message_report.py): the parameter checks, the realm setting it needs, and the report
// Notification Bot posts in the moderation request channel.
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../simulator/index.ts';
import { ID, NOW, sim } from './helpers.ts';

const { hamlet, othello, cordelia, iago } = ID;
const NOTIFICATION_BOT = 4;
const CORE_TEAM = 8;
const WHEN = '<time:2023-11-16T02:00:00+00:00>';
const ok = { result: 'success', msg: '' };
const error = (
  msg: string,
  code = 'BAD_REQUEST',
  extra: Record<string, unknown> = {},
) => ({ result: 'error', msg, code, ...extra });

function call(
  s: Simulator,
  as: number,
  method: string,
  path: string,
  params?: Record<string, unknown>,
) {
  const where = method === 'GET' ? 'query' : 'body';
  return s.request({
    method,
    path: `/api/v1${path}`,
    as,
    ...(params ? { [where]: params } : {}),
  });
}

async function send(
  s: Simulator,
  as: number,
  body: Record<string, unknown>,
): Promise<number> {
  const res = await call(s, as, 'POST', '/messages', body);
  expect(res.status).toBe(200);
  return res.body.id as number;
}

const report = (
  s: Simulator,
  as: number,
  id: number,
  body: Record<string, unknown>,
) => call(s, as, 'POST', `/messages/${id}/report`, body);

async function withModeration(): Promise<Simulator> {
  const s = sim();
  const res = await call(s, iago, 'PATCH', '/realm', {
    moderation_request_channel_id: CORE_TEAM,
  });
  expect(res.status).toBe(200);
  return s;
}

async function lastInModeration(s: Simulator) {
  const res = await call(s, iago, 'GET', '/messages', {
    anchor: 'newest',
    num_before: 1,
    num_after: 0,
    apply_markdown: 'false',
    narrow: JSON.stringify([{ operator: 'channel', operand: CORE_TEAM }]),
  });
  return (res.body.messages as Record<string, any>[])[0]!;
}

describe('POST /messages/{message_id}/report', () => {
  it("posts the report in the moderation request channel, in the reported user's moderation topic", async () => {
    const s = await withModeration();
    const id = await send(s, hamlet, {
      type: 'stream',
      to: 'Verona',
      topic: 'test',
      content: 'Boo!',
    });
    expect(
      await report(s, othello, id, {
        report_type: 'harassment',
        description: 'Rude.',
      }).then((r) => [r.status, r.body]),
    ).toEqual([200, ok]);
    const posted = await lastInModeration(s);
    expect(posted).toMatchObject({
      sender_id: NOTIFICATION_BOT,
      stream_id: CORE_TEAM,
      subject: 'King Hamlet moderation',
      timestamp: NOW,
    });
    expect(posted.content).toBe(
      `@_**Othello, the Moor of Venice|12** reported a message sent by @_**King Hamlet|10** at ${WHEN}.\n` +
        "```quote\n**Harassment**. Rude.\n```\n\n" +
        `\`\`\` spoiler Original message at #**Verona>test@${id}**\nBoo!\n\`\`\``,
    );
  });

  it.each([
    ['spam', 'Spam'],
    ['inappropriate', 'Inappropriate content'],
    ['norms', 'Violates community norms'],
    ['other', 'Other reason'],
  ])('names the reason %s as "%s"', async (reportType, reason) => {
    const s = await withModeration();
    const id = await send(s, hamlet, {
      type: 'stream',
      to: 'Verona',
      topic: 'test',
      content: 'hi',
    });
    expect(
      (
        await report(s, othello, id, {
          report_type: reportType,
          description: 'why',
        })
      ).status,
    ).toBe(200);
    expect((await lastInModeration(s)).content).toContain(
      `\`\`\`quote\n**${reason}**. why\n\`\`\``,
    );
  });

  it('names the recipients of a direct message as Zulip does', async () => {
    const s = await withModeration();
    const dm = await send(s, hamlet, {
      type: 'direct',
      to: JSON.stringify([othello]),
      content: 'psst',
    });
    const group = await send(s, hamlet, {
      type: 'direct',
      to: JSON.stringify([othello, cordelia]),
      content: 'all of us',
    });
    const self = await send(s, hamlet, {
      type: 'direct',
      to: JSON.stringify([hamlet]),
      content: 'me',
    });
    const headers: string[] = [];
    for (const [as, id] of [
      [othello, dm],
      [hamlet, dm],
      [cordelia, group],
      [hamlet, self],
    ] as const) {
      expect((await report(s, as, id, { report_type: 'spam' })).status).toBe(
        200,
      );
      headers.push(
        ((await lastInModeration(s)).content as string).split("\n")[0]!,
      );
    }
    expect(headers).toEqual([
      `@_**Othello, the Moor of Venice|12** reported a message sent by @_**King Hamlet|10** at ${WHEN}.`,
      `@_**King Hamlet|10** reported a message sent by @_**King Hamlet|10** to @_**Othello, the Moor of Venice|12** at ${WHEN}.`,
      `@_**Cordelia, Lear's daughter|8** reported a message sent by @_**King Hamlet|10** to @_**Cordelia, Lear's daughter|8**, @_**Othello, the Moor of Venice|12** at ${WHEN}.`,
      `@_**King Hamlet|10** reported a message sent by @_**King Hamlet|10** to @_**King Hamlet|10** at ${WHEN}.`,
    ]);
    expect((await lastInModeration(s)).content).toContain(
      `\`\`\` spoiler [Original message](http://zulip.testserver/#narrow/dm/10/near/${self})\nme\n\`\`\``,
    );
  });

  it('fences the quoted message with more backticks than it uses', async () => {
    const s = await withModeration();
    const id = await send(s, hamlet, {
      type: 'stream',
      to: 'Verona',
      topic: 'test',
      content: "````\ncode\n````",
    });
    await report(s, othello, id, { report_type: 'spam' });
    expect((await lastInModeration(s)).content).toMatch(
      /\n````` spoiler Original message at [^\n]*\n````\ncode\n````\n`````$/,
    );
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      'an unknown report type',
      { report_type: 'rude' },
      error('Invalid report_type'),
    ],
    [
      'no report type',
      {},
      error("Missing 'report_type' argument", 'REQUEST_VARIABLE_MISSING', {
        var_name: 'report_type',
      }),
    ],
    [
      '"other" without an explanation',
      { report_type: 'other' },
      error('An explanation is required.'),
    ],
    [
      'an explanation too long',
      { report_type: 'spam', description: 'd'.repeat(1001) },
      error('description is too long (limit: 1000 characters)'),
    ],
  ])('refuses %s', async (_what, body, expected) => {
    const s = await withModeration();
    const id = await send(s, hamlet, {
      type: 'stream',
      to: 'Verona',
      topic: 'test',
      content: 'hi',
    });
    const before = (await lastInModeration(s)).id;
    const res = await report(s, othello, id, body);
    expect([res.status, res.body]).toEqual([400, expected]);
    expect((await lastInModeration(s)).id).toBe(before);
  });

  it('refuses when no moderation request channel is configured (after the explanation check)', async () => {
    const s = sim();
    const id = await send(s, hamlet, {
      type: 'stream',
      to: 'Verona',
      topic: 'test',
      content: 'hi',
    });
    expect(
      (await report(s, othello, id, { report_type: 'spam' })).body,
    ).toEqual(error('Message reporting is not enabled in this organization.'));
    expect(
      (await report(s, othello, id, { report_type: 'other' })).body,
    ).toEqual(error('An explanation is required.'));
  });

  it('refuses a message the reporter cannot see, as an unknown one', async () => {
    const s = await withModeration();
    const dm = await send(s, hamlet, {
      type: 'direct',
      to: JSON.stringify([othello]),
      content: 'psst',
    });
    expect(
      (await report(s, cordelia, dm, { report_type: 'spam' })).body,
    ).toEqual(error('Invalid message(s)'));
    expect(
      (await report(s, cordelia, 999999, { report_type: 'spam' })).body,
    ).toEqual(error('Invalid message(s)'));
    // An explanation of exactly the limit is fine.
    expect(
      (
        await report(s, othello, dm, {
          report_type: 'spam',
          description: 'd'.repeat(1000),
        })
      ).status,
    ).toBe(200);
  });

  it('posts to the empty topic of a channel that allows only it', async () => {
    const s = sim();
    const made = await call(s, iago, 'POST', '/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'reported messages' }]),
      invite_only: 'true',
      topics_policy: JSON.stringify('empty_topic_only'),
    });
    expect(made.body).toMatchObject(ok);
    const channel = (
      await call(s, iago, 'GET', '/get_stream_id', {
        stream: 'reported messages',
      })
    ).body.stream_id as number;
    expect(
      (
        await call(s, iago, 'PATCH', '/realm', {
          moderation_request_channel_id: channel,
        })
      ).status,
    ).toBe(200);
    const id = await send(s, hamlet, {
      type: 'stream',
      to: 'Verona',
      topic: 'test',
      content: 'hi',
    });
    expect((await report(s, othello, id, { report_type: 'spam' })).status).toBe(
      200,
    );
    const res = await call(s, iago, 'GET', '/messages', {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      apply_markdown: 'false',
      allow_empty_topic_name: 'true',
      narrow: JSON.stringify([{ operator: 'channel', operand: channel }]),
    });
    expect(res.body.messages[0]).toMatchObject({
      sender_id: NOTIFICATION_BOT,
      subject: '',
    });
  });
});
