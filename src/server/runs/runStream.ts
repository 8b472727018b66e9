/**
 * A streamed response that follows a background run (see streamedRun.ts) with no async layer a
 * batch: the run's log (in this process) hands each batch of events to the route's writer, which
 * turns them into SSE text synchronously, and the batch goes out in one write, at the end of the
 * turn its events were recorded in. `streamWithAbort` with a loop over `run.batches` does the same
 * with an abort signal, an async function, an async generator and their promises per request and
 * per batch; a shared log (Redis) is still followed that way.
 * @module
 */
import type { Context } from 'hono';
import { getDefaultLogger } from '../../logger.js';
import { openSse, type StreamEventsOptions } from '../sse.js';
import type { RunBatch } from './memoryFollower.js';
import { isLastRunEvent, type CallRunEvent } from './runLog.js';
import type { StreamedRun } from './streamedRun.js';

/** What a route writes for the events of the run it follows. */
export interface RunEventWriter {
  /** The SSE text of one event (`''` for none); throws to end the stream with {@link RunEventWriter.error}. */
  event(eventId: number, event: CallRunEvent): string;
  /** The SSE text of the last event of a stream that failed with `error` (the run's, or the route's). */
  error(error: unknown): string;
}

/**
 * Answers with an SSE stream of `run`'s events, written by `writer`. The stream ends after the
 * run's last event, or after `writer.error` when the writer or the follow throws. A client that
 * disconnects stops the follow (and cancels the run when its body said `onDisconnect: "cancel"`).
 */
export function streamRun(
  c: Context,
  run: StreamedRun,
  writer: RunEventWriter,
  options: StreamEventsOptions = {},
): Response {
  const { stream, response } = openSse(c);
  let ended = false;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  /** Ends the response with `text` (the batch's last events). */
  const end = (text: string) => {
    if (ended) return;
    ended = true;
    stop?.();
    stream.close(text);
    finished();
  };
  const fail = (text: string, error: unknown) => {
    try {
      end(text + writer.error(error));
    } catch (cause) {
      getDefaultLogger().error({ component: 'server', err: cause }, 'an event stream failed');
      end(text);
    }
  };
  const batch = (events: RunBatch): Promise<void> | undefined => {
    if (ended) return undefined;
    let text = '';
    try {
      for (const [eventId, event] of events) text += writer.event(eventId, event);
    } catch (error) {
      return void fail(text, error);
    }
    if (isLastRunEvent(events[events.length - 1]![1])) return void end(text);
    return text === '' ? undefined : stream.send(text);
  };
  // The first read is at the end of this turn: `stop` is set before anything calls `end`.
  const stop = run.followNow({ batch, end: (error) => (error ? fail('', error) : end('')) });
  if (stop) {
    stream.onAbort(() => {
      if (ended) return;
      ended = true;
      stop();
      run.leave();
      finished();
    });
  } else {
    // A shared log: its batches, read until the last event or the client leaving.
    const controller = new AbortController();
    stream.onAbort(() => {
      if (ended) return;
      ended = true;
      controller.abort(new Error('The client disconnected from the event stream.'));
      finished();
    });
    void (async () => {
      for await (const events of run.batches(controller.signal)) {
        const waiting = batch(events);
        if (waiting) await waiting;
        if (ended) return;
      }
      end('');
    })().catch((error: unknown) => (controller.signal.aborted ? undefined : fail('', error)));
  }
  if (options.inflight) void options.inflight.track(done);
  return response();
}

/** The text of an SSE event of `data` with an optional id (as `sseText` frames it). */
export function sseData(data: string, id?: number): string {
  return id === undefined ? `data: ${data}\n\n` : `data: ${data}\nid: ${id}\n\n`;
}
