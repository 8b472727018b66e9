/**
 * `createWorker`: takes agency calls and ensemble runs from the BullMQ queue and runs them with a
 * registry's agencies and ensembles. One chat (and one run) is worked on by one worker at a time:
 * the worker holds the store's lease on it while the job runs, and a job whose chat is busy goes
 * back to the queue (delayed) instead of running beside the other. A worker that dies leaves its
 * jobs to BullMQ's stalled-job recovery; the retry starts from the stored threads (the chat
 * journal, see `chatJournal.ts`) or the run's checkpoints, so nothing is written twice.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { DelayedError, Job, Worker } from './drivers.js';
import type { Redis } from './drivers.js';
import type { AgencyStreamEvent } from '../agency/events.js';
import { ColloquyError, errorInfo } from '../errors.js';
import type { CreateModel } from '../ensembles/agentModels.js';
import { ConfigError } from '../errors.js';
import { getDefaultLogger } from '../logger.js';
import type { ProfileRegistry } from '../models/profiles.js';
import { storeCapabilities } from '../stores/capabilities.js';
import { holdLease, keepLease, LeaseBusyError, type LeaseHandle } from '../stores/lease.js';
import type { PostgresLeases } from '../stores/postgresLeases.js';
import type { Leases, ThreadStore } from '../stores/types.js';
import type { ServerRegistry } from '../server/registry.js';
import {
  closeConnection,
  QUEUE_NAME,
  queueConnection,
  type QueueConnectionOptions,
} from './connection.js';
import { liveSnapshot, snapshotChat, type ChatSnapshot } from './chatJournal.js';
import { JOB, type CallJobData, type RunJobData } from './jobs.js';
import { processCall } from './processCall.js';
import { refuseForeignCall } from './callOwner.js';
import { processRun } from './processRun.js';
import { SCHEDULE_TICK_JOB, type ScheduleTickData } from './scheduleKeys.js';
import { ScheduleTicks } from './scheduleTick.js';

/** Options of {@link createWorker}. */
export interface CreateWorkerOptions extends QueueConnectionOptions {
  /** The agencies, ensembles and run store to work with (the same configuration as the servers'). */
  registry: ServerRegistry;
  /** Jobs run at once by this worker (default 4). */
  concurrency?: number;
  /**
   * How long a job's lock lives without renewal, in ms (default 10000): a worker that dies is
   * noticed after about this long and its jobs are retried. Also the chat lease's time to live.
   */
  lockDurationMs?: number;
  /** How often this worker looks for stalled jobs of dead workers (default lockDurationMs / 2). */
  stalledIntervalMs?: number;
  /** How many worker deaths one job survives before it fails (default 5). */
  maxStalledCount?: number;
  /** Profiles for ensembles' LLM agents (default: runEnsemble's). */
  profiles?: () => Promise<ProfileRegistry>;
  /** Makes ensemble agents' models (tests pass scripted ones). */
  createModel?: CreateModel;
  /** Told about each job as it ends (for logs). */
  onJob?: (info: { id: string; name: string; ms: number; outcome: string }) => void;
}

/** A running worker. */
export interface QueueWorker {
  /** This worker's id (in BullMQ and in leases). */
  readonly id: string;
  /** The BullMQ worker. */
  readonly worker: Worker;
  /**
   * Stops taking jobs; lets running ones finish within `graceMs` (default 10000), then hands the
   * rest back to the queue (another worker continues them), and closes connections.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** What a job processor gets besides the job. */
export interface JobContext {
  readonly registry: ServerRegistry;
  readonly redis: Redis;
  readonly keys: ReturnType<typeof queueConnection>['keys'];
  readonly options: CreateWorkerOptions;
  readonly signal: AbortSignal;
  /** Whether the abort came from a shutdown (hand the job back) rather than a cancellation. */
  readonly handingBack: () => boolean;
  /** Holds the lease `key` for this job, or re-queues the job (throws DelayedError) when busy. */
  lease(store: ThreadStore, key: string): Promise<LeaseHandle>;
  /**
   * {@link lease}, and the snapshot of chat `chatId` read under it: in one round trip on a
   * Postgres store (its combined statement), in two on others.
   */
  leaseChat(
    store: ThreadStore,
    key: string,
    chatId: string,
  ): Promise<{ lease: LeaseHandle; snapshot: ChatSnapshot }>;
  /** Re-queues the job to run again after `ms` (throws DelayedError). */
  requeue(ms: number): Promise<never>;
  /** Whether job `id` is still to run (waiting, delayed or running). */
  pending(id: string): Promise<boolean>;
}

/** Leases that read a chat's thread versions in the same round trip as the acquire. */
type ChatReadingLeases = Leases & Pick<PostgresLeases, 'acquireReadingChat'>;

function readsChat(leases: Leases): leases is ChatReadingLeases {
  return typeof (leases as Partial<ChatReadingLeases>).acquireReadingChat === 'function';
}

const PENDING_STATES = new Set(['active', 'waiting', 'delayed', 'prioritized', 'waiting-children']);

function leasesOf(store: ThreadStore): Leases {
  if (!store.leases) {
    throw new ConfigError(
      `The ${store.kind} store has no leases; workers need a Redis or Postgres store.`,
    );
  }
  return store.leases;
}

function checkStores(registry: ServerRegistry): void {
  const stores = new Set<ThreadStore>([
    registry.runs.store,
    ...[...registry.agencies.values()].map((agency) => agency.threads.store),
  ]);
  for (const store of stores) {
    if (!storeCapabilities(store).crossProcess) {
      throw new ConfigError(
        `createWorker: the ${store.kind} store is not shared between processes. Workers and servers need one Redis or Postgres store: pass --store redis://... or postgres://... (and build agencies on it with createAgencies({ store })).`,
      );
    }
  }
}

/**
 * Starts a worker on the queue.
 *
 * @example
 * ```ts
 * const store = new PostgresStore({ connectionString: 'postgres://app@127.0.0.1/app' });
 * const registry = createRegistry({ agencies: [support], store, ensembles: 'ensembles' });
 * const worker = createWorker({ queue: 'redis://127.0.0.1:6379', registry, concurrency: 8 });
 * process.on('SIGTERM', () => void worker.close());
 * ```
 */
export function createWorker(options: CreateWorkerOptions): QueueWorker {
  checkStores(options.registry);
  const connection = queueConnection(options);
  const lockDuration = options.lockDurationMs ?? 10_000;
  const id = `worker_${randomUUID()}`;
  const redis = connection.connect('commands');
  const subscriber = connection.connect('blocking');
  const ticks = new ScheduleTicks(connection, redis); // schedules' ticks (scheduleTick.ts)
  let handingBack = false;
  const controllers = new Map<string, AbortController>();
  const log = getDefaultLogger();
  const cancelChannel = connection.keys.cancel;
  // Cancellations are published to every worker; the one running the call aborts it. A job runs
  // Only once this worker listens, or a cancel sent while it runs would never arrive.
  let listening: Promise<void> | undefined;
  const listenForCancels = (): Promise<void> =>
    (listening ??= subscriber.subscribe(cancelChannel).then(
      () => undefined,
      (error: unknown) => {
        listening = undefined; // the next job tries again
        log.error(
          { component: 'worker', worker: id, channel: cancelChannel, err: error },
          'could not subscribe to cancellations; jobs wait until it succeeds',
        );
        throw error;
      },
    ));

  const processor = async (job: Job, token?: string): Promise<unknown> => {
    const controller = new AbortController();
    controllers.set(job.id!, controller);
    const started = Date.now();
    const requeue = async (ms: number): Promise<never> => {
      await job.moveToDelayed(Date.now() + ms, token);
      throw new DelayedError();
    };
    // One owner per attempt, not per job: a retry that BullMQ starts while the first attempt
    // still runs (its lock expired during a Redis outage or a long pause) must wait for the
    // lease, not share it and write beside the first attempt.
    const owner = () => `job:${job.id}:${id}:${randomUUID()}`;
    const context: JobContext = {
      registry: options.registry,
      redis,
      keys: connection.keys,
      options,
      signal: controller.signal,
      handingBack: () => handingBack,
      requeue,
      async lease(store, key) {
        try {
          return await holdLease(leasesOf(store), key, { owner: owner(), ttlMs: lockDuration });
        } catch (error) {
          if (error instanceof LeaseBusyError) return requeue(100);
          throw error;
        }
      },
      async leaseChat(store, key, chatId) {
        const leases = leasesOf(store);
        if (readsChat(leases)) {
          const held = owner();
          const versions = await leases.acquireReadingChat(key, held, lockDuration, chatId);
          if (!versions) return requeue(100);
          const lease = keepLease(leases, key, held, lockDuration);
          return { lease, snapshot: liveSnapshot(versions) };
        }
        const lease = await context.lease(store, key);
        try {
          return { lease, snapshot: await snapshotChat(store, chatId) };
        } catch (error) {
          // The snapshot's error is the one to report; the lease expires if the release fails too.
          await lease.release().catch(() => undefined);
          throw error;
        }
      },
      async pending(other) {
        const found = await Job.fromId(worker, other);
        return found ? PENDING_STATES.has(await found.getState()) : false;
      },
    };
    let outcome = 'completed';
    try {
      // Not listening yet (Redis refused the subscription, logged above): back to the queue.
      if (
        !(await listenForCancels().then(
          () => true,
          () => false,
        ))
      )
        await requeue(1_000);
      if (job.name === JOB.call) {
        // Ownership holds behind the queue too: a job for another user's chat is refused.
        const refused = await refuseForeignCall(job as Job<CallJobData>, context);
        return refused ?? (await processCall(job as Job<CallJobData>, context));
      }
      if (job.name === JOB.run) return await processRun(job as Job<RunJobData>, context);
      if (job.name === SCHEDULE_TICK_JOB)
        return await ticks.process(job as Job<ScheduleTickData>, context);
      throw new ConfigError(`Unknown job "${job.name}" in the Colloquy queue.`);
    } catch (error) {
      // Shutting down: the job goes back to the queue untouched; another worker continues it.
      if (!(error instanceof DelayedError) && handingBack) await requeue(0);
      outcome = error instanceof DelayedError ? 'requeued' : 'failed';
      throw error;
    } finally {
      controllers.delete(job.id!);
      options.onJob?.({ id: job.id!, name: job.name, ms: Date.now() - started, outcome });
    }
  };

  // BullMQ does not close a connection it was given: closed with the worker below.
  const blocking = connection.connect('blocking');
  const worker = new Worker(QUEUE_NAME, processor, {
    connection: blocking,
    prefix: connection.prefix,
    concurrency: options.concurrency ?? 4,
    lockDuration,
    stalledInterval: options.stalledIntervalMs ?? Math.max(1_000, Math.floor(lockDuration / 2)),
    maxStalledCount: options.maxStalledCount ?? 5,
    name: id,
  });
  // BullMQ reports connection and lock-renewal failures here; it keeps working and retries.
  worker.on('error', (error) =>
    log.error(
      { component: 'worker', worker: id, err: error },
      'the BullMQ worker reported an error',
    ),
  );
  // Failures are logged and retried by the first job, which waits for the subscription.
  listenForCancels().catch(() => undefined);
  subscriber.on('message', (channel: string, text: string) => {
    let message: { callId: string; reason?: string };
    try {
      message = JSON.parse(text) as { callId: string; reason?: string };
    } catch (error) {
      log.warn(
        { component: 'worker', worker: id, channel, err: error },
        'ignored a cancel message that is not JSON',
      );
      return;
    }
    controllers
      .get(message.callId)
      ?.abort(new ColloquyError('ABORTED', message.reason ?? 'The call was cancelled.'));
  });
  subscriber.on('error', (error) =>
    log.warn(
      { component: 'worker', worker: id, channel: cancelChannel, err: error },
      'the cancel subscription connection reported an error (ioredis reconnects and resubscribes)',
    ),
  );

  let closing: Promise<void> | undefined;
  return {
    id,
    worker,
    close({ graceMs = 10_000 } = {}) {
      closing ??= (async () => {
        const done = worker.close();
        let timer: NodeJS.Timeout | undefined;
        const late = await Promise.race([
          done.then(() => false),
          new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs))),
        ]);
        clearTimeout(timer);
        if (late) {
          handingBack = true;
          for (const controller of controllers.values())
            controller.abort(
              new Error('The worker is shutting down; the job goes back to the queue.'),
            );
          await done;
        }
        await ticks.close();
        for (const client of [subscriber, redis, blocking]) await closeConnection(client);
      })();
      return closing;
    },
  };
}

/**
 * Publishes without waiting (ioredis keeps the order of commands on one connection). A failed
 * publish is logged, not thrown: the call goes on and its outcome is stored with the job, but a
 * listener misses the event.
 */
export function publish(redis: Redis, channel: string, message: unknown): Promise<unknown> {
  return redis.publish(channel, JSON.stringify(message)).catch((error: unknown) => {
    getDefaultLogger().warn(
      { component: 'worker', channel, err: error },
      'could not publish a call event; its listener misses it',
    );
  });
}

/** The event a call's stream ends with when it failed. */
export function errorEvent(error: unknown): AgencyStreamEvent {
  return { type: 'error', error: errorInfo(error) };
}
