/**
 * What must hold after every fuzzed request: of the answer (no 5xx, Zulip's envelope, nobody
 * deactivated acting) and of the realm's state (references point at things that exist, indexes
 * agree with what they index, message ids only grow). Each check returns problems as sentences;
 * none is a pass.
 */
import { canAccessStreamContent, type Engine } from '../../../simulator/engine/core.ts';
import { FLAG_BITS, FLAG_SPACE, dmKey, getMessage, indexOfMessage, topicKey } from '../../../simulator/engine/messages/store.ts';
import { REALM_GROUP_SETTINGS, ROLE, type GroupSettingValue } from '../../../simulator/engine/state.ts';
import { decodePath, type RawResponse } from '../../../simulator/http/dispatch.ts';
import type { Route } from '../../../simulator/http/route.ts';
import type { FuzzRequest } from './requests.ts';

/** What a sequence remembers between requests. */
export interface Tracker {
  /** The largest message id ever stored in this sequence (deleted ones included). */
  maxMessageId: number;
  /** The ids stored after the previous request. */
  stored: Set<number>;
}

export function startTracking(engine: Engine): Tracker {
  const messages = engine.state.messages.messages;
  return { maxMessageId: messages.length > 0 ? messages[messages.length - 1]!.id : 0, stored: new Set(messages.map((m) => m.id)) };
}

type Json = Record<string, unknown>;

function parseJson(text: string): Json | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** Routes that answer with files, HTML pages and redirects (Zulip's downloads), not the envelope. */
const isDownload = (req: FuzzRequest) => /\/user_uploads\//.test(decodePath(req.path));

/**
 * The answer's own invariants. `handledBy`: the route whose handler answered, if one did.
 */
export function responseProblems(req: FuzzRequest, res: RawResponse, engine: Engine, handledBy?: Route, userId?: number): string[] {
  const problems: string[] = [];
  // A 5xx says it all; its body is the server's last resort.
  if (res.status >= 500) return [`answered ${res.status}`];
  if (res.status < 100) problems.push(`status ${res.status} is no HTTP status`);
  const method = req.method.toUpperCase();
  const type = res.headers['content-type'] ?? '';
  const json = parseJson(res.body);
  if (method === 'HEAD') {
    if (res.body !== '' || res.bytes?.length) problems.push('HEAD answered with a body');
  } else if (res.status === 405) {
    if (!json || json.result !== 'error' || json.msg !== 'Method Not Allowed' || !Array.isArray(json.allowed_methods)) {
      problems.push(`405 without Zulip's body: ${res.body.slice(0, 200)}`);
    }
  } else if (type.startsWith('application/json')) {
    if (!json) problems.push(`JSON content type but the body is not a JSON object: ${res.body.slice(0, 200)}`);
    else if (res.status === 200) {
      if (json.result !== 'success' || json.msg !== '') problems.push(`200 without result "success" and msg "": ${res.body.slice(0, 200)}`);
    } else if (res.status >= 400) {
      if (json.result !== 'error') problems.push(`error status ${res.status} without result "error"`);
      if (typeof json.msg !== 'string' || json.msg === '') problems.push(`error without a msg: ${res.body.slice(0, 200)}`);
      if (typeof json.code !== 'string' || !/^[A-Z_]+$/.test(json.code)) problems.push(`error without a code: ${res.body.slice(0, 200)}`);
    } else problems.push(`JSON answer with status ${res.status}`);
  } else if (!(method === 'OPTIONS' && res.status === 204) && !(res.status === 302 && res.headers.location) && !isDownload(req)) {
    problems.push(`a ${res.status} that is not Zulip's JSON envelope (content type "${type}")`);
  }
  if (json && res.status === 200) problems.push(...bodyProblems(json, engine, handledBy, userId));
  return problems;
}

/** Invariants of success bodies that cost nothing to check. */
function bodyProblems(body: Json, engine: Engine, handledBy: Route | undefined, userId: number | undefined): string[] {
  const problems: string[] = [];
  // A parameter the route declares (and reads wherever it is sent) is never reported as ignored.
  // A file is the exception: Zulip reads it from request.FILES, so a text field of the same name
  // is in request.POST, unread, and listed (json_success's ignored_parameters).
  if (handledBy && Array.isArray(body.ignored_parameters_unsupported)) {
    const read = handledBy.params.filter((p) => p.in === undefined && p.type !== 'file');
    const declared = new Set(read.flatMap((p) => [p.name, ...(p.aliases ?? [])]));
    const wrong = (body.ignored_parameters_unsupported as string[]).filter((name) => declared.has(name));
    if (wrong.length > 0) problems.push(`ignored_parameters_unsupported lists ${wrong.join(', ')}, which ${handledBy.method} ${handledBy.path} declares`);
  }
  // Logins (the routes that need no credentials) hand out keys of active accounts only; an
  // administrator may still regenerate a deactivated bot's key, as in Zulip.
  const login = handledBy?.auth === 'none' || handledBy?.auth === 'dev';
  if (login && typeof body.api_key === 'string') {
    const id = engine.state.usersByApiKey.get(body.api_key);
    const user = id === undefined ? undefined : engine.state.users.get(id);
    if (user && !user.is_active) problems.push(`handed out the API key of deactivated ${user.delivery_email}`);
  }
  // Message objects (GET /messages), not the bare ids of POST /messages/flags.
  if (Array.isArray(body.messages) && body.messages.every((m) => typeof m === 'object' && m !== null)) {
    const ids = (body.messages as Json[]).map((m) => m.id as number);
    for (let i = 1; i < ids.length; i++) if (!(ids[i]! > ids[i - 1]!)) problems.push(`messages not in ascending id order: ${ids.join(',')}`);
  }
  if (userId !== undefined) {
    const shown = [
      ...(Array.isArray(body.messages) ? (body.messages as unknown[]) : []),
      body.message,
      ...(Array.isArray(body.events) ? (body.events as Json[]).filter((e) => e?.type === 'message').map((e) => e.message) : []),
    ];
    for (const m of shown) {
      const leak = leakedTo(engine, userId, m);
      if (leak) problems.push(leak);
    }
  }
  const unread = body.unread_msgs as Json | undefined;
  if (unread && typeof unread === 'object') {
    const listed = ['pms', 'streams', 'huddles'].flatMap((k) => ((unread[k] as Json[] | undefined) ?? []).flatMap((e) => (e.unread_message_ids as number[]) ?? []));
    const store = engine.state.messages;
    for (const id of listed) {
      const m = getMessage(store, id);
      if (!m) problems.push(`unread_msgs lists message ${id}, which does not exist`);
      else if (userId !== undefined) {
        const row = m.userFlags.find((r) => Math.floor(r / FLAG_SPACE) === userId);
        if (row === undefined || (row % FLAG_SPACE) & FLAG_BITS.read) problems.push(`unread_msgs lists message ${id}, which user ${userId} ${row === undefined ? 'did not receive' : 'has read'}`);
      }
    }
    if (new Set(listed).size !== listed.length) problems.push('unread_msgs lists a message twice');
  }
  return problems;
}

/** A group setting names existing users and existing groups that are not deactivated (Zulip refuses both). */
/**
 * A message object a user must not see: a direct message, or a message of a private channel they
 * cannot read or whose history is kept from new subscribers, that they did not receive (Zulip's
 * has_message_access).
 */
function leakedTo(engine: Engine, userId: number, value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const m = value as Json;
  if (typeof m.id !== 'number' || (m.type !== 'stream' && m.type !== 'private')) return undefined;
  const stored = getMessage(engine.state.messages, m.id);
  if (!stored) return undefined;
  if (stored.userFlags.some((row) => Math.floor(row / FLAG_SPACE) === userId)) return undefined;
  if (stored.streamId === null) return `user ${userId} was shown direct message ${m.id}, which they did not receive`;
  const channel = engine.state.streams.get(stored.streamId);
  const user = engine.state.users.get(userId);
  if (!channel || !user || !channel.invite_only || channel.is_web_public) return undefined;
  if (!channel.history_public_to_subscribers) return `user ${userId} was shown message ${m.id} of channel ${channel.id}, whose history is protected, without having received it`;
  if (!canAccessStreamContent(engine, user, channel)) return `user ${userId} was shown message ${m.id} of private channel ${channel.id}, which they cannot read`;
  return undefined;
}

function groupSettingProblems(engine: Engine, where: string, value: GroupSettingValue): string[] {
  const { users, userGroups } = engine.state;
  const groupProblem = (id: number) => {
    const g = userGroups.get(id);
    return !g ? [`${where} names group ${id}, which does not exist`] : g.deactivated ? [`${where} names group ${id}, which is deactivated`] : [];
  };
  if (typeof value === 'number') return groupProblem(value);
  const problems: string[] = [];
  for (const id of value.direct_members) if (!users.has(id)) problems.push(`${where} names user ${id}, who does not exist`);
  for (const id of value.direct_subgroups) problems.push(...groupProblem(id));
  return problems;
}

/** The group that reaches itself through subgroups, if any (Zulip refuses a circle). */
function groupInACircle(engine: Engine): number | undefined {
  const groups = engine.state.userGroups;
  const state = new Map<number, 'open' | 'done'>();
  const visit = (id: number): boolean => {
    if (state.get(id) === 'done') return false;
    if (state.get(id) === 'open') return true;
    state.set(id, 'open');
    for (const sub of groups.get(id)?.subgroups ?? []) if (visit(sub)) return true;
    state.set(id, 'done');
    return false;
  };
  for (const id of groups.keys()) if (visit(id)) return id;
  return undefined;
}

const ROLE_GROUPS: Record<number, string> = {
  [ROLE.owner]: 'role:owners',
  [ROLE.administrator]: 'role:administrators',
  [ROLE.moderator]: 'role:moderators',
  [ROLE.member]: 'role:members',
  [ROLE.guest]: 'role:everyone',
};

/** The realm's invariants; cheap enough for every request on a realm of dev-fixture size. */
export function stateProblems(engine: Engine, tracker: Tracker): string[] {
  const problems: string[] = [];
  const s = engine.state;

  // Users and the indexes that find them.
  for (const [key, id] of s.usersByApiKey) {
    if (s.users.get(id)?.api_key !== key) problems.push(`API key index: a stale key still names user ${id}`);
  }
  for (const [email, id] of s.usersByEmail) {
    const u = s.users.get(id);
    if (!u || (u.email.toLowerCase() !== email && u.delivery_email.toLowerCase() !== email)) problems.push(`email index: ${email} names user ${id}, who has another address`);
  }
  for (const u of s.users.values()) {
    if (s.usersByApiKey.get(u.api_key) !== u.id) problems.push(`user ${u.id}'s API key does not find them`);
    // System bots live in another realm upstream: a user of this one may take one's address.
    const holder = s.users.get(s.usersByEmail.get(u.delivery_email.toLowerCase()) ?? -1);
    if (holder !== u && !(u.is_system_bot && holder && !holder.is_system_bot)) problems.push(`user ${u.id}'s email ${u.delivery_email} does not find them`);
    if (u.is_bot && u.is_active && u.bot_owner_id !== null && s.users.get(u.bot_owner_id)?.is_active === false) {
      problems.push(`active bot ${u.id} belongs to deactivated user ${u.bot_owner_id}`);
    }
  }

  // Channels and subscriptions.
  for (const [name, id] of s.streamsByName) {
    if (s.streams.get(id)?.name.toLowerCase() !== name) problems.push(`channel name index: "${name}" names channel ${id}, which has another name`);
  }
  for (const c of s.streams.values()) {
    if (s.streamsByName.get(c.name.toLowerCase()) !== c.id) problems.push(`channel ${c.id} "${c.name}" is not found by its name`);
    for (const [setting, value] of Object.entries(c.groups)) problems.push(...groupSettingProblems(engine, `channel ${c.id}'s ${setting}`, value));
  }
  for (const [streamId, subs] of s.subscriptions) {
    for (const [userId, sub] of subs) {
      if (!sub.active) continue;
      if (!s.streams.has(streamId)) problems.push(`user ${userId} is subscribed to channel ${streamId}, which does not exist`);
      if (!s.users.has(userId)) problems.push(`channel ${streamId} has subscriber ${userId}, who does not exist`);
    }
  }

  // Groups: members and subgroups exist, role groups follow roles, settings name real groups.
  for (const g of s.userGroups.values()) {
    for (const id of g.members) if (!s.users.has(id)) problems.push(`group ${g.id} has member ${id}, who does not exist`);
    for (const id of g.subgroups) if (!s.userGroups.has(id)) problems.push(`group ${g.id} has subgroup ${id}, which does not exist`);
    for (const [setting, value] of Object.entries(g.settings)) problems.push(...groupSettingProblems(engine, `group ${g.id}'s ${setting}`, value));
  }
  const circle = groupInACircle(engine);
  if (circle !== undefined) problems.push(`group ${circle} reaches itself through its subgroups`);
  for (const u of s.users.values()) {
    if (u.is_system_bot) continue;
    for (const [role, name] of Object.entries(ROLE_GROUPS)) {
      const member = s.userGroups.get(s.realm.system_groups[name]!)?.members.has(u.id) ?? false;
      if (member !== (u.role === Number(role))) problems.push(`user ${u.id} (role ${u.role}) ${member ? 'is' : 'is not'} a direct member of ${name}`);
    }
  }

  // Ids are never handed out twice: every counter is at or above the ids it made.
  for (const [kind, ids] of [['user', s.users.keys()], ['stream', s.streams.keys()], ['user_group', s.userGroups.keys()]] as const) {
    const max = Math.max(0, ...ids);
    if ((s.counters[kind] ?? 0) < max) problems.push(`the ${kind} counter ${s.counters[kind]} is below id ${max}`);
  }

  // What the realm, channels and bots name exists; settings name no deactivated group.
  const realm = s.realm;
  for (const id of realm.default_stream_ids) {
    const c = s.streams.get(id);
    if (!c || c.invite_only || c.is_archived) problems.push(`default channel ${id} ${c ? 'is private or archived' : 'does not exist'}`);
  }
  for (const key of ['new_stream_announcements_stream_id', 'signup_announcements_stream_id', 'zulip_update_announcements_stream_id', 'moderation_request_channel_id'] as const) {
    const id = realm[key];
    if (id !== null && (!s.streams.has(id) || s.streams.get(id)!.is_archived)) problems.push(`the realm's ${key} is ${id}, which is gone or archived`);
  }
  for (const setting of REALM_GROUP_SETTINGS) problems.push(...groupSettingProblems(engine, `the realm's ${setting}`, realm[setting]));
  for (const c of s.streams.values()) {
    if (c.folder_id !== null && !s.channelFolders.has(c.folder_id)) problems.push(`channel ${c.id} is in folder ${c.folder_id}, which does not exist`);
  }
  for (const u of s.users.values()) {
    for (const id of [u.default_sending_stream_id, u.default_events_register_stream_id]) {
      if (id !== null && !s.streams.has(id)) problems.push(`bot ${u.id}'s default channel ${id} does not exist`);
    }
  }
  for (const [userId, topics] of s.userTopics) {
    for (const t of topics.values()) if (!s.streams.has(t.streamId)) problems.push(`user ${userId} has a topic setting in channel ${t.streamId}, which does not exist`);
  }
  for (const [path, id] of s.attachmentsByPath) if (s.attachments.get(id)?.pathId !== path) problems.push(`upload index: ${path} names upload ${id}, which has another path`);
  for (const a of s.attachments.values()) {
    if (s.attachmentsByPath.get(a.pathId) !== a.id) problems.push(`upload ${a.id} is not found by its path`);
    for (const id of a.messageIds) if (!getMessage(s.messages, id)) problems.push(`upload ${a.id} is linked from message ${id}, which does not exist`);
  }

  // Messages: ids grow, never come back, and every index agrees with the messages.
  const store = s.messages;
  let previous = 0;
  for (const [i, m] of store.messages.entries()) {
    if (m.id <= previous) problems.push(`message ${m.id} stored after message ${previous}`);
    previous = m.id;
    if (indexOfMessage(store, m.id) !== i) problems.push(`message ${m.id} is not found at its position`);
    if (!s.users.has(m.senderId)) problems.push(`message ${m.id}'s sender ${m.senderId} does not exist`);
    if (m.streamId !== null) {
      const c = s.streams.get(m.streamId);
      if (!c) problems.push(`message ${m.id} is in channel ${m.streamId}, which does not exist`);
      else if (m.recipientId !== c.recipient_id) problems.push(`message ${m.id} in channel ${c.id} has recipient ${m.recipientId}, the channel's is ${c.recipient_id}`);
    } else if (m.dmUserIds && store.dmConversations.get(dmKey(m.dmUserIds))?.recipientId !== m.recipientId) {
      problems.push(`direct message ${m.id}'s recipient ${m.recipientId} is not its conversation's`);
    }
    const reactions = new Set<string>();
    for (const r of m.reactions ?? []) {
      const key = `${r.userId}/${r.reactionType}/${r.emojiCode}`;
      if (reactions.has(key)) problems.push(`message ${m.id} has the same reaction twice (${key})`);
      reactions.add(key);
      if (!s.users.has(r.userId)) problems.push(`message ${m.id} has a reaction by user ${r.userId}, who does not exist`);
    }
    let lastUser = -1;
    for (const row of m.userFlags) {
      const userId = Math.floor(row / FLAG_SPACE);
      if (userId <= lastUser) problems.push(`message ${m.id} has unsorted or repeated user rows`);
      lastUser = userId;
      if (!s.users.has(userId)) problems.push(`message ${m.id} has a row for user ${userId}, who does not exist`);
      if ((row % FLAG_SPACE) >= FLAG_BITS.historical * 2) problems.push(`message ${m.id} has unknown flag bits for user ${userId}`);
    }
  }
  // A message that was not there before has an id above every id this sequence has seen.
  let max = tracker.maxMessageId;
  let added = 0;
  for (const m of store.messages) {
    if (tracker.stored.has(m.id)) continue;
    added++;
    if (m.id <= tracker.maxMessageId) problems.push(`new message ${m.id} does not have an id above ${tracker.maxMessageId}, the largest so far`);
    max = Math.max(max, m.id);
  }
  tracker.maxMessageId = max;
  if (added > 0 || store.messages.length !== tracker.stored.size) tracker.stored = new Set(store.messages.map((m) => m.id));
  if ((s.counters.message ?? 0) < tracker.maxMessageId) problems.push(`the message counter ${s.counters.message} is below message ${tracker.maxMessageId}`);
  problems.push(...indexProblems(engine));
  return problems;
}

/** Each narrow index holds exactly the ids of the messages it describes, ascending. */
function indexProblems(engine: Engine): string[] {
  const store = engine.state.messages;
  const expected = {
    byStream: new Map<number, number[]>(),
    byTopic: new Map<string, number[]>(),
    byDmKey: new Map<string, number[]>(),
    byUser: new Map<number, number[]>(),
  };
  const add = <K>(map: Map<K, number[]>, key: K, id: number) => {
    const list = map.get(key);
    if (list) list.push(id);
    else map.set(key, [id]);
  };
  for (const m of store.messages) {
    if (m.streamId !== null) {
      add(expected.byStream, m.streamId, m.id);
      add(expected.byTopic, `${m.streamId}\u0000${topicKey(m.topic)}`, m.id);
    } else if (m.dmUserIds) add(expected.byDmKey, dmKey(m.dmUserIds), m.id);
    for (const row of m.userFlags) add(expected.byUser, Math.floor(row / FLAG_SPACE), m.id);
  }
  const actualTopics = new Map<string, number[]>();
  for (const [streamId, topics] of store.byTopic) for (const [key, ids] of topics) actualTopics.set(`${streamId}\u0000${key}`, ids);
  const problems: string[] = [];
  const compare = <K>(name: string, want: Map<K, number[]>, have: Map<K, number[]>) => {
    for (const key of new Set([...want.keys(), ...have.keys()])) {
      const a = want.get(key) ?? [];
      const b = have.get(key) ?? [];
      if (a.length !== b.length || a.some((id, i) => id !== b[i])) {
        problems.push(`index ${name} for ${String(key).replace('\u0000', '/')} holds [${b.join(',')}], the messages say [${a.join(',')}]`);
      }
    }
  };
  compare('byStream', expected.byStream, store.byStream);
  compare('byTopic', expected.byTopic, actualTopics);
  compare('byDmKey', expected.byDmKey, store.byDmKey);
  compare('byUser', expected.byUser, store.byUser);
  return problems;
}
