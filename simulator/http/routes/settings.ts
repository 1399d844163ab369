/**
 * PATCH /settings (zerver/views/user_settings.py), also at the legacy paths older clients call: one
 * parameter per row of the settings table, typed and limited to its allowed values.
 */
import { commit } from '../../engine/core.ts';
import { changeSettings } from '../../engine/settings-change.ts';
import { USER_SETTINGS, type SettingValue } from '../../engine/user-settings.ts';
import type { ParamSpec, Route } from '../route.ts';

const settingParams: ParamSpec[] = USER_SETTINGS.map((spec) => ({ name: spec.name, type: spec.type, ...(spec.values ? { oneOf: spec.values } : {}) }));

export const settingsRoutes: Route[] = [
  {
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
      for (const spec of USER_SETTINGS) if (params[spec.name] !== undefined) settings[spec.name] = params[spec.name] as SettingValue;
      commit(
        engine,
        changeSettings(
          engine,
          user!,
          {
            fullName: params.full_name as string | undefined,
            email: params.email as string | undefined,
            oldPassword: params.old_password as string | undefined,
            newPassword: params.new_password as string | undefined,
            settings,
          },
          secretsEqual,
        ),
      );
      return {};
    },
  },
];
