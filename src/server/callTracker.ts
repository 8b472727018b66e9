/**
 * The agency calls this process runs, by chat, so that `DELETE /agencies/:name/chats/:chatId/calls`
 * can abort them: each call gets a signal that aborts with the caller's signal or on cancel.
 * @module
 */
import { feedEvents, type EventFeed } from '../agency/streaming.js';
import { ColloquyError } from '../errors.js';

/** The chat a call belongs to and the caller's signal. */
export interface TrackedCallOptions {
  chatId?: string | undefined;
  signal?: AbortSignal | undefined;
  /**
   * The controller of `signal`, when the caller made it for this one call (a route's
   * `requestController`): the call runs on `signal` and a cancel aborts this controller, instead of
   * a controller of the tracker's own linked to `signal` by a listener (an `AbortSignal` and a
   * listener fewer a call, about 7 µs). Ignored unless `controller.signal` is `signal`.
   */
  controller?: AbortController | undefined;
}

/** Calls in flight by agency and chat. */
export class CallTracker {
  readonly #calls = new Map<string, Set<AbortController>>();

  /** How many calls are tracked now. */
  get size(): number {
    let count = 0;
    for (const set of this.#calls.values()) count += set.size;
    return count;
  }

  #enter(agency: string, options: TrackedCallOptions): [AbortSignal, () => void] {
    const outer = options.signal;
    const given = options.controller;
    const own = given !== undefined && outer !== undefined && given.signal === outer;
    const controller = own ? given : new AbortController();
    // A call without a chat id gets a new chat: nobody can name it to cancel it.
    const key = keyOf(agency, options.chatId ?? '');
    let set = this.#calls.get(key);
    if (!set) this.#calls.set(key, (set = new Set()));
    set.add(controller);
    const forget = () => {
      const current = this.#calls.get(key);
      current?.delete(controller);
      if (current?.size === 0) this.#calls.delete(key);
    };
    if (own || outer === undefined) return [controller.signal, forget];
    // The caller's signal aborts the call's own controller (cheaper than `AbortSignal.any`).
    const forward = () => controller.abort(outer.reason);
    if (outer.aborted) forward();
    else outer.addEventListener('abort', forward, { once: true });
    const leave = () => {
      outer.removeEventListener('abort', forward);
      forget();
    };
    return [controller.signal, leave];
  }

  /** Runs `work` with a signal that {@link cancel} aborts. */
  track<T>(
    agency: string,
    options: TrackedCallOptions,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const [signal, leave] = this.#enter(agency, options);
    return work(signal).finally(leave);
  }

  /**
   * Like {@link track} for a stream: tracked from the first read until the stream ends, throws or
   * its reader leaves. The source's own iterator, wrapped (no generator step per event).
   */
  trackStream<T>(
    agency: string,
    options: TrackedCallOptions,
    work: (signal: AbortSignal) => AsyncIterable<T>,
  ): EventFeed<T> {
    return {
      // Fed (see `EventFeed`): tracked from the feed until the stream ends.
      feed: async (sink) => {
        const [signal, leave] = this.#enter(agency, options);
        try {
          await feedEvents(work(signal), sink, signal);
        } finally {
          leave();
        }
      },
      [Symbol.asyncIterator]: () => {
        let source: AsyncIterator<T> | undefined;
        let leave: (() => void) | undefined;
        const left = () => {
          leave?.();
          leave = undefined;
        };
        const start = (): AsyncIterator<T> => {
          if (source) return source;
          const [signal, leaveCall] = this.#enter(agency, options);
          leave = leaveCall;
          try {
            return (source = work(signal)[Symbol.asyncIterator]());
          } catch (error) {
            left();
            throw error;
          }
        };
        return {
          next: async () => {
            if (source && !leave) return { done: true, value: undefined };
            try {
              const next = await start().next();
              if (next.done) left();
              return next;
            } catch (error) {
              left();
              throw error;
            }
          },
          return: async () => {
            try {
              if (leave) await source?.return?.();
            } finally {
              left();
            }
            return { done: true, value: undefined };
          },
        };
      },
    };
  }

  /** Aborts every call of the chat; returns how many. */
  cancel(agency: string, chatId: string, reason = 'The call was cancelled (DELETE).'): number {
    const set = this.#calls.get(keyOf(agency, chatId));
    if (!set) return 0;
    for (const controller of set) controller.abort(new ColloquyError('ABORTED', reason));
    return set.size;
  }
}

function keyOf(agency: string, chatId: string): string {
  return `${agency.length}:${agency}:${chatId}`;
}
