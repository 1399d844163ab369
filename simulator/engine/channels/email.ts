/** GET /streams/{stream_id}/email_address (zerver/views/streams.py, zerver/lib/email_mirror_helpers.py). */
import { canAccessStreamContent, isAdmin, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { isUserInGroupSetting } from '../core.ts';
import { md5Hex } from '../md5.ts';
import type { UserRecord } from '../state.ts';

// ---------------------------------------------------------------- channel email address

/** Django's slugify after Zulip's non-word → '-' step; '' when non-ASCII letters would be lost. */
function emailSlug(name: string): string {
  const dashed = name.replace(/[^\p{L}\p{N}_]+/gu, '-');
  const ascii = dashed.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  if (/[^\x00-\x7f]/.test(ascii)) return '';
  return ascii
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .replace(/[-\s]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
}

export function streamEmailAddress(engine: Engine, actor: UserRecord, streamId: number, senderId: number | undefined): string {
  const stream = engine.state.streams.get(streamId);
  if (!stream || !canAccessStreamContent(engine, actor, stream)) throw ChatError.invalidChannelId();
  if (!isUserInGroupSetting(engine, actor.id, stream.groups.can_send_message_group)) {
    throw ChatError.badRequest('You do not have permission to post in this channel.');
  }
  const gateway = [...engine.state.users.values()].find((u) => u.is_system_bot && u.delivery_email.startsWith('emailgateway@'));
  let sender = senderId ?? gateway?.id ?? actor.id;
  if (senderId !== undefined && senderId !== actor.id && senderId !== gateway?.id) {
    const bot = engine.state.users.get(senderId);
    if (!bot || !bot.is_bot || bot.is_system_bot) throw ChatError.badRequest('No such bot');
    if (!isAdmin(actor) && bot.bot_owner_id !== actor.id) throw ChatError.insufficientPermission();
    sender = bot.id;
  }
  // One address per channel and sender (Zulip's ChannelEmailAddress): derived from the channel's secret.
  const token = sender === gateway?.id ? stream.email_token : md5Hex(`${stream.email_token}:${sender}`);
  const slug = emailSlug(stream.name);
  const local = `${slug ? `${slug}.` : ''}${token}.show-sender`;
  return engine.state.realm.email_gateway_pattern.replace('%s', local);
}
