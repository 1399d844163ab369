/**
 * Markdown for channel descriptions (`rendered_description`) and custom profile values
 * (`rendered_value`), through the Zulip-flavoured message renderer (markdown/) so emoji, mentions
 * and channel links look as they do in messages.
 */
import { findRealmEmojiByName } from '../emoji/index.ts';
import { renderMarkdown, type RenderContext } from './index.ts';
import type { State } from '../state.ts';

export function renderContext(state: State): RenderContext {
  return {
    usersByName(name) {
      const key = name.toLowerCase();
      return [...state.users.values()]
        .filter((u) => u.is_active && u.full_name.toLowerCase() === key)
        .map((u) => ({ id: u.id, full_name: u.full_name }));
    },
    userById(id) {
      const u = state.users.get(id);
      return u ? { id: u.id, full_name: u.full_name } : undefined;
    },
    channelByName(name) {
      const id = state.streamsByName.get(name.toLowerCase());
      const s = id === undefined ? undefined : state.streams.get(id);
      return s ? { id: s.id, name: s.name } : undefined;
    },
    realmEmoji(name) {
      const emoji = findRealmEmojiByName(state.realm.emoji, name);
      return emoji && !emoji.deactivated ? emoji : undefined;
    },
  };
}

export function renderDescription(state: State, description: string): string {
  if (description.trim() === '') return '';
  return renderMarkdown(description, renderContext(state)).html;
}
