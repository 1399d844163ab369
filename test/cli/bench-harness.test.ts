/** The parts of `npm run bench:sim` whose mistakes would bend every figure: the floor, the statistics, the case selection, the GC pauses, the waits for a CPU. */
import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cpuBetween, helperThreads, parseSchedstat, readProcessCpu, type ProcessCpu } from '../../scripts/bench/harness/cpu-waits.ts';
import { pausedWithin, recordGcPauses, summarizeGcPauses, takeGcPauses } from '../../scripts/bench/harness/gc-pauses.ts';
import { bottleneck } from '../../scripts/bench/harness/load.ts';
import { median, percentile } from '../../scripts/bench/harness/stats.ts';
import { benchCases, selectCases } from '../../scripts/bench/sim/cases.ts';
import type { BenchContext } from '../../scripts/bench/sim/context.ts';
import { startFloorServer } from '../../scripts/bench/sim/floor.ts';
import type { ProbeTimeline } from '../../scripts/bench/sim/poller.ts';
import { attributeDeliveries, WAITED_MS } from '../../scripts/bench/sim/realtime.ts';
import { seriesMembers } from '../../scripts/bench/sim/report.ts';

const basic = (user: string, key: string) => `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`;

describe('the floor server', () => {
  it('answers the fixed bytes to good credentials and 401 to a wrong key or an unknown user', async () => {
    const floor = await startFloorServer();
    floor.setAnswer({ status: 200, contentType: 'application/json', body: '{"result":"success","msg":"","x":"é"}\n' }, { 'Iago@zulip.com': 'k'.repeat(32) });
    const url = `http://127.0.0.1:${floor.port}/api/v1/messages?anchor=newest`;
    const ok = await fetch(url, { method: 'POST', headers: { authorization: basic('iago@zulip.com', 'k'.repeat(32)) }, body: 'type=stream&to=Verona' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-length')).toBe(String(Buffer.byteLength('{"result":"success","msg":"","x":"é"}\n')));
    expect(await ok.text()).toBe('{"result":"success","msg":"","x":"é"}\n');
    for (const auth of [basic('iago@zulip.com', 'x'.repeat(32)), basic('nobody@zulip.com', 'k'.repeat(32)), 'Bearer abc']) {
      const refused = await fetch(url, { headers: { authorization: auth } });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
    }
    floor.close();
  });
});

describe('garbage-collector pauses', () => {
  it('records the pauses between record and take, on the epoch clock, and nothing after', async () => {
    const from = Date.now();
    recordGcPauses();
    // Enough short-lived garbage to fill the young generation several times.
    let kept = 0;
    for (let i = 0; i < 200_000; i++) kept += new Array(64).fill(i).length;
    await new Promise((resolve) => setImmediate(resolve));
    const pauses = takeGcPauses();
    const to = Date.now();
    expect(kept).toBe(200_000 * 64);
    expect(pauses.some((p) => p.kind === 'minor')).toBe(true);
    for (const p of pauses) {
      expect(p.at).toBeGreaterThanOrEqual(from - 1);
      expect(p.at + p.ms).toBeLessThanOrEqual(to + 1);
    }
    for (let i = 0; i < 200_000; i++) kept += new Array(64).length;
    expect(takeGcPauses()).toEqual([]);
  });

  it('summarises pauses by kind and tells whether one overlaps a span', () => {
    const pauses = [
      { at: 1000, ms: 2, kind: 'minor' as const },
      { at: 1010, ms: 4, kind: 'minor' as const },
      { at: 1020, ms: 30, kind: 'major' as const },
    ];
    expect(summarizeGcPauses(pauses, percentile)).toEqual({
      count: 3,
      totalMs: 36,
      kinds: { minor: { count: 2, p50: 2, p99: 4, max: 4 }, major: { count: 1, p50: 30, p99: 30, max: 30 } },
    });
    expect([pausedWithin(pauses, 1002, 1010), pausedWithin(pauses, 1001, 1003), pausedWithin(pauses, 1013, 1015), pausedWithin(pauses, 1049, 1060)]).toEqual([false, true, true, true]);
    expect(pausedWithin(pauses, 1050, 1060)).toBe(false);
  });
});

describe('waits for a CPU', () => {
  it('reads schedstat lines as ms on a CPU and ms waiting, and nothing else', () => {
    expect(parseSchedstat('233415 1622250 2\n')).toEqual({ runMs: 0.233415, waitMs: 1.62225 });
    for (const bad of ['', '12', 'a b c', '-1 2 3', '1.5 2 3']) expect(parseSchedstat(bad)).toBeNull();
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.nat(), (run, wait, slices) => {
        expect(parseSchedstat(`${run} ${wait} ${slices}`)).toEqual({ runMs: run / 1e6, waitMs: wait / 1e6 });
      }),
    );
  });

  // Linux without scheduler statistics (CONFIG_SCHED_INFO off) has no such file: nothing to read.
  const hasSchedstat = existsSync(`/proc/${process.pid}/task/${process.pid}/schedstat`);
  it.runIf(hasSchedstat)("reads this process's main thread and helpers; time on the CPU grows with work", () => {
    const helpers = helperThreads(process.pid);
    expect(helpers).not.toBeNull();
    expect(helpers).not.toContain(process.pid);
    const before = readProcessCpu(process.pid, helpers!);
    // Work until the main thread shows 10 ms on its CPU, however long a loaded machine takes to give
    // them; 2 s of this process's CPU time without that means the reading does not follow the work.
    const cpuAtStart = process.cpuUsage();
    let span = cpuBetween(before, before);
    let sink = 0;
    while (span!.mainRunMs < 10 && process.cpuUsage(cpuAtStart).user < 2_000_000) {
      for (let i = 0; i < 100_000; i++) sink += Math.sqrt(i);
      span = cpuBetween(before, readProcessCpu(process.pid, helpers!));
    }
    expect(sink).toBeGreaterThan(0);
    expect(span!.mainRunMs).toBeGreaterThanOrEqual(10);
    expect(span!.mainWaitMs).toBeGreaterThanOrEqual(0);
    expect(readProcessCpu(2 ** 22 + 7, [])).toBeNull();
    expect(cpuBetween(null, before)).toBeNull();
  });

  it("lays the slowest deliveries beside the pauses and waits of their message's span", () => {
    const cpu = (mainWaitMs: number): ProcessCpu => ({ mainRunMs: 1, mainWaitMs, helpersRunMs: 0.25 });
    const message = (sentAt: number, deliveries: number[], simWait: number, pollerWait: number): ProbeTimeline => ({
      sentAt,
      deliveries,
      building: 0,
      cpu: { simulator: cpu(simWait), poller: cpu(pollerWait) },
    });
    // Eleven messages of ten deliveries: the five slowest are 102 (the simulator waited), 103 and
    // 104 (the clients waited), 105 (a simulator pause overlaps it) and 106 (nothing did).
    const ordinary = Array.from({ length: 10 }, (_, i) => i + 1);
    const small = ordinary.slice(0, 8);
    const timelines = [
      ...Array.from({ length: 7 }, (_, i) => message(i * 1000, ordinary, 0, 0.125)),
      message(7000, [...small, 101, 102], WAITED_MS, 0),
      message(8000, [...small, 103, 104], 0, 3),
      message(9000, [...ordinary.slice(0, 9), 105], 0, 0),
      message(10000, [...ordinary.slice(0, 9), 106], 0, 0),
    ];
    const pauses = { simulator: [{ at: 9104, ms: 1, kind: 'minor' as const }], poller: [] };
    const { slow, unpaused, cpu: waits } = attributeDeliveries(timelines, pauses);
    expect(slow).toEqual({ above: 101, deliveries: 5, simulatorPaused: 1, pollerPaused: 0, simulatorWaited: 1, pollerWaited: 2, neither: 1 });
    expect(unpaused.deliveries).toBe(109);
    expect(waits).toEqual({
      simulator: { waitMs: WAITED_MS, helpersMs: 2.75 },
      poller: { waitMs: 3.875, helpersMs: 2.75 },
      messagesWaited: { simulator: 1, poller: 1, either: 2 },
      unwaited: { deliveries: 90, p50: 5, p99: 106 },
    });
    const unmeasured = timelines.map((t) => ({ ...t, cpu: { simulator: null, poller: t.cpu.poller } }));
    const without = attributeDeliveries(unmeasured, { simulator: [], poller: [] });
    expect(without.cpu).toBeNull();
    expect([without.slow.simulatorWaited, without.slow.pollerWaited, without.slow.neither]).toEqual([null, null, 5]);
    expect(without.unpaused.deliveries).toBe(110);
  });
});

describe('statistics', () => {
  it('median and percentiles of known samples', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(percentile(Array.from({ length: 100 }, (_, i) => i + 1), 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
  });

  it('a median lies between the extremes, and percentiles grow with p', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: 1 }), fc.nat({ max: 100 }), fc.nat({ max: 100 }), (xs, p, q) => {
        const m = median(xs);
        expect(m).toBeGreaterThanOrEqual(Math.min(...xs));
        expect(m).toBeLessThanOrEqual(Math.max(...xs));
        expect(percentile(xs, Math.min(p, q))).toBeLessThanOrEqual(percentile(xs, Math.max(p, q)));
      }),
    );
  });

  it('names the side at its limit: the server first, then the generator', () => {
    expect(bottleneck({ serverCpu: 0.97, generatorCpu: 0.95 })).toBe('server');
    expect(bottleneck({ serverCpu: 0.6, generatorCpu: 0.93 })).toBe('generator');
    expect(bottleneck({ serverCpu: 0.3, generatorCpu: 0.2 })).toBe('neither');
  });
});

describe('case selection', () => {
  const ctx = { stored: [0, 100], queues: 500 } as unknown as BenchContext;
  const cases = benchCases(ctx);

  it('picks a case by name and every size of a series by its name, in table order', () => {
    expect(selectCases(cases, ['subscriptions', 'users-me']).map((c) => c.name)).toEqual(['users-me', 'subscriptions@0', 'subscriptions@100']);
    expect(selectCases(cases, ['streams@100']).map((c) => c.name)).toEqual(['streams@100']);
  });

  it('refuses an unknown name, listing the names it knows', () => {
    expect(() => selectCases(cases, ['users'])).toThrow(/unknown case "users" \(cases: users-me, narrow-50, .*streams, subscriptions, .*startup\)/);
  });
});

describe('seriesMembers (the series tables of bench:sim and its --instructions mode)', () => {
  it('groups each series in the order given and pairs every size with the smallest one', () => {
    const r = (series: string | null, stored: number) => ({ series, stored });
    const results = [r('streams', 1_000_000), r('users-me', 0), r(null, 0), r('streams', 0), r('send', 10), r('streams', 100_000)];
    const members = seriesMembers(results).map(({ series, result, base }) => [series, result.stored, base.stored]);
    expect(members).toEqual([
      ['streams', 1_000_000, 0],
      ['streams', 0, 0],
      ['streams', 100_000, 0],
      ['users-me', 0, 0],
      ['send', 10, 10],
    ]);
  });
});
