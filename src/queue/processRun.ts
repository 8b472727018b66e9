/**
 * Runs one queued ensemble run on a worker, under the run's lease: a new run, or (on a retry, or
 * when asked) the resumption of its last checkpoint. Its events go to the run's event log in the
 * queue's Redis (a list, so followers can read from any point) with a wake-up on its channel.
 * @module
 */
import type { Job } from 'bullmq';
import { errorInfo } from '../errors.js';
import type { EnsembleEvent } from '../ensembles/events.js';
import { ScriptedInputHandler } from '../ensembles/inputHandlers.js';
import type { ScriptedAnswers } from '../ensembles/inputHandlers.js';
import type { ConversationResult } from '../ensembles/result.js';
import { runEnsemble } from '../ensembles/run.js';
import { createEnsembleTracer, type EnsembleTracer } from '../ensembles/tracing.js';
import { WorkflowThread } from '../ensembles/workflowThread.js';
import { ColloquyError } from '../errors.js';
import { getDefaultLogger } from '../logger.js';
import { isLeaseLost, withFence } from '../stores/fence.js';
import type { RunEvent } from '../server/ensembleRuns.js';
import type { RunJobData } from './jobs.js';
import type { JobContext } from './worker.js';

/** What a worker returns for a run. */
export type RunOutcome =
  | { ok: true; result: ConversationResult }
  | { ok: false; error: { name: string; message: string; code?: string } };

/** How long a run's event log is kept after its last event (1 day). */
const EVENT_LOG_SECONDS = 86_400;

/** Appends an event to the run's log and wakes its followers. */
function logEvent(context: JobContext, runId: string, event: RunEvent): Promise<unknown> {
  const { keys, redis } = context;
  return redis
    .multi()
    .rpush(keys.runEvents(runId), JSON.stringify(event))
    .expire(keys.runEvents(runId), EVENT_LOG_SECONDS)
    .publish(keys.runChannel(runId), '1')
    .exec()
    .catch((error: unknown) => {
      // The run goes on (its result is stored with the job), but followers miss this event.
      getDefaultLogger().warn(
        { component: 'queue', runId, event: event.type, err: error },
        'could not append an event to the run event log; followers will not see it',
      );
    });
}

/** Runs (or resumes) the run and returns what the job stores as its result. */
export async function processRun(job: Job<RunJobData>, context: JobContext): Promise<RunOutcome> {
  const data = job.data;
  const { registry } = context;
  const store = registry.runs.store;
  // A start the server reported as not queued (Redis failed with its add in flight) never runs.
  const cancelled = await context.redis.get(context.keys.cancelled(job.id!));
  if (cancelled) {
    const error = errorInfo(new ColloquyError('ABORTED', cancelled));
    return { ok: false, error };
  }
  const lease = await context.lease(store, `queue:run:${data.runId}`);
  let tracer: EnsembleTracer | undefined;
  try {
    const saved = await WorkflowThread.load(store, data.runId);
    const ensemble = data.ensemble
      ? await registry.ensembles.load(data.ensemble)
      : await registry.ensembles.findByEnsembleName(String(saved?.state.data.ensemble));
    if (!ensemble) {
      throw new ColloquyError(
        'ENSEMBLE_RUN_ERROR',
        `Run "${data.runId}" belongs to ensemble "${String(saved?.state.data.ensemble)}", which this worker does not offer. Start workers with the same ensembles directory as the servers.`,
      );
    }
    const profiles = context.options.profiles;
    // A run that has a checkpoint is resumed: after a worker died, this continues where it stopped.
    const resume = data.resume || saved !== null;
    let finished = false;
    tracer = await createEnsembleTracer({ store });
    const onEvent = (event: EnsembleEvent) => {
      tracer?.onEvent(event);
      finished ||= event.type === 'ensemble_finished';
      void logEvent(context, data.runId, event);
    };
    // Every store write of the run is fenced with the lease (see `stores/fence.ts`).
    const fence = { key: lease.key, owner: lease.owner };
    const loaded = profiles ? await profiles() : undefined;
    const result = await withFence(fence, () =>
      runEnsemble(ensemble, {
        store,
        ...(resume
          ? { resume: data.runId }
          : {
              runId: data.runId,
              ...(data.input !== undefined ? { input: data.input } : {}),
              ...(data.initialContext ? { initialContext: data.initialContext } : {}),
            }),
        ...(data.answers
          ? { inputHandler: new ScriptedInputHandler(data.answers as ScriptedAnswers) }
          : {}),
        ...(loaded ? { profiles: loaded } : {}),
        ...(context.options.createModel ? { createModel: context.options.createModel } : {}),
        onEvent,
        signal: context.signal,
      }),
    );
    await tracer.finish();
    if (!finished) await logEvent(context, data.runId, { type: 'ensemble_finished', result });
    return { ok: true, result };
  } catch (error) {
    await tracer?.finish(error);
    if (context.handingBack()) throw error;
    if (isLeaseLost(error)) {
      // Another worker took the run while this one was paused past the lease: it continues it.
      getDefaultLogger().warn(
        { component: 'worker', job: job.id, runId: data.runId },
        `Abandoning ensemble run ${data.runId}: this worker lost its lease (${(error as Error).message}).`,
      );
      return await context.requeue(0);
    }
    await logEvent(context, data.runId, { type: 'error', error: errorInfo(error) });
    return { ok: false, error: errorInfo(error) };
  } finally {
    await lease.release();
  }
}
