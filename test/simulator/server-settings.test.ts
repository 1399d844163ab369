/** GET /server_settings (zerver/views/auth.py:api_get_server_settings): what clients read before logging in. */
import { describe, expect, it } from 'vitest';
import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from '../../simulator/engine/realm/server-version.ts';
import { userAgentName } from '../../simulator/engine/realm/server-settings.ts';
import { devFixture, sim } from './helpers.ts';

describe('GET /server_settings', () => {
  it('answers without credentials with every field Zulip documents, dev-realm values', async () => {
    const res = await sim().request({ method: 'GET', path: '/api/v1/server_settings' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      authentication_methods: {
        password: true,
        dev: true,
        email: true,
        ldap: false,
        remoteuser: false,
        github: false,
        azuread: false,
        gitlab: false,
        google: false,
        apple: false,
        saml: false,
        'openid connect': false,
      },
      zulip_version: ZULIP_VERSION,
      zulip_merge_base: ZULIP_MERGE_BASE,
      zulip_feature_level: ZULIP_FEATURE_LEVEL,
      push_notifications_enabled: false,
      is_incompatible: false,
      email_auth_enabled: true,
      require_email_format_usernames: true,
      realm_url: 'http://zulip.testserver',
      realm_uri: 'http://zulip.testserver',
      realm_name: 'Zulip Dev',
      // md5("zulip"): Zulip's gravatar fallback keyed by the realm's string id.
      realm_icon: 'https://secure.gravatar.com/avatar/62429d594b6ffc712f54aee976a18b44?d=identicon',
      realm_description: "<p>The Zulip development environment default organization.  It's great for testing!</p>",
      realm_web_public_access_enabled: true,
      external_authentication_methods: [],
    });
  });

  it('ignores credentials, even wrong ones (no authentication is read)', async () => {
    const res = await sim().request({
      method: 'GET',
      path: '/api/v1/server_settings',
      headers: { authorization: 'Basic !!!' },
    });
    expect(res.status).toBe(200);
    expect(res.body.zulip_version).toBe(ZULIP_VERSION);
  });

  it('follows the realm: password login off, dev login off, push on, spectators off', async () => {
    const fixture = devFixture();
    Object.assign(fixture.realm, {
      password_auth_enabled: false,
      dev_auth_enabled: false,
      push_notifications_enabled: true,
      enable_spectator_access: false,
      name: 'Acme',
      description: 'We make **anvils**.',
    });
    const res = await sim({ fixture }).request({ method: 'GET', path: '/api/v1/server_settings' });
    expect(res.body).toMatchObject({
      authentication_methods: { password: false, dev: false, email: false },
      email_auth_enabled: false,
      push_notifications_enabled: true,
      realm_web_public_access_enabled: false,
      realm_name: 'Acme',
      realm_description: '<p>We make <strong>anvils</strong>.</p>',
    });
  });

  it('marks only the ZulipInvalid client as incompatible', async () => {
    const s = sim();
    for (const [agent, incompatible] of [
      ['ZulipInvalid/1.0', true],
      ['ZulipInvalid', true],
      ['ZulipMobile/27.0 (Android 14)', false],
      ['ZulipPython/0.9.0', false],
    ] as const) {
      const res = await s.request({ method: 'GET', path: '/api/v1/server_settings', headers: { 'user-agent': agent } });
      expect(res.body.is_incompatible, agent).toBe(incompatible);
    }
  });

  it('reads the client name from a User-Agent as Zulip does', () => {
    expect(userAgentName('ZulipMobile/27.0 (Android 14)')).toBe('ZulipMobile');
    expect(userAgentName('ZulipInvalid')).toBe('ZulipInvalid');
    expect(userAgentName('python-requests/2.31.0')).toBe('python-requests');
  });

  it('answers HEAD like GET without a body, and refuses POST with 405', async () => {
    const s = sim();
    const head = await s.request({ method: 'HEAD', path: '/api/v1/server_settings' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    const post = await s.request({ method: 'POST', path: '/api/v1/server_settings' });
    expect(post.status).toBe(405);
    expect(post.body).toEqual({ result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET', 'HEAD'] });
  });
});
