// The Markdown renderer's view of the realm, as the sender sees it: active users for mentions,
// user groups, channels the sender can read (Zulip links only those), active realm emoji.
import { canAccessStreamContent, getStreamByName, type Engine } from '../core.ts';
import { findRealmEmojiByName } from '../emoji/index.ts';
import type { LinkableChannel, MentionableGroup, MentionableUser, RenderContext } from '../markdown/index.ts';
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
  return new SenderRenderContext(engine, sender);
}

/**
 * One object per render with its lookups on the prototype: an object literal of seven closures
 * was eight allocations per message sent, for lookups a plain line never makes.
 */
class SenderRenderContext implements RenderContext {
  readonly linkifiers: RenderContext['linkifiers'];
  readonly linkifierCaches: RenderContext['linkifierCaches'];
  constructor(
    private readonly engine: Engine,
    private readonly sender: UserRecord | undefined,
  ) {
    this.linkifiers = engine.state.realm.linkifiers;
    this.linkifierCaches = engine.caches.linkifiers;
  }

  usersByName(name: string): MentionableUser[] {
    const key = name.toLowerCase();
    const out = [];
    for (const u of this.engine.state.users.values()) {
      if (!u.is_system_bot && u.full_name.toLowerCase() === key) out.push({ id: u.id, full_name: u.full_name, is_active: u.is_active });
    }
    return out;
  }

  userById(id: number): MentionableUser | undefined {
    const u = this.engine.state.users.get(id);
    return u && !u.is_system_bot ? { id: u.id, full_name: u.full_name, is_active: u.is_active } : undefined;
  }

  groupByName(name: string): MentionableGroup | undefined {
    const state = this.engine.state;
    for (const g of state.userGroups.values()) {
      if (g.name === name && !g.deactivated && !g.is_system_group) {
        return { id: g.id, name: g.name, memberIds: [...groupMemberIds(state, g.id)].sort((a, b) => a - b) };
      }
    }
    return undefined;
  }

  channelByName(name: string): LinkableChannel | undefined {
    // Zulip matches linked channel names exactly (case included).
    const stream = getStreamByName(this.engine, name);
    if (!stream || stream.name !== name || stream.is_archived) return undefined;
    if (this.sender && !canAccessStreamContent(this.engine, this.sender, stream)) return undefined;
    return { id: stream.id, name: stream.name };
  }

  latestInTopic(channelId: number, topic: string): number | undefined {
    const ids = this.engine.state.messages.byTopic.get(channelId)?.get(topicKey(topic));
    return ids && ids.length > 0 ? ids[ids.length - 1] : undefined;
  }

  realmEmoji(name: string): { id: string; source_url: string } | undefined {
    const emoji = findRealmEmojiByName(this.engine.state.realm.emoji, name);
    return emoji && !emoji.deactivated ? emoji : undefined;
  }
}
