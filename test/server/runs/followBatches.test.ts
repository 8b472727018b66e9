/**
 * A follower of a background call reads the run's log a batch at a time: the events recorded in
 * one turn of the event loop come together, in order, with their ids, ending with the last one.
 */
import { describe, expect, it } from 'vitest';
import type { AgencyStreamEvent } from '../../../src/agency/events.js';
import type { CallExecutor } from '../../../src/server/executor.js';
import { CallRuns } from '../../../src/server/runs/callRuns.js';
import { MemoryCallRunLog, type CallRunEvent } from '../../../src/server/runs/runLog.js';
import { doneResult } from './helpers.js';

const result = doneResult;

/** `count` text deltas recorded in one burst (no turn of the event loop between them), then the end. */
async function* burst(count: number): AsyncGenerator<AgencyStreamEvent> {
  for (let i = 0; i < count; i++) {
    yield {
      type: 'raw_model_stream_event',
      agent: 'A',
      depth: 0,
      data: { type: 'output_text_delta', delta: `t${i}` },
    } as AgencyStreamEvent;
  }
  yield { type: 'run_completed', result };
}

const unused = {} as CallExecutor; // startWith gets its events from the spec

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const value of iterable) out.push(value);
  return out;
}

describe('CallRuns.followBatches', () => {
  it('gives a burst of events in one batch, in order with their ids, the last batch ending the run', async () => {
    const runs = new CallRuns(unused);
    const { summary, done } = await runs.startWith({
      agency: 'a',
      chatId: 'c1',
      events: () => burst(20),
    });
    const batches = await collect(runs.followBatches(summary.runId));
    await done;
    const flat = batches.flat();
    expect(flat.map(([id]) => id)).toEqual(flat.map((_, i) => i));
    expect(flat.map(([, event]) => event.type)).toEqual([
      'run_started',
      ...Array<string>(20).fill('raw_model_stream_event'),
      'run_completed',
    ]);
    // run_started is recorded before startWith resolves; the burst is read in one go after it.
    expect(batches.length).toBeLessThanOrEqual(3);
    expect(batches.every((batch) => batch.length > 0)).toBe(true);
    // follow() is the same events one by one, and a rejoin after an id starts after it.
    expect(await collect(runs.follow(summary.runId))).toEqual(flat);
    const rest = (await collect(runs.followBatches(summary.runId, 9))).flat();
    expect(rest.map(([id]) => id)).toEqual(flat.slice(10).map(([id]) => id));
  });

  it('stops when its signal aborts while the run goes on', async () => {
    const runs = new CallRuns(unused);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { summary, done } = await runs.startWith({
      agency: 'a',
      chatId: 'c1',
      async *events() {
        await gate;
        yield* burst(2);
      },
    });
    const leave = new AbortController();
    const seen: Array<[number, CallRunEvent]> = [];
    const following = (async () => {
      for await (const batch of runs.followBatches(summary.runId, -1, leave.signal)) {
        seen.push(...batch);
        leave.abort();
      }
    })();
    await following;
    expect(seen.map(([, event]) => event.type)).toEqual(['run_started']);
    expect((await runs.state(summary.runId))?.status).toBe('running');
    release();
    await done;
    expect((await runs.state(summary.runId))?.status).toBe('completed');
    const all = (await collect(runs.followBatches(summary.runId))).flat();
    expect(all.at(-1)![1].type).toBe('run_completed');
  });

  it('yields nothing for a run it does not know', async () => {
    expect(await collect(new CallRuns(unused).followBatches('callrun_missing'))).toEqual([]);
  });
});

describe('MemoryCallRunLog.appendNow', () => {
  it('records an event and wakes its watchers before it returns', async () => {
    const log = new MemoryCallRunLog();
    await log.create({
      runId: 'callrun_1',
      kind: 'call',
      agency: 'a',
      chatId: 'c1',
      status: 'running',
      startedAt: new Date(0).toISOString(),
      events: 0,
    });
    let woken = 0;
    await log.watch('callrun_1', () => (woken += 1));
    const id = log.appendNow('callrun_1', { type: 'run_completed', result });
    expect(id).toBe(0);
    expect(woken).toBe(1);
    expect((await log.events('callrun_1', 0)).map((event) => event.type)).toEqual([
      'run_completed',
    ]);
    expect(() => log.appendNow('callrun_missing', { type: 'run_completed', result })).toThrow(
      /not in this log/,
    );
  });
});
