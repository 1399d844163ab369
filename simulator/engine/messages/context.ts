// The Markdown renderer's view of the realm, as the sender sees it: active users for mentions,
// user groups, channels the sender can read (Zulip links only those), active realm emoji.
import { canAccessStreamContent, getStreamByName, type Engine } from '../core.ts';
import { findRealmEmojiByName } from '../emoji/index.ts';
import type { MentionableGroup, RenderContext } from '../markdown/index.ts';
import type { State, UserRecord } from '../state.ts';
import { topicKey } from './store.ts';

/** Every user in a group, through its subgroups (cycle-safe). */
export function groupMemberIds(state: State, groupId: number, seen = new Set<number>()): Set<number> {
  const out = new Set<number>();
  if (seen.has(groupId)) return out;
  seen.add(groupId);
  const group = state.userGroups.get(groupId);
  if (!group) return out;
  for (const id of group.members) out.add(id);
  for (const sub of group.subgroups) for (const id of groupMemberIds(state, sub, seen)) out.add(id);
  return out;
}

export function messageRenderContext(engine: Engine, sender: UserRecord | undefined): RenderContext {
  const state = engine.state;
  return {
    usersByName(name) {
      const key = name.toLowerCase();
      const out = [];
      for (const u of state.users.values()) {
        if (!u.is_system_bot && u.full_name.toLowerCase() === key) out.push({ id: u.id, full_name: u.full_name, is_active: u.is_active });
      }
      return out;
    },
    userById(id) {
      const u = state.users.get(id);
      return u && !u.is_system_bot ? { id: u.id, full_name: u.full_name, is_active: u.is_active } : undefined;
    },
    groupByName(name): MentionableGroup | undefined {
      for (const g of state.userGroups.values()) {
        if (g.name === name && !g.deactivated && !g.is_system_group) {
          return { id: g.id, name: g.name, memberIds: [...groupMemberIds(state, g.id)].sort((a, b) => a - b) };
        }
      }
      return undefined;
    },
    channelByName(name) {
      // Zulip matches linked channel names exactly (case included).
      const stream = getStreamByName(engine, name);
      if (!stream || stream.name !== name || stream.is_archived) return undefined;
      if (sender && !canAccessStreamContent(engine, sender, stream)) return undefined;
      return { id: stream.id, name: stream.name };
    },
    latestInTopic(channelId, topic) {
      const ids = state.messages.byTopic.get(channelId)?.get(topicKey(topic));
      return ids && ids.length > 0 ? ids[ids.length - 1] : undefined;
    },
    linkifiers: state.realm.linkifiers,
    realmEmoji(name) {
      const emoji = findRealmEmojiByName(state.realm.emoji, name);
      return emoji && !emoji.deactivated ? emoji : undefined;
    },
  };
}
