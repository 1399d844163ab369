/**
 * check_password_strength (zproject/backends.py): at least PASSWORD_MIN_LENGTH code points, never
 * empty, and at least PASSWORD_MIN_GUESSES guesses as zxcvbn estimates them. The server's two
 * settings come from the fixture: Zulip's development server has 0 and 0 (zproject/dev_settings.py),
 * production 6 and 10000. zxcvbn runs only when a minimum is set, as its dictionaries are large.
 */
import zxcvbn from 'zxcvbn';
import type { Realm } from '../state.ts';
import { codePointLength } from '../text.ts';

export function isStrongEnough(realm: Pick<Realm, 'password_min_length' | 'password_min_guesses'>, password: string): boolean {
  if (codePointLength(password) < realm.password_min_length) return false;
  // zxcvbn cannot score the empty string, so Zulip refuses it whatever the settings.
  if (password === '') return false;
  return realm.password_min_guesses === 0 || zxcvbn(password).guesses >= realm.password_min_guesses;
}

/**
 * Scores once, so that a realm asking for production's rules fails when it is built rather than at
 * its first password (the npm package loads zxcvbn from beside it, and says so when it is missing).
 */
export function prepareGuessScorer(realm: Pick<Realm, 'password_min_guesses'>): void {
  if (realm.password_min_guesses > 0) zxcvbn('simulator');
}
