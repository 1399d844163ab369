/**
 * What the simulated server sent out of the organization, read from the engine's records: emails
 * (state.outbox), push notifications (state.pushOutbox), Notification Bot's messages (from the
 * message store) and the requests outgoing-webhook bots get (state.outgoingWebhooks), with how
 * each was delivered when the simulator delivers them.
 */
import type { NotificationBotMessage, Outbox, OutgoingWebhook, WebhookDelivery } from '../../schemas/generated/types/control/control.ts';
import { notificationBot, type Engine } from '../engine/core.ts';
import type { OutgoingWebhookRecord } from '../engine/state.ts';

/** A record's delivery outcome, where the simulator delivers webhooks (delivery/webhook-delivery.ts). */
export type DeliveryOutcomes = (record: OutgoingWebhookRecord) => WebhookDelivery | undefined;

function webhookView(record: OutgoingWebhookRecord, outcomeOf: DeliveryOutcomes | undefined): OutgoingWebhook {
  const payload: Record<string, unknown> =
    record.contentType === 'application/json' ? (JSON.parse(record.body) as Record<string, unknown>) : Object.fromEntries(new URLSearchParams(record.body));
  const view: OutgoingWebhook = {
    bot_id: record.botId,
    url: record.url,
    content_type: record.contentType as OutgoingWebhook['content_type'],
    body: record.body,
    payload,
    trigger: record.trigger,
    message_id: record.messageId,
    timestamp: record.timestamp,
  };
  const delivery = outcomeOf?.(record);
  if (delivery) view.delivery = delivery;
  return view;
}

function notificationBotMessages(engine: Engine): NotificationBotMessage[] {
  const bot = notificationBot(engine);
  if (!bot) return [];
  const out: NotificationBotMessage[] = [];
  for (const m of engine.state.messages.messages) {
    if (m.senderId !== bot.id) continue;
    out.push(
      m.streamId !== null
        ? { id: m.id, timestamp: m.timestamp, type: 'stream', stream_id: m.streamId, topic: m.topic, content: m.content }
        : { id: m.id, timestamp: m.timestamp, type: 'private', recipient_ids: (m.dmUserIds ?? []).filter((id) => id !== bot.id), content: m.content },
    );
  }
  return out;
}

export function readOutbox(engine: Engine, outcomeOf?: DeliveryOutcomes): Outbox {
  const state = engine.state;
  return structuredClone({
    emails: state.outbox.map((e) => ({ to: e.to, template: e.template, context: e.context, timestamp: e.timestamp })),
    pushes: state.pushOutbox.map((p) => ({ user_id: p.userId, device_id: p.deviceId, token_kind: p.tokenKind, payload: p.payload, timestamp: p.timestamp })),
    notification_bot: notificationBotMessages(engine),
    outgoing_webhooks: state.outgoingWebhooks.map((record) => webhookView(record, outcomeOf)),
  });
}

/** Forget the emails, pushes and webhook requests recorded so far (Notification Bot's messages are messages: they stay). */
export function clearOutbox(engine: Engine): void {
  engine.state.outbox.length = 0;
  engine.state.pushOutbox.length = 0;
  engine.state.outgoingWebhooks.length = 0;
}
