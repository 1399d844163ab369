/** Group-setting resolution against the realm's user groups (system groups included). */
import type { Engine } from './core.ts';
import type { GroupSettingValue } from './state.ts';

/** API form: a group id, or the anonymous group with sorted, active-only direct members. */
export function groupSettingForApi(engine: Engine, value: GroupSettingValue): GroupSettingValue {
  if (typeof value === 'number') return value;
  return {
    direct_members: value.direct_members.filter((id) => engine.state.users.get(id)?.is_active).sort((a, b) => a - b),
    direct_subgroups: [...value.direct_subgroups].sort((a, b) => a - b),
  };
}
