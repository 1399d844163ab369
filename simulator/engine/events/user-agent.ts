/**
 * What a client's User-Agent tells Zulip about it (zerver/lib/user_agent.py parse_user_agent and
 * zerver/lib/compatibility.py): a name and a version, and the few compatibility decisions taken
 * from them.
 */

export interface ParsedUserAgent {
  name: string;
  version: string | null;
}

/** parse_user_agent: `ZulipMobile/27.191 (Android 12)` → {name: 'ZulipMobile', version: '27.191'}. */
export function parseUserAgent(userAgent: string): ParsedUserAgent | null {
  const m = /^([^/ ]*[^0-9/(]*)(?:\/([^/ ]*))?(?:[ /].*)?$/.exec(userAgent);
  if (!m) return null;
  return { name: m[1]!, version: m[2] ?? null };
}

function numerals(version: string): { numbers: number[]; rest: string } {
  const m = /^(\d+(?:\.\d+)*)(.*)$/s.exec(version);
  if (!m) return { numbers: [], rest: version };
  return { numbers: m[1]!.split('.').map(Number), rest: m[2]! };
}

/**
 * version_lt: dot-separated integers compared in order; null when it cannot tell (no leading
 * numerals, or trailing decoration where the numbers run out).
 */
export function versionLessThan(a: string, b: string): boolean | null {
  const x = numerals(a);
  const y = numerals(b);
  if (x.numbers.length === 0 || y.numbers.length === 0) return null;
  const common = Math.min(x.numbers.length, y.numbers.length);
  for (let i = 0; i < common; i++) if (x.numbers[i] !== y.numbers[i]) return x.numbers[i]! < y.numbers[i]!;
  const moreX = x.numbers.length > common;
  const moreY = y.numbers.length > common;
  if (!moreX && !moreY) return x.rest === y.rest ? false : null;
  if (moreX && x.rest === '' && y.rest === '') return false;
  if (moreY && x.rest === '' && y.rest === '') return true;
  return null;
}

/** Zulip's mobile app learnt the pronouns profile-field type in this version. */
const FIRST_MOBILE_VERSION_WITH_PRONOUNS = '27.192';

/**
 * is_pronouns_field_type_supported: only older Zulip mobile apps do not know the pronouns field
 * type; they are shown such fields as short text.
 */
export function pronounsFieldTypeSupported(userAgent: string | undefined): boolean {
  if (userAgent === undefined) return true;
  const parsed = parseUserAgent(userAgent);
  if (!parsed || parsed.name !== 'ZulipMobile') return true;
  return versionLessThan(parsed.version ?? '', FIRST_MOBILE_VERSION_WITH_PRONOUNS) !== true;
}
