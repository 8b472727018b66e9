/**
 * QueueClient.addJob (what ensemble-run starts use) when Redis fails with the add in flight: a job
 * that landed counts as queued; one that did not fails with QUEUE_UNAVAILABLE, and should its add
 * land after all, it is cancelled and removed before a worker can run it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { QueueClient } from '../../src/queue/client.js';
import { QueueUnavailableError } from '../../src/queue/connection.js';
import { redisSkip, redisUrl, uniqueName } from '../setup/serviceUrls.js';

const skip = redisSkip();

describe.skipIf(Boolean(skip))(`QueueClient.addJob${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let client: QueueClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  type Add = QueueClient['queue']['add'];
  /** A client whose queue's `add` is replaced by `fake` (given the real one). */
  function clientWithAdd(landedWaitMs: number, fake: (realAdd: Add) => Add): QueueClient {
    const made = new QueueClient({ queue: redisUrl(), prefix: uniqueName('addjob'), landedWaitMs });
    made.queue.add = fake(made.queue.add.bind(made.queue));
    client = made;
    return made;
  }

  it('adds the job with the transaction the caller gives, in one go', async () => {
    client = new QueueClient({ queue: redisUrl(), prefix: uniqueName('addjob') });
    const key = `${client.connection.prefix}:q:marker`;
    await client.addJob('ensemble-run', { runId: 'r1' }, { jobId: 'job-plain' }, 'run "r1"', (m) =>
      m.set(key, 'job-plain'),
    );
    expect(await client.queue.getJobState('job-plain')).toBe('waiting');
    expect(await client.redis.get(key)).toBe('job-plain');
  });

  it('treats an add whose answer was lost as queued when the job landed', async () => {
    // Redis took the job, then the connection dropped before the answer came back.
    const added = clientWithAdd(2_000, (realAdd) => async (...args) => {
      await realAdd(...args);
      throw new Error('Connection is closed.');
    });
    await added.addJob('ensemble-run', { runId: 'r2' }, { jobId: 'job-landed' }, 'run "r2"');
    expect(await added.queue.getJobState('job-landed')).toBe('waiting');
    expect(await added.redis.exists(added.connection.keys.cancelled('job-landed'))).toBe(0);
  });

  it('fails with QUEUE_UNAVAILABLE when the job did not land, and cancels and removes it if it lands late', async () => {
    let land: () => void = () => undefined;
    // The add hangs past the wait (Redis stalled), then lands after the caller was told it failed.
    const added = clientWithAdd(
      300,
      (realAdd) =>
        (...args) =>
          new Promise((resolve, reject) => {
            land = () => void realAdd(...args).then(resolve, reject);
          }),
    );
    const error = await added
      .addJob('ensemble-run', { runId: 'r3' }, { jobId: 'job-late' }, 'run "r3"')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(QueueUnavailableError);
    expect((error as Error).message).toMatch(/Could not queue run "r3".*nothing was queued/);
    land();
    // The late add is undone: a cancellation mark for workers, and the job removed.
    for (let i = 0; i < 50 && (await added.queue.getJobState('job-late')) !== 'unknown'; i++) {
      await sleep(50);
    }
    expect(await added.queue.getJobState('job-late')).toBe('unknown');
    expect(await added.redis.get(added.connection.keys.cancelled('job-late'))).toMatch(
      /not queued/,
    );
  });
});
