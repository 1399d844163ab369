import { createSimulator } from '../simulator/index.ts';
import { catchUp } from '../simulator/engine/time.ts';
const sim = createSimulator({ seed: 1 });
const e = sim.engine;
const hamlet = 10;
const per = (label: string, n: number, f: () => void) => { for (let i = 0; i < 2000; i++) f(); const t0 = performance.now(); for (let i = 0; i < n; i++) f(); console.log(`${label}: ${((performance.now() - t0) * 1000 / n).toFixed(2)} µs per call`); };
per('dev realm, nothing due', 100000, () => catchUp(e));
for (let i = 0; i < 1000; i++) await sim.request({ method: 'POST', path: '/api/v1/scheduled_messages', as: hamlet, body: { type: 'channel', to: 3, topic: 't', content: 'x' + i, scheduled_delivery_timestamp: Math.floor(sim.clock.now()) + 86400 + i } });
per('1000 pending scheduled messages', 20000, () => catchUp(e));
for (let i = 0; i < 1000; i++) await sim.request({ method: 'POST', path: '/api/v1/register', as: 8 + (i % 8), body: { event_types: ['message'] } });
per(`+ ${e.queues.byId.size} queues`, 20000, () => catchUp(e));
for (let i = 0; i < 1000; i++) { const u = structuredClone(e.state.users.get(hamlet)!); u.id = 10000 + i; e.state.users.set(u.id, u); }
per(`+ ${e.state.users.size} users`, 20000, () => catchUp(e));
const t0 = performance.now();
for (let i = 0; i < 2000; i++) await sim.request({ method: 'GET', path: '/api/v1/users/me', as: hamlet });
console.log(`in-process GET /users/me: ${((performance.now() - t0) * 1000 / 2000).toFixed(1)} µs per request`);
