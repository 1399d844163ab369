/**
 * What bots send: one message per Markdown construct, each a line a CI bot, an issue tracker or
 * a person would write. The send cases cycle through them (SEND_MIX), and the `constructs` case
 * sends each alone in a process of its own (the engine's send action, in process, no HTTP), so a
 * construct that costs far more than the plain line shows by name: CPU time per send, or with
 * --instructions machine instructions per send under callgrind (markers between constructs, as
 * the throughput cases count theirs).
 */
import { getUserByEmail } from '../../../simulator/engine/core.ts';
import { sendMessage } from '../../../simulator/engine/messages/send.ts';
import { createSimulator } from '../../../simulator/index.ts';
import { callgrindCommand, perRequestCounts, readDumps } from '../harness/instructions.ts';
import { answerCalls, startChild } from '../harness/processes.ts';
import { median } from '../harness/stats.ts';
import type { BenchContext } from './context.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Construct {
  name: string;
  content: string;
}

/** In table order; the first is the plain line every other is read beside. */
export const SEND_MIX: readonly Construct[] = [
  { name: 'plain line', content: 'hello from the benchmark' },
  { name: 'emphasis', content: 'Build **passed** on _main_ in ~~12~~ 9 minutes' },
  { name: 'Markdown link', content: 'Opened [issue 1234](https://github.com/zulip/zulip/issues/1234?tab=timeline#event-5) for this' },
  { name: 'bare URL, query', content: 'Logs: https://ci.example.com/builds/5678/log?attempt=2&job=test-unit' },
  { name: 'bare domain', content: 'Deployed to staging.example.com, docs on zulip.com' },
  { name: 'inline code', content: 'Run `npm test -- --watch` and check `src/index.ts`' },
  { name: 'fenced code', content: 'Failure:\n```python\ndef test_send():\n    assert send("hi") == 200\n```' },
  { name: 'quote', content: '> AssertionError: expected 200, got 500\n\nSee the trace above' },
  { name: 'list', content: 'Changes:\n- fix the retry loop\n- bump the timeout\n- drop the old flag' },
  { name: 'user mention', content: '@**King Hamlet** please review' },
  { name: 'group mention', content: '@*hamletcharacters* the release is out' },
  { name: 'channel link', content: 'Moved to #**Denmark** and #**Denmark>bench**' },
  { name: 'emoji', content: 'All green :tada: :+1: 🎉' },
  { name: 'realm linkifier', content: 'Fixed by #D1234 and zulip-mobile#5678' },
];

const SENDER = 'iago@zulip.com';
const CHANNEL = 'Denmark';

/** The child: the simulator in process; `send` sends one construct `count` times, answering the CPU µs it took. */
export function runConstructsChild(): void {
  const simulator = createSimulator();
  const sender = getUserByEmail(simulator.engine, SENDER)!;
  const sendEach = (content: string, count: number): void => {
    for (let i = 0; i < count; i++) {
      sendMessage(simulator.engine, sender, { type: 'stream', to: CHANNEL, topic: 'bench', content, client: 'bench' });
    }
  };
  answerCalls({ constructs: SEND_MIX.length }, {
    send: (payload) => {
      const { index, count } = payload as { index: number; count: number };
      const before = process.cpuUsage();
      sendEach(SEND_MIX[index]!.content, count);
      const used = process.cpuUsage(before);
      return used.user + used.system;
    },
    warm: (payload) => {
      for (let round = 0; round < (payload as number); round++) for (const c of SEND_MIX) sendEach(c.content, 1);
    },
  });
}

export interface ConstructRow {
  name: string;
  content: string;
  /** CPU µs per send (timed) or instructions per send (counted). */
  perSend: number;
  /** perSend ÷ the plain line's. */
  relative: number;
}

export interface ConstructsResult {
  kind: 'constructs';
  name: string;
  title: string;
  unit: 'cpu-us' | 'instructions';
  sends: number;
  rows: ConstructRow[];
}

function rowsOf(perSend: number[]): ConstructRow[] {
  return SEND_MIX.map((c, i) => ({ name: c.name, content: c.content, perSend: perSend[i]!, relative: perSend[i]! / perSend[0]! }));
}

const WARM_ROUNDS = 300;

/** Timed: rounds of `sends` sends of each construct in turn, the median CPU per send of each. */
export async function runConstructsCase(ctx: BenchContext, sends = 2000): Promise<ConstructsResult> {
  const child = await startChild<{ constructs: number }>(ctx.self, ['--child', 'constructs'], { core: ctx.placement.serverCore });
  try {
    await child.call('warm', WARM_ROUNDS);
    const samples: number[][] = SEND_MIX.map(() => []);
    for (let round = 0; round < ctx.rounds; round++) {
      for (let index = 0; index < SEND_MIX.length; index++) samples[index]!.push((await child.call<number>('send', { index, count: sends })) / sends);
    }
    return { kind: 'constructs', name: 'constructs', title: 'in-process sends, by construct', unit: 'cpu-us', sends, rows: rowsOf(samples.map(median)) };
  } finally {
    await child.stop();
  }
}

/** Counted: under callgrind, a warm-up, an empty block, then `sends` sends of each construct between markers. */
export async function countConstructs(ctx: BenchContext, options: { requests: number; warmup: number; budget: number }): Promise<ConstructsResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-constructs-'));
  try {
    const prefix = path.join(dir, 'constructs');
    const child = await startChild<{ constructs: number }>(ctx.self, ['--child', 'constructs'], {
      core: ctx.placement.serverCore,
      execArgv: ['--expose-gc', ...(options.budget === 0 ? [] : [`--interrupt-budget=${options.budget}`])],
      wrapper: callgrindCommand(prefix, 'main'),
    });
    try {
      await child.call('warm', Math.ceil(options.warmup / SEND_MIX.length));
      await child.call('mark');
      await child.call('mark');
      for (let index = 0; index < SEND_MIX.length; index++) {
        await child.call('send', { index, count: options.requests });
        await child.call('mark');
      }
    } finally {
      await child.stop();
    }
    const { perRequest } = perRequestCounts(readDumps(prefix, 'main'), options.requests, SEND_MIX.length);
    return { kind: 'constructs', name: 'constructs', title: 'in-process sends, by construct', unit: 'instructions', sends: options.requests, rows: rowsOf(perRequest) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The per-construct table. */
export function constructRows(r: ConstructsResult): string[][] {
  const unit = r.unit === 'cpu-us' ? 'CPU µs/send' : 'instructions/send';
  const figure = (x: number): string => (r.unit === 'cpu-us' ? x.toFixed(1) : Math.round(x).toLocaleString('en'));
  return [['construct', unit, '× plain line'], ...r.rows.map((row) => [row.name, figure(row.perSend), `${row.relative.toFixed(2)}×`])];
}
