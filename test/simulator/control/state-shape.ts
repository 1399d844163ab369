/**
 * The state's shape, as the snapshot format depends on it: every field path of the state (map
 * entries as `*`, list items as `[]`), without descending into records keyed by data (counters,
 * personal settings, an email's context, …). A snapshot of one shape cannot be restored into a
 * simulator of another, so a change of shape needs a new SNAPSHOT_VERSION.
 */

/** Records whose keys are data, not fields: their own keys are not part of the shape. */
const DATA_KEYED = new Set(['.counters', '.outbox[].context', '.pushOutbox[].payload', '.realm.system_groups', '.users.*.settings', '.users.*.bot_config']);

export function stateShape(state: unknown): string[] {
  const out = new Set<string>();
  const walk = (v: unknown, path: string): void => {
    if (DATA_KEYED.has(path)) return;
    if (v instanceof Map) {
      for (const x of v.values()) walk(x, `${path}.*`);
      return;
    }
    if (v instanceof Set || Array.isArray(v)) {
      for (const x of v) walk(x, `${path}[]`);
      return;
    }
    if (v instanceof Uint8Array || v === null || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      out.add(`${path}.${k}`);
      walk(x, `${path}.${k}`);
    }
  };
  walk(state, '');
  return [...out].sort();
}
