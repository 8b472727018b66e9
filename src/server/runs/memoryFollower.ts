/**
 * A follower of a run kept in this process's log ({@link MemoryCallRunLog}) that costs no promise
 * a batch: the log wakes it, it reads at the end of that turn of the event loop (so that a burst
 * of events comes as one batch, as with `CallRuns.followBatches`) and hands the batch to a
 * callback, which may ask it to wait (a socket that wants draining) before the next read.
 * @module
 */
import { isLastRunEvent, type CallRunEvent, type MemoryCallRunLog } from './runLog.js';

/** Events of a run as `[id, event]`, in order. */
export type RunBatch = Array<[number, CallRunEvent]>;

/** What a follower of {@link followMemoryLog} is told. */
export interface BatchFollower {
  /**
   * Each read of the log: the events recorded since the last (never empty), the last batch ending
   * with the run's last event. A promise makes the follower wait for it before reading again.
   */
  batch(batch: RunBatch): Promise<void> | undefined;
  /** The follow ended: after the last event, when the run ended without one, or `batch` threw. */
  end(error?: unknown): void;
}

/**
 * Follows `runId` in `log` from the event after `after` (-1: all): the first read at the end of
 * this turn. Returns the function that stops it (the follower is then told nothing more).
 */
export function followMemoryLog(
  log: MemoryCallRunLog,
  runId: string,
  after: number,
  follower: BatchFollower,
): () => void {
  let next = Math.max(0, after + 1);
  let stopped = false;
  let paused = false;
  let scheduled: NodeJS.Immediate | undefined;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    unwatch();
    if (scheduled) clearImmediate(scheduled);
  };
  const finish = (error?: unknown) => {
    if (stopped) return;
    stop();
    follower.end(error);
  };
  const read = () => {
    scheduled = undefined;
    if (stopped || paused) return;
    const events = log.eventsNow(runId, next);
    // A run recorded without its last event (or not in the log) ends the follow when it stops.
    if (events.length === 0) return void (log.statusNow(runId) !== 'running' && finish());
    const batch: RunBatch = [];
    let last = false;
    for (const event of events) {
      batch.push([next, event]);
      next += 1;
      if ((last = isLastRunEvent(event))) break;
    }
    let waiting: Promise<void> | undefined;
    try {
      waiting = follower.batch(batch);
    } catch (error) {
      return finish(error);
    }
    if (last) return finish();
    if (!waiting) return;
    paused = true;
    waiting.then(() => {
      paused = false;
      wake();
    }, finish);
  };
  const wake = () => {
    if (!stopped && !paused && scheduled === undefined) scheduled = setImmediate(read);
  };
  const unwatch = log.watchNow(runId, wake);
  wake();
  return stop;
}
