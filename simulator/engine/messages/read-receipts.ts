/**
 * GET /messages/{message_id}/read_receipts (zerver/views/read_receipts.py): who has read a
 * message the viewer can access, when the realm has read receipts on. Read means a UserMessage
 * row with the read flag; the sender, deactivated accounts, those who turned send_read_receipts
 * off, those who muted the viewer and those the viewer muted are left out. Bots count like
 * anyone else (Zulip's own comment: a bot may use the read flag to show what it processed).
 */
import type { Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { accessMessage } from './fetch.ts';
import { FLAG_BITS, rowUserIds, userFlagBits } from './store.ts';
import type { UserRecord } from '../state.ts';
import { settingValue } from '../users/settings.ts';

export function readReceipts(engine: Engine, viewer: UserRecord, messageId: number): { user_ids: number[] } {
  const { message } = accessMessage(engine, viewer, messageId);
  if (!engine.state.realm.enable_read_receipts) throw ChatError.badRequest('Read receipts are disabled in this organization.');
  const mutedByViewer = engine.state.mutedUsers.get(viewer.id);
  const userIds = rowUserIds(message).filter((id) => {
    if (id === message.senderId) return false;
    const reader = engine.state.users.get(id);
    if (!reader || !reader.is_active || settingValue(reader, 'send_read_receipts') !== true) return false;
    if (mutedByViewer?.has(id) || engine.state.mutedUsers.get(id)?.has(viewer.id)) return false;
    return ((userFlagBits(message, id) ?? 0) & FLAG_BITS.read) !== 0;
  });
  return { user_ids: userIds };
}
