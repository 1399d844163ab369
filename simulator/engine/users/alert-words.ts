/**
 * Alert words (zerver/lib/alert_words.py, zerver/actions/alert_words.py): words or phrases a user
 * wants to hear about. A new message containing one (markdown/alert-words.ts decides what
 * "containing" means) gets the `has_alert_word` flag for that user, as an edit re-decides it; the
 * sender's own message included, as upstream. Every change sends the user the whole new list.
 */
import type { Engine } from '../core.ts';
import { effect, outcome, type Outcome } from '../events/effects.ts';
import { usersAlertedBy } from '../markdown/alert-words.ts';
import type { UserRecord } from '../state.ts';
import { pythonLower, pythonStrip } from '../text.ts';

/** The longest alert word POST /users/me/alert_words accepts, in code points (before stripping). */
export const MAX_ALERT_WORD_LENGTH = 100;

/** user_alert_words: the user's words as stored, oldest first. */
export function listAlertWords(engine: Engine, user: UserRecord): string[] {
  return [...(engine.state.alertWords.get(user.id) ?? [])];
}

/** The `alert_words` fetch type of /register. */
export function alertWordsRegisterState(engine: Engine, user: UserRecord): { alert_words: string[] } {
  return { alert_words: listAlertWords(engine, user) };
}

function alertWordsChanged(engine: Engine, user: UserRecord): Outcome<{ alert_words: string[] }> {
  const words = listAlertWords(engine, user);
  return outcome({ alert_words: words }, [effect({ type: 'alert_words', alert_words: words }, [user.id])]);
}

/**
 * The view's clean_alert_words, then add_user_alert_words: words are stripped and blank ones
 * dropped; a word the user already has (ignoring case) is skipped; among new words equal but for
 * case, the last spelling is kept at the place of the first. The event goes out even when nothing
 * was added.
 */
export function addAlertWords(engine: Engine, user: UserRecord, words: readonly string[]): Outcome<{ alert_words: string[] }> {
  const current = engine.state.alertWords.get(user.id) ?? [];
  const existing = new Set(current.map(pythonLower));
  const added = new Map<string, string>();
  for (const raw of words) {
    const word = pythonStrip(raw);
    if (word === '' || existing.has(pythonLower(word))) continue;
    added.set(pythonLower(word), word);
  }
  if (added.size > 0) engine.state.alertWords.set(user.id, [...current, ...added.values()]);
  return alertWordsChanged(engine, user);
}

/** remove_user_alert_words: each given word (not stripped) removes the user's word equal to it ignoring case. */
export function removeAlertWords(engine: Engine, user: UserRecord, words: readonly string[]): Outcome<{ alert_words: string[] }> {
  const current = engine.state.alertWords.get(user.id);
  if (current) {
    const removed = new Set(words.map(pythonLower));
    const kept = current.filter((word) => !removed.has(pythonLower(word)));
    if (kept.length === 0) engine.state.alertWords.delete(user.id);
    else engine.state.alertWords.set(user.id, kept);
  }
  return alertWordsChanged(engine, user);
}

/** The word index of one state's alert words, and the lists it was built from (replaced on every change). */
export interface AlertWordIndex {
  built: Map<number, string[]>;
  byWord: Map<string, Set<number>>;
}

/** Each lower-cased word → the users who set it (Zulip's realm automaton, before its active-user filter). */
function realmAlertWords(engine: Engine): Map<string, Set<number>> {
  const current = engine.state.alertWords;
  // Kept by the engine per alert-word table: sends far outnumber alert-word changes, so the index
  // is rebuilt only after one.
  const indexes = engine.caches.alertWords;
  const cached = indexes.get(current);
  if (cached && cached.built.size === current.size && [...current].every(([id, words]) => cached.built.get(id) === words)) {
    return cached.byWord;
  }
  const byWord = new Map<string, Set<number>>();
  for (const [userId, words] of current) {
    for (const word of words) {
      const key = pythonLower(word);
      const users = byWord.get(key);
      if (users) users.add(userId);
      else byWord.set(key, new Set([userId]));
    }
  }
  indexes.set(current, { built: new Map(current), byWord });
  return byWord;
}

/** The active users whose alert words a message with this (normalized) content contains. */
export function alertedUserIds(engine: Engine, content: string): ReadonlySet<number> {
  if (engine.state.alertWords.size === 0) return EMPTY;
  const alerted = usersAlertedBy(content, realmAlertWords(engine), engine.state.realm.default_code_block_language);
  // Zulip's automaton holds active users' words only.
  for (const id of alerted) if (!engine.state.users.get(id)?.is_active) alerted.delete(id);
  return alerted;
}

const EMPTY: ReadonlySet<number> = new Set();
