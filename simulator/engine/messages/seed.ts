// Fixture history: the default realm's `messages` array, sent in order through the same
// check/do path as POST /messages (so rendering, recipients and flags are identical), with the
// fixture's timestamps and read/starred state, and no events (nobody was listening yet).
import type { FixtureMessage } from '../../../schemas/generated/types/chat/fixture.ts';
import { getUserByEmail, type Engine } from '../core.ts';
import { addReaction } from './reactions.ts';
import { checkSendMessage, doSendMessage } from './send.ts';
import { FLAG_BITS, getMessage, rowUserIds, setUserFlagBits, userFlagBits } from './store.ts';

function userByEmail(engine: Engine, email: string, where: string) {
  const user = getUserByEmail(engine, email);
  if (!user) throw new Error(`${where}: no user with email ${email}`);
  return user;
}

export function seedMessages(engine: Engine, messages: FixtureMessage[]): void {
  messages.forEach((m, index) => {
    const where = `messages[${index}]`;
    const sender = userByEmail(engine, m.sender, where);
    const isChannel = m.channel !== undefined;
    const checked = checkSendMessage(engine, sender, {
      type: isChannel ? 'stream' : 'private',
      // Fixture files name people by their real address; the API looks DM recipients up by API
      // email (hidden addresses name nobody there), so hand it the resolved IDs.
      to: isChannel ? JSON.stringify(m.channel) : JSON.stringify((m.to ?? []).map((e) => userByEmail(engine, e, where).id)),
      topic: m.topic ?? '',
      content: m.content,
      client: m.client ?? 'populate_db',
      readBySender: true,
      timestamp: m.timestamp,
    });
    const { value } = doSendMessage(engine, checked);
    const message = getMessage(engine.state.messages, value.id)!;
    const store = engine.state.messages;
    // Without read_by, the history is read by everyone (as populate_db leaves it for humans).
    const readers = m.read_by ? new Set(m.read_by.map((e) => userByEmail(engine, e, where).id)) : undefined;
    for (const userId of rowUserIds(message)) {
      const bits = userFlagBits(message, userId)!;
      const read = userId === sender.id || readers === undefined || readers.has(userId);
      setUserFlagBits(store, message, userId, read ? bits | FLAG_BITS.read : bits & ~FLAG_BITS.read);
    }
    for (const email of m.starred_by ?? []) {
      const user = userByEmail(engine, email, where);
      const bits = userFlagBits(message, user.id);
      if (bits === undefined) throw new Error(`${where}: ${email} did not receive this message`);
      setUserFlagBits(store, message, user.id, bits | FLAG_BITS.starred);
    }
    for (const r of m.reactions ?? []) {
      addReaction(engine, userByEmail(engine, r.user, where), value.id, {
        emojiName: r.emoji_name,
        emojiCode: undefined,
        reactionType: undefined,
      });
    }
  });
}
