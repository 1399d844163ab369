/**
 * GET /server_settings (zerver/views/auth.py:api_get_server_settings): what a client may learn about the server and
 * the realm before logging in. Zulip's Python client reads it in its constructor (it requires
 * `zulip_version`); zulip-terminal picks its login prompt from the authentication fields.
 */
import type { Engine } from '../core.ts';
import { md5Hex } from '../md5.ts';
import { renderDescription } from '../markdown/descriptions.ts';
import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from './server-version.ts';

/**
 * The deprecated `authentication_methods` object: `password` first, then one key per backend of
 * Zulip's AUTH_BACKEND_NAME_MAP, lower-cased (`openid connect` keeps its space).
 */
export interface AuthenticationMethods {
  password: boolean;
  dev: boolean;
  email: boolean;
  ldap: boolean;
  remoteuser: boolean;
  github: boolean;
  azuread: boolean;
  gitlab: boolean;
  google: boolean;
  apple: boolean;
  saml: boolean;
  'openid connect': boolean;
}

export interface ServerSettings {
  authentication_methods: AuthenticationMethods;
  zulip_version: string;
  zulip_merge_base: string;
  zulip_feature_level: number;
  push_notifications_enabled: boolean;
  is_incompatible: boolean;
  email_auth_enabled: boolean;
  require_email_format_usernames: boolean;
  realm_url: string;
  realm_uri: string;
  realm_name: string;
  realm_icon: string;
  realm_description: string;
  realm_web_public_access_enabled: boolean;
  external_authentication_methods: ExternalAuthenticationMethod[];
}

/** A social or SAML login button (none are configured in the simulator). */
export interface ExternalAuthenticationMethod {
  name: string;
  display_name: string;
  display_icon: string | null;
  login_url: string;
  signup_url: string;
}

/**
 * The client name Zulip's parse_user_agent reads from a User-Agent: everything before the first
 * `/` version separator, trailing words included ("ZulipMobile/27.0 (Android 14)" → "ZulipMobile").
 */
export function userAgentName(userAgent: string): string {
  const m = /^([^/ ]*[^0-9/(]*)(?:\/[^/ ]*)?(?:[ /].*)?$/s.exec(userAgent);
  return m ? m[1]! : '';
}

/** Zulip marks exactly one client as too old to talk to this server: the test client ZulipInvalid. */
export function isIncompatibleClient(userAgent: string | undefined): boolean {
  return userAgentName(userAgent ?? 'Missing User-Agent') === 'ZulipInvalid';
}

/** The realm's icon: an uploaded one does not exist in the simulator, so Zulip's gravatar fallback. */
export function realmIconUrl(engine: Engine): string {
  return `https://secure.gravatar.com/avatar/${md5Hex(engine.state.realm.string_id.toLowerCase())}?d=identicon`;
}

export function serverSettings(engine: Engine, options: { userAgent?: string | undefined }): ServerSettings {
  const realm = engine.state.realm;
  const emailAuth = realm.password_auth_enabled;
  return {
    authentication_methods: {
      password: emailAuth,
      dev: realm.dev_auth_enabled,
      email: emailAuth,
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
    push_notifications_enabled: realm.push_notifications_enabled,
    is_incompatible: isIncompatibleClient(options.userAgent),
    email_auth_enabled: emailAuth,
    // Only LDAP with plain usernames lifts the email format; the simulator has no LDAP.
    require_email_format_usernames: true,
    realm_url: realm.url,
    realm_uri: realm.url,
    realm_name: realm.name,
    realm_icon: realmIconUrl(engine),
    realm_description: renderDescription(engine.state, realm.description),
    realm_web_public_access_enabled: realm.enable_spectator_access,
    external_authentication_methods: [],
  };
}
