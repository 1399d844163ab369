// A small client-side state keeper, as Zulip's apply_event (zerver/lib/events.py) and the apps do
// it: fold a queue's events into a /register answer. Only the event types the agreement test
// exercises are handled; anything else throws, so a test cannot silently skip an event.
type State = Record<string, any>;
type Event = Record<string, any>;

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const ascending = (a: number, b: number) => a - b;

/** Every channel object the state holds, in every list that has them. */
function channelObjects(state: State): Record<string, any>[] {
  return [...state.subscriptions, ...state.unsubscribed, ...state.never_subscribed, ...state.streams];
}

function changeSubscribers(state: State, streamIds: number[], userIds: number[], add: boolean): void {
  const ids = new Set(streamIds);
  for (const list of [state.subscriptions, state.unsubscribed, state.never_subscribed]) {
    for (const sub of list) {
      if (!ids.has(sub.stream_id) || !sub.subscribers) continue;
      const set = new Set<number>(sub.subscribers);
      for (const u of userIds) add ? set.add(u) : set.delete(u);
      sub.subscribers = [...set].sort(ascending);
    }
  }
  for (const c of channelObjects(state)) {
    if (ids.has(c.stream_id)) c.subscriber_count += add ? userIds.length : -userIds.length;
  }
}

function applyUnreadMessage(state: State, event: Event, me: number): void {
  const unread = state.unread_msgs;
  const m = event.message;
  if (event.flags.includes('read')) return;
  const muted = m.type === 'stream' && state.subscriptions.some((s: any) => s.stream_id === m.stream_id && s.is_muted);
  if (m.type === 'stream') {
    const group = unread.streams.find((g: any) => g.stream_id === m.stream_id && g.topic.toLowerCase() === m.subject.toLowerCase());
    if (group) group.unread_message_ids.push(m.id);
    else {
      unread.streams.push({ stream_id: m.stream_id, topic: m.subject, unread_message_ids: [m.id] });
      unread.streams.sort((a: any, b: any) => a.stream_id - b.stream_id || (a.topic.toLowerCase() < b.topic.toLowerCase() ? -1 : 1));
    }
  } else {
    const ids = (m.display_recipient as { id: number }[]).map((u) => u.id).sort(ascending);
    if (ids.length <= 2) {
      const other = ids.find((id) => id !== me) ?? me;
      const group = unread.pms.find((g: any) => g.other_user_id === other);
      if (group) group.unread_message_ids.push(m.id);
      else {
        unread.pms.push({ other_user_id: other, sender_id: other, unread_message_ids: [m.id] });
        unread.pms.sort((a: any, b: any) => a.other_user_id - b.other_user_id);
      }
    } else {
      const key = ids.join(',');
      const group = unread.huddles.find((g: any) => g.user_ids_string === key);
      if (group) group.unread_message_ids.push(m.id);
      else {
        unread.huddles.push({ user_ids_string: key, unread_message_ids: [m.id] });
        unread.huddles.sort((a: any, b: any) => (a.user_ids_string < b.user_ids_string ? -1 : 1));
      }
    }
  }
  const wildcard = event.flags.includes('stream_wildcard_mentioned') || event.flags.includes('topic_wildcard_mentioned');
  if (event.flags.includes('mentioned') || (wildcard && !muted)) unread.mentions.push(m.id);
}

function applyMessage(state: State, event: Event, me: number): void {
  const m = event.message;
  state.max_message_id = Math.max(state.max_message_id, m.id);
  if (m.type === 'stream') {
    for (const c of channelObjects(state)) if (c.stream_id === m.stream_id && c.first_message_id === null) c.first_message_id = m.id;
  }
  applyUnreadMessage(state, event, me);
}

function applySubscription(state: State, event: Event, me: number): void {
  switch (event.op) {
    case 'add':
      for (const sub of event.subscriptions) {
        state.unsubscribed = state.unsubscribed.filter((s: any) => s.stream_id !== sub.stream_id);
        state.never_subscribed = state.never_subscribed.filter((s: any) => s.stream_id !== sub.stream_id);
        state.subscriptions.push(structuredClone(sub));
        // The event carries the whole channel as it is now: the channel list's copy catches up.
        for (const c of state.streams) if (c.stream_id === sub.stream_id) c.subscriber_count = sub.subscriber_count;
      }
      state.subscriptions.sort(byName);
      return;
    case 'remove':
      for (const { stream_id: id } of event.subscriptions) {
        const sub = state.subscriptions.find((s: any) => s.stream_id === id);
        state.subscriptions = state.subscriptions.filter((s: any) => s.stream_id !== id);
        if (sub) state.unsubscribed.push(sub);
        // No peer_remove comes for oneself: the client takes itself out.
        changeSubscribers(state, [id], [me], false);
      }
      state.unsubscribed.sort(byName);
      return;
    case 'update': {
      const sub = state.subscriptions.find((s: any) => s.stream_id === event.stream_id);
      sub[event.property] = event.value;
      if (event.property === 'is_muted') sub.in_home_view = !event.value;
      if (event.property === 'in_home_view') sub.is_muted = !event.value;
      return;
    }
    case 'peer_add':
    case 'peer_remove':
      changeSubscribers(state, event.stream_ids, event.user_ids, event.op === 'peer_add');
      return;
  }
  throw new Error(`subscription/${event.op} is not handled`);
}

function applyStream(state: State, event: Event): void {
  switch (event.op) {
    case 'create':
      for (const channel of event.streams) {
        if (state.streams.some((c: any) => c.stream_id === channel.stream_id)) continue;
        state.streams.push(structuredClone(channel));
        const subscribed = state.subscriptions.some((s: any) => s.stream_id === channel.stream_id);
        if (!subscribed) state.never_subscribed.push({ ...structuredClone(channel), subscribers: [] });
      }
      state.streams.sort(byName);
      state.never_subscribed.sort(byName);
      return;
    case 'delete': {
      const gone = new Set(event.stream_ids);
      for (const key of ['streams', 'subscriptions', 'unsubscribed', 'never_subscribed']) {
        state[key] = state[key].filter((c: any) => !gone.has(c.stream_id));
      }
      return;
    }
    case 'update':
      for (const c of channelObjects(state)) if (c.stream_id === event.stream_id) c[event.property] = event.value;
      return;
  }
  throw new Error(`stream/${event.op} is not handled`);
}

function applyRealmUser(state: State, event: Event): void {
  if (event.op !== 'update') throw new Error(`realm_user/${event.op} is not handled`);
  const { user_id: id, ...changes } = event.person;
  if (changes.is_active === false) {
    const person = state.realm_users.find((u: any) => u.user_id === id);
    state.realm_users = state.realm_users.filter((u: any) => u.user_id !== id);
    state.realm_non_active_users.push(person);
    state.realm_non_active_users.sort((a: any, b: any) => a.user_id - b.user_id);
    return;
  }
  const person = [...state.realm_users, ...state.realm_non_active_users].find((u: any) => u.user_id === id);
  Object.assign(person, changes);
}

function applyUserStatus(state: State, event: Event): void {
  const { type: _type, id: _id, user_id: userId, ...fields } = event;
  const status = { ...(state.user_status[userId] ?? {}), ...fields };
  for (const [key, value] of Object.entries(status)) if (value === '' || value === false) delete status[key];
  if (Object.keys(status).length === 0) delete state.user_status[userId];
  else state.user_status[userId] = status;
}

function applyDrafts(state: State, event: Event): void {
  if (event.op === 'add') state.drafts.push(...event.drafts);
  else if (event.op === 'update') state.drafts = state.drafts.map((d: any) => (d.id === event.draft.id ? event.draft : d));
  else if (event.op === 'remove') state.drafts = state.drafts.filter((d: any) => d.id !== event.draft_id);
  // Newest edit first, as /register lists them.
  state.drafts.sort((a: any, b: any) => b.timestamp - a.timestamp || b.id - a.id);
}

function applyScheduledMessages(state: State, event: Event): void {
  const id = (m: any) => m.scheduled_message_id;
  if (event.op === 'add') state.scheduled_messages.push(...event.scheduled_messages);
  else if (event.op === 'update') state.scheduled_messages = state.scheduled_messages.map((m: any) => (id(m) === id(event.scheduled_message) ? event.scheduled_message : m));
  else if (event.op === 'remove') state.scheduled_messages = state.scheduled_messages.filter((m: any) => id(m) !== event.scheduled_message_id);
  // Earliest delivery first, as /register lists them.
  state.scheduled_messages.sort((a: any, b: any) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || id(a) - id(b));
}

/** Marking messages read takes them out of every unread list (the only flag change exercised). */
function applyFlags(state: State, event: Event): void {
  if (event.flag !== 'read' || event.op !== 'add' || event.all) throw new Error('only add/read flag events are handled');
  const read = new Set<number>(event.messages);
  const unread = state.unread_msgs;
  for (const key of ['pms', 'streams', 'huddles']) {
    for (const group of unread[key]) {
      group.unread_message_ids = group.unread_message_ids.filter((id: number) => !read.has(id));
    }
    unread[key] = unread[key].filter((g: any) => g.unread_message_ids.length > 0);
  }
  unread.mentions = unread.mentions.filter((id: number) => !read.has(id));
}

/**
 * A presence event replaces the user's entry: the modern one as sent (simplified_presence_events),
 * or the legacy one rebuilt from its one client (`aggregated` is that client without `pushable`).
 * A slim_presence queue's events carry legacy data without the email, which cannot rebuild the
 * modern entries its state holds (Zulip's own apply_event reads the database there).
 */
function applyPresence(state: State, event: Event): void {
  if (event.presences) {
    Object.assign(state.presences, event.presences);
    return;
  }
  if (!('email' in event)) throw new Error('slim_presence events cannot update modern presence state');
  const website = event.presence.website;
  state.presences[event.email] = { aggregated: { client: website.client, status: website.status, timestamp: website.timestamp }, website };
}

/** Fold `events` (as GET /events returned them to user `me`) into `state`, in place. */
export function applyEvents(state: State, events: Event[], me: number): void {
  for (const event of events) {
    switch (event.type) {
      case 'message':
        applyMessage(state, event, me);
        break;
      case 'subscription':
        applySubscription(state, event, me);
        break;
      case 'stream':
        applyStream(state, event);
        break;
      case 'realm_user':
        applyRealmUser(state, event);
        break;
      case 'user_status':
        applyUserStatus(state, event);
        break;
      case 'drafts':
        applyDrafts(state, event);
        break;
      case 'update_message_flags':
        applyFlags(state, event);
        break;
      case 'alert_words':
        state.alert_words = event.alert_words;
        break;
      case 'muted_users':
        state.muted_users = event.muted_users;
        break;
      case 'presence':
        applyPresence(state, event);
        break;
      case 'scheduled_messages':
        applyScheduledMessages(state, event);
        break;
      case 'reaction':
      case 'heartbeat':
        // Reactions live in messages, which the state does not hold.
        break;
      default:
        throw new Error(`${event.type} events are not handled by the test's state keeper`);
    }
  }
  if (state.unread_msgs) recount(state);
}

/** Like Zulip's aggregation of its raw unread data: muted channels are listed but not counted. */
function recount(state: State): void {
  const unread = state.unread_msgs;
  const muted = new Set(state.subscriptions.filter((s: any) => s.is_muted).map((s: any) => s.stream_id));
  const size = (groups: { unread_message_ids: number[] }[]) => groups.reduce((n, g) => n + g.unread_message_ids.length, 0);
  unread.count = size(unread.pms) + size(unread.huddles) + size(unread.streams.filter((g: any) => !muted.has(g.stream_id)));
}
