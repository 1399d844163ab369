/**
 * Video-call creation (zerver/views/video_calls.py). The specification's neutral path is canonical;
 * Zulip's own path for the same provider is served too, because real clients send it.
 */
import { commit } from '../../engine/core.ts';
import { createVideoCall } from '../../engine/video-calls.ts';
import type { Route, RouteContext } from '../route.ts';

function create({ engine, user }: RouteContext) {
  const result = commit(engine, createVideoCall(engine, user!));
  // A rejected token is cleared (and the user told) before the error answers.
  if ('error' in result) throw result.error;
  return { url: result.url };
}

export const videoCallRoutes: Route[] = [
  { method: 'POST', path: '/calls/videocall/create', response: 'create-video-call', auth: 'user', summary: 'a meeting URL at the video-call provider', params: [], handler: create },
  { method: 'POST', path: '/calls/webex/create', response: 'create-video-call', auth: 'user', summary: "the same, under Zulip's name for the provider", params: [], handler: create },
];
