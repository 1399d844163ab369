/**
 * Video-call meetings at the OAuth provider the specification calls `videocall` (Zulip's Webex
 * integration: zerver/views/video_calls.py). Nothing leaves the simulator:
 * whether the server has the provider's credentials and whether each user connected their
 * account are fixture data, and a successful call gets a made-up but realistic meeting link.
 */
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import type { Engine } from '../core.ts';
import type { UserRecord } from '../state.ts';

/** The provider's name as Zulip's error messages spell it. */
export const VIDEO_CALL_PROVIDER_NAME = 'Webex';

/** Does the user have a token for the provider (Zulip's has_webex_token; the spec's has_videocall_token)? */
export function hasVideoCallToken(user: UserRecord): boolean {
  return user.videocall_token !== null;
}

/**
 * The `video_calls` fetch type of /register: the specification's has_videocall_token, Zulip's
 * own name for the same flag (what real clients read), and the Zoom flag, always false here.
 */
export function videoCallsRegisterState(
  _engine: Engine,
  user: UserRecord,
): { has_zoom_token: boolean; has_videocall_token: boolean; has_webex_token: boolean } {
  const connected = hasVideoCallToken(user);
  return { has_zoom_token: false, has_videocall_token: connected, has_webex_token: connected };
}

/** A created meeting, or the provider's refusal (which may still have changed state: see below). */
export type VideoCallResult = { url: string } | { error: ChatError };

function invalidToken(): ChatError {
  return new ChatError('INVALID_VIDEO_CALL_PROVIDER_TOKEN', `Invalid ${VIDEO_CALL_PROVIDER_NAME} access token`);
}

/**
 * POST /calls/videocall/create. Without server credentials: `Webex credentials have not been
 * configured`; without a token: INVALID_VIDEO_CALL_PROVIDER_TOKEN. A token the provider rejects
 * is cleared before that same error, and the user is told (`has_videocall_token` and Zulip's
 * `has_webex_token`, false), so the refusal comes back as a value with its events rather than as
 * a thrown error.
 */
export function createVideoCall(engine: Engine, user: UserRecord): Outcome<VideoCallResult> {
  if (!engine.state.realm.videocall_provider_configured) {
    throw ChatError.badRequest(`${VIDEO_CALL_PROVIDER_NAME} credentials have not been configured`);
  }
  if (user.videocall_token === null) throw invalidToken();
  if (user.videocall_token === 'revoked') {
    user.videocall_token = null;
    // /register gives the flag under both names, so both are announced: the specification's, and
    // Zulip's own, which is the one real clients keep.
    const events: Effect[] = [
      effect({ type: 'has_videocall_token', value: false }, [user.id]),
      effect({ type: 'has_webex_token', value: false }, [user.id]),
    ];
    return outcome({ error: invalidToken() }, events);
  }
  // A personal-room meeting link in the provider's shape; the meeting id comes from the seeded
  // random source, so the same seed and requests give the same links.
  const site = engine.state.realm.string_id;
  const meetingId = engine.deps.random.string(32, '0123456789abcdef');
  return outcome({ url: `https://${site}.webex.com/${site}/j.php?MTID=m${meetingId}` });
}
