/**
 * Outgoing-webhook bots (bot_type 3): the requests Zulip's outgoing_webhooks worker would POST to
 * a bot's endpoint, recorded in `state.outgoingWebhooks` instead of sent (nothing leaves the
 * engine). A message triggers a bot as Zulip's get_service_bot_events decides: sent by a human,
 * mentioning the bot in a channel (`mention`) or with the bot among a direct message's recipients
 * (`direct_message`). The body is what the bot's interface makes of it, byte for byte: Zulip's
 * format as JSON (as Python's json.dumps writes it) or the Slack-compatible form; Slack-compatible
 * bots get nothing for direct messages (Zulip answers those with a failure message instead).
 * Whoever delivers the requests (simulator/delivery/) hears of each trigger through
 * `engine.onOutgoingWebhook`, the Slack direct messages included; the engine sends nothing.
 */
import type { Engine } from '../core.ts';
import { strictlyAscending } from '../fast/id-lists.ts';
import { formatMessage } from '../messages/format.ts';
import type { StoredMessage } from '../messages/store.ts';
import type { BotService, OutgoingWebhookRecord, UserRecord } from '../state.ts';

const OUTGOING_WEBHOOK_BOT = 3;
const SLACK_INTERFACE = 2;

/** One message triggering one service of an outgoing-webhook bot, as the message is sent. */
export interface OutgoingWebhookTrigger {
  /** The request Zulip POSTs, as recorded; null when Zulip sends none (a Slack-compatible bot's direct message). */
  record: OutgoingWebhookRecord | null;
  bot: UserRecord;
  service: BotService;
  message: StoredMessage;
  trigger: 'mention' | 'direct_message';
}

/** How many records `outgoingWebhooks` keeps; past it, the oldest half is dropped at once. */
export const OUTGOING_WEBHOOK_LIMIT = 1000;

/** Python's json.dumps with its defaults: `", "` and `": "` separators, non-ASCII as \u escapes. */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pythonFloat(value);
  if (typeof value === 'string') {
    return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return `{${entries.map(([k, v]) => `${pythonJsonDumps(k)}: ${pythonJsonDumps(v)}`).join(', ')}}`;
}

/** Python's repr of a float (always with a fractional part or an exponent). */
function pythonFloat(n: number): string {
  const text = String(n);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

/** urllib.parse.urlencode of string pairs (quote_plus: `~` stays, `!'()*` are escaped, spaces are `+`). */
function pythonUrlencode(pairs: readonly (readonly [string, string | number])[]): string {
  const quote = (text: string): string =>
    encodeURIComponent(text)
      .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
      .replace(/%20/g, '+');
  return pairs.map(([k, v]) => `${quote(k)}=${quote(String(v))}`).join('&');
}

function triggerFor(bot: UserRecord, message: StoredMessage, mentioned: ReadonlySet<number>): 'mention' | 'direct_message' | null {
  if (message.streamId !== null) return mentioned.has(bot.id) ? 'mention' : null;
  return message.dmUserIds?.includes(bot.id) ? 'direct_message' : null;
}

function requestBody(engine: Engine, bot: UserRecord, service: BotService, message: StoredMessage, trigger: string): { contentType: string; body: string } | null {
  const realm = engine.state.realm;
  if (service.interface === SLACK_INTERFACE) {
    if (message.streamId === null) return null;
    const channel = engine.state.streams.get(message.streamId);
    return {
      contentType: 'application/x-www-form-urlencoded',
      body: pythonUrlencode([
        ['token', service.token],
        ['team_id', `T${realm.id}`],
        ['team_domain', realm.host],
        ['channel_id', `C${message.streamId}`],
        ['channel_name', channel?.name ?? ''],
        ['thread_ts', message.timestamp],
        ['timestamp', message.timestamp],
        ['user_id', `U${message.senderId}`],
        ['user_name', engine.state.users.get(message.senderId)?.full_name ?? ''],
        ['text', message.content],
        ['trigger_word', trigger],
        ['service_id', bot.id],
      ]),
    };
  }
  const formatted = formatMessage(engine, message, { applyMarkdown: false, clientGravatar: false, allowEmptyTopicName: true });
  return {
    contentType: 'application/json',
    body: pythonJsonDumps({
      data: message.content,
      message: { ...formatted, rendered_content: message.renderedContent },
      bot_email: bot.email,
      bot_full_name: bot.full_name,
      token: service.token,
      trigger,
    }),
  };
}

/** Record what a just-sent message makes Zulip POST to outgoing-webhook bots, by ascending bot id. */
export function recordOutgoingWebhooks(engine: Engine, sender: UserRecord, message: StoredMessage, mentioned: ReadonlySet<number>): void {
  // Messages from bots never trigger service bots (Zulip's guard against loops).
  if (sender.is_bot) return;
  const candidates = message.streamId !== null ? [...mentioned] : [...(message.dmUserIds ?? [])];
  // Sorted only when out of order: a direct message's ids are ascending already, and a sort with
  // a comparator cost more than the rest of this function (its work arrays, a call per comparison).
  if (!strictlyAscending(candidates)) candidates.sort((a, b) => a - b);
  let records: OutgoingWebhookRecord[] | undefined;
  const observer = engine.onOutgoingWebhook;
  // Made only for an observer: most messages trigger nothing and most engines have none.
  let triggers: OutgoingWebhookTrigger[] | undefined;
  for (const id of candidates) {
    const bot = engine.state.users.get(id);
    if (!bot || !bot.is_active || !bot.is_bot || bot.bot_type !== OUTGOING_WEBHOOK_BOT) continue;
    const trigger = triggerFor(bot, message, mentioned);
    if (trigger === null) continue;
    for (const service of bot.bot_services) {
      const request = requestBody(engine, bot, service, message, trigger);
      const record = request && { botId: bot.id, url: service.base_url, ...request, trigger, messageId: message.id, timestamp: message.timestamp };
      if (record) (records ??= []).push(record);
      if (observer) (triggers ??= []).push({ record, bot, service, message, trigger });
    }
  }
  if (records !== undefined) {
    const log = engine.state.outgoingWebhooks;
    log.push(...records);
    if (log.length > OUTGOING_WEBHOOK_LIMIT) log.splice(0, log.length - OUTGOING_WEBHOOK_LIMIT / 2);
  }
  if (observer && triggers) for (const trigger of triggers) observer(trigger);
}
