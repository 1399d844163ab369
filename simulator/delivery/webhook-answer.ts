/**
 * What Zulip's outgoing_webhooks worker makes of one attempt to POST a trigger to a bot
 * (zerver/lib/outgoing_webhook.py: do_rest_call, process_success_response, the two interfaces'
 * process_success, fail_with_message, notify_bot_owner, request_retry), as plain decisions: what
 * is posted in the trigger's conversation, what the bot's owner is told, whether to try again.
 * Wording and order are Zulip's. No I/O here: webhook-delivery.ts carries the decisions out.
 */
import { isBlank, pythonBytesRepr, pythonStr, pythonStrRepr, pythonTruthy } from './python-text.ts';

/** zerver/lib/queue.py: an event is retried this many times (so tried at most four times). */
export const MAX_REQUEST_RETRIES = 3;

/** Zulip's settings.OUTGOING_WEBHOOK_TIMEOUT_SECONDS. */
export const OUTGOING_WEBHOOK_TIMEOUT_SECONDS = 10;

/** How one POST ended. */
export type AttemptResult =
  | { kind: 'response'; status: number; bytes: Uint8Array }
  /** requests.exceptions.Timeout */
  | { kind: 'timeout' }
  /** requests.exceptions.ConnectionError or ChunkedEncodingError: refused, reset, unreachable. */
  | { kind: 'connection_error' }
  /** Any other requests.exceptions.RequestException (InvalidSchema for a URL that is not http or https). */
  | { kind: 'exception'; type: string; message: string };

/** A message the bot posts: in the trigger's conversation, or as a direct message to its owner. */
export interface BotPost {
  to: 'conversation' | 'owner';
  content: string;
}

export type Decision =
  /** request_retry: try again (or, once the retries are spent, give up with `exhausted`). */
  | { retry: true; failure: string }
  /** Done: `delivered` when the bot answered 2xx with something Zulip could read. */
  | { retry: false; delivered: boolean; posts: BotPost[]; error: string | null };

/** What notify_bot_owner needs to know of the trigger. */
export interface TriggerInfo {
  /** message_link_url of the triggering message. */
  messageUrl: string;
  botFullName: string;
  /** event["command"]: the message's content. */
  command: string;
  /** The Slack-compatible interface (SLACK_INTERFACE): reads `text`, not `content`. */
  slack: boolean;
}

interface OwnerNotice {
  statusCode?: number;
  /** bytes: response.content; a string: response.text (repr() shows which). */
  responseContent?: Uint8Array | string;
  failureMessage?: string;
  exception?: { type: string; message: string };
}

/** notify_bot_owner's message. */
export function ownerNotice(info: TriggerInfo, notice: OwnerNotice): string {
  let text = `[A message](${info.messageUrl}) to your bot @_**${info.botFullName}** triggered an outgoing webhook.`;
  if (notice.exception) {
    text += `\nWhen trying to send a request to the webhook service, an exception of type ${notice.exception.type} occurred:\n\`\`\`\n${notice.exception.message}\n\`\`\``;
  } else if (notice.failureMessage) {
    text += `\n${notice.failureMessage}`;
  } else if (notice.statusCode === 407) {
    text += '\nThe URL configured for the webhook is for a private or disallowed network.';
  } else if (notice.statusCode) {
    text += `\nThe webhook got a response with status code *${notice.statusCode}*.`;
  }
  const content = notice.responseContent;
  if (content !== undefined && content.length > 0) {
    const shown = typeof content === 'string' ? pythonStrRepr(content) : pythonBytesRepr(content);
    text += `\nThe response contains the following payload:\n\`\`\`\n${shown}\n\`\`\``;
  }
  return text;
}

const failure = (text: string): BotPost => ({ to: 'conversation', content: `Failure! ${text}` });

/** response.text: the body decoded (requests decodes JSON as UTF-8). */
export function responseText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

/** JsonableError raised while reading a 2xx answer, or while posting what it says. */
export class AnswerError extends Error {}

/**
 * process_success_response up to the reply: the content to post, or null for nothing. Throws
 * AnswerError as Zulip raises JsonableError.
 */
export function replyContent(text: string, slack: boolean): string | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AnswerError('Invalid JSON in response');
  }
  // zulip_botserver before 2021-05 answered json.dumps("") when it had nothing to say.
  if (json === '') return null;
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new AnswerError('Invalid response format');
  const answer = json as Record<string, unknown>;
  let content: unknown;
  if (slack) {
    if (!('text' in answer)) return null;
    content = answer.text;
    // Zulip calls .strip() on it: anything but text fails there, and nothing is posted.
    if (content !== null && typeof content !== 'string') return null;
  } else {
    if (pythonTruthy(answer.response_not_required)) return null;
    // response_string is deprecated, and read first.
    if ('response_string' in answer) content = pythonStr(answer.response_string);
    else if ('content' in answer) content = pythonStr(answer.content);
    else return null;
  }
  if (content === null || isBlank(content as string)) return null;
  return content as string;
}

/** The notices when the answer could not be read or what it said could not be posted. */
export function answerRefused(info: TriggerInfo, error: string, text: string): BotPost[] {
  const failureMessage = `The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> ${error}`;
  return [failure(error), { to: 'owner', content: ownerNotice(info, { responseContent: text, failureMessage }) }];
}

/** do_rest_call: what one attempt's result means. */
export function decide(info: TriggerInfo, result: AttemptResult, timeoutSeconds = OUTGOING_WEBHOOK_TIMEOUT_SECONDS): Decision {
  switch (result.kind) {
    case 'timeout':
      return { retry: true, failure: `Request timed out after ${timeoutSeconds} seconds.` };
    case 'connection_error':
      return { retry: true, failure: 'A connection error occurred. Is my bot server down?' };
    case 'exception':
      return {
        retry: false,
        delivered: false,
        error: `${result.type}: ${result.message}`,
        posts: [
          failure(`An exception of type *${result.type}* occurred for message \`${info.command}\`! See the Zulip server logs for more information.`),
          { to: 'owner', content: ownerNotice(info, { exception: result }) },
        ],
      };
    case 'response': {
      if (result.status < 200 || result.status > 299) {
        return {
          retry: false,
          delivered: false,
          error: `Third party responded with ${result.status}`,
          posts: [failure(`Third party responded with ${result.status}`), { to: 'owner', content: ownerNotice(info, { statusCode: result.status, responseContent: result.bytes }) }],
        };
      }
      const text = responseText(result.bytes);
      try {
        const content = replyContent(text, info.slack);
        return { retry: false, delivered: true, error: null, posts: content === null ? [] : [{ to: 'conversation', content }] };
      } catch (error) {
        if (!(error instanceof AnswerError)) throw error;
        return { retry: false, delivered: false, error: error.message, posts: answerRefused(info, error.message, text) };
      }
    }
  }
}

/** request_retry's failure_processor, once the retries are spent. */
export function retriesExhausted(info: TriggerInfo, failureMessage: string): BotPost[] {
  return [failure('Bot is unavailable'), { to: 'owner', content: ownerNotice(info, { failureMessage }) }];
}

/** SlackOutgoingWebhookService.make_request for a direct message: no request, this answer. */
export const SLACK_DIRECT_MESSAGE_FAILURE: BotPost = failure("Slack outgoing webhooks don't support direct messages.");
