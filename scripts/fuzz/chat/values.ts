/**
 * Values for parameters, chosen by a parameter's declared type and, where its name says what it
 * is, from the realm's own users, channels, messages and groups: a fuzzer that only sends random
 * text never gets past the first lookup. Hostile values (wrong types, broken JSON, huge numbers,
 * deep nesting, oversized text) are mixed in by the request generator (requests.ts).
 */
import fc, { type Arbitrary } from 'fast-check';
import { percentEncode } from './percent.ts';
import type { ParamSpec } from '../../../simulator/http/route.ts';
import type { Pools } from './world.ts';

/** Integers that break careless code: zero, negatives, 32- and 53-bit edges. */
const EDGE_INTS = [0, -1, 2 ** 31 - 1, 2 ** 31, 2 ** 53 - 1, -(2 ** 53) + 1, 1_000_000];

const MARKDOWN = [
  'hello',
  '**bold** and *italic*',
  '@**King Hamlet**',
  '@**all**',
  '@*hamletcharacters*',
  '#**Denmark**',
  '#**Denmark>welcome**',
  ':smile: :green_tick: :not_an_emoji:',
  '```\ncode\n```',
  '[link](https://example.com)',
  '[release-notes.txt](/user_uploads/2/4e/m2A3MSqFnWRLUf9SaPzQ0Up_/release-notes.txt)',
  '/me waves',
  '> quote',
  '$$x^2$$',
  '<script>alert(1)</script>',
  '',
  ' ',
];

const TEXT: Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\u0000', '\ud800', 'null', 'true', '[]', '{}', '"', '\\', '%', '../..', 'a'.repeat(61)) },
);

const pick = <T>(items: readonly T[]): Arbitrary<T> => fc.constantFrom(...items);

export interface Generators {
  /** A well-typed value for the parameter (a JS value; the client encoding makes it text). */
  valid(spec: ParamSpec): Arbitrary<unknown>;
  /** An integer meant as an id of what the name says (users, channels, messages, groups, …). */
  id(name: string): Arbitrary<number>;
  /** A path segment for a `{name}` in the path. */
  pathSegment(spec: ParamSpec): Arbitrary<string>;
}

export function generators(pools: Pools, queueIds: readonly string[]): Generators {
  const anyId = fc.integer({ min: 0, max: pools.idCeiling + 10 });
  const ids = (known: number[]): Arbitrary<number> =>
    fc.oneof({ weight: 6, arbitrary: pick(known) }, { weight: 2, arbitrary: anyId }, { weight: 1, arbitrary: pick(EDGE_INTS) });

  function id(name: string): Arbitrary<number> {
    // Times: around the sequence's clock, mostly ahead of it (scheduled deliveries, reminders).
    if (/timestamp|_time$/.test(name)) return fc.oneof({ weight: 4, arbitrary: fc.integer({ min: pools.now - 600, max: pools.now + 30 * 86_400 }) }, { weight: 1, arbitrary: pick(EDGE_INTS) });
    if (/group/.test(name)) return ids(pools.groupIds);
    if (/(^|_)users?(_ids?)?$|bot_id|owner_id|sender_id|^members$|^subscribers$|^principals$/.test(name)) return ids(pools.userIds);
    if (/stream|^channel_id/.test(name)) return ids(pools.streamIds);
    if (/message|msg_ids|^anchor$/.test(name)) return ids(pools.messageIds);
    if (/field_id|^data$|^order$/.test(name)) return ids(pools.profileFieldIds);
    // Ids of things a sequence creates (drafts, snippets, invitations, devices) start small.
    return fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 6 }) }, { weight: 2, arbitrary: anyId }, { weight: 1, arbitrary: pick(EDGE_INTS) });
  }

  const emails = fc.oneof({ weight: 5, arbitrary: pick(pools.emails) }, { weight: 1, arbitrary: fc.emailAddress() });
  const streamName = fc.oneof({ weight: 5, arbitrary: pick(pools.streamNames) }, { weight: 1, arbitrary: TEXT });
  const topic = fc.oneof({ weight: 5, arbitrary: pick(pools.topics) }, { weight: 1, arbitrary: TEXT });
  const content = fc.oneof({ weight: 4, arbitrary: pick(MARKDOWN) }, { weight: 2, arbitrary: TEXT }, {
    weight: 1,
    arbitrary: fc.array(pick(MARKDOWN), { maxLength: 4 }).map((parts) => parts.join('\n')),
  });
  const groupSetting = fc.oneof(
    { weight: 4, arbitrary: id('group') },
    { weight: 2, arbitrary: fc.record({ direct_members: fc.array(id('user_id'), { maxLength: 3 }), direct_subgroups: fc.array(id('group'), { maxLength: 2 }) }) },
    { weight: 2, arbitrary: fc.record({ new: id('group'), old: id('group') }, { requiredKeys: ['new'] }) },
  );
  const narrowTerm = fc.oneof(
    fc.record({
      operator: pick(['channel', 'stream', 'topic', 'is', 'dm', 'sender', 'search', 'id', 'has', 'near', 'with', 'in', 'dm-including', 'channels', 'bogus']),
      operand: fc.oneof(streamName, topic, pick(['unread', 'starred', 'mentioned', 'dm', 'alerted', 'followed', 'resolved', 'public', 'web-public', 'link', 'image', 'attachment', 'reaction', 'home', 'all'])),
      negated: fc.boolean(),
    }, { requiredKeys: ['operator', 'operand'] }),
    fc.record({ operator: pick(['dm', 'sender', 'id', 'near', 'with', 'dm-including']), operand: fc.oneof(id('user_id'), fc.array(id('user_id'), { maxLength: 3 }), emails, id('message')) }),
    fc.tuple(pick(['stream', 'topic', 'is', 'sender', 'search']), fc.oneof(streamName, topic, emails)),
  );
  const narrow = fc.array(narrowTerm, { maxLength: 3 });
  const draft = fc.record(
    {
      type: pick(['stream', 'private', '', 'bogus']),
      to: fc.array(fc.oneof(id('stream'), id('user_id')), { maxLength: 3 }),
      topic,
      content,
      timestamp: fc.oneof(fc.integer({ min: 0, max: 2_000_000_000 }), fc.double()),
    },
    { requiredKeys: ['type', 'to', 'content'] },
  );
  const subscriptionProperty = pick([
    'color',
    'is_muted',
    'in_home_view',
    'pin_to_top',
    'desktop_notifications',
    'audible_notifications',
    'push_notifications',
    'email_notifications',
    'wildcard_mentions_notify',
    'bogus',
  ]);
  const subscriptionValue = fc.oneof(fc.boolean(), pick(['#aabbcc', '#FFF', 'red', '']));
  const stringMap = fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 12 }), { maxKeys: 3 });

  /** JSON-typed parameters whose name says what shape Zulip expects. */
  const HINTS: [RegExp, Arbitrary<unknown>][] = [
    [/^narrow$/, narrow],
    [/^to$/, fc.oneof(id('stream_id'), fc.array(id('user_id'), { minLength: 1, maxLength: 3 }))],
    [/^subscriptions$/, fc.array(fc.record({ name: streamName, description: fc.string({ maxLength: 10 }) }, { requiredKeys: ['name'] }), { maxLength: 3 })],
    [/^subscription_data$/, fc.array(fc.record({ stream_id: id('stream'), property: subscriptionProperty, value: subscriptionValue }), { maxLength: 3 })],
    [/^add$/, fc.array(fc.record({ name: streamName }), { maxLength: 2 })],
    [/^drafts$/, fc.array(draft, { maxLength: 2 })],
    [/^draft$/, draft],
    [/^(data|profile_data)$/, fc.array(fc.record({ id: id('field_id'), value: fc.oneof(TEXT, fc.array(id('user_id'), { maxLength: 2 }), fc.constant(null)) }), { maxLength: 3 })],
    [/^(storage|config_data)$/, stringMap],
    [/^client_capabilities$/, fc.dictionary(pick(['notification_settings_null', 'bulk_message_deletion', 'user_settings_object', 'empty_topic_name', 'archived_channels', 'bogus']), fc.oneof(fc.boolean(), fc.integer()), { maxKeys: 4 })],
    [/event_types$/, fc.array(pick(['message', 'subscription', 'realm_user', 'update_message_flags', 'heartbeat', 'typing', 'presence', 'bogus']), { maxLength: 3 })],
    [/_group$|^can_create_groups$|^can_manage_all_groups$/, groupSetting],
    [/^field_data$/, fc.oneof(fc.dictionary(fc.string({ maxLength: 3 }), fc.record({ text: fc.string({ maxLength: 6 }), order: fc.string({ maxLength: 2 }) }), { maxKeys: 3 }), fc.record({ subtype: pick(['github', 'twitter', 'custom']), url_pattern: pick(['https://example.com/%(username)s', 'bad']) }))],
    [/_seconds$|retention_days$|expires_in_minutes$|_limit_days$/, fc.oneof(fc.integer({ min: -2, max: 100_000 }), pick(['unlimited', 'forever', 'never']), fc.constant(null))],
    [/^jitsi_server_url$/, fc.oneof(fc.constant('default'), fc.webUrl(), fc.constant(null))],
    [/^authentication_methods$/, fc.dictionary(pick(['Email', 'Dev', 'GitHub', 'bogus']), fc.boolean(), { maxKeys: 3 })],
    [/^actions$/, fc.dictionary(pick(['delete_public_channel_messages', 'delete_private_channel_messages', 'delete_direct_messages', 'bogus']), fc.boolean(), { maxKeys: 3 })],
    [/^topics_policy$/, pick(['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only', 'bogus'])],
    [/^folder_id$/, fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constant(null))],
    [/payload_url$/, fc.oneof(fc.webUrl(), TEXT)],
    [/^(all_public_streams|client_gravatar)$/, fc.boolean()],
  ];

  function stringFor(spec: ParamSpec): Arbitrary<string> {
    const name = spec.name;
    const choices: Arbitrary<string>[] = [];
    if (spec.oneOf) choices.push(pick(spec.oneOf.map(String)));
    if (/email|username|^sender$/.test(name)) choices.push(emails);
    if (/topic/.test(name)) choices.push(topic);
    if (name === 'to') {
      choices.push(streamName, emails, fc.array(id('user_id'), { minLength: 1, maxLength: 3 }).map((v) => JSON.stringify(v)), id('stream').map(String));
    }
    if (/stream|channel/.test(name)) choices.push(streamName);
    if (/emoji_name/.test(name)) choices.push(pick(pools.emojiNames));
    if (/emoji_code/.test(name)) choices.push(pick(['1f600', '1f44d', 'zulip', '1', '2', 'zzz']));
    if (/reaction_type/.test(name)) choices.push(pick(['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji', 'bogus']));
    if (/content|text|description|comment|message|hint/.test(name)) choices.push(content);
    if (/(^|_)name$/.test(name)) choices.push(streamName, pick(pools.groupNames), pick(['Alice Bot', 'a', '@**x**', 'role:members']));
    if (/anchor/.test(name)) choices.push(pick(['newest', 'oldest', 'first_unread', 'date']), id('message').map(String));
    if (/fragment/.test(name)) choices.push(pick(['inbox', 'recent', 'narrow/is/starred', 'narrow/channel/3-Denmark', 'bogus']));
    if (/^op$/.test(name)) choices.push(pick(['add', 'remove', 'start', 'stop']));
    if (/flag/.test(name)) choices.push(pick(['read', 'starred', 'collapsed', 'mentioned', 'wildcard_mentioned', 'has_alert_word', 'historical', 'bogus']));
    if (/property/.test(name)) choices.push(subscriptionProperty);
    if (/^value$/.test(name)) choices.push(subscriptionValue.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))));
    if (/queue_id/.test(name)) choices.push(pick(queueIds), fc.uuid());
    if (/filename/.test(name)) choices.push(pick(pools.uploadPaths.map((p) => p.split('/').pop()!)));
    if (/url|template/.test(name)) choices.push(pick(['https://example.com/{id}', 'https://github.com/zulip/zulip/issues/{id}', 'https://play.example.com/?code={code}', 'not a url']), fc.webUrl());
    // Without these, POST /users/me/presence and the realm-domain routes never got past validation.
    if (/^status$/.test(name)) choices.push(pick(['active', 'idle', 'away']));
    if (/domain/.test(name)) choices.push(pick(['example.org', 'zulip.com', 'sub.example.org', 'EXAMPLE.ORG', 'bad domain', '.org']));
    if (/pattern/.test(name)) choices.push(pick(['#(?P<id>[0-9]+)', '(', 'JIRA-(?P<id>[0-9]+)', '']));
    if (/timezone/.test(name)) choices.push(pick(['Europe/Madrid', 'UTC', 'Not/AZone', '']));
    if (/language/.test(name)) choices.push(pick(['en', 'es', 'de', 'xx', 'python', '']));
    // The dev realm's passwords are `<local part>-password`.
    if (/password/.test(name)) choices.push(pick(['password', 'correct horse battery staple', '', ...pools.emails.map((e) => `${e.split('@')[0]!.toLowerCase()}-password`)]));
    if (/token|key/.test(name)) choices.push(fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 8, maxLength: 64 }));
    if (spec.oneOf) return fc.oneof({ weight: 12, arbitrary: choices[0]! }, { weight: 1, arbitrary: TEXT });
    const long = spec.maxLength === undefined ? [] : [{ weight: 1, arbitrary: pick([spec.maxLength, spec.maxLength + 1]).map((n) => 'x'.repeat(n)) }];
    // What the name says first; arbitrary text now and then.
    return fc.oneof(...choices.map((arbitrary) => ({ weight: 4, arbitrary })), ...long, { weight: choices.length > 0 ? 2 : 1, arbitrary: TEXT });
  }

  function valid(spec: ParamSpec): Arbitrary<unknown> {
    if (spec.type !== 'string' && spec.type !== 'file') {
      const hint = HINTS.find(([re]) => re.test(spec.name));
      if (hint && (spec.type === 'json' || spec.type === 'json_array' || spec.type === 'json_object')) return hint[1];
    }
    switch (spec.type) {
      case 'string':
        return stringFor(spec);
      case 'int':
        return spec.oneOf ? fc.oneof(pick(spec.oneOf as number[]), id(spec.name)) : id(spec.name);
      case 'bool':
        return fc.boolean();
      case 'float':
        return fc.oneof(fc.integer({ min: 1_600_000_000, max: 1_800_000_000 }), fc.double({ noNaN: true, noDefaultInfinity: true }));
      case 'int_array':
        return fc.array(id(spec.name), { maxLength: 4 });
      case 'string_array':
        return fc.array(fc.oneof(streamName, stringFor(spec)), { maxLength: 3 });
      case 'int_or_string':
        return fc.oneof(fc.integer({ min: -2, max: 1000 }), pick(['unlimited', 'realm_default', 'forever']));
      case 'int_array_or_string_array':
        return fc.oneof(fc.array(id('user_id'), { maxLength: 3 }), fc.array(emails, { maxLength: 3 }));
      case 'json_object':
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
      case 'json_array':
        return fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 });
      case 'json':
        return fc.jsonValue({ maxDepth: 3 });
      case 'file':
        return fc.constant(undefined);
    }
  }

  function pathSegment(spec: ParamSpec): Arbitrary<string> {
    if (spec.type === 'int') return id(spec.name).map(String);
    const samples = stringFor(spec).map(percentEncode);
    if (spec.name === 'email') return fc.oneof({ weight: 3, arbitrary: emails.map(percentEncode) }, { weight: 1, arbitrary: samples });
    if (spec.name === 'emoji_name') return fc.oneof(pick(pools.emojiNames), samples);
    if (spec.name === 'filename') return fc.oneof(pick(pools.uploadPaths.map((p) => p.split('/').slice(1).join('/'))), samples);
    return samples;
  }

  return { valid, id, pathSegment };
}
