/**
 * PATCH /settings (zerver/views/user_settings.py), also at the legacy paths older clients call: one
 * parameter per row of the settings table, typed and limited to its allowed values.
 */
import { changeSettings } from '../../engine/users/settings-change.ts';
import { USER_SETTINGS, type SettingSpec, type SettingValue } from '../../engine/users/settings.ts';
import { withValue } from '../../engine/events/effects.ts';
import { defineRoute } from '../define-route.ts';
import type { ParamSpec, Route } from '../route.ts';

/** One spec per setting; the handler reads them by name from the table, so each is one of the table's types. */
const settingParams = USER_SETTINGS.map((spec): ParamSpec & { type: SettingSpec['type'] } => ({ name: spec.name, type: spec.type, ...(spec.values ? { oneOf: spec.values } : {}) }));

export const settingsRoutes: Route[] = [
  defineRoute({
    method: 'PATCH',
    path: '/settings',
    response: 'empty',
    // Python's update_notification_settings and pre-2021 clients use the old split endpoints.
    aliasPaths: ['/settings/display', '/settings/notifications'],
    auth: 'human',
    summary: 'change your name, email, password or personal settings',
    params: [
      { name: 'full_name', type: 'string' },
      { name: 'email', type: 'string' },
      { name: 'old_password', type: 'string' },
      { name: 'new_password', type: 'string' },
      ...settingParams,
    ],
    handler({ engine, user, params, secretsEqual }) {
      const settings: Record<string, SettingValue> = {};
      for (const spec of USER_SETTINGS) {
        const value = params[spec.name];
        if (value !== undefined) settings[spec.name] = value;
      }
      const done = changeSettings(
        engine,
        user,
        { fullName: params.full_name, email: params.email, oldPassword: params.old_password, newPassword: params.new_password, settings },
        secretsEqual,
      );
      return withValue(done, {});
    },
  }),
];
