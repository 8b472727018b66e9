/**
 * Ensemble runs through the queue, as a server offers them: starting or resuming a run queues a
 * job; its state comes from the store's checkpoints and the job; its events from the run's event
 * log, which any server can read from any point while a worker appends to it.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Job } from './drivers.js';
import { ScriptedInputHandler } from '../ensembles/inputHandlers.js';
import type { ConversationResult } from '../ensembles/result.js';
import { readEnsembleRun } from '../ensembles/savedRun.js';
import type { EnsembleCatalog } from '../server/ensembleCatalog.js';
import type {
  RunCancellation,
  RunEvent,
  RunSummary,
  StartRunOptions,
} from '../server/ensembleRuns.js';
import { ColloquyError, runNotFound } from '../errors.js';
import type { RunExecutor } from '../server/executor.js';
import type { ThreadStore } from '../stores/types.js';
import type { QueueClient } from './client.js';
import { JOB, type RunJobData } from './jobs.js';
import type { RunOutcome } from './processRun.js';

const RUNNING = new Set(['active', 'waiting', 'delayed', 'prioritized', 'waiting-children']);

function answersOf(options: StartRunOptions): unknown {
  if (!options.inputHandler) return undefined;
  if (options.inputHandler instanceof ScriptedInputHandler) return options.inputHandler.script;
  throw new ColloquyError(
    'INVALID_BODY',
    'Queued runs take scripted answers only (the "answers" field); other input handlers cannot travel to a worker.',
  );
}

function isLast(event: RunEvent): boolean {
  return event.type === 'ensemble_finished' || event.type === 'error';
}

/** The {@link RunExecutor} of a queued server. */
export class QueuedRuns implements RunExecutor {
  readonly #client: QueueClient;
  readonly #catalog: EnsembleCatalog;
  readonly #store: ThreadStore;

  constructor(client: QueueClient, catalog: EnsembleCatalog, store: ThreadStore) {
    this.#client = client;
    this.#catalog = catalog;
    this.#store = store;
  }

  async start(name: string, options: StartRunOptions = {}): Promise<RunSummary> {
    const ensemble = await this.#catalog.load(name);
    const runId = options.runId ?? `run_${randomUUID()}`;
    // A run id is taken by a job of it (queued, running or kept after it ended) or by its saved
    // state. A key left by a start whose job never landed (Redis failed mid-add) takes nothing.
    const job = await this.#client.enqueue(`a check of run "${runId}"`, () => this.#job(runId));
    if (job?.exists || (await this.#store.getThread(`${runId}::main`))) {
      throw new ColloquyError(
        'RUN_EXISTS',
        `Run "${runId}" already exists. Resume it (POST /runs/${runId}/resume) or choose another runId.`,
      );
    }
    const answers = answersOf(options);
    await this.#queue(runId, {
      runId,
      ensemble: name,
      resume: false,
      ...(options.input !== undefined ? { input: options.input } : {}),
      ...(options.initialContext ? { initialContext: options.initialContext } : {}),
      ...(answers ? { answers } : {}),
    });
    return { runId, ensemble: ensemble.name, status: 'running', turnCount: 0 };
  }

  async resume(runId: string, options: StartRunOptions = {}): Promise<RunSummary> {
    if ((await this.#job(runId))?.running) {
      throw new ColloquyError(
        'RUN_ACTIVE',
        `Run "${runId}" is still running. Follow it at GET /runs/${runId}/events; resume it only after it stops.`,
      );
    }
    const saved = await this.#saved(runId);
    if (!saved) throw runNotFound(runId);
    if (saved.status === 'finished') return saved;
    const answers = answersOf(options);
    await this.#queue(runId, { runId, resume: true, ...(answers ? { answers } : {}) });
    return { ...saved, status: 'running' };
  }

  async state(runId: string): Promise<RunSummary | null> {
    // The job first: once it is no longer running, the store already holds its last checkpoint.
    const job = await this.#job(runId);
    const saved = await this.#saved(runId);
    if (job?.running) {
      return saved
        ? { ...saved, status: 'running' }
        : { runId, ensemble: job.ensemble ?? '', status: 'running', turnCount: 0 };
    }
    if (job?.outcome && !job.outcome.ok) {
      const interrupted = job.outcome.error.code === 'ABORTED';
      return {
        runId,
        ensemble: saved?.ensemble ?? job.ensemble ?? '',
        turnCount: saved?.turnCount ?? 0,
        status: interrupted ? 'interrupted' : 'failed',
        error: job.outcome.error,
      };
    }
    return saved;
  }

  async *follow(
    runId: string,
    after = -1,
    signal?: AbortSignal,
  ): AsyncGenerator<[number, RunEvent]> {
    const { redis, connection } = this.#client;
    if (!(await redis.exists(connection.keys.runJob(runId)))) {
      const saved = await this.#saved(runId);
      if (saved?.result && after < 0)
        yield [0, { type: 'ensemble_finished', result: saved.result }];
      return;
    }
    let wake: () => void = () => undefined;
    let changed = new Promise<void>((resolve) => (wake = resolve));
    const stop = await this.#client.listen(connection.keys.runChannel(runId), () => wake());
    const aborted = new Promise<void>((resolve) =>
      signal?.addEventListener('abort', () => resolve(), { once: true }),
    );
    try {
      let next = after + 1;
      while (!signal?.aborted) {
        const waiting = changed;
        const texts = await redis.lrange(connection.keys.runEvents(runId), next, -1);
        for (const text of texts) {
          const event = JSON.parse(text) as RunEvent;
          yield [next, event];
          next += 1;
          if (isLast(event)) return;
        }
        if (texts.length === 0 && !(await this.#job(runId))?.running) {
          // No worker has it and the log has nothing new: it ended while we were reading.
          const rest = await redis.lrange(connection.keys.runEvents(runId), next, -1);
          if (rest.length === 0) return;
          continue;
        }
        const tick = new Promise<void>((resolve) => setTimeout(resolve, 1_000).unref());
        await Promise.race([waiting, aborted, tick]);
        changed = new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      stop();
    }
  }

  /**
   * Stops a running run on whichever worker runs it (or before any worker takes it): the cancel
   * mark and the cancel message of agency calls, for the run's job. Waits up to `waitMs` (default
   * 10 s) for the run to stop; a run still stopping answers with status `running`.
   */
  async cancel(
    runId: string,
    reason = 'The run was cancelled.',
    waitMs = 10_000,
  ): Promise<RunCancellation | null> {
    const jobId = await this.#client.enqueue(`a check of run "${runId}"`, () =>
      this.#client.redis.get(this.#client.connection.keys.runJob(runId)),
    );
    if (!jobId || !(await this.#job(runId))?.running) {
      const summary = await this.state(runId);
      return summary ? { cancelled: false, summary } : null;
    }
    await this.#client.cancel(jobId, reason);
    const until = Date.now() + waitMs;
    let summary = await this.state(runId);
    while (summary?.status === 'running' && Date.now() < until) {
      await sleep(50);
      summary = await this.state(runId);
    }
    return {
      cancelled: true,
      summary: summary ?? { runId, ensemble: '', status: 'interrupted', turnCount: 0 },
    };
  }

  async close(): Promise<void> {}

  async #queue(runId: string, data: RunJobData): Promise<void> {
    const jobId = `run_${randomUUID()}`;
    const { keys } = this.#client.connection;
    // The run's job and a fresh event log, with the add in one round trip; when Redis fails
    // with the add in flight, the client asks whether the job landed (as for agency calls).
    await this.#client.addJob(
      JOB.run,
      data,
      { jobId, removeOnComplete: { age: 86_400 }, removeOnFail: { age: 86_400 } },
      `run "${runId}"`,
      (multi) => multi.set(keys.runJob(runId), jobId, 'EX', 7 * 86_400).del(keys.runEvents(runId)),
    );
  }

  async #job(runId: string): Promise<{
    running: boolean;
    /** False when the run's key names a job that is not (or no longer) in the queue. */
    exists: boolean;
    outcome?: RunOutcome;
    ensemble?: string;
  } | null> {
    const jobId = await this.#client.redis.get(this.#client.connection.keys.runJob(runId));
    if (!jobId) return null;
    // The state first: a job read before it finished would have no result yet.
    const state = await this.#client.queue.getJobState(jobId);
    const job = await Job.fromId(this.#client.queue, jobId);
    if (!job) return { running: false, exists: false };
    const data = job.data as RunJobData;
    return {
      exists: true,
      running: RUNNING.has(state),
      ...(state === 'completed' ? { outcome: job.returnvalue as RunOutcome } : {}),
      ...(state === 'failed'
        ? {
            outcome: {
              ok: false,
              error: { name: 'QueueUnavailableError', message: job.failedReason ?? 'failed' },
            },
          }
        : {}),
      ...(data.ensemble ? { ensemble: data.ensemble } : {}),
    };
  }

  async #saved(runId: string): Promise<RunSummary | null> {
    // The ensembles' typed reader: the saved result plus its turns from the main thread.
    const saved = await readEnsembleRun(this.#store, runId);
    if (!saved) return null;
    return {
      runId,
      ensemble: saved.ensemble,
      status: saved.status === 'finished' ? 'finished' : 'interrupted',
      turnCount: saved.turnCount,
      ...(saved.result ? { result: saved.result as ConversationResult } : {}),
    };
  }
}
