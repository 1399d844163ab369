/**
 * The real-time clients of `npm run bench:sim`, in a process of their own: event queues registered
 * through POST /register, each holding a GET /events long-poll and polling again as soon as it is
 * answered, as Zulip's clients do. The `probe` sends messages one at a time and times each from
 * the moment it is sent to the moment each queue that should get it has it, and reads around
 * each message how long this process's and the simulator's event loops waited for a CPU meanwhile
 * (cpu-waits.ts). `received` counts the answers and the message events in them (under load one
 * answer may carry several messages).
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { cpuBetween, helperThreads, readProcessCpu, type ProcessCpu } from '../harness/cpu-waits.ts';
import { answerCalls } from '../harness/processes.ts';
import { median, percentile } from '../harness/stats.ts';

interface Account {
  email: string;
  apiKey: string;
}

interface Queue {
  id: string;
  auth: string;
  lastEventId: number;
  polling: boolean;
}

export interface ProbeResult {
  /** Send → arrival at each queue that should get the message, ms, every delivery of every message. */
  deliveries: number[];
  /** How long POST /messages itself took, ms. */
  sends: number[];
  p50: number;
  p99: number;
  sendP50: number;
  /** Each message: when its send was written (ms since the epoch) and its deliveries after that, ms. */
  timelines: ProbeTimeline[];
}

export interface ProbeTimeline {
  sentAt: number;
  deliveries: number[];
  /** From the send being asked for to its request written, ms (this client's own work). */
  building: number;
  /** From just before the send to the last delivery, in each process (null where not measurable). */
  cpu: { simulator: ProcessCpu | null; poller: ProcessCpu | null };
}

export interface Received {
  answers: number;
  messageEvents: number;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const basic = (a: Account): string => `Basic ${Buffer.from(`${a.email}:${a.apiKey}`).toString('base64')}`;

export async function runPoller(port: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const queues: Queue[] = [];
  const stopping = false;
  /** Called with each message event's arrival time (the probe listens). */
  let onMessage: ((at: number) => void) | null = null;
  let failures = 0;
  /** GET /events answers received, and the message events they carried. */
  const received: Received = { answers: 0, messageEvents: 0 };

  /**
   * One request; `at`: when its answer had fully arrived (before this process read it).
   * `writing` is called just before the request is handed to its socket, its body already built.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the poller reads whichever JSON the simulator sends
  function call(method: string, path: string, auth: string, form?: Record<string, string>, writing?: () => void): Promise<{ status: number; body: any; at: number }> {
    const body = form ? new URLSearchParams(form).toString() : undefined;
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          agent,
          host: '127.0.0.1',
          port,
          method,
          path,
          headers: {
            authorization: auth,
            ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const at = performance.now();
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), at });
          });
        },
      );
      req.on('error', reject);
      writing?.();
      req.end(body);
    });
  }

  async function poll(q: Queue): Promise<void> {
    while (!stopping) {
      let res;
      try {
        res = await call('GET', `/api/v1/events?queue_id=${q.id}&last_event_id=${q.lastEventId}`, q.auth);
      } catch {
        failures++;
        return;
      }
      if (res.status !== 200) {
        failures++;
        return;
      }
      received.answers++;
      for (const event of res.body.events as { id: number; type: string }[]) {
        q.lastEventId = Math.max(q.lastEventId, event.id);
        if (event.type !== 'message') continue;
        received.messageEvents++;
        onMessage?.(res.at);
      }
      // Each queue stands for a client of its own. Polling again only once this turn of the event
      // loop is over lets every answer already read be timed before any client's renewal is built:
      // otherwise one client's renewal (some 0.1 ms) delays when the next client's answer is timed.
      await nextTurn();
    }
  }

  answerCalls(
    {},
    {
      /** Register `count` queues, round-robin over the accounts (message events only). */
      async register(payload) {
        const { accounts, count } = payload as { accounts: Account[]; count: number };
        for (let i = 0; i < count; i++) {
          const account = accounts[i % accounts.length]!;
          const auth = basic(account);
          const res = await call('POST', '/api/v1/register', auth, { event_types: '["message"]' });
          if (res.status !== 200) throw new Error(`POST /register: ${JSON.stringify(res.body)}`);
          queues.push({ id: res.body.queue_id, auth, lastEventId: res.body.last_event_id, polling: false });
        }
        return queues.length;
      },
      /** Start every queue's poll loop. */
      park() {
        for (const q of queues) {
          if (q.polling) continue;
          q.polling = true;
          void poll(q).finally(() => (q.polling = false));
        }
        return queues.length;
      },
      /**
       * Send `messages` messages one at a time as `sender` to `channel`; each send waits until
       * `expect` queues have it (or a second passes) before the next.
       */
      async probe(payload) {
        const { sender, channel, messages, expect, simulatorPid } = payload as { sender: Account; channel: string; messages: number; expect: number; simulatorPid: number };
        const helpers = { simulator: helperThreads(simulatorPid) ?? [], poller: helperThreads(process.pid) ?? [] };
        const readCpu = () => ({ simulator: readProcessCpu(simulatorPid, helpers.simulator), poller: readProcessCpu(process.pid, helpers.poller) });
        const auth = basic(sender);
        const deliveries: number[] = [];
        const sends: number[] = [];
        const timelines: ProbeResult['timelines'] = [];
        for (let i = 0; i < messages; i++) {
          let arrived = 0;
          let done: () => void = () => {};
          const all = new Promise<void>((resolve) => (done = resolve));
          // Set as the request is written: building it is this client's work, not the server's.
          let started = Number.NaN;
          // Read before the send is asked for: a reading (some 20 files) is not this send's building.
          const cpuBefore = readCpu();
          const asked = performance.now();
          const timeline: ProbeTimeline = { sentAt: Number.NaN, deliveries: [], building: 0, cpu: { simulator: null, poller: null } };
          timelines.push(timeline);
          onMessage = (at) => {
            deliveries.push(at - started);
            timeline.deliveries.push(at - started);
            if (++arrived === expect) done();
          };
          const form = { type: 'stream', to: channel, topic: 'probe', content: `probe ${i}` };
          const res = await call('POST', '/api/v1/messages', auth, form, () => {
            started = performance.now();
            timeline.building = started - asked;
            timeline.sentAt = performance.timeOrigin + started;
          });
          sends.push(performance.now() - started);
          if (res.status !== 200) throw new Error(`POST /messages: ${JSON.stringify(res.body)}`);
          const timeout = setTimeout(done, 1000);
          await all;
          clearTimeout(timeout);
          const cpuAfter = readCpu();
          timeline.cpu = { simulator: cpuBetween(cpuBefore.simulator, cpuAfter.simulator), poller: cpuBetween(cpuBefore.poller, cpuAfter.poller) };
          onMessage = null;
          if (arrived < expect) throw new Error(`message ${i} reached ${arrived} of ${expect} queues within a second`);
          // After the renewals the answers queued (see poll), so the next send goes out behind them, as before.
          await nextTurn();
        }
        return { deliveries, sends, p50: percentile(deliveries, 50), p99: percentile(deliveries, 99), sendP50: median(sends), timelines } satisfies ProbeResult;
      },
      failures: () => failures,
      received: () => ({ ...received }),
    },
  );
}
