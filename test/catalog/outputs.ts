/** Which schema each emitted JSON file must satisfy, written independently of the emitter. */
const TABLE: readonly [RegExp, string][] = [
  [/^api\/v1\/services\/[^/]+\.json$/, 'service'],
  [/^api\/v1\/sectors\/[^/]+\.json$/, 'sector'],
  [/^api\/v1\/insights\/[^/]+\.json$/, 'insight'],
  [/^api\/v1\/services\.json$/, 'services-list'],
  [/^api\/v1\/sectors\.json$/, 'sectors-list'],
  [/^api\/v1\/insights\.json$/, 'insights-list'],
  [/^api\/v1\/areas\.json$/, 'areas-list'],
  [/^api\/v1\/faqs\.json$/, 'faqs-list'],
  [/^api\/v1\/pages\.json$/, 'pages-list'],
  [/^api\/v1\/organization\.json$/, 'organization'],
  [/^api\/v1\/index\.json$/, 'index'],
  [/^api\/v1\/status\.json$/, 'status'],
  [/^api\/v1\/bundle\.json$/, 'bundle'],
  [/^api\/v1\/search\.json$/, 'search'],
];

/** The schema name for a dist/ path, `openapi` for openapi.json, or null for a non-JSON file. */
export function schemaFor(rel: string): string | null {
  if (rel === 'api/v1/openapi.json') return 'openapi';
  for (const [re, name] of TABLE) if (re.test(rel)) return name;
  if (rel.endsWith('.json')) throw new Error(`no schema known for ${rel}`);
  return null;
}
