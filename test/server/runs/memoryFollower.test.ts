/**
 * The callback follower of a run in this process's log (memoryFollower.ts): a burst comes as one
 * batch after the turn it was recorded in, a batch's promise holds the next read back
 * (backpressure), and the follow ends after the last event, for a run that ended without one, or
 * with what the follower threw.
 */
import { describe, expect, it } from 'vitest';
import { followMemoryLog, type RunBatch } from '../../../src/server/runs/memoryFollower.js';
import {
  MemoryCallRunLog,
  type CallRunEvent,
  type CallRunSummary,
} from '../../../src/server/runs/runLog.js';
import { doneResult } from './helpers.js';

const result = doneResult;
const summary: CallRunSummary = {
  runId: 'r1',
  kind: 'call',
  agency: 'a',
  chatId: 'c1',
  status: 'running',
  startedAt: new Date(0).toISOString(),
  events: 0,
};
const delta = (text: string): CallRunEvent =>
  ({
    type: 'raw_model_stream_event',
    agent: 'A',
    depth: 0,
    data: { type: 'output_text_delta', delta: text },
  }) as CallRunEvent;
const started: CallRunEvent = { type: 'run_started', runId: 'r1', agency: 'a', chatId: 'c1' };
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A follower that records what it is told; `hold` makes each batch wait for `release`. */
function recorder(hold = false) {
  const batches: RunBatch[] = [];
  const ended: { error?: unknown; count: number } = { count: 0 };
  let release: (() => void) | undefined;
  return {
    batches,
    ended,
    release: () => release?.(),
    follower: {
      batch(batch: RunBatch) {
        batches.push(batch);
        return hold ? new Promise<void>((resolve) => (release = resolve)) : undefined;
      },
      end(error?: unknown) {
        ended.count += 1;
        ended.error = error;
      },
    },
  };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await nextTurn();
  expect(condition()).toBe(true);
}

describe('followMemoryLog', () => {
  it('reads a burst as one batch at the end of its turn, and ends after the last event', async () => {
    const log = new MemoryCallRunLog();
    log.createNow(summary);
    log.appendNow('r1', started);
    const seen = recorder();
    followMemoryLog(log, 'r1', -1, seen.follower);
    expect(seen.batches).toEqual([]); // not in the turn it started
    await until(() => seen.batches.length === 1);
    for (const text of ['a', 'b', 'c']) log.appendNow('r1', delta(text));
    log.appendNow('r1', { type: 'run_completed', result });
    await until(() => seen.ended.count === 1);
    expect(seen.batches.map((batch) => batch.map(([id]) => id))).toEqual([[0], [1, 2, 3, 4]]);
    expect(seen.ended.error).toBeUndefined();
  });

  it('waits for a batch it was asked to wait for; what was recorded meanwhile comes next', async () => {
    const log = new MemoryCallRunLog();
    log.createNow(summary);
    log.appendNow('r1', started);
    const seen = recorder(true);
    followMemoryLog(log, 'r1', -1, seen.follower);
    await until(() => seen.batches.length === 1);
    log.appendNow('r1', delta('a'));
    await nextTurn();
    await nextTurn();
    log.appendNow('r1', delta('b'));
    await nextTurn();
    expect(seen.batches.length).toBe(1); // held back
    seen.release();
    await until(() => seen.batches.length === 2);
    expect(seen.batches[1]!.map(([id]) => id)).toEqual([1, 2]);
  });

  it('ends a run that stopped without its last event, and one not in the log', async () => {
    const log = new MemoryCallRunLog();
    log.createNow(summary);
    const seen = recorder();
    followMemoryLog(log, 'r1', -1, seen.follower);
    await nextTurn();
    expect(seen.ended.count).toBe(0); // running, nothing recorded yet: it waits
    log.updateNow({ ...summary, status: 'failed' });
    await until(() => seen.ended.count === 1);
    const unknown = recorder();
    followMemoryLog(log, 'nope', -1, unknown.follower);
    await until(() => unknown.ended.count === 1);
    expect(unknown.batches).toEqual([]);
  });

  it('ends with what the follower threw, and tells nothing after stop', async () => {
    const log = new MemoryCallRunLog();
    log.createNow(summary);
    log.appendNow('r1', started);
    const boom = new Error('boom');
    let ended: unknown;
    followMemoryLog(log, 'r1', -1, {
      batch: () => {
        throw boom;
      },
      end: (error) => (ended = error),
    });
    await until(() => ended !== undefined);
    expect(ended).toBe(boom);
    const seen = recorder();
    const stop = followMemoryLog(log, 'r1', 0, seen.follower);
    stop();
    log.appendNow('r1', delta('late'));
    await nextTurn();
    await nextTurn();
    expect(seen.batches).toEqual([]);
    expect(seen.ended.count).toBe(0);
  });
});
