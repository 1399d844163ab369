/**
 * GroupSetting values (zerver/lib/user_groups.py), in one place for channels, user groups and the
 * realm: the value's shape as the API sends it, its normalisation, its validation against the
 * realm's groups and each setting's system-group limits, the permission test, and the API form.
 *
 * A value is a named group's id, or an anonymous group `{direct_members, direct_subgroups}`.
 */
import { isGuest, isUserInGroupSetting, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import type { GroupSettingValue, RealmGroupSetting, UserRecord } from '../state.ts';

/**
 * What a setting accepts (upstream's GroupPermissionSetting). role:internet is refused by every
 * setting here; `allowEveryone: false` also keeps guests out of the permission, whatever group
 * names them (user_has_permission_for_group_setting).
 */
export interface SettingRule {
  allowEveryone: boolean;
  allowNobody: boolean;
  /** Further system groups the setting refuses, checked after role:everyone. */
  refused?: readonly string[];
  /** Only a system group will do (require_system_group): no user-made or anonymous group. */
  requireSystemGroup?: boolean;
  /** When set, the only system groups the setting accepts (allowed_system_groups). */
  allowedSystemGroups?: readonly string[];
}

const open: SettingRule = { allowEveryone: true, allowNobody: true };
const noEveryone: SettingRule = { allowEveryone: false, allowNobody: true };

/**
 * Every group setting the simulator knows, by name. Channel settings follow
 * Stream.stream_permission_group_settings, user-group settings
 * NamedUserGroup.GROUP_PERMISSION_SETTINGS, realm ones Realm.REALM_PERMISSION_GROUP_SETTINGS.
 */
export const SETTING_RULES: Readonly<Record<string, SettingRule>> = {
  // channels
  can_add_subscribers_group: noEveryone,
  can_administer_channel_group: noEveryone,
  can_create_topic_group: open,
  can_delete_any_message_group: open,
  can_delete_own_message_group: open,
  can_move_messages_out_of_channel_group: open,
  can_move_messages_within_channel_group: open,
  can_remove_subscribers_group: open,
  can_resolve_topics_group: open,
  can_send_message_group: open,
  can_subscribe_group: noEveryone,
  // user groups
  can_add_members_group: noEveryone,
  can_join_group: noEveryone,
  can_leave_group: open,
  can_manage_group: noEveryone,
  // The project's specification refuses role:owners here (Zulip 8–9 did; current upstream allows it).
  can_mention_group: { ...open, refused: ['role:owners'] },
  can_remove_members_group: noEveryone,
};

/** A realm setting's rule and its default system group. */
export interface RealmSettingRule extends SettingRule {
  default: string;
}

const realmRule = (rule: SettingRule, defaultGroup: string): RealmSettingRule => ({ ...rule, default: defaultGroup });

/**
 * The realm's group settings (Realm.REALM_PERMISSION_GROUP_SETTINGS): what each accepts and its
 * default. Their rules differ from the channel settings of the same name (the realm's
 * can_delete_any_message_group refuses role:everyone, a channel's accepts it), hence a table of
 * their own.
 */
export const REALM_GROUP_SETTING_RULES: Readonly<Record<RealmGroupSetting, RealmSettingRule>> = {
  create_multiuse_invite_group: realmRule(noEveryone, 'role:administrators'),
  can_access_all_users_group: realmRule(
    { allowEveryone: true, allowNobody: false, requireSystemGroup: true, allowedSystemGroups: ['role:everyone', 'role:members'] },
    'role:everyone',
  ),
  can_add_subscribers_group: realmRule(noEveryone, 'role:members'),
  can_add_custom_emoji_group: realmRule(noEveryone, 'role:members'),
  can_create_bots_group: realmRule(noEveryone, 'role:members'),
  can_create_groups: realmRule(noEveryone, 'role:members'),
  can_create_public_channel_group: realmRule(noEveryone, 'role:members'),
  can_create_private_channel_group: realmRule(noEveryone, 'role:members'),
  can_create_web_public_channel_group: realmRule(
    {
      ...noEveryone,
      requireSystemGroup: true,
      allowedSystemGroups: ['role:moderators', 'role:administrators', 'role:owners', 'role:nobody'],
    },
    'role:owners',
  ),
  can_create_write_only_bots_group: realmRule(noEveryone, 'role:members'),
  can_delete_any_message_group: realmRule(noEveryone, 'role:administrators'),
  can_delete_own_message_group: realmRule(open, 'role:everyone'),
  can_invite_users_group: realmRule(noEveryone, 'role:members'),
  can_manage_all_groups: realmRule({ allowEveryone: false, allowNobody: false }, 'role:owners'),
  can_manage_billing_group: realmRule({ allowEveryone: false, allowNobody: false }, 'role:administrators'),
  can_mention_many_users_group: realmRule(open, 'role:administrators'),
  can_move_messages_between_channels_group: realmRule(noEveryone, 'role:members'),
  can_move_messages_between_topics_group: realmRule(open, 'role:everyone'),
  can_resolve_topics_group: realmRule(open, 'role:everyone'),
  can_set_delete_message_policy_group: realmRule(noEveryone, 'role:moderators'),
  can_set_topics_policy_group: realmRule(open, 'role:members'),
  can_summarize_topics_group: realmRule(open, 'role:everyone'),
  direct_message_initiator_group: realmRule(open, 'role:everyone'),
  direct_message_permission_group: realmRule(open, 'role:everyone'),
  workplace_users_group: realmRule({ allowEveryone: false, allowNobody: false }, 'role:members'),
};

function ruleFor(setting: string): SettingRule {
  const rule = SETTING_RULES[setting];
  if (!rule) throw new Error(`unknown group setting ${setting}`);
  return rule;
}

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/**
 * The value's shape, as the API decodes `Json[int | UserGroupMembersData]`: an integer, or an
 * object with only `direct_members` and `direct_subgroups` (integer lists). Pure: no state.
 */
export function parseGroupSettingValue(value: unknown, name: string): GroupSettingValue {
  if (isId(value)) return value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw ChatError.badRequest(`${name} is not an integer`);
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) {
    if (key !== 'direct_members' && key !== 'direct_subgroups') throw ChatError.badRequest(`Argument "${key}" at ${name} is unexpected`);
  }
  const list = (key: 'direct_members' | 'direct_subgroups'): number[] => {
    const items = v[key] ?? [];
    if (!Array.isArray(items) || !items.every(isId)) throw ChatError.badRequest(`${name}["${key}"] is not a list`);
    return items;
  };
  return { direct_members: list('direct_members'), direct_subgroups: list('direct_subgroups') };
}

/** PATCH's `{new, old?}` (GroupSettingChangeRequest): old, when sent, must match the current value. */
export interface GroupSettingChange {
  new: GroupSettingValue;
  old?: GroupSettingValue;
}

export function parseGroupSettingChange(value: unknown, name: string): GroupSettingChange {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw ChatError.badRequest(`${name} is not a dict`);
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) {
    if (key !== 'new' && key !== 'old') throw ChatError.badRequest(`Argument "${key}" at ${name} is unexpected`);
  }
  if (v.new === undefined) throw ChatError.badRequest(`${name}["new"] is missing`);
  const change: GroupSettingChange = { new: parseGroupSettingValue(v.new, `${name}["new"]`) };
  if (v.old !== undefined && v.old !== null) change.old = parseGroupSettingValue(v.old, `${name}["old"]`);
  return change;
}

/**
 * parse_group_setting_value: an anonymous group of exactly one subgroup and no members is that
 * subgroup; an empty one is role:nobody.
 */
export function normalizeGroupSetting(engine: Engine, value: GroupSettingValue): GroupSettingValue {
  if (typeof value === 'number') return value;
  // Repeated ids count once (upstream counts them before its set() drops them, so `[g, g]`
  // would stay an anonymous group there: a difference no client relies on).
  const members = [...new Set(value.direct_members)];
  const subgroups = [...new Set(value.direct_subgroups)];
  if (members.length === 0 && subgroups.length === 1) return subgroups[0]!;
  if (members.length === 0 && subgroups.length === 0) return engine.state.realm.system_groups['role:nobody']!;
  return { direct_members: members, direct_subgroups: subgroups };
}

/**
 * access_user_group_for_setting, after normalising: a named group must exist (`Invalid user
 * group`), be active, and be a system group the setting accepts (role:internet, then
 * role:nobody, role:everyone, then the setting's own refusals); an anonymous group needs active
 * members of the realm (`Invalid user ID: N`) and existing, active subgroups. Returns the value
 * as stored: ids deduplicated and sorted.
 */
export function accessGroupSetting(
  engine: Engine,
  setting: string,
  value: GroupSettingValue,
  rule: SettingRule = ruleFor(setting),
): GroupSettingValue {
  const groups = engine.state.userGroups;
  const normalized = normalizeGroupSetting(engine, value);
  const systemGroupRequired = () => ChatError.badRequest(`'${setting}' must be a system user group.`);
  if (typeof normalized === 'number') {
    const group = groups.get(normalized);
    if (!group) throw ChatError.badRequest('Invalid user group');
    if (group.deactivated) throw ChatError.badRequest('User group is deactivated.');
    if (rule.requireSystemGroup && !group.is_system_group) throw systemGroupRequired();
    if (group.is_system_group) {
      const refused = [
        'role:internet',
        ...(rule.allowNobody ? [] : ['role:nobody']),
        ...(rule.allowEveryone ? [] : ['role:everyone']),
        ...(rule.refused ?? []),
      ];
      const notAllowed = rule.allowedSystemGroups !== undefined && !rule.allowedSystemGroups.includes(group.name);
      if (refused.includes(group.name) || notAllowed) throw ChatError.badRequest(`'${setting}' setting cannot be set to '${group.name}' group.`);
    }
    return normalized;
  }
  if (rule.requireSystemGroup) throw systemGroupRequired();
  for (const id of normalized.direct_members) {
    const user = engine.state.users.get(id);
    if (!user || !user.is_active || user.is_system_bot) throw ChatError.badRequest(`Invalid user ID: ${id}`);
  }
  const missing = normalized.direct_subgroups.find((id) => !groups.has(id));
  if (missing !== undefined) throw ChatError.badRequest(`Invalid user group ID: ${missing}`);
  if (normalized.direct_subgroups.some((id) => groups.get(id)!.deactivated)) throw ChatError.badRequest('User group is deactivated.');
  return {
    direct_members: [...normalized.direct_members].sort((a, b) => a - b),
    direct_subgroups: [...normalized.direct_subgroups].sort((a, b) => a - b),
  };
}

/** API form: a group id, or the anonymous group with sorted, active-only direct members. */
export function groupSettingForApi(engine: Engine, value: GroupSettingValue): GroupSettingValue {
  if (typeof value === 'number') return value;
  return {
    direct_members: value.direct_members.filter((id) => engine.state.users.get(id)?.is_active).sort((a, b) => a - b),
    direct_subgroups: [...value.direct_subgroups].sort((a, b) => a - b),
  };
}

/** are_both_group_setting_values_equal: same id, or the same members and subgroups in any order. */
export function sameGroupSetting(a: GroupSettingValue, b: GroupSettingValue): boolean {
  if (typeof a === 'number' || typeof b === 'number') return a === b;
  const same = (x: number[], y: number[]): boolean => {
    const sx = new Set(x);
    const sy = new Set(y);
    return sx.size === sy.size && [...sx].every((id) => sy.has(id));
  };
  return same(a.direct_members, b.direct_members) && same(a.direct_subgroups, b.direct_subgroups);
}

/** user_has_permission_for_group_setting: membership, with guests kept out where the setting says so. */
export function hasGroupPermission(engine: Engine, user: UserRecord, setting: string, value: GroupSettingValue): boolean {
  if (!ruleFor(setting).allowEveryone && isGuest(user)) return false;
  return isUserInGroupSetting(engine, user.id, value);
}

/**
 * UserProfile.has_permission for a realm setting: membership of the setting's current value,
 * guests kept out of settings that refuse role:everyone. Read at every check, so a PATCH /realm
 * takes effect on the next request.
 */
export function hasRealmGroupPermission(engine: Engine, user: UserRecord, setting: RealmGroupSetting): boolean {
  if (!REALM_GROUP_SETTING_RULES[setting].allowEveryone && isGuest(user)) return false;
  return isUserInGroupSetting(engine, user.id, engine.state.realm[setting]);
}

/** Whether `value` names `groupId`, directly or as a subgroup of its anonymous group. */
export function groupSettingMentions(value: GroupSettingValue, groupIds: ReadonlySet<number>): boolean {
  if (typeof value === 'number') return groupIds.has(value);
  return value.direct_subgroups.some((id) => groupIds.has(id));
}
