/** Video calls (zerver/views/video_calls.py): POST /calls/videocall/create and Zulip's /calls/webex/create. */
import { describe, expect, it } from 'vitest';
import { videoCallsRegisterState } from '../../simulator/engine/integrations/video-calls.ts';
import { ID, devFixture, sim, watchEvents } from './helpers.ts';

const PATHS = ['/api/v1/calls/videocall/create', '/api/v1/calls/webex/create'] as const;
const MEETING_URL = /^https:\/\/zulip\.webex\.com\/zulip\/j\.php\?MTID=m[0-9a-f]{32}$/;
const invalidToken = { result: 'error', msg: 'Invalid Webex access token', code: 'INVALID_VIDEO_CALL_PROVIDER_TOKEN' };

describe.each(PATHS)('POST %s', (path) => {
  it('gives a user who connected the provider a meeting URL, a new one each time', async () => {
    const s = sim();
    const first = await s.request({ method: 'POST', path, as: ID.iago });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ result: 'success', msg: '', url: expect.stringMatching(MEETING_URL) });
    const second = await s.request({ method: 'POST', path, as: ID.iago });
    expect(second.body.url).toMatch(MEETING_URL);
    expect(second.body.url).not.toBe(first.body.url);
  });

  it('answers INVALID_VIDEO_CALL_PROVIDER_TOKEN to a user who never connected it', async () => {
    const s = sim();
    const res = await s.request({ method: 'POST', path, as: ID.hamlet });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidToken);
  });

  it('clears a token the provider rejects, tells the user, and answers the same error', async () => {
    const s = sim();
    const watch = watchEvents(s);
    const res = await s.request({ method: 'POST', path, as: ID.othello });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidToken);
    expect(watch.take()).toEqual([
      { event: { type: 'has_videocall_token', value: false }, users: [ID.othello] },
      { event: { type: 'has_webex_token', value: false }, users: [ID.othello] },
    ]);
    expect(s.engine.state.users.get(ID.othello)!.videocall_token).toBeNull();
    // Now simply not connected: no second event.
    const again = await s.request({ method: 'POST', path, as: ID.othello });
    expect(again.body).toEqual(invalidToken);
    expect(watch.take()).toEqual([]);
  });

  it('says so when the server has no credentials for the provider', async () => {
    const fixture = devFixture();
    fixture.realm.videocall_provider_configured = false;
    const res = await sim({ fixture }).request({ method: 'POST', path, as: ID.iago });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', msg: 'Webex credentials have not been configured', code: 'BAD_REQUEST' });
  });

  it('takes no parameters (any sent are reported as ignored)', async () => {
    const res = await sim().request({ method: 'POST', path, as: ID.iago, body: { is_video_call: true } });
    expect(res.body).toMatchObject({ result: 'success', ignored_parameters_unsupported: ['is_video_call'] });
  });
});

describe('video-call links', () => {
  it('are the same for the same seed and requests', async () => {
    const urls = [];
    for (let i = 0; i < 2; i++) {
      const res = await sim({ seed: 7 }).request({ method: 'POST', path: PATHS[0], as: ID.iago });
      urls.push(res.body.url);
    }
    expect(urls[0]).toMatch(MEETING_URL);
    expect(urls[1]).toBe(urls[0]);
  });
});

describe('video_calls in /register', () => {
  it("reports the token under the specification's name and Zulip's, and no Zoom token", () => {
    const s = sim();
    const users = s.engine.state.users;
    expect(videoCallsRegisterState(s.engine, users.get(ID.iago)!)).toEqual({ has_zoom_token: false, has_videocall_token: true, has_webex_token: true });
    expect(videoCallsRegisterState(s.engine, users.get(ID.hamlet)!)).toEqual({ has_zoom_token: false, has_videocall_token: false, has_webex_token: false });
    // A rejected token still counts until the provider has said no.
    expect(videoCallsRegisterState(s.engine, users.get(ID.othello)!).has_videocall_token).toBe(true);
  });
});
