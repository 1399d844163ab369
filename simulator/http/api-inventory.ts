/**
 * The inventory of Zulip's REST API against the route table (docs/zulip-api-inventory.md): each
 * operation of zulip.yaml with the route that serves it or why none does, then the routes the
 * description does not name. Pure: the test compares it with the file, and writes it on request.
 */
import type { Route } from './route.ts';
import { SIMULATOR_ONLY_ROUTES, ZULIP_OPERATIONS, ZULIP_YAML, type ZulipOperation } from './zulip-operations.ts';

/** `{user_id}` and `{realm_id_str}` name the same segment: compare paths with the names left out. */
export const shapeOf = (path: string): string => path.replace(/\{[^}]+\}/g, '{}');

/** Every `METHOD path` a route answers, its aliases included. */
export function routeKeys(route: Route): string[] {
  return [route.path, ...(route.aliasPaths ?? [])].map((p) => `${route.method} ${p}`);
}

/** The route serving an operation: the same path, else the same path shape. */
export function routeFor(routes: readonly Route[], op: ZulipOperation): Route | undefined {
  const exact = `${op.method} ${op.path}`;
  const byExact = routes.find((r) => routeKeys(r).includes(exact));
  if (byExact) return byExact;
  // A route that is exactly another operation's (PATCH /users/{user_id}) does not serve this one (PATCH /users/{email}).
  const claimed = new Set(ZULIP_OPERATIONS.filter((o) => o !== op).map((o) => `${o.method} ${o.path}`));
  const shape = `${op.method} ${shapeOf(op.path)}`;
  return routes.find((r) => routeKeys(r).some((k) => shapeOf(k) === shape && !claimed.has(k)));
}

/** Where an operation is documented, as the inventory's column says it. */
function documented(op: ZulipOperation): string {
  if (op.source === 'later') return 'later';
  if (op.source === 'proposed') return 'proposed';
  return 'yes';
}

export function inventoryMarkdown(routes: readonly Route[], featureLevel: number): string {
  const served = ZULIP_OPERATIONS.filter((op) => op.notImplemented === undefined);
  const inSnapshot = ZULIP_OPERATIONS.filter((op) => op.source === undefined).length;
  const lines = [
    '# Zulip REST API inventory',
    '',
    '<!-- Generated from the route table (simulator/http/routes/index.ts) and simulator/http/zulip-operations.ts;',
    '     test/simulator/api-inventory.test.ts checks it. UPDATE_API_INVENTORY=1 on that test rewrites it. -->',
    '',
    `Every operation of Zulip's \`zerver/openapi/zulip.yaml\`, and whether the simulator (feature level ${featureLevel}) serves it:`,
    `${served.length} of ${ZULIP_OPERATIONS.length} are served.`,
    '',
    `The list was read from \`${ZULIP_YAML.path}\` at ${ZULIP_YAML.repo}@${ZULIP_YAML.commit.slice(0, 12)}`,
    `(\`info.version\` ${ZULIP_YAML.infoVersion}; its notes reach feature level ${ZULIP_YAML.newestFeatureLevelMentioned}), which has`,
    `${ZULIP_YAML.operationCount} operations, all below (column "in yaml": yes; ${inSnapshot} rows). Rows marked "later" are not in that`,
    "snapshot and come from Zulip's endpoint index (documented after it, or routed by `zproject/urls.py`)" +
      (ZULIP_OPERATIONS.some((op) => op.source === 'proposed') ? '; "proposed" is only in an unmerged pull request.' : '.'),
    '',
    '| operationId | method | Zulip path | in yaml | simulator |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const op of ZULIP_OPERATIONS) {
    const route = op.notImplemented === undefined ? routeFor(routes, op) : undefined;
    const exact = route !== undefined && routeKeys(route).includes(`${op.method} ${op.path}`);
    const status = op.notImplemented !== undefined ? `not served: ${op.notImplemented}` : exact ? 'served' : `served at \`${route?.path}\``;
    lines.push(`| \`${op.operationId}\` | ${op.method} | \`${op.path}\` | ${documented(op)} | ${status} |`);
  }
  lines.push('', '## Routes the description does not name', '', '| method and path | what it is |', '| --- | --- |');
  for (const [key, why] of Object.entries(SIMULATOR_ONLY_ROUTES)) lines.push(`| \`${key}\` | ${why} |`);
  return `${lines.join('\n')}\n`;
}
