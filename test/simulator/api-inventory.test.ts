/**
 * The route table against Zulip's API description (simulator/http/zulip-operations.ts): every
 * operation is served or says why not, every route is an operation or says what it is, and
 * docs/zulip-api-inventory.md is what they generate (UPDATE_API_INVENTORY=1 rewrites it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ZULIP_FEATURE_LEVEL } from '../../simulator/engine/realm/server-version.ts';
import { inventoryMarkdown, routeFor, routeKeys, shapeOf } from '../../simulator/http/api-inventory.ts';
import { routes } from '../../simulator/http/routes/index.ts';
import { SIMULATOR_ONLY_ROUTES, ZULIP_OPERATIONS, ZULIP_YAML } from '../../simulator/http/zulip-operations.ts';

describe("the route table and Zulip's operations", () => {
  it('names each operation once', () => {
    const ids = ZULIP_OPERATIONS.map((op) => op.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const keys = ZULIP_OPERATIONS.map((op) => `${op.method} ${op.path}`);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it('serves every operation not marked otherwise, and none that is', () => {
    const missing = ZULIP_OPERATIONS.filter((op) => op.notImplemented === undefined && !routeFor(routes, op)).map((op) => op.operationId);
    const servedAnyway = ZULIP_OPERATIONS.filter((op) => op.notImplemented !== undefined && routeFor(routes, op)).map((op) => op.operationId);
    expect({ missing, servedAnyway }).toEqual({ missing: [], servedAnyway: [] });
  });

  it('has no route that is neither an operation nor listed with what it is', () => {
    const operationShapes = new Set(ZULIP_OPERATIONS.map((op) => `${op.method} ${shapeOf(op.path)}`));
    const unexplained = routes
      .filter((r) => !routeKeys(r).some((k) => operationShapes.has(shapeOf(k))) && SIMULATOR_ONLY_ROUTES[`${r.method} ${r.path}`] === undefined)
      .map((r) => `${r.method} ${r.path}`);
    expect(unexplained).toEqual([]);
    const stale = Object.keys(SIMULATOR_ONLY_ROUTES).filter((key) => !routes.some((r) => `${r.method} ${r.path}` === key));
    expect(stale).toEqual([]);
  });

  it('holds every operation of the zulip.yaml it was read from, and says which came later', () => {
    expect(ZULIP_OPERATIONS.filter((op) => op.source === undefined)).toHaveLength(ZULIP_YAML.operationCount);
    // Operations Zulip documents only after that snapshot, or not at all, are never silently counted as in it.
    expect(ZULIP_OPERATIONS.find((op) => op.operationId === 'get-channel-folders')?.source).toBe('later');
    // python_examples.py documents edit_reusable_invitation_link; served since it is.
    expect(ZULIP_OPERATIONS.find((op) => op.operationId === 'edit-invite-link')).toMatchObject({ source: 'later' });
    expect(ZULIP_OPERATIONS.find((op) => op.operationId === 'edit-invite-link')?.notImplemented).toBeUndefined();
  });

  it('keeps the neutral names of the specification beside Zulip\'s own', () => {
    expect(SIMULATOR_ONLY_ROUTES['POST /calls/videocall/create']).toBeDefined();
    expect(routeFor(routes, { operationId: 'create-webex-video-call', method: 'POST', path: '/calls/webex/create' })).toBeDefined();
  });

  it('is what docs/zulip-api-inventory.md says', () => {
    const file = new URL('../../docs/zulip-api-inventory.md', import.meta.url);
    const generated = inventoryMarkdown(routes, ZULIP_FEATURE_LEVEL);
    if (process.env.UPDATE_API_INVENTORY === '1') writeFileSync(file, generated);
    expect(readFileSync(file, 'utf8')).toBe(generated);
  });
});
