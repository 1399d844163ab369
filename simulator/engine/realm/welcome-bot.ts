/**
 * POST /realm/test_welcome_bot_custom_message (zulip.yaml test-welcome-bot-custom-message,
 * zerver/views/welcome_bot_custom_message.py): an administrator previews the organization's custom
 * welcome text; Welcome Bot sends it to them alone as a direct message, and the answer names it.
 * An empty text is refused before anything is sent.
 */
import { type Engine } from '../core.ts';
import { sendNotice } from '../channels/notifications.ts';
import { ChatError } from '../errors.ts';
import { outcome, type Outcome } from '../events/effects.ts';
import type { UserRecord } from '../state.ts';

/** The realm's Welcome Bot (settings.WELCOME_BOT, a system bot). */
export function welcomeBot(engine: Engine): UserRecord | undefined {
  for (const u of engine.state.users.values()) {
    if (u.is_system_bot && u.delivery_email.toLowerCase().startsWith('welcome-bot@')) return u;
  }
  return undefined;
}

export function sendTestWelcomeBotCustomMessage(engine: Engine, actor: UserRecord, text: string): Outcome<{ message_id: number }> {
  // The length check (MAX_REALM_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH) is the route's; emptiness is the view's own.
  if (text.length === 0) throw ChatError.badRequest('Message must not be empty');
  const bot = welcomeBot(engine);
  // A realm always has its system bots in Zulip; a fixture without one cannot send the preview.
  if (!bot) throw ChatError.badRequest('Welcome Bot is not available in this realm');
  // Zulip wraps the text (get_custom_welcome_message_string); the simulator sends the text itself,
  // which is what Zulip's own test checks (the text is contained in the message, sent by Welcome Bot).
  const sent = sendNotice(engine, bot, { kind: 'direct', users: [actor] }, text, []);
  return outcome({ message_id: sent.id }, sent.events);
}
