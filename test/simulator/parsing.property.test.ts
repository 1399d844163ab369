/** Property: no request a client can form — any route, any fields, any values — gets a 5xx. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { routePrefix, routes } from '../../simulator/index.ts';
import { ID, sim } from './helpers.ts';

// One simulator for the whole run: state changes made by earlier cases are part of the search.
const s = sim();

/** Values a client might send: JSON of any shape, near-miss JSON, and plain text. */
const value = fc.oneof(
  fc.string(),
  fc.json(),
  fc.constantFrom('true', 'false', 'null', '1', '-1', '1.5', '[]', '{}', '[1,"a"]', '[{"name":""}]', '"#fff"', '9007199254740993'),
  fc.jsonValue().map((v) => JSON.stringify(v)),
);

describe('parsing never fails with a 5xx', () => {
  it('holds for arbitrary form bodies and query strings on every route', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: routes.length - 1 }),
        fc.constantFrom(ID.hamlet, ID.iago, ID.polonius, ID.desdemona, ID.defaultBot),
        fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...new Set(routes.flatMap((r) => r.params.map((p) => p.name))))), value, { maxKeys: 6 }),
        fc.oneof(fc.constant('1'), fc.constant('4'), fc.constant('999'), fc.string({ minLength: 1, maxLength: 6 }).map(encodeURIComponent)),
        async (index, as, fields, segment) => {
          const route = routes[index]!;
          const path = `${routePrefix(route)}${route.path.replace(/\{\w+\}/g, segment)}`;
          const asQuery = route.method === 'GET';
          const res = await s.request({
            method: route.method,
            path,
            as,
            ...(asQuery ? { query: fields } : { body: fields }),
          });
          expect(res.status).toBeLessThan(500);
          // A JSON envelope, or one of the HTML pages and files of the download routes.
          const page = typeof res.body === 'string' && (res.headers['content-type'] ?? '').startsWith('text/html');
          expect(res.body === '' || page || Buffer.isBuffer(res.body) || typeof res.body.result === 'string').toBe(true);
        },
      ),
      { numRuns: 400, seed: 20_261_122 },
    );
  });

  it('holds for arbitrary Authorization headers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string(), async (scheme, rest) => {
        const res = await s.request({ method: 'GET', path: '/api/v1/users/me', headers: { authorization: `${scheme} ${rest}` } });
        expect([400, 401]).toContain(res.status);
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});
