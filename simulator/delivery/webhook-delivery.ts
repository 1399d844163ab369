/**
 * Outgoing webhooks delivered, as Zulip's outgoing_webhooks worker delivers them
 * (zerver/worker/outgoing_webhooks.py, zerver/lib/outgoing_webhook.py). The engine tells of each
 * trigger as the message is sent (`engine.onOutgoingWebhook`); this queues it, POSTs it to the
 * bot's URL when the send is over (the send never waits for a bot), and posts what comes back as
 * the bot's messages through the simulator's own front door (`POST /api/v1/messages` with the
 * bot's key), so that events, flags, the journal and faults see them as any message.
 *
 * One delivery at a time, in the order of the messages, as Zulip's single worker goes; a retry
 * goes to the back of the queue. Retries are due on the simulated clock, `retryDelaySeconds`
 * apart counted from the first attempt: moving the clock (or a request, or a real-time tick)
 * runs those that have come due, so a test on a manual clock decides when they happen. Each
 * outcome is kept beside its record for the outbox. A reset or restore drops the queue and
 * aborts the request in flight; nothing it brings back is posted into the new state.
 */
import type { WebhookDelivery } from '../../schemas/generated/types/control/control.ts';
import type { Engine } from '../engine/core.ts';
import { clockNow } from '../engine/time.ts';
import type { OutgoingWebhookTrigger } from '../engine/integrations/outgoing-webhooks.ts';
import type { OutgoingWebhookRecord } from '../engine/state.ts';
import { channelMessageUrl } from '../engine/markdown/hash.ts';
import type { RawRequest } from '../http/dispatch.ts';
import type { RawResponse } from '../http/envelope.ts';
import {
  answerRefused,
  decide,
  MAX_REQUEST_RETRIES,
  OUTGOING_WEBHOOK_TIMEOUT_SECONDS,
  responseText,
  retriesExhausted,
  SLACK_DIRECT_MESSAGE_FAILURE,
  type BotPost,
  type TriggerInfo,
} from './webhook-answer.ts';
import { postWebhook, type WebhookFetch } from './webhook-post.ts';

export interface WebhookDeliveryOptions {
  /** What sends the POST. Default: the platform's fetch. */
  fetch?: WebhookFetch;
  /** Zulip's OUTGOING_WEBHOOK_TIMEOUT_SECONDS. Default 10. */
  timeoutSeconds?: number;
  /** Simulated seconds between attempts, counted from the first one. Default 1. */
  retryDelaySeconds?: number;
}

/** One delivery's outcome, as the outbox shows it (schemas/control/control.schema.json: WebhookDelivery). */
export type WebhookDeliveryState = WebhookDelivery;

type Conversation = { type: 'stream'; streamId: number; topic: string } | { type: 'private'; userIds: readonly number[] };

interface Job {
  record: OutgoingWebhookRecord | null;
  botId: number;
  info: TriggerInfo;
  conversation: Conversation;
  firstAttemptAt: number | null;
  /** Due at this simulated moment; null: as soon as the queue gets to it. */
  dueAt: number | null;
  state: WebhookDeliveryState;
}

export interface WebhookDeliverer {
  /** What the engine calls for each trigger (set as `engine.onOutgoingWebhook`). */
  observe(trigger: OutgoingWebhookTrigger): void;
  /** Start whatever has come due (after a request, a clock move). */
  runDue(): void;
  /** Resolves once nothing is being delivered and nothing due is waiting (future retries aside). */
  settled(): Promise<void>;
  /** The outcome beside a record of `state.outgoingWebhooks`; undefined: never delivered here. */
  outcomeOf(record: OutgoingWebhookRecord): WebhookDeliveryState | undefined;
  /** Forget the queue and abandon the request in flight (the state it belonged to is gone). */
  reset(): void;
}

export interface DeliveryContext {
  getEngine(): Engine;
  /** The simulator's front door: the answers are posted through it. */
  handle(req: RawRequest): Promise<RawResponse>;
}

/** Zulip's encode_user_ids: sorted, with "-group" for three or more. */
function encodeUserIds(ids: readonly number[]): string {
  return [...ids].sort((a, b) => a - b).join(',') + (ids.length >= 3 ? '-group' : '');
}

/** message_link_url of the triggering message, as it was when sent. */
function messageUrl(engine: Engine, trigger: OutgoingWebhookTrigger): string {
  const { message } = trigger;
  const realmUrl = engine.state.realm.url;
  if (message.streamId !== null) {
    const name = engine.state.streams.get(message.streamId)?.name ?? '';
    return channelMessageUrl(realmUrl, message.streamId, name, message.topic, message.id);
  }
  return `${realmUrl}/#narrow/dm/${encodeUserIds(message.dmUserIds ?? [])}/near/${message.id}`;
}

function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/** The client Zulip records for these messages (get_client("OutgoingWebhookResponse")). */
const RESPONSE_CLIENT = 'OutgoingWebhookResponse';

export function createWebhookDelivery(context: DeliveryContext, options: WebhookDeliveryOptions = {}): WebhookDeliverer {
  const fetchImpl: WebhookFetch = options.fetch ?? ((url, init) => fetch(url, init));
  const timeoutSeconds = options.timeoutSeconds ?? OUTGOING_WEBHOOK_TIMEOUT_SECONDS;
  const retryDelay = options.retryDelaySeconds ?? 1;
  const outcomes = new WeakMap<OutgoingWebhookRecord, WebhookDeliveryState>();
  let queue: Job[] = [];
  let generation = 0;
  let busy = false;
  let inFlight: AbortController | null = null;
  let waiters: (() => void)[] = [];

  const now = (): number => clockNow(context.getEngine());

  function nextDue(): Job | undefined {
    if (queue.length === 0) return undefined;
    const present = now();
    return queue.find((job) => job.dueAt === null || job.dueAt <= present);
  }

  function wake(): void {
    if (busy || nextDue()) return;
    const resolve = waiters;
    waiters = [];
    for (const r of resolve) r();
  }

  /** Post one of the bot's messages through the front door: its id, or Zulip's refusal. */
  async function post(job: Job, message: BotPost): Promise<{ id: number } | { error: string } | null> {
    const engine = context.getEngine();
    const bot = engine.state.users.get(job.botId);
    if (!bot) return null;
    const fields = new URLSearchParams();
    if (message.to === 'owner') {
      // notify_bot_owner asserts an owner; without one there is nobody to tell.
      if (bot.bot_owner_id === null || bot.bot_owner_id === undefined) return null;
      fields.set('type', 'private');
      fields.set('to', JSON.stringify([bot.bot_owner_id]));
    } else if (job.conversation.type === 'stream') {
      fields.set('type', 'stream');
      fields.set('to', String(job.conversation.streamId));
      fields.set('topic', job.conversation.topic);
    } else {
      fields.set('type', 'private');
      fields.set('to', JSON.stringify(job.conversation.userIds));
    }
    fields.set('content', message.content);
    const response = await context.handle({
      method: 'POST',
      url: '/api/v1/messages',
      headers: {
        authorization: basicAuth(bot.delivery_email, bot.api_key),
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': RESPONSE_CLIENT,
      },
      body: fields.toString(),
    });
    let body: { id?: unknown; msg?: unknown } = {};
    try {
      body = JSON.parse(response.body) as typeof body;
    } catch {
      // A fault's made-up answer, or a dropped connection: no id to keep.
    }
    if (response.status === 200 && typeof body.id === 'number') return { id: body.id };
    return { error: typeof body.msg === 'string' ? body.msg : `HTTP ${response.status}` };
  }

  /** Post the messages a decision calls for, one after the other; false if the state was replaced meanwhile. */
  async function postAll(job: Job, gen: number, messages: readonly BotPost[]): Promise<boolean> {
    for (const message of messages) {
      if (gen !== generation) return false;
      const posted = await post(job, message);
      if (posted && 'id' in posted && gen === generation) job.state.message_ids.push(posted.id);
    }
    return gen === generation;
  }

  async function attempt(job: Job, gen: number): Promise<void> {
    const record = job.record;
    if (record === null) {
      job.state.status = 'failed';
      job.state.error = SLACK_DIRECT_MESSAGE_FAILURE.content.replace(/^Failure! /, '');
      await postAll(job, gen, [SLACK_DIRECT_MESSAGE_FAILURE]);
      return;
    }
    job.firstAttemptAt ??= now();
    job.state.status = 'sending';
    job.state.attempts += 1;
    job.state.next_attempt_at = null;
    const controller = new AbortController();
    inFlight = controller;
    const result = await postWebhook(fetchImpl, record, timeoutSeconds * 1000, controller.signal);
    inFlight = null;
    if (gen !== generation) return;
    if (result.kind === 'response') job.state.http_status = result.status;
    const decision = decide(job.info, result, timeoutSeconds);
    if (decision.retry) {
      job.state.error = decision.failure;
      if (job.state.attempts > MAX_REQUEST_RETRIES) {
        job.state.status = 'failed';
        await postAll(job, gen, retriesExhausted(job.info, decision.failure));
        return;
      }
      job.state.status = 'retrying';
      job.dueAt = job.firstAttemptAt + job.state.attempts * retryDelay;
      job.state.next_attempt_at = job.dueAt;
      queue.push(job);
      return;
    }
    job.state.status = decision.delivered ? 'delivered' : 'failed';
    job.state.error = decision.error;
    if (!decision.delivered || decision.posts.length === 0) {
      await postAll(job, gen, decision.posts);
      return;
    }
    // The answer itself: if Zulip refuses to post it, the bot and its owner hear why.
    const posted = await post(job, decision.posts[0]!);
    if (gen !== generation || !posted) return;
    if ('id' in posted) {
      job.state.message_ids.push(posted.id);
      return;
    }
    job.state.status = 'failed';
    job.state.error = posted.error;
    const text = result.kind === 'response' ? responseText(result.bytes) : '';
    await postAll(job, gen, answerRefused(job.info, posted.error, text));
  }

  async function pump(): Promise<void> {
    busy = true;
    try {
      for (let job = nextDue(); job; job = nextDue()) {
        queue.splice(queue.indexOf(job), 1);
        try {
          await attempt(job, generation);
        } catch (error) {
          // A bug here must not take the simulator down: the delivery is marked and the queue goes on.
          job.state.status = 'failed';
          job.state.error = String(error);
          console.error('simulator: delivering an outgoing webhook failed:', error);
        }
      }
    } finally {
      busy = false;
      wake();
    }
  }

  const delivery: WebhookDeliverer = {
    observe(trigger) {
      const engine = context.getEngine();
      const { message } = trigger;
      const state: WebhookDeliveryState = { status: 'queued', attempts: 0, http_status: null, error: null, next_attempt_at: null, message_ids: [] };
      if (trigger.record) outcomes.set(trigger.record, state);
      queue.push({
        record: trigger.record,
        botId: trigger.bot.id,
        info: { messageUrl: messageUrl(engine, trigger), botFullName: trigger.bot.full_name, command: message.content, slack: trigger.service.interface === 2 },
        conversation: message.streamId !== null ? { type: 'stream', streamId: message.streamId, topic: message.topic } : { type: 'private', userIds: message.dmUserIds ?? [] },
        firstAttemptAt: null,
        dueAt: null,
        state,
      });
      // After the send is over: Zulip queues the event when the message is committed.
      setImmediate(delivery.runDue);
    },
    runDue() {
      if (!busy && nextDue()) void pump();
    },
    settled() {
      delivery.runDue();
      if (!busy && !nextDue()) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    outcomeOf(record) {
      const state = outcomes.get(record);
      return state && structuredClone(state);
    },
    reset() {
      generation += 1;
      queue = [];
      inFlight?.abort();
      inFlight = null;
    },
  };
  return delivery;
}
