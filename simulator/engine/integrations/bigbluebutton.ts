/**
 * BigBlueButton calls (zerver/views/video_calls.py, get_bigbluebutton_url; operation
 * create-big-blue-button-video-call). Creating one talks to no BigBlueButton server: Zulip makes a
 * meeting id, signs the meeting's data with Django's Signer and hands back a link to its own
 * `/calls/bigbluebutton/join`, which is where the server's BigBlueButton settings are first needed.
 * So Zulip answers this whether or not BigBlueButton is configured, and so does the simulator.
 */
import { sha256 } from 'js-sha256';
import type { Engine } from '../core.ts';
import type { UserRecord } from '../state.ts';

/**
 * The simulator's Django SECRET_KEY, which Zulip's signed values are keyed with. A real server's
 * is secret; this one is fixed so that a test can check a signature.
 */
export const SIMULATOR_SECRET_KEY = 'zulip-simulator-secret-key-not-for-production';

/** Django's b64_encode: URL-safe base64 without padding. */
function b64Encode(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (ch) => ch.charCodeAt(0));

/** Python's json.dumps(obj, separators=(",", ":")): compact, and ASCII only (ensure_ascii). */
function pythonCompactJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * django.core.signing.Signer().sign_object(obj): the JSON, base64-encoded, then `:` and the
 * base64 of an HMAC-SHA256 keyed with sha256(salt + "signer" + SECRET_KEY), the salt being the
 * class's dotted name (salted_hmac in django/utils/crypto.py).
 */
export function djangoSignObject(obj: unknown, secretKey: string = SIMULATOR_SECRET_KEY): string {
  const value = b64Encode(latin1(pythonCompactJson(obj)));
  const key = sha256.array(`django.core.signing.Signersigner${secretKey}`);
  const signature = b64Encode(Uint8Array.from(sha256.hmac.array(key, value)));
  return `${value}:${signature}`;
}

/**
 * GET /calls/bigbluebutton/create: a meeting id `zulip-` and twelve digits (Zulip's
 * random.randint(100000000000, 999999999999), here from the seeded source), the meeting's name,
 * whether cameras are locked off (`voice_only`) and the caller as its moderator, signed into the
 * join link. No check beyond the parameters: any authenticated user may ask.
 */
export function bigBlueButtonUrl(engine: Engine, user: UserRecord, meetingName: string, voiceOnly: boolean): { url: string } {
  const { random } = engine.deps;
  const meetingId = `zulip-${random.int(1, 9)}${random.string(11, '0123456789')}`;
  const signed = djangoSignObject({
    meeting_id: meetingId,
    name: meetingName,
    lock_settings_disable_cam: voiceOnly,
    moderator: user.id,
  });
  // append_url_query_string adds the query as it is: the signed value needs no escaping.
  return { url: `/calls/bigbluebutton/join?bigbluebutton=${signed}` };
}
