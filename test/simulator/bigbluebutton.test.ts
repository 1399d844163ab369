/**
 * GET /calls/bigbluebutton/create (create-big-blue-button-video-call; zerver/views/video_calls.py,
 * get_bigbluebutton_url): a link to Zulip's join page carrying the meeting, signed with Django's
 * Signer. The signature is checked here with node:crypto the way django.core.signing checks it.
 */
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SIMULATOR_SECRET_KEY, djangoSignObject } from '../../simulator/engine/integrations/bigbluebutton.ts';
import { ID, sim } from './helpers.ts';

const PATH = '/api/v1/calls/bigbluebutton/create';
const LINK = /^\/calls\/bigbluebutton\/join\?bigbluebutton=([A-Za-z0-9_-]+):([A-Za-z0-9_-]+)$/;

/** Django's Signer().unsign_object, written from django/core/signing.py: the payload, or null when the signature is wrong. */
function unsign(signed: string): unknown {
  const [value, signature] = signed.split(':') as [string, string];
  const key = createHash('sha256').update(`django.core.signing.Signersigner${SIMULATOR_SECRET_KEY}`).digest();
  const expected = createHmac('sha256', key).update(value).digest('base64url');
  if (expected !== signature) return null;
  return JSON.parse(Buffer.from(value, 'base64url').toString('latin1'));
}

const payloadOf = (url: string) => unsign(url.match(LINK)![1]! + ':' + url.match(LINK)![2]!);

describe('GET /calls/bigbluebutton/create', () => {
  it("answers Zulip's {url}: the join link, signed, with the meeting, its name and the caller as moderator", async () => {
    const res = await sim().request({ method: 'GET', path: PATH, as: ID.hamlet, query: { meeting_name: 'test_channel meeting' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '', url: expect.stringMatching(LINK) });
    expect(payloadOf(res.body.url as string)).toEqual({
      meeting_id: expect.stringMatching(/^zulip-[1-9]\d{11}$/),
      name: 'test_channel meeting',
      lock_settings_disable_cam: false,
      moderator: ID.hamlet,
    });
  });

  it('locks cameras off for voice_only, and makes a new meeting each time', async () => {
    const s = sim();
    const first = await s.request({ method: 'GET', path: PATH, as: ID.iago, query: { meeting_name: 'standup', voice_only: true } });
    const second = await s.request({ method: 'GET', path: PATH, as: ID.iago, query: { meeting_name: 'standup', voice_only: true } });
    const a = payloadOf(first.body.url as string) as { meeting_id: string; lock_settings_disable_cam: boolean };
    const b = payloadOf(second.body.url as string) as { meeting_id: string };
    expect(a.lock_settings_disable_cam).toBe(true);
    expect(b.meeting_id).not.toBe(a.meeting_id);
  });

  it('needs no connected account: a guest gets a link too', async () => {
    const res = await sim().request({ method: 'GET', path: PATH, as: ID.polonius, query: { meeting_name: 'x' } });
    expect(res.status).toBe(200);
    expect(payloadOf(res.body.url as string)).toMatchObject({ moderator: ID.polonius });
  });

  it("refuses a request without meeting_name with Zulip's missing-argument error", async () => {
    const res = await sim().request({ method: 'GET', path: PATH, as: ID.iago });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', msg: "Missing 'meeting_name' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'meeting_name' });
  });

  it('refuses a voice_only that is not a JSON boolean', async () => {
    const res = await sim().request({ method: 'GET', path: PATH, as: ID.iago, query: { meeting_name: 'x', voice_only: 'yes' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', msg: 'voice_only is not valid JSON', code: 'BAD_REQUEST' });
  });

  it('asks for credentials', async () => {
    const res = await sim().request({ method: 'GET', path: PATH, query: { meeting_name: 'x' } });
    expect(res.status).toBe(401);
  });
});

describe("Django's Signer, as the simulator signs", () => {
  it('writes the JSON compactly and ASCII-only, as json.dumps does, and signs it verifiably', () => {
    const signed = djangoSignObject({ name: 'Café ☕', n: 1 });
    const [value] = signed.split(':') as [string];
    expect(Buffer.from(value, 'base64url').toString('latin1')).toBe('{"name":"Caf\\u00e9 \\u2615","n":1}');
    expect(unsign(signed)).toEqual({ name: 'Café ☕', n: 1 });
    expect(unsign(signed.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))).toBeNull();
  });
});
