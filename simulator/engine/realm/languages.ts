/**
 * The language codes Zulip offers (get_available_language_codes, from its locale directory):
 * what the realm's default_language accepts. A plain list: the simulator translates nothing.
 */
export const AVAILABLE_LANGUAGE_CODES: ReadonlySet<string> = new Set([
  'ar', 'be', 'bg', 'bn', 'ca', 'cs', 'cy', 'da', 'de', 'el', 'en', 'en_GB', 'eo', 'es', 'fa', 'fi',
  'fr', 'gl', 'gu', 'hi', 'hu', 'id', 'it', 'ja', 'ko', 'lt', 'lv', 'ml', 'mn', 'ms', 'nl', 'no',
  'pl', 'pt', 'pt_BR', 'pt_PT', 'ro', 'ru', 'si', 'sk', 'sr', 'sv', 'ta', 'te', 'tl', 'tr', 'uk',
  'ur', 'uz', 'vi', 'zh-hans', 'zh_TW',
]);
