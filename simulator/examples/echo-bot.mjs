#!/usr/bin/env node
// @ts-check
// An echo bot written with zulip-js, Zulip's JavaScript client: it answers every direct message
// with the same text, and every channel message that mentions it in the same topic. It runs as
// well against `npm run simulator` as against a real Zulip server:
//
//   ZULIP_EMAIL=default-bot@zulip.com ZULIP_API_KEY=<its key, printed by npm run simulator> \
//     node simulator/examples/echo-bot.mjs
//
// ZULIP_SITE is the server (default http://127.0.0.1:9991, the simulator's address); ZULIPRC may
// name a zuliprc file instead of the three variables. Ctrl-C (or SIGTERM) deletes its event queue
// and exits.
//
// It keeps its own event loop rather than zulip-js's callOnEachEvent, which cannot be stopped and
// keeps polling a queue the server has garbage-collected: this one registers again when the server
// answers BAD_EVENT_QUEUE_ID, as Zulip's Python client does.
import zulipInit from 'zulip-js';

/** @typedef {{ id: number, sender_id: number, sender_email: string, type: 'stream' | 'private', content: string, display_recipient: string | { id: number }[], subject: string }} Message */
/** @typedef {{ id: number, type: string, message?: Message, flags?: string[] }} ZulipEvent */

/** The bot's credentials: a zuliprc file, or the environment (as Zulip's own tools read them). */
function config() {
  if (process.env.ZULIPRC) return { zuliprc: process.env.ZULIPRC };
  const username = process.env.ZULIP_EMAIL;
  const apiKey = process.env.ZULIP_API_KEY;
  if (!username || !apiKey) {
    console.error('Set ZULIP_EMAIL and ZULIP_API_KEY (and ZULIP_SITE unless it is http://127.0.0.1:9991), or ZULIPRC.');
    process.exit(2);
  }
  return { username, apiKey, realm: process.env.ZULIP_SITE ?? 'http://127.0.0.1:9991' };
}

/**
 * What to answer to a message, or null: the bot's own messages and channel messages that do not
 * mention it get no answer.
 * @param {Message} message
 * @param {string[]} flags
 * @param {number} me
 */
function replyTo(message, flags, me) {
  if (message.sender_id === me) return null;
  if (message.type === 'private') {
    const others = /** @type {{ id: number }[]} */ (message.display_recipient).map((u) => u.id).filter((id) => id !== me);
    return { type: 'private', to: others, content: message.content };
  }
  if (!flags.includes('mentioned')) return null;
  // The mention itself (`@**Name**`) is not worth echoing.
  const text = message.content.replace(/@_?\*\*[^*]+\*\*/g, '').trim();
  return { type: 'stream', to: message.display_recipient, topic: message.subject, content: text || 'You called?' };
}

async function main() {
  const client = await zulipInit(config());
  const me = await client.users.me.getProfile();
  if (me.result !== 'success') throw new Error(`cannot log in: ${me.msg}`);

  /** @type {string | null} */
  let queueId = null;
  let lastEventId = -1;
  let stopping = false;

  async function register() {
    const res = await client.queues.register({ event_types: ['message'] });
    if (res.result !== 'success') throw new Error(`cannot register an event queue: ${res.msg}`);
    queueId = res.queue_id;
    lastEventId = res.last_event_id;
    console.log(`echo bot ready as ${me.email} (user ${me.user_id}), event queue ${queueId}`);
  }

  async function stop() {
    if (stopping) return;
    stopping = true;
    if (queueId !== null) await client.queues.deregister({ queue_id: queueId }).catch(() => {});
    process.exit(0);
  }
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  await register();
  while (!stopping) {
    /** @type {{ result: string, code?: string, msg?: string, events?: ZulipEvent[] }} */
    let res;
    try {
      res = await client.events.retrieve({ queue_id: queueId, last_event_id: lastEventId });
    } catch (error) {
      // The server went away for a moment: wait, then poll again.
      console.error(`polling failed: ${error}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      continue;
    }
    if (res.result !== 'success') {
      if (res.code === 'BAD_EVENT_QUEUE_ID') {
        await register();
        continue;
      }
      throw new Error(`cannot read events: ${res.msg}`);
    }
    for (const event of res.events ?? []) {
      lastEventId = Math.max(lastEventId, event.id);
      if (event.type !== 'message' || !event.message) continue;
      const reply = replyTo(event.message, event.flags ?? [], me.user_id);
      if (reply === null) continue;
      const sent = await client.messages.send(reply);
      if (sent.result !== 'success') console.error(`could not answer message ${event.message.id}: ${sent.msg}`);
    }
  }
}

main().catch((error) => {
  console.error(String(error));
  process.exit(1);
});
