import { describe, expect, it } from 'vitest';
import { MemoryCallRunLog, type CallRunSummary } from '../../../src/server/runs/runLog.js';

const summary = (runId: string, status: CallRunSummary['status']): CallRunSummary => ({
  runId,
  kind: 'call',
  agency: 'a',
  chatId: 'c',
  status,
  startedAt: new Date(0).toISOString(),
  events: 0,
});

describe('MemoryCallRunLog', () => {
  it('forgets the runs that finished first once more than 1000 have finished, never a running one', async () => {
    const log = new MemoryCallRunLog();
    await log.create(summary('running', 'running'));
    for (let i = 0; i < 1002; i++) {
      await log.create(summary(`run-${i}`, 'running'));
      await log.update(summary(`run-${i}`, 'completed'));
    }
    expect(await log.summary('run-0')).toBeNull();
    expect(await log.summary('run-1')).toBeNull();
    expect((await log.summary('run-2'))?.status).toBe('completed');
    expect((await log.summary('run-1001'))?.status).toBe('completed');
    expect((await log.summary('running'))?.status).toBe('running');
  });

  it('counts a run finished twice once, at its last finish', async () => {
    const log = new MemoryCallRunLog();
    await log.create(summary('first', 'running'));
    await log.update(summary('first', 'failed'));
    for (let i = 0; i < 999; i++) {
      await log.create(summary(`run-${i}`, 'running'));
      await log.update(summary(`run-${i}`, 'completed'));
    }
    await log.update(summary('first', 'cancelled')); // updated again: not counted twice
    await log.create(summary('last', 'running'));
    await log.update(summary('last', 'completed'));
    expect((await log.summary('first'))?.status).toBe('cancelled');
    expect(await log.summary('run-0')).toBeNull();
  });

  it('says its watchers are always woken, so followers need no polling timer', () => {
    expect(new MemoryCallRunLog().wakesReliably).toBe(true);
  });
});
