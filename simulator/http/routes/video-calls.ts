/**
 * Video-call creation (zerver/views/video_calls.py). The specification's neutral path is canonical;
 * Zulip's own path for the same provider is served too, because real clients send it. BigBlueButton
 * has a route of its own: its call is a signed link to Zulip, not a meeting at a provider.
 */
import { bigBlueButtonUrl } from '../../engine/integrations/bigbluebutton.ts';
import { createVideoCall } from '../../engine/integrations/video-calls.ts';
import { withValue } from '../../engine/events/effects.ts';
import { defineRoute } from '../define-route.ts';
import { Refusal, type Route } from '../route.ts';
import type { Engine } from '../../engine/core.ts';
import type { UserRecord } from '../../engine/state.ts';

function create({ engine, user }: { engine: Engine; user: UserRecord }) {
  const done = createVideoCall(engine, user);
  const result = done.value;
  // A rejected token is cleared (and the user told) before the error answers.
  if ('error' in result) return new Refusal(result.error, done);
  return withValue(done, { url: result.url });
}

export const videoCallRoutes: Route[] = [
  defineRoute({ method: 'POST', path: '/calls/videocall/create', response: 'create-video-call', auth: 'user', summary: 'a meeting URL at the video-call provider', params: [], handler: create }),
  defineRoute({ method: 'POST', path: '/calls/webex/create', response: 'create-video-call', auth: 'user', summary: "the same, under Zulip's name for the provider", params: [], handler: create }),
  defineRoute({
    method: 'GET',
    path: '/calls/bigbluebutton/create',
    response: 'create-big-blue-button-video-call',
    auth: 'user',
    summary: 'a signed join link for a new BigBlueButton meeting, the caller its moderator',
    params: [
      { name: 'meeting_name', type: 'string', required: true },
      { name: 'voice_only', type: 'bool', default: false },
    ],
    handler: ({ engine, user, params }) => bigBlueButtonUrl(engine, user, params.meeting_name, params.voice_only),
  }),
];
