/**
 * The producer side of the queue, as a server uses it: enqueue agency calls and follow their
 * events (Redis pub/sub from whichever worker runs them), cancel them, and enqueue ensemble runs.
 * A call that cannot be queued within `enqueueTimeoutMs` fails at once with
 * {@link QueueUnavailableError}; nothing is half-queued.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter, on, once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Job, Queue, type JobsOptions } from './drivers.js';
import type { ChainableCommander, Redis } from './drivers.js';
import type { AgencyStreamEvent } from '../agency/events.js';
import { ColloquyError } from '../errors.js';
import { getDefaultLogger } from '../logger.js';
import { redactUrl } from '../redact.js';
import {
  QUEUE_NAME,
  QueueUnavailableError,
  closeConnection,
  queueConnection,
  type QueueConnection,
  type QueueConnectionOptions,
} from './connection.js';
import { SubscriptionHub } from './hub.js';
import { isTerminal, JOB, type CallJobData, type CallMessage } from './jobs.js';

/** Options of {@link QueueClient}. Every field is optional. */
export interface QueueClientOptions extends QueueConnectionOptions {
  /** How long queuing a call may take before it fails with QUEUE_UNAVAILABLE (default 5000 ms). */
  enqueueTimeoutMs?: number;
  /** How often a call with no news checks its job, in case its last event was missed (default 1000 ms). */
  pollMs?: number;
  /**
   * When Redis fails with a job's add in flight, how long to wait for it to tell whether the job
   * landed (default 10000 ms); a job that did is followed, one that did not fails the call.
   */
  landedWaitMs?: number;
}

/** What a worker returns for a call: the response, or the error the call ended with. */
export type CallOutcome =
  | { ok: true; result: unknown }
  | { ok: false; error: { name: string; message: string; code?: string } };

/** Keeps queued finished jobs for an hour (results of calls) and failed ones for a day. */
export const JOB_RETENTION = {
  removeOnComplete: { age: 3_600, count: 50_000 },
  removeOnFail: { age: 86_400 },
} as const;

/** The queue as a producer sees it. */
export class QueueClient {
  readonly connection: QueueConnection;
  readonly queue: Queue;
  readonly #redis: Redis;
  readonly #hub: SubscriptionHub;
  readonly #enqueueTimeoutMs: number;
  readonly #pollMs: number;
  readonly #landedWaitMs: number;
  #connecting: Promise<void> | undefined;
  /** This client's inbox channel: workers publish the events of its calls there. */
  readonly #inbox: string;
  #inboxReady: Promise<void> | undefined;
  readonly #waiting = new Map<string, (message: CallMessage) => void>();

  constructor(options: QueueClientOptions = {}) {
    this.connection = queueConnection(options);
    this.#enqueueTimeoutMs = options.enqueueTimeoutMs ?? 5_000;
    this.#pollMs = options.pollMs ?? 1_000;
    this.#landedWaitMs = options.landedWaitMs ?? 10_000;
    this.#redis = this.connection.connect('producer');
    this.queue = new Queue(QUEUE_NAME, {
      connection: this.#redis,
      prefix: this.connection.prefix,
    });
    this.queue.on('error', (error) =>
      getDefaultLogger().warn(
        { component: 'queue', err: error },
        'the BullMQ queue reported an error (it reconnects; calls in flight fail on their own)',
      ),
    );
    this.#hub = new SubscriptionHub(this.connection.connect('blocking'));
    this.#inbox = this.connection.keys.inbox(randomUUID());
  }

  /**
   * Subscribes to this client's inbox once (every call after the first saves that round trip);
   * a failed subscription is tried again by the next call.
   */
  #listenInbox(): Promise<void> {
    this.#inboxReady ??= this.listen(this.#inbox, (text) => {
      const message = JSON.parse(text) as CallMessage;
      if (message.callId) this.#waiting.get(message.callId)?.(message);
    }).then(
      () => undefined,
      (error: unknown) => {
        this.#inboxReady = undefined;
        throw error;
      },
    );
    return this.#inboxReady;
  }

  /** Redis commands of Colloquy's own keys (cancel marks, run logs). */
  get redis(): Redis {
    return this.#redis;
  }

  /** Subscribes to a channel (see {@link SubscriptionHub.listen}). */
  listen(channel: string, listener: (message: string) => void): Promise<() => void> {
    return this.#hub.listen(channel, listener);
  }

  /**
   * Runs `work` (subscribing and adding a job) within the enqueue timeout, turning any failure
   * into a {@link QueueUnavailableError} that says what could not be queued.
   */
  async enqueue<T>(what: string, work: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${this.#enqueueTimeoutMs} ms`)),
        this.#enqueueTimeoutMs,
      );
    });
    try {
      // A producer that lost Redis fails at once: nothing would be queued before the timeout.
      if (['close', 'reconnecting', 'end'].includes(this.#redis.status)) {
        throw new Error(`the connection to Redis is down (${this.#redis.status})`);
      }
      // A client just made is still connecting: its commands would fail (no offline queue).
      if (this.#redis.status !== 'ready') {
        // One wait shared by every call made meanwhile (not one listener each).
        const clear = () => void (this.#connecting = undefined);
        this.#connecting ??= once(this.#redis, 'ready').then(clear, (error: unknown) => {
          clear();
          throw error;
        });
        await Promise.race([this.#connecting, timeout]);
      }
      return await Promise.race([work(), timeout]);
    } catch (error) {
      throw new QueueUnavailableError(
        `Could not queue ${what} on ${redactUrl(this.connection.url)}: ${(error as Error).message}. ` +
          'Check that the queue Redis is running and reachable (--queue), then send the request again; nothing was queued.',
        { cause: error },
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Adds job `jobId` within the enqueue timeout, with the commands `also` adds to a transaction
   * on the producer connection in the same round trip. When Redis fails with the add in flight,
   * asks it whether the job landed (for up to `landedWaitMs`): resolves if it did; otherwise
   * throws {@link QueueUnavailableError} and cancels and removes the job should its add land
   * later (a worker that took it meanwhile finds it cancelled).
   */
  async addJob(
    name: string,
    data: object,
    options: JobsOptions & { jobId: string },
    what: string,
    also: (multi: ChainableCommander) => ChainableCommander = (multi) => multi,
  ): Promise<void> {
    let added: Promise<unknown> | undefined;
    try {
      await this.enqueue(what, async () => {
        // Both on the producer connection at once (one round trip, not two), the transaction
        // first: Redis runs it before the add, so a job that landed has it done.
        const transaction = also(this.#redis.multi()).exec();
        added = this.queue.add(name, data, { attempts: 1, ...options });
        await Promise.all([transaction, added]);
      });
    } catch (error) {
      if (added && (await this.#landed(options.jobId, added))) return;
      void added?.then(
        () => this.#abandon(options.jobId),
        () => this.#abandon(options.jobId),
      );
      throw error;
    }
  }

  /**
   * Queues an agency call and yields its events, from whichever worker runs it, until the last
   * one (`run_completed` or `error`). Aborting `signal` or leaving the loop early cancels the call
   * on its worker (or before any worker takes it).
   */
  async *call(
    data: Omit<CallJobData, 'callId'>,
    signal?: AbortSignal,
  ): AsyncGenerator<AgencyStreamEvent> {
    const callId = `call_${randomUUID()}`;
    const job: CallJobData = { ...data, callId, replyTo: this.#inbox };
    // Messages wait in the queue of Node's `events.on` until the loop below reads them.
    const inbox = new EventEmitter();
    const messages = on(inbox, 'message');
    const push = (message: CallMessage) => void inbox.emit('message', message);
    const what = `a call to agency "${data.agency}" in chat "${data.chatId}"`;
    const onAbort = () => push({ attempt: 0, event: abortedEvent() });
    let stop: () => void;
    let finished = false;
    let poll: NodeJS.Timeout | undefined;
    const calls = this.connection.keys.chatCalls(data.agency, data.chatId);
    let added: Promise<unknown> | undefined;
    try {
      stop = await this.enqueue(what, async () => {
        await this.#listenInbox();
        this.#waiting.set(callId, push);
        const unlisten = () => void this.#waiting.delete(callId);
        try {
          added = this.queue.add(JOB.call, job, { jobId: callId, attempts: 1, ...JOB_RETENTION });
          // Both on the producer connection at once: one round trip, not two.
          await Promise.all([
            this.#redis.multi().sadd(calls, callId).expire(calls, 86_400).exec(),
            added,
          ]);
        } catch (error) {
          unlisten();
          throw error;
        }
        return unlisten;
      });
    } catch (error) {
      // Redis may have taken the job and lost only its answer (it stopped with the add in
      // flight). Find out once it answers again: a job that landed is followed like any other;
      // otherwise the caller is told nothing was queued, and an add that lands later still is
      // cancelled before a worker can start it.
      if (!added || !(await this.#landed(callId, added))) {
        void added?.then(
          () => this.#abandon(callId),
          () => this.#abandon(callId),
        );
        throw error;
      }
      this.#waiting.set(callId, push);
      stop = () => void this.#waiting.delete(callId);
    }
    try {
      if (signal?.aborted) onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      poll = setInterval(() => void this.#check(callId, push), this.#pollMs);
      for await (const [message] of messages as AsyncIterableIterator<[CallMessage]>) {
        if (isTerminal(message.event)) finished = true;
        yield message.event;
        if (finished) return;
      }
    } finally {
      clearInterval(poll);
      signal?.removeEventListener('abort', onAbort);
      stop();
      if (!finished || signal?.aborted) {
        await this.cancel(callId).catch((error: unknown) =>
          getDefaultLogger().warn(
            { component: 'queue', callId, err: error },
            'could not cancel a call its caller left; it may still run to the end',
          ),
        );
      }
      // Tidied without holding up the answer (a round trip less per call): an id left behind is
      // harmless (cancelChat skips finished jobs) and goes with the set's expiry.
      void this.#redis.srem(calls, callId).catch(() => undefined);
    }
  }

  /**
   * Whether the job of a call whose queuing failed is in the queue after all: asks Redis for up
   * to `landedWaitMs` (it may be restarting). False when Redis does not answer in time.
   */
  async #landed(callId: string, added: Promise<unknown>): Promise<boolean> {
    const settled = await Promise.race([
      added.then(
        () => 'added' as const,
        // Refused before it was sent (the connection was down): it cannot have landed.
        (error: unknown) =>
          /isn't writeable/.test(String((error as Error)?.message))
            ? ('unsent' as const)
            : ('failed' as const),
      ),
      sleep(this.#landedWaitMs).then(() => 'late' as const),
    ]);
    if (settled === 'added') return true;
    if (settled === 'unsent') return false;
    const deadline = Date.now() + this.#landedWaitMs;
    while (Date.now() < deadline) {
      try {
        return (await this.queue.getJobState(callId)) !== 'unknown';
      } catch {
        // Redis out of reach for a moment: ask again until the deadline, then answer "not queued".
        await sleep(200);
      }
    }
    return false;
  }

  /** Cancels a call the caller was told was not queued, retrying for up to a minute. */
  async #abandon(callId: string): Promise<void> {
    for (let attempt = 0; attempt < 300; attempt++) {
      try {
        await this.cancel(callId, 'The server reported this call as not queued; it never runs.');
        // Cancelled above, so a job left behind never runs: removing it only tidies.
        await this.queue.remove(callId).catch(() => undefined);
        return;
      } catch {
        // Redis out of reach for a moment: the loop retries for up to a minute.
        await sleep(200);
      }
    }
  }

  /**
   * Cancels every call of a chat that is queued or running (whichever server queued it); resolves
   * with how many were still to finish.
   */
  async cancelChat(agency: string, chatId: string, reason?: string): Promise<number> {
    const ids = await this.enqueue(`the cancellation of chat "${chatId}"`, () =>
      this.#redis.smembers(this.connection.keys.chatCalls(agency, chatId)),
    );
    const states = await Promise.all(ids.map((id) => this.queue.getJobState(id)));
    const live = ids.filter((_, i) => !['completed', 'failed', 'unknown'].includes(states[i]!));
    await Promise.all(live.map((id) => this.cancel(id, reason)));
    return live.length;
  }

  /** Cancels a call: marks it (so that no worker starts it) and tells the worker running it. */
  async cancel(callId: string, reason = 'The client cancelled the call.'): Promise<void> {
    const { keys } = this.connection;
    await this.#redis
      .multi()
      .set(keys.cancelled(callId), reason, 'EX', 3_600)
      .publish(keys.cancel, JSON.stringify({ callId, reason }))
      .exec();
  }

  /** Closes the queue and the connections. */
  async close(): Promise<void> {
    await this.#hub.close();
    // Closing the queue waits for its connection: not when Redis is gone.
    if (this.#redis.status === 'ready') await this.queue.close().catch(() => undefined);
    await closeConnection(this.#redis);
  }

  /** Backstop for a missed last event: reads the job and ends the stream from its outcome. */
  async #check(callId: string, push: (message: CallMessage) => void): Promise<void> {
    try {
      await this.#checkNow(callId, push);
    } catch {
      // Redis unreachable or the job changed while read: try again on the next tick.
    }
  }

  async #checkNow(callId: string, push: (message: CallMessage) => void): Promise<void> {
    const state = await this.queue.getJobState(callId);
    const job = state === 'unknown' ? undefined : await Job.fromId(this.queue, callId);
    if (state === 'completed') {
      const outcome = job?.returnvalue as CallOutcome | null | undefined;
      if (!outcome) return; // read between the state change and the result: next tick
      push({
        attempt: 0,
        event: outcome.ok
          ? { type: 'run_completed', result: outcome.result as never }
          : { type: 'error', error: outcome.error },
      });
    } else if (state === 'failed' || state === 'unknown') {
      push({
        attempt: 0,
        event: {
          type: 'error',
          error: {
            name: 'QueueUnavailableError',
            code: 'QUEUE_UNAVAILABLE',
            message:
              state === 'failed'
                ? `The queued call ${callId} failed on its worker: ${job!.failedReason}.`
                : `The queued call ${callId} is no longer in the queue (removed, or Redis lost its data). Send the message again.`,
          },
        },
      });
    }
  }
}

function abortedEvent(): AgencyStreamEvent {
  const error = new ColloquyError('ABORTED', 'The agency call was aborted through its signal.');
  return { type: 'error', error: { name: error.name, code: error.code, message: error.message } };
}
