/**
 * One POST of an outgoing-webhook request to a bot's server, as Zulip's OutgoingSession makes it
 * (`User-Agent: ZulipOutgoingWebhook/<version>`, a timeout), classified as requests would raise:
 * an answer, a timeout, a connection error, or another exception. Only http and https are sent;
 * anything else is requests' InvalidSchema. The answer is read up to a cap, so a bot server can
 * neither hold the simulator longer than the timeout nor fill its memory.
 */
import { ZULIP_VERSION } from '../engine/realm/server-version.ts';
import { pythonStrRepr } from './python-text.ts';
import type { AttemptResult } from './webhook-answer.ts';

/** The part of fetch() delivery uses: pass your own to deliver without sockets, or through a proxy. */
export type WebhookFetch = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string; signal: AbortSignal; redirect: 'follow' },
) => Promise<{ status: number; arrayBuffer(): Promise<ArrayBuffer>; body?: unknown }>;

/** How much of an answer is read; the rest is cut off (Zulip posts at most 10,000 characters anyway). */
export const MAX_ANSWER_BYTES = 1024 * 1024;

export const WEBHOOK_USER_AGENT = `ZulipOutgoingWebhook/${ZULIP_VERSION}`;

export interface WebhookRequest {
  url: string;
  contentType: string;
  body: string;
}

class AttemptTimeout extends Error {}

interface ByteReader {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  cancel(reason?: unknown): Promise<void>;
}

/** The answer's bytes, at most MAX_ANSWER_BYTES of them. */
async function readCapped(response: Awaited<ReturnType<WebhookFetch>>): Promise<Uint8Array> {
  const stream = response.body as { getReader?: () => ByteReader } | null | undefined;
  if (!stream || typeof stream.getReader !== 'function') return new Uint8Array(await response.arrayBuffer()).subarray(0, MAX_ANSWER_BYTES);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done || !value) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes.subarray(0, MAX_ANSWER_BYTES);
}

/** POST once; never throws. `cancel` aborts it (a reset), which reads as a connection error. */
export async function postWebhook(fetchImpl: WebhookFetch, request: WebhookRequest, timeoutMs: number, cancel?: AbortSignal): Promise<AttemptResult> {
  let scheme: string;
  try {
    scheme = new URL(request.url).protocol;
  } catch {
    return { kind: 'exception', type: 'MissingSchema', message: `Invalid URL ${pythonStrRepr(request.url)}: No scheme supplied. Perhaps you meant https://${request.url}?` };
  }
  if (scheme !== 'http:' && scheme !== 'https:') {
    return { kind: 'exception', type: 'InvalidSchema', message: `No connection adapters were found for ${pythonStrRepr(request.url)}` };
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new AttemptTimeout()), timeoutMs);
  timer.unref?.();
  const onCancel = () => controller.abort(new Error('cancelled'));
  cancel?.addEventListener('abort', onCancel, { once: true });
  try {
    const response = await fetchImpl(request.url, {
      method: 'POST',
      headers: { 'content-type': request.contentType, 'user-agent': WEBHOOK_USER_AGENT, accept: '*/*' },
      body: request.body,
      signal: controller.signal,
      redirect: 'follow',
    });
    const bytes = await readCapped(response);
    const status = Number(response.status);
    return { kind: 'response', status: Number.isInteger(status) ? status : 0, bytes };
  } catch {
    return controller.signal.reason instanceof AttemptTimeout ? { kind: 'timeout' } : { kind: 'connection_error' };
  } finally {
    clearTimeout(timer);
    cancel?.removeEventListener('abort', onCancel);
  }
}
