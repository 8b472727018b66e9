/**
 * Cancelling a queued ensemble run (what `DELETE /runs/:id` does on a server with `--queue`): the
 * cancel reaches the worker running it, the run stops with its finished turns kept, and another
 * start of the same work resumes it to the end. On the test Redis with an in-process worker.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { QueuedRuns } from '../../src/queue/queuedRuns.js';
import { DirectoryEnsembleCatalog } from '../../src/server/ensembleCatalog.js';
import { redisSkip, uniqueName } from '../setup/serviceUrls.js';
import { slowStepsEnsembles } from '../server/helpers.js';
import { startKit, type Kit } from './kit.js';

/** The run's state once it is no longer running (or after 5 s). */
async function settled(runs: QueuedRuns, runId: string) {
  let state = await runs.state(runId);
  for (let i = 0; i < 200 && state?.status === 'running'; i++) {
    await sleep(25);
    state = await runs.state(runId);
  }
  return state;
}

const skip = redisSkip();

describe.skipIf(Boolean(skip))(`queued run cancel${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let kit: Kit | undefined;
  afterEach(async () => {
    delete process.env.SLOW_MS;
    await kit?.close();
    kit = undefined;
  });

  it('stops the run on its worker; the finished turn is kept and a resume finishes it', async () => {
    const dir = slowStepsEnsembles();
    kit = await startKit({ ensembles: dir });
    const runs = new QueuedRuns(kit.client, new DirectoryEnsembleCatalog({ dir }), kit.store);
    const runId = uniqueName('run');
    await runs.start('steps', { runId });
    for (let i = 0; i < 200 && ((await runs.state(runId))?.turnCount ?? 0) < 1; i++)
      await sleep(25);
    expect((await runs.state(runId))?.status).toBe('running');

    const outcome = await runs.cancel(runId, 'stop it');
    expect(outcome?.cancelled).toBe(true);
    expect(outcome?.summary).toMatchObject({ runId, status: 'interrupted', turnCount: 1 });
    // The worker ended the job (not failed, not handed back): the run stopped there.
    expect(kit.workers[0]!.jobs.at(-1)).toMatchObject({
      name: 'ensemble-run',
      outcome: 'completed',
    });

    // Stopped: a second cancel finds nothing running; an unknown run is null.
    expect(await runs.cancel(runId)).toMatchObject({ cancelled: false });
    expect(await runs.cancel(uniqueName('missing'))).toBeNull();

    process.env.SLOW_MS = '0';
    await runs.resume(runId);
    const state = await settled(runs, runId);
    expect(state?.status).toBe('finished');
    expect(state?.result?.conversation_history.map((turn) => turn.agent_name)).toEqual([
      'first',
      'slow',
    ]);
  });

  it('starts a run whose id is held only by the key of a start that never landed', async () => {
    const dir = slowStepsEnsembles();
    process.env.SLOW_MS = '0';
    kit = await startKit({ ensembles: dir });
    const runs = new QueuedRuns(kit.client, new DirectoryEnsembleCatalog({ dir }), kit.store);
    const runId = uniqueName('run');
    // What a start leaves when Redis fails after its keys were written and before its job landed.
    await kit.client.redis.set(kit.client.connection.keys.runJob(runId), 'run_never_landed');
    expect(await runs.start('steps', { runId })).toMatchObject({ runId, status: 'running' });
    const state = await settled(runs, runId);
    expect(state?.status).toBe('finished');
    // Its id is taken now.
    await expect(runs.start('steps', { runId })).rejects.toMatchObject({ code: 'RUN_EXISTS' });
  });
});
