/**
 * Runs one queued agency call on a worker: under the chat's lease, after the chat journal says
 * the chat is free (or that this job is a retry, which first cuts the chat back to where the call
 * began), publishing the call's events on its channel as they happen.
 * @module
 */
import type { Job } from 'bullmq';
import type { GetResponseOptions } from '../agency/agency.js';
import type { AgencyStreamEvent } from '../agency/events.js';
import { errorInfo } from '../errors.js';
import type { AgencyResponse } from '../agency/result.js';
import { ColloquyError } from '../errors.js';
import { getDefaultLogger } from '../logger.js';
import { isLeaseLost, withFence } from '../stores/fence.js';
import { StepJournal, withStepJournal } from '../agency/journal/stepJournal.js';
import { ChatJournal, restoreChat } from './chatJournal.js';
import type { CallOutcome } from './client.js';
import type { CallJobData } from './jobs.js';
import { publish, type JobContext } from './worker.js';

function callOptions(data: CallJobData, signal: AbortSignal): GetResponseOptions {
  const clientTools = data.clientTools?.length ? { clientTools: data.clientTools } : {};
  return { ...data.options, ...clientTools, chatId: data.chatId, signal };
}

/** Runs the call and returns what the job stores as its result. */
export async function processCall(
  job: Job<CallJobData>,
  context: JobContext,
): Promise<CallOutcome> {
  const data = job.data;
  const channel = data.replyTo ?? context.keys.callEvents(data.callId);
  const attempt = job.stalledCounter + 1;
  const message = (event: AgencyStreamEvent) => ({ callId: data.callId, attempt, event });
  const send = (event: AgencyStreamEvent) => publish(context.redis, channel, message(event));
  const finish = async (outcome: CallOutcome): Promise<CallOutcome> => {
    await send(lastEvent(outcome));
    return outcome;
  };

  const outcomeOf = (done: string | null, cancelled: string | null): CallOutcome | null => {
    if (done) return JSON.parse(done) as CallOutcome;
    if (cancelled) return { ok: false, error: errorInfo(new ColloquyError('ABORTED', cancelled)) };
    return null;
  };
  // A job that ran before (a retry, or one re-queued while its chat was busy) may be answered or
  // cancelled already: it says so without waiting for the chat. A first run checks under the
  // lease below, in the same round trip as the journal (one round trip less per call).
  if (job.attemptsStarted > 1) {
    const [done, cancelled] = await context.redis.mget(
      context.keys.done(data.callId),
      context.keys.cancelled(data.callId),
    );
    const early = outcomeOf(done ?? null, cancelled ?? null);
    if (early) return finish(early);
  }
  const agency = context.registry.agencies.get(data.agency);
  if (!agency) {
    const served = [...context.registry.agencies.keys()].join(', ');
    return finish({
      ok: false,
      error: errorInfo(
        new ColloquyError(
          'AGENCY_INVALID',
          `This worker serves no agency "${data.agency}" (it serves: ${served}). Start workers with the same agencies module as the servers.`,
        ),
      ),
    });
  }
  const store = agency.threads.store;
  // The chat's lease, and its threads as they are under it (one round trip on Postgres).
  const { lease, snapshot } = await context.leaseChat(
    store,
    `queue:chat:${data.agency}:${data.chatId}`,
    data.chatId,
  );
  const journal = new ChatJournal(context.redis);
  const key = context.keys.journal(data.agency, data.chatId);
  // The call's finished steps, in the store: a retry of this job replays them (see StepJournal).
  const steps = new StepJournal(store, data.callId);
  try {
    // Under the lease (an earlier attempt of this job that still ran when this one began may
    // have finished since), in one round trip: the outcome, a cancellation, and the journal,
    // which records this job with the snapshot when the chat has no entry.
    const entered = await journal.enter(
      {
        journal: key,
        done: context.keys.done(data.callId),
        cancelled: context.keys.cancelled(data.callId),
      },
      { job: job.id!, snapshot },
    );
    const known = outcomeOf(entered.done, entered.cancelled);
    if (known) {
      await discardSteps(steps, data.callId);
      return await finish(known);
    }
    const entry = entered.current;
    if (entry && entry.job !== job.id && (await context.pending(entry.job))) {
      // Another call on this chat died mid-way and waits for its retry: it goes first.
      await lease.release();
      return await context.requeue(250);
    }
    // Every store write from here on is fenced with the lease: once another worker has taken the
    // chat (this one was paused past the lease), the store refuses them.
    const fenced = await withFence({ key: lease.key, owner: lease.owner }, async () => {
      if (entry && entry.job === job.id) {
        await restoreChat(store, data.chatId, entry.snapshot);
        agency.threads.evict(data.chatId);
      } else if (entry) {
        // The entry of a job that is no longer to run (it failed after it began): replaced.
        await journal.begin(key, { job: job.id!, snapshot });
      }
      return withStepJournal(steps, () => run(agency, data, context.signal, send));
    }).catch((error: unknown) => {
      if (isLeaseLost(error)) return { lost: error as Error };
      throw error;
    });
    // The lease was lost (this worker paused, or the store unreachable, for longer than its time
    // to live): another attempt may have the chat now. Record nothing; the job goes back and its
    // retry cuts the chat back to the journal's snapshot (or finds the other attempt's outcome).
    if ('lost' in fenced || lease.lost) {
      const reason = 'lost' in fenced ? fenced.lost.message : 'a lease renewal failed';
      getDefaultLogger().warn(
        { component: 'worker', job: job.id, callId: data.callId, chatId: data.chatId },
        `Abandoning the run of call ${data.callId}: this worker lost the chat's lease (${reason}).`,
      );
      agency.threads.evict(data.chatId);
      return await context.requeue(0);
    }
    const outcome = fenced;
    if (!outcome.ok && context.handingBack()) throw new Error('handing the job back');
    // The effects are complete: from now on a retry answers with this outcome and runs nothing.
    // Recorded, the chat freed and the last event sent in one round trip.
    await journal.end(key, job.id!, (multi) =>
      multi
        .set(context.keys.done(data.callId), JSON.stringify(outcome), 'EX', 86_400)
        .publish(channel, JSON.stringify(message(lastEvent(outcome)))),
    );
    // The outcome is recorded (so a retry answers with it): the step journal has done its work.
    await discardSteps(steps, data.callId);
    return outcome;
  } finally {
    await lease.release();
  }
}

/**
 * Deletes a call's step journal once its outcome is recorded. A failure is logged, not thrown:
 * the outcome stands, and a journal left behind is never read again (retries find the outcome).
 */
async function discardSteps(steps: StepJournal, callId: string): Promise<void> {
  try {
    await steps.discard();
  } catch (error) {
    getDefaultLogger().warn(
      { component: 'worker', callId, err: error },
      `Could not delete the step journal of call ${callId} (thread "${steps.threadId}"); delete it by hand.`,
    );
  }
}

function lastEvent(outcome: CallOutcome): AgencyStreamEvent {
  return outcome.ok
    ? { type: 'run_completed', result: outcome.result as AgencyResponse }
    : { type: 'error', error: outcome.error };
}

async function run(
  agency: import('../agency/agency.js').Agency,
  data: CallJobData,
  signal: AbortSignal,
  send: (event: AgencyStreamEvent) => Promise<unknown>,
): Promise<CallOutcome> {
  const options = callOptions(data, signal);
  try {
    if (data.resume) {
      const { state, approve, reject, toolOutputs } = data.resume;
      const { context, maxTurns, userId, clientTools, outputType } = options;
      const result = await agency.resume(state, {
        signal,
        ...(context !== undefined ? { context } : {}),
        ...(maxTurns !== undefined ? { maxTurns } : {}),
        ...(userId !== undefined ? { userId } : {}),
        ...(approve !== undefined ? { approve } : {}),
        ...(reject !== undefined ? { reject } : {}),
        ...(toolOutputs !== undefined ? { toolOutputs } : {}),
        ...(clientTools !== undefined ? { clientTools } : {}),
        ...(outputType !== undefined ? { outputType } : {}),
      });
      return { ok: true, result };
    }
    if (!data.stream) return { ok: true, result: await agency.getResponse(data.message, options) };
    let result: AgencyResponse | undefined;
    for await (const event of agency.getResponseStream(data.message, options)) {
      if (event.type === 'run_completed') result = event.result;
      else if (event.type !== 'error') void send(event);
    }
    return { ok: true, result };
  } catch (error) {
    // A write refused by the lease fence: the caller abandons the run (nothing is recorded).
    if (isLeaseLost(error)) throw error;
    // A cancelled call ends with the cancellation (ABORTED and its reason), whatever the code
    // that noticed it threw (a model's timer throws a bare AbortError).
    const reason: unknown = signal.aborted ? signal.reason : undefined;
    return { ok: false, error: errorInfo(reason instanceof ColloquyError ? reason : error) };
  }
}
