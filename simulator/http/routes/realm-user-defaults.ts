/** PATCH /realm/user_settings_defaults (update-realm-user-settings-defaults): one parameter per setting, typed and limited as PATCH /settings has them. */
import { REALM_DEFAULT_SETTINGS, updateRealmUserSettingsDefaults } from '../../engine/realm/user-settings-defaults.ts';
import type { SettingValue } from '../../engine/users/settings.ts';
import { withValue } from '../../engine/events/effects.ts';
import type { Route } from '../route.ts';

export const realmUserDefaultsRoutes: Route[] = [
  {
    method: 'PATCH',
    path: '/realm/user_settings_defaults',
    response: 'empty',
    auth: 'admin',
    summary: 'change the settings new users of the organization start with',
    params: REALM_DEFAULT_SETTINGS.map((spec) => ({ name: spec.name, type: spec.type, ...(spec.values ? { oneOf: spec.values } : {}) })),
    handler({ engine, params }) {
      const changes: Record<string, SettingValue> = {};
      for (const spec of REALM_DEFAULT_SETTINGS) if (params[spec.name] !== undefined) changes[spec.name] = params[spec.name] as SettingValue;
      return withValue(updateRealmUserSettingsDefaults(engine, changes), {});
    },
  },
];
