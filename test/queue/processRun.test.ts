/**
 * processRun's first check: a run start the server reported as not queued (its job carries a
 * cancellation mark, see QueueClient.addJob) returns ABORTED without leasing or running anything.
 */
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { queueConnection } from '../../src/queue/connection.js';
import type { RunJobData } from '../../src/queue/jobs.js';
import { processRun } from '../../src/queue/processRun.js';
import type { JobContext } from '../../src/queue/worker.js';

function contextWith(marks: Record<string, string>, leased: string[]): JobContext {
  const { keys } = queueConnection({ prefix: 'unit' });
  const redis = { get: async (key: string) => marks[key] ?? null } as unknown as Redis;
  return {
    keys,
    redis,
    async lease(_store: unknown, key: string) {
      leased.push(key);
      throw new Error('stop here: the run went on to its lease');
    },
    registry: { runs: { store: {} } },
  } as unknown as JobContext;
}

const job = {
  id: 'run_job1',
  data: { runId: 'r1', ensemble: 'chain', resume: false },
} as Job<RunJobData>;

describe('processRun', () => {
  it('returns ABORTED, without leasing the run, when its start was cancelled as not queued', async () => {
    const leased: string[] = [];
    const { keys } = queueConnection({ prefix: 'unit' });
    const context = contextWith({ [keys.cancelled('run_job1')]: 'never queued' }, leased);
    const outcome = await processRun(job, context);
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'ABORTED', message: 'never queued' },
    });
    expect(leased).toEqual([]);
  });

  it('goes on to the run lease when there is no mark', async () => {
    const leased: string[] = [];
    await expect(processRun(job, contextWith({}, leased))).rejects.toThrow(/went on to its lease/);
    expect(leased).toEqual(['queue:run:r1']);
  });
});
