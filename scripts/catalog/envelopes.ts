/**
 * A list's or the bundle's schema as an envelope: every property that is a reference to another
 * schema file (or an array of them) relaxed to "any value", so check-output.ts can check the
 * envelope once and each item against its own schema once, by object identity. Pure: the
 * validators are generated from these envelopes by `npm run types` (validator-code.ts).
 */
import type { JsonSchema } from './schema-files.ts';

const SUFFIX = '.schema.json';

/** The name an envelope's validator is exported under. */
export const envelopeName = (name: string): string => `${name}#envelope`;

export interface Envelope {
  /** Property → the schema its value (or each of its items) must meet. */
  parts: Map<string, { schema: string; array: boolean }>;
  /** The relaxed schema, under a sibling $id so its other relative references still resolve. */
  schema: JsonSchema;
}

/** Null when the schema has no property referring to another schema file. */
export function envelopeOf(schema: JsonSchema): Envelope | null {
  const parts = new Map<string, { schema: string; array: boolean }>();
  const properties: Record<string, JsonSchema> = {};
  for (const [prop, sub] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
    const items = sub.items as JsonSchema | undefined;
    const ref = (items?.$ref ?? sub.$ref) as string | undefined;
    if (ref && !ref.includes('#') && ref.endsWith(SUFFIX)) {
      parts.set(prop, { schema: ref.slice(0, -SUFFIX.length), array: Boolean(items) });
      properties[prop] = items ? { ...sub, items: {} } : {};
    } else {
      properties[prop] = sub;
    }
  }
  if (parts.size === 0) return null;
  return { parts, schema: { ...schema, $id: String(schema.$id).replace(SUFFIX, `.envelope${SUFFIX}`), properties } };
}
