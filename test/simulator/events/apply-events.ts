// A client-side state keeper, as Zulip's apply_event (zerver/lib/events.py) and the apps do it:
// fold a queue's events into a /register answer. It knows only what a client knows (the state and
// the events), never the server's data; where Zulip's own apply_event asks its database, this
// keeper derives the value from the state when it can (the realm's groups for permissions, the
// subscriptions and user_topics for what is muted) and the tests leave the rest out of their
// comparison. An event type it does not know throws, so a test cannot silently skip one.
type State = Record<string, any>;
type Event = Record<string, any>;

export interface KeeperOptions {
  /** /register's include_subscribers (subscriber lists are kept only when asked for). */
  includeSubscribers?: boolean;
  /** The queue's client_capabilities. */
  capabilities?: Record<string, boolean>;
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const ascending = (a: number, b: number) => a - b;

/** Event types that change nothing /register answers. */
const TRANSIENT = new Set(['heartbeat', 'reaction', 'typing', 'typing_edit_message', 'attachment', 'invites_changed', 'submessage', 'restart']);

/** Event type → the state key it maintains, for the types that maintain exactly one. */
const KEPT_IN: Record<string, string> = {
  subscription: 'subscriptions',
  user_status: 'user_status',
  user_topic: 'user_topics',
  drafts: 'drafts',
  scheduled_messages: 'scheduled_messages',
  presence: 'presences',
  saved_snippets: 'saved_snippets',
  navigation_view: 'navigation_views',
  channel_folder: 'channel_folders',
};

class Keeper {
  constructor(
    readonly state: State,
    readonly me: number,
    readonly options: KeeperOptions,
  ) {}

  has(key: string): boolean {
    return key in this.state;
  }

  capability(name: string): boolean {
    return this.options.capabilities?.[name] === true;
  }

  /** Every channel object the state holds, in every list that has them. */
  channelObjects(): Record<string, any>[] {
    return ['subscriptions', 'unsubscribed', 'never_subscribed', 'streams'].filter((k) => this.has(k)).flatMap((k) => this.state[k]);
  }

  subscriberLists(): Record<string, any>[] {
    return ['subscriptions', 'unsubscribed', 'never_subscribed'].filter((k) => this.has(k)).flatMap((k) => this.state[k]);
  }

  // ------------------------------------------------------------ messages and unread state

  /** Is a channel message in (stream, topic) muted for the observer, as unread counting sees it? */
  isMuted(streamId: number, topic: string): boolean {
    const policy = (this.state.user_topics ?? []).find(
      (t: any) => t.stream_id === streamId && t.topic_name.toLowerCase() === topic.toLowerCase(),
    )?.visibility_policy;
    if (policy === 1) return true;
    if (policy === 2 || policy === 3) return false;
    return (this.state.subscriptions ?? []).some((s: any) => s.stream_id === streamId && s.is_muted);
  }

  addUnread(id: number, conversation: { type: 'stream'; stream_id: number; topic: string } | { type: 'private'; user_ids: number[] }, mentioned: boolean): void {
    const unread = this.state.unread_msgs;
    if (conversation.type === 'stream') {
      const { stream_id: streamId, topic } = conversation;
      const group = unread.streams.find((g: any) => g.stream_id === streamId && g.topic.toLowerCase() === topic.toLowerCase());
      if (group) group.unread_message_ids = [...new Set([...group.unread_message_ids, id])].sort(ascending);
      else unread.streams.push({ stream_id: streamId, topic, unread_message_ids: [id] });
    } else {
      const others = conversation.user_ids.filter((u) => u !== this.me).sort(ascending);
      if (others.length <= 1) {
        const other = others[0] ?? this.me;
        const group = unread.pms.find((g: any) => g.other_user_id === other);
        if (group) group.unread_message_ids = [...new Set([...group.unread_message_ids, id])].sort(ascending);
        else unread.pms.push({ other_user_id: other, sender_id: other, unread_message_ids: [id] });
      } else {
        const key = [...others, this.me].sort(ascending).join(',');
        const group = unread.huddles.find((g: any) => g.user_ids_string === key);
        if (group) group.unread_message_ids = [...new Set([...group.unread_message_ids, id])].sort(ascending);
        else unread.huddles.push({ user_ids_string: key, unread_message_ids: [id] });
      }
    }
    if (mentioned && !unread.mentions.includes(id)) unread.mentions = [...unread.mentions, id].sort(ascending);
  }

  removeUnread(ids: Iterable<number>): void {
    const gone = new Set(ids);
    const unread = this.state.unread_msgs;
    for (const key of ['pms', 'streams', 'huddles']) {
      for (const group of unread[key]) group.unread_message_ids = group.unread_message_ids.filter((id: number) => !gone.has(id));
      unread[key] = unread[key].filter((g: any) => g.unread_message_ids.length > 0);
    }
    unread.mentions = unread.mentions.filter((id: number) => !gone.has(id));
  }

  message(event: Event): void {
    const m = event.message;
    if (this.has('max_message_id')) this.state.max_message_id = Math.max(this.state.max_message_id, m.id);
    if (m.type === 'stream') {
      for (const c of this.channelObjects()) if (c.stream_id === m.stream_id && c.first_message_id === null) c.first_message_id = m.id;
    } else if (this.has('recent_private_conversations')) {
      const userIds = (m.display_recipient as { id: number }[]).map((u) => u.id).filter((id) => id !== this.me).sort(ascending);
      const key = userIds.join(',');
      const list = this.state.recent_private_conversations.filter((c: any) => c.user_ids.join(',') !== key);
      list.push({ max_message_id: m.id, user_ids: userIds });
      this.state.recent_private_conversations = list.sort((a: any, b: any) => b.max_message_id - a.max_message_id);
    }
    if (!this.has('unread_msgs') || event.flags.includes('read')) return;
    const flags: string[] = event.flags;
    const wildcard = flags.includes('stream_wildcard_mentioned') || flags.includes('topic_wildcard_mentioned');
    if (m.type === 'stream') {
      const mentioned = flags.includes('mentioned') || (wildcard && !this.isMuted(m.stream_id, m.subject));
      this.addUnread(m.id, { type: 'stream', stream_id: m.stream_id, topic: m.subject }, mentioned);
    } else {
      const mentioned = flags.includes('mentioned') || wildcard;
      this.addUnread(m.id, { type: 'private', user_ids: (m.display_recipient as { id: number }[]).map((u) => u.id) }, mentioned);
    }
  }

  flags(event: Event): void {
    if (event.flag === 'read' && this.has('unread_msgs')) {
      if (event.op === 'add') {
        if (event.all) {
          const unread = this.state.unread_msgs;
          unread.pms = [];
          unread.streams = [];
          unread.huddles = [];
          unread.mentions = [];
        } else this.removeUnread(event.messages);
      } else {
        for (const [id, d] of Object.entries(event.message_details as Record<string, any>)) {
          const conversation = d.type === 'stream' ? { type: 'stream' as const, stream_id: d.stream_id, topic: d.topic } : { type: 'private' as const, user_ids: [...d.user_ids, this.me] };
          this.addUnread(Number(id), conversation, d.mentioned === true);
        }
      }
    }
    if (event.flag === 'starred' && this.has('starred_messages')) {
      const set = new Set<number>(this.state.starred_messages);
      for (const id of event.messages) event.op === 'add' ? set.add(id) : set.delete(id);
      this.state.starred_messages = [...set].sort(ascending);
    }
  }

  /** Moved messages change channel or topic in the unread lists; content edits change nothing here. */
  updateMessage(event: Event): void {
    if (!this.has('unread_msgs') || !('new_stream_id' in event || 'subject' in event)) return;
    const moved = new Set<number>(event.message_ids);
    const unread = this.state.unread_msgs;
    const movedUnread: { id: number; mentioned: boolean; streamId: number; topic: string }[] = [];
    for (const group of unread.streams) {
      for (const id of group.unread_message_ids) {
        if (moved.has(id)) movedUnread.push({ id, mentioned: unread.mentions.includes(id), streamId: group.stream_id, topic: group.topic });
      }
    }
    this.removeUnread(movedUnread.map((m) => m.id));
    for (const m of movedUnread) {
      this.addUnread(m.id, { type: 'stream', stream_id: event.new_stream_id ?? m.streamId, topic: event.subject ?? m.topic }, m.mentioned);
    }
  }

  deleteMessage(event: Event): void {
    const ids: number[] = event.message_ids ?? [event.message_id];
    if (this.has('unread_msgs')) this.removeUnread(ids);
    if (this.has('starred_messages')) this.state.starred_messages = this.state.starred_messages.filter((id: number) => !ids.includes(id));
  }

  // ------------------------------------------------------------ channels and subscriptions

  changeSubscribers(streamIds: number[], userIds: number[], add: boolean): void {
    const ids = new Set(streamIds);
    if (this.options.includeSubscribers) {
      for (const sub of this.subscriberLists()) {
        if (!ids.has(sub.stream_id) || !sub.subscribers) continue;
        const set = new Set<number>(sub.subscribers);
        for (const u of userIds) add ? set.add(u) : set.delete(u);
        sub.subscribers = [...set].sort(ascending);
      }
    }
    for (const c of this.channelObjects()) if (ids.has(c.stream_id)) c.subscriber_count += add ? userIds.length : -userIds.length;
  }

  subscription(event: Event): void {
    const s = this.state;
    switch (event.op) {
      case 'add':
        for (const sub of event.subscriptions) {
          s.unsubscribed = s.unsubscribed.filter((x: any) => x.stream_id !== sub.stream_id);
          s.never_subscribed = s.never_subscribed.filter((x: any) => x.stream_id !== sub.stream_id);
          const copy = structuredClone(sub);
          if (!this.options.includeSubscribers) delete copy.subscribers;
          s.subscriptions.push(copy);
          // The event carries the whole channel as it is now: the channel list's copy catches up.
          for (const c of s.streams ?? []) if (c.stream_id === sub.stream_id) c.subscriber_count = sub.subscriber_count;
        }
        s.subscriptions.sort(byName);
        return;
      case 'remove':
        for (const { stream_id: id } of event.subscriptions) {
          const sub = s.subscriptions.find((x: any) => x.stream_id === id);
          s.subscriptions = s.subscriptions.filter((x: any) => x.stream_id !== id);
          if (sub) s.unsubscribed.push(sub);
          // No peer_remove comes for oneself: the client takes itself out.
          this.changeSubscribers([id], [this.me], false);
        }
        s.unsubscribed.sort(byName);
        return;
      case 'update': {
        const sub = s.subscriptions.find((x: any) => x.stream_id === event.stream_id);
        sub[event.property] = event.value;
        if (event.property === 'is_muted') sub.in_home_view = !event.value;
        if (event.property === 'in_home_view') sub.is_muted = !event.value;
        return;
      }
      case 'peer_add':
      case 'peer_remove':
        this.changeSubscribers(event.stream_ids, event.user_ids, event.op === 'peer_add');
        return;
    }
    throw new Error(`subscription/${event.op} is not handled`);
  }

  /** Channels taken out by a delete, kept to put back where they were if the channel comes back. */
  private removedChannels = new Map<number, { list: string; channel: Record<string, any> }>();

  stream(event: Event): void {
    const s = this.state;
    switch (event.op) {
      case 'create':
        for (const channel of event.streams) {
          if (s.streams && !s.streams.some((c: any) => c.stream_id === channel.stream_id)) s.streams.push(structuredClone(channel));
          const known = this.subscriberLists().some((c) => c.stream_id === channel.stream_id);
          if (!known && 'subscriptions' in s) {
            const before = this.removedChannels.get(channel.stream_id);
            if (before && before.list !== 'never_subscribed') {
              s[before.list].push({ ...before.channel, ...structuredClone(channel), ...(this.options.includeSubscribers ? { subscribers: before.channel.subscribers } : {}) });
            } else s.never_subscribed.push({ ...structuredClone(channel), ...(this.options.includeSubscribers ? { subscribers: [] } : {}) });
          }
        }
        for (const key of ['streams', 'subscriptions', 'unsubscribed', 'never_subscribed']) s[key]?.sort(byName);
        return;
      case 'delete': {
        const gone = new Set(event.stream_ids);
        for (const key of ['subscriptions', 'unsubscribed', 'never_subscribed', 'streams']) {
          if (!s[key]) continue;
          for (const c of s[key]) if (gone.has(c.stream_id) && key !== 'streams') this.removedChannels.set(c.stream_id, { list: key, channel: c });
          s[key] = s[key].filter((c: any) => !gone.has(c.stream_id));
        }
        return;
      }
      case 'update':
        for (const c of this.channelObjects()) {
          if (c.stream_id !== event.stream_id) continue;
          c[event.property] = event.value;
          if ('rendered_description' in event) c.rendered_description = event.rendered_description;
          if ('history_public_to_subscribers' in event) c.history_public_to_subscribers = event.history_public_to_subscribers;
          if ('is_web_public' in event) c.is_web_public = event.is_web_public;
        }
        if (event.property === 'name') for (const key of ['streams', 'subscriptions', 'unsubscribed', 'never_subscribed']) s[key]?.sort(byName);
        return;
    }
    throw new Error(`stream/${event.op} is not handled`);
  }

  // ------------------------------------------------------------ users, bots, groups

  realmUser(event: Event): void {
    const s = this.state;
    if (!('realm_users' in s)) return;
    const person = event.person;
    const id = person.user_id;
    if (event.op === 'add') {
      const { is_active: _active, ...user } = structuredClone(person);
      s.realm_users = [...s.realm_users.filter((u: any) => u.user_id !== id), user].sort((a: any, b: any) => a.user_id - b.user_id);
      return;
    }
    if (event.op === 'remove') {
      s.realm_users = s.realm_users.filter((u: any) => u.user_id !== id);
      return;
    }
    if (event.op !== 'update') throw new Error(`realm_user/${event.op} is not handled`);
    if ('is_active' in person) {
      const from = person.is_active ? 'realm_non_active_users' : 'realm_users';
      const to = person.is_active ? 'realm_users' : 'realm_non_active_users';
      const user = s[from].find((u: any) => u.user_id === id);
      if (user) {
        s[from] = s[from].filter((u: any) => u.user_id !== id);
        s[to] = [...s[to], user].sort((a: any, b: any) => a.user_id - b.user_id);
      }
      if (!person.is_active) {
        // Deactivated accounts leave subscriber lists and group memberships without further events.
        if (this.options.includeSubscribers) for (const sub of this.subscriberLists()) if (sub.subscribers) sub.subscribers = sub.subscribers.filter((u: number) => u !== id);
        const dropFrom = (value: any) => {
          if (typeof value === 'object' && value !== null && Array.isArray(value.direct_members)) value.direct_members = value.direct_members.filter((u: number) => u !== id);
        };
        for (const g of s.realm_user_groups ?? []) {
          g.members = g.members.filter((u: number) => u !== id);
          for (const [key, value] of Object.entries(g)) if (key.startsWith('can_')) dropFrom(value);
        }
        for (const [key, value] of Object.entries(s)) if (key.startsWith('realm_can_') || key.endsWith('_group')) dropFrom(value);
      }
      return;
    }
    const user = [...s.realm_users, ...s.realm_non_active_users].find((u: any) => u.user_id === id);
    if (user) {
      for (const [key, value] of Object.entries(person)) if (key in user && key !== 'custom_profile_field') user[key] = value;
      if ('role' in person) {
        user.is_admin = person.role <= 200;
        user.is_owner = person.role === 100;
        user.is_guest = person.role === 600;
      }
      if ('new_email' in person) user.email = person.new_email;
      if ('custom_profile_field' in person && user.profile_data) {
        const field = person.custom_profile_field;
        if (field.value === null) delete user.profile_data[String(field.id)];
        else user.profile_data[String(field.id)] = 'rendered_value' in field ? { value: field.value, rendered_value: field.rendered_value } : { value: field.value };
      }
    }
    if (id === this.me) {
      for (const key of ['full_name', 'email', 'delivery_email', 'avatar_source', 'avatar_url', 'avatar_url_medium']) if (key in person && key in s) s[key] = person[key];
      if ('new_email' in person && 'email' in s) s.email = person.new_email;
      if ('role' in person && 'is_admin' in s) {
        s.is_admin = person.role <= 200;
        s.is_owner = person.role === 100;
        s.is_moderator = person.role <= 300;
        s.is_guest = person.role === 600;
      }
    }
  }

  realmBot(event: Event): void {
    const s = this.state;
    if (!('realm_bots' in s)) return;
    const bot = event.bot;
    if (event.op === 'add') s.realm_bots = [...s.realm_bots.filter((b: any) => b.user_id !== bot.user_id), structuredClone(bot)];
    else if (event.op === 'delete') s.realm_bots = s.realm_bots.filter((b: any) => b.user_id !== bot.user_id);
    else if (event.op === 'update') {
      const known = s.realm_bots.find((b: any) => b.user_id === bot.user_id);
      if (known) Object.assign(known, bot);
    } else throw new Error(`realm_bot/${event.op} is not handled`);
    s.realm_bots.sort((a: any, b: any) => a.user_id - b.user_id);
  }

  userGroup(event: Event): void {
    const s = this.state;
    if (!('realm_user_groups' in s)) return;
    const group = s.realm_user_groups.find((g: any) => g.id === event.group_id);
    // Events about a group the client does not list (a deactivated one) change nothing it shows.
    if (!group && event.op !== 'add') return;
    switch (event.op) {
      case 'add':
        s.realm_user_groups = [...s.realm_user_groups, structuredClone(event.group)].sort((a: any, b: any) => a.id - b.id);
        return;
      case 'update':
        Object.assign(group, event.data);
        return;
      case 'add_members':
        group.members = [...new Set([...group.members, ...event.user_ids])].sort(ascending);
        return;
      case 'remove_members':
        group.members = group.members.filter((u: number) => !event.user_ids.includes(u));
        return;
      case 'add_subgroups':
        group.direct_subgroup_ids = [...new Set([...group.direct_subgroup_ids, ...event.direct_subgroup_ids])].sort(ascending);
        return;
      case 'remove_subgroups':
        group.direct_subgroup_ids = group.direct_subgroup_ids.filter((g: number) => !event.direct_subgroup_ids.includes(g));
        return;
      case 'remove':
        s.realm_user_groups = s.realm_user_groups.filter((g: any) => g.id !== event.group_id);
        return;
    }
    throw new Error(`user_group/${event.op} is not handled`);
  }

  // ------------------------------------------------------------ the realm

  realm(event: Event): void {
    const s = this.state;
    // Only a client that fetched the realm bundle keeps its keys.
    if (!('realm_name' in s)) return;
    if (event.op === 'update') {
      s[`realm_${event.property}`] = event.value;
      if (event.property === 'message_edit_history_visibility_policy') s.realm_allow_edit_history = event.value !== 'none';
      if (event.property === 'jitsi_server_url') s.jitsi_server_url = event.value ?? s.server_jitsi_server_url;
      return;
    }
    if (event.op === 'update_dict') {
      for (const [key, value] of Object.entries(event.data as Record<string, unknown>)) {
        if (key === 'max_file_upload_size_mib') s.max_file_upload_size_mib = value;
        else s[`realm_${key}`] = value;
      }
      return;
    }
    throw new Error(`realm/${event.op} is not handled`);
  }

  // ------------------------------------------------------------ personal data

  userSettings(event: Event): void {
    const s = this.state;
    if (s.user_settings) s.user_settings[event.property] = event.value;
    // Legacy top-level copies, for clients that fetched them.
    if (event.property in s) s[event.property] = event.value;
  }

  userStatus(event: Event): void {
    const { type: _type, id: _id, user_id: userId, ...fields } = event;
    const status = { ...(this.state.user_status[userId] ?? {}), ...fields };
    for (const [key, value] of Object.entries(status)) if (value === '' || value === false) delete status[key];
    if (status.reaction_type !== undefined && status.emoji_name === undefined) delete status.reaction_type;
    if (Object.keys(status).length === 0) delete this.state.user_status[userId];
    else this.state.user_status[userId] = status;
  }

  userTopic(event: Event): void {
    const s = this.state;
    const rest = s.user_topics.filter((t: any) => !(t.stream_id === event.stream_id && t.topic_name === event.topic_name));
    if (event.visibility_policy !== 0) {
      rest.push({ stream_id: event.stream_id, topic_name: event.topic_name, last_updated: event.last_updated, visibility_policy: event.visibility_policy });
    }
    s.user_topics = rest;
  }

  drafts(event: Event): void {
    const s = this.state;
    if (event.op === 'add') s.drafts.push(...event.drafts);
    else if (event.op === 'update') s.drafts = s.drafts.map((d: any) => (d.id === event.draft.id ? event.draft : d));
    else if (event.op === 'remove') s.drafts = s.drafts.filter((d: any) => d.id !== event.draft_id);
    // Newest edit first, as /register lists them.
    s.drafts.sort((a: any, b: any) => b.timestamp - a.timestamp || b.id - a.id);
  }

  scheduledMessages(event: Event): void {
    const s = this.state;
    const id = (m: any) => m.scheduled_message_id;
    if (event.op === 'add') s.scheduled_messages.push(...event.scheduled_messages);
    else if (event.op === 'update') s.scheduled_messages = s.scheduled_messages.map((m: any) => (id(m) === id(event.scheduled_message) ? event.scheduled_message : m));
    else if (event.op === 'remove') s.scheduled_messages = s.scheduled_messages.filter((m: any) => id(m) !== event.scheduled_message_id);
    else throw new Error(`scheduled_messages/${event.op} is not handled`);
    // Earliest delivery first, as /register lists them.
    s.scheduled_messages.sort((a: any, b: any) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || id(a) - id(b));
  }

  /**
   * A presence event replaces the user's entry: the modern one as sent (simplified_presence_events),
   * or the legacy one rebuilt from its one client (`aggregated` is that client without `pushable`).
   * A slim_presence queue's events carry legacy data without the email, which cannot rebuild the
   * modern entries its state holds (Zulip's own apply_event reads the database there).
   */
  presence(event: Event): void {
    const s = this.state;
    if (event.presences) {
      Object.assign(s.presences, event.presences);
      return;
    }
    if (!('email' in event)) throw new Error('slim_presence events cannot update modern presence state');
    const website = event.presence.website;
    s.presences[event.email] = { aggregated: { client: website.client, status: website.status, timestamp: website.timestamp }, website };
  }

  savedSnippets(event: Event): void {
    const s = this.state;
    if (event.op === 'add') s.saved_snippets.push(event.saved_snippet);
    else if (event.op === 'update') s.saved_snippets = s.saved_snippets.map((x: any) => (x.id === event.saved_snippet.id ? event.saved_snippet : x));
    else if (event.op === 'remove') s.saved_snippets = s.saved_snippets.filter((x: any) => x.id !== event.saved_snippet_id);
    else throw new Error(`saved_snippets/${event.op} is not handled`);
  }

  navigationView(event: Event): void {
    const s = this.state;
    if (event.op === 'add') s.navigation_views.push(event.navigation_view);
    else if (event.op === 'update') Object.assign(s.navigation_views.find((v: any) => v.fragment === event.fragment), event.data);
    else if (event.op === 'remove') s.navigation_views = s.navigation_views.filter((v: any) => v.fragment !== event.fragment);
    else throw new Error(`navigation_view/${event.op} is not handled`);
  }

  channelFolder(event: Event): void {
    const s = this.state;
    if (event.op === 'add') s.channel_folders = [...s.channel_folders, event.channel_folder].sort((a: any, b: any) => a.id - b.id);
    else if (event.op === 'update') Object.assign(s.channel_folders.find((f: any) => f.id === event.channel_folder_id), event.data);
    else if (event.op === 'reorder') {
      const order = new Map((event.order as number[]).map((id, i) => [id, i]));
      for (const f of s.channel_folders) f.order = order.get(f.id);
      s.channel_folders.sort((a: any, b: any) => a.order - b.order);
    } else throw new Error(`channel_folder/${event.op} is not handled`);
  }

  customProfileFields(event: Event): void {
    const s = this.state;
    if ('custom_profile_fields' in s) s.custom_profile_fields = event.fields;
    const ids = new Set((event.fields as { id: number }[]).map((f) => String(f.id)));
    for (const user of [...(s.realm_users ?? []), ...(s.realm_non_active_users ?? [])]) {
      if (!user.profile_data) continue;
      for (const key of Object.keys(user.profile_data)) if (!ids.has(key)) delete user.profile_data[key];
    }
  }

  /** Events carrying a whole value: kept only by clients that fetched it. */
  replace(key: string, value: unknown): void {
    if (key in this.state) this.state[key] = structuredClone(value);
  }

  apply(event: Event): void {
    const s = this.state;
    const needs = KEPT_IN[event.type];
    // A client keeps only what it fetched: events about anything else change nothing for it.
    if (needs !== undefined && !(needs in s)) return;
    switch (event.type) {
      case 'message':
        return this.message(event);
      case 'update_message_flags':
        return this.flags(event);
      case 'update_message':
        return this.updateMessage(event);
      case 'delete_message':
        return this.deleteMessage(event);
      case 'subscription':
        return this.subscription(event);
      case 'stream':
        return this.stream(event);
      case 'default_streams':
        return this.replace('realm_default_streams', event.default_streams);
      case 'realm_user':
        return this.realmUser(event);
      case 'realm_bot':
        return this.realmBot(event);
      case 'user_group':
        return this.userGroup(event);
      case 'realm':
        return this.realm(event);
      case 'realm_emoji':
        return this.replace('realm_emoji', event.realm_emoji);
      case 'realm_linkifiers':
        // Zulip's apply_event ignores them for clients that cannot read URL templates.
        if (this.capability('linkifier_url_template')) this.replace('realm_linkifiers', event.realm_linkifiers);
        return;
      case 'custom_profile_fields':
        return this.customProfileFields(event);
      case 'user_settings':
        return this.userSettings(event);
      case 'update_display_settings':
        return this.replace(event.setting_name, event.setting);
      case 'update_global_notifications':
        return this.replace(event.notification_name, event.setting);
      case 'user_status':
        return this.userStatus(event);
      case 'user_topic':
        return this.userTopic(event);
      case 'muted_topics':
        return this.replace('muted_topics', event.muted_topics);
      case 'drafts':
        return this.drafts(event);
      case 'scheduled_messages':
        return this.scheduledMessages(event);
      case 'presence':
        return this.presence(event);
      case 'saved_snippets':
        return this.savedSnippets(event);
      case 'navigation_view':
        return this.navigationView(event);
      case 'channel_folder':
        return this.channelFolder(event);
      case 'alert_words':
        return this.replace('alert_words', event.alert_words);
      case 'muted_users':
        return this.replace('muted_users', event.muted_users);
      case 'has_zoom_token':
      case 'has_webex_token':
      case 'has_videocall_token':
        if (event.type in s) s[event.type] = event.value;
        return;
      default:
        if (TRANSIENT.has(event.type)) return;
        throw new Error(`${event.type} events are not handled by the test's state keeper`);
    }
  }

  /** Does the realm's group setting `value` include the observer (through subgroups too)? */
  inGroupSetting(value: number | { direct_members: number[]; direct_subgroups: number[] }): boolean {
    const groups = new Map<number, any>(this.state.realm_user_groups.map((g: any) => [g.id, g]));
    const seen = new Set<number>();
    const inGroup = (id: number): boolean => {
      if (seen.has(id)) return false;
      seen.add(id);
      const g = groups.get(id);
      return g !== undefined && (g.members.includes(this.me) || g.direct_subgroup_ids.some(inGroup));
    };
    return typeof value === 'number' ? inGroup(value) : value.direct_members.includes(this.me) || value.direct_subgroups.some(inGroup);
  }

  /**
   * The observer's own rights follow the realm's group settings and the observer's groups (a role
   * change moves them between system groups): recomputed when the client has both.
   */
  recomputeOwnRights(): void {
    const s = this.state;
    if (!('can_create_public_streams' in s) || !('realm_name' in s) || !('realm_user_groups' in s)) return;
    s.can_create_public_streams = this.inGroupSetting(s.realm_can_create_public_channel_group);
    s.can_create_private_streams = this.inGroupSetting(s.realm_can_create_private_channel_group);
    s.can_create_web_public_streams = s.realm_enable_spectator_access && this.inGroupSetting(s.realm_can_create_web_public_channel_group);
    s.can_create_streams = s.can_create_public_streams || s.can_create_private_streams || s.can_create_web_public_streams;
    s.can_invite_others_to_realm = this.inGroupSetting(s.realm_can_invite_users_group);
  }

  /** Like Zulip's aggregation of its raw unread data: muted conversations are listed, not counted. */
  recount(): void {
    const unread = this.state.unread_msgs;
    if (!unread) return;
    const size = (groups: { unread_message_ids: number[] }[]) => groups.reduce((n, g) => n + g.unread_message_ids.length, 0);
    unread.streams.sort((a: any, b: any) => a.stream_id - b.stream_id || (a.topic.toLowerCase() < b.topic.toLowerCase() ? -1 : a.topic.toLowerCase() > b.topic.toLowerCase() ? 1 : 0));
    unread.pms.sort((a: any, b: any) => a.other_user_id - b.other_user_id);
    unread.huddles.sort((a: any, b: any) => (a.user_ids_string < b.user_ids_string ? -1 : 1));
    unread.count = size(unread.pms) + size(unread.huddles) + size(unread.streams.filter((g: any) => !this.isMuted(g.stream_id, g.topic)));
  }
}

/** Fold `events` (as GET /events returned them to user `me`) into `state`, in place. */
export function applyEvents(state: State, events: Event[], me: number, options: KeeperOptions = { includeSubscribers: true }): void {
  const keeper = new Keeper(state, me, options);
  for (const event of events) keeper.apply(event);
  keeper.recount();
  keeper.recomputeOwnRights();
}
