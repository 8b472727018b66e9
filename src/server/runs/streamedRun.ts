/**
 * The one mechanism behind every streaming route: the call runs as a background run (see
 * `CallRuns`) and the response stream follows it. A client that disconnects leaves the run going
 * (it rejoins with `GET /runs/:id/events` and `Last-Event-ID`), unless its body said
 * `onDisconnect: "cancel"`. The run id is in the `x-colloquy-run-id` header and the first event.
 * @module
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { ColloquyError, type ColloquyErrorCode, type ErrorInfo } from '../../errors.js';
import { getDefaultLogger } from '../../logger.js';
import type { RouteContext } from '../context.js';
import type { CallRunSpec } from './callRuns.js';
import type { BatchFollower } from './memoryFollower.js';
import { isLastRunEvent, type CallRunEvent } from './runLog.js';

/** The response header that names the run a streaming response follows. */
export const RUN_ID_HEADER = 'x-colloquy-run-id';

/**
 * What a streaming route does when its client disconnects: `continue` (the default) lets the call
 * run on for a later `GET /runs/:id/events`; `cancel` cancels it. A field of every streaming body.
 */
export const onDisconnectSchema = z
  .enum(['continue', 'cancel'], {
    error: 'expected "continue" (the default: the call runs on) or "cancel"',
  })
  .optional();

/** What a client disconnecting does to its call. */
export type OnDisconnect = z.output<typeof onDisconnectSchema>;

/** A call started for a streaming response. */
export interface StreamedRun {
  readonly runId: string;
  /**
   * The run's events from its first (`run_started`), as `[id, event]`, until its last or until
   * `signal` (the client leaving, which cancels the run when the body asked for that).
   */
  follow(signal: AbortSignal): AsyncGenerator<[number, CallRunEvent]>;
  /** Like {@link StreamedRun.follow}, a read of the run's log at a time (see `CallRuns.followBatches`). */
  batches(signal: AbortSignal): AsyncIterableIterator<Array<[number, CallRunEvent]>, undefined>;
  /**
   * Like {@link StreamedRun.batches} with callbacks when the run's log is in this process (see
   * `CallRuns.followNow`): returns the function that stops following, `undefined` for a shared log.
   * A client that leaves calls {@link StreamedRun.leave} itself.
   */
  followNow(follower: BatchFollower): (() => void) | undefined;
  /** The client left before the run's last event: cancels the run if the body asked for that. */
  leave(): void;
}

/**
 * Starts `spec` as a background run for the response of `c`: sets `x-colloquy-run-id`, keeps
 * graceful shutdown waiting for the run, and returns what the route streams.
 */
export async function startStreamedRun(
  c: Context,
  context: RouteContext,
  spec: CallRunSpec & { onDisconnect?: OnDisconnect },
): Promise<StreamedRun> {
  const { callRuns } = context;
  const { summary, done } = await callRuns.startWith(spec);
  void context.inflight.track(done);
  const { runId } = summary;
  c.header(RUN_ID_HEADER, runId);
  type Batch = Array<[number, CallRunEvent]>;
  /** The client left: cancels the run when its body asked for that. */
  const leaveRun = () => {
    if (spec.onDisconnect !== 'cancel') return;
    const reason = 'The client disconnected from the stream (onDisconnect: "cancel").';
    callRuns
      .cancel(runId, reason, 0)
      .catch((error: unknown) =>
        getDefaultLogger().error(
          { component: 'callRuns', runId, err: error },
          `Could not cancel background call ${runId} after its client left: ${(error as Error).message}`,
        ),
      );
  };
  /** The follower's batches; a plain iterator over `followBatches` (no second generator step a batch). */
  function batches(signal: AbortSignal): AsyncIterableIterator<Batch, undefined> {
    let ended = false;
    const leave = () => {
      if (!ended) leaveRun();
    };
    if (signal.aborted) leave();
    else signal.addEventListener('abort', leave, { once: true });
    const stop = () => signal.removeEventListener('abort', leave);
    const inner = callRuns.followBatches(runId, -1, signal);
    return {
      [Symbol.asyncIterator]() {
        return this;
      },
      async next(): Promise<IteratorResult<Batch, undefined>> {
        try {
          const step = await inner.next();
          if (step.done) stop();
          else if (isLastRunEvent(step.value[step.value.length - 1]![1])) ended = true;
          return step.done ? { done: true, value: undefined } : step;
        } catch (error) {
          stop();
          throw error;
        }
      },
      async return(): Promise<IteratorReturnResult<undefined>> {
        stop();
        await inner.return(undefined);
        return { done: true, value: undefined };
      },
    };
  }
  return {
    runId,
    batches,
    followNow: (follower) => callRuns.followNow(runId, -1, follower),
    leave: leaveRun,
    async *follow(signal) {
      for await (const batch of batches(signal)) yield* batch;
    },
  };
}

/** The error a `run_failed` event carries, rethrown for a route's own error event (same code). */
export function runFailure(info: ErrorInfo): Error {
  const error =
    info.code !== undefined
      ? new ColloquyError(info.code as ColloquyErrorCode, info.message)
      : new Error(info.message);
  error.name = info.name;
  return error;
}
