/**
 * Ensemble runs started over HTTP: each runs in the background with `runEnsemble`, checkpointed in
 * the server's store; its progress events are buffered so that any number of clients can follow
 * them (from the start, or after the last id they saw). Runs not started by this process are
 * read back from the store.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { ColloquyError, errorInfo, runNotFound, type ErrorInfo } from '../errors.js';
import type { CreateModel } from '../ensembles/agentModels.js';
import type { EnsembleEvent } from '../ensembles/events.js';
import type { InputHandler } from '../ensembles/inputHandlers.js';
import type { ConversationResult } from '../ensembles/result.js';
import { runEnsemble } from '../ensembles/run.js';
import { currentPrincipal } from './auth/principal.js';
import { createEnsembleTracer } from '../ensembles/tracing.js';
import type { Ensemble } from '../ensembles/schema.js';
import type { ProfileRegistry } from '../models/profiles.js';
import type { ThreadStore } from '../stores/types.js';
import { ensembleRunExists, readEnsembleRun } from '../ensembles/savedRun.js';
import type { EnsembleCatalog } from './ensembleCatalog.js';
import { publicError, publicErrorInfo } from './publicError.js';

/** Where a run is: running here, finished, stopped without finishing (resumable), or failed. */
export type RunStatus = 'running' | 'finished' | 'interrupted' | 'failed';

/** An event of a run as the server sends it: an {@link EnsembleEvent}, or `error` when the run threw. */
export type RunEvent = EnsembleEvent | { type: 'error'; error: ErrorInfo };

/** What `GET /runs/:id` answers. */
export interface RunSummary {
  runId: string;
  ensemble: string;
  status: RunStatus;
  turnCount: number;
  result?: ConversationResult;
  error?: ErrorInfo;
}

/** What cancelling a run did: whether it was running, and its state afterwards. */
export interface RunCancellation {
  /** True when the run was running and has been asked to stop. */
  cancelled: boolean;
  summary: RunSummary;
}

/** Options of {@link EnsembleRuns.start} and {@link EnsembleRuns.resume}. */
export interface StartRunOptions {
  input?: string;
  runId?: string;
  initialContext?: Record<string, unknown>;
  inputHandler?: InputHandler;
}

/** Options of {@link EnsembleRuns}. */
export interface EnsembleRunsOptions {
  /** Where runs are checkpointed. */
  store: ThreadStore;
  catalog: EnsembleCatalog;
  /** Profiles for LLM agents (default: runEnsemble's, from the current directory). */
  profiles?: () => Promise<ProfileRegistry>;
  /** Makes models of profiles (tests pass scripted ones). */
  createModel?: CreateModel;
  /**
   * Finished runs whose events stay in memory for followers (default: the 100 most recent, up to
   * 32 MiB of events). Older runs are read back from the store (their final event only).
   */
  recentRuns?: { max?: number; maxBytes?: number };
}

/** Defaults of {@link EnsembleRunsOptions.recentRuns}. */
export const RECENT_RUNS = { max: 100, maxBytes: 32 * 1024 * 1024 } as const;

interface LiveRun {
  summary: RunSummary;
  events: RunEvent[];
  /** Size of `events` as JSON, in bytes (UTF-16 code units), for the recent-runs bound. */
  bytes: number;
  controller: AbortController;
  done: Promise<void>;
  wake: () => void;
  changed: Promise<void>;
}

/** The runs a server started, and access to those in its store. */
export class EnsembleRuns {
  readonly store: ThreadStore;
  readonly catalog: EnsembleCatalog;
  readonly #options: EnsembleRunsOptions;
  /** Runs running here; moved to {@link #recent} when they end. */
  readonly #live = new Map<string, LiveRun>();
  /** Finished runs, bounded by count and event bytes (least recently used go first). */
  readonly #recent: LRUCache<string, LiveRun>;

  constructor(options: EnsembleRunsOptions) {
    this.store = options.store;
    this.catalog = options.catalog;
    this.#options = options;
    const max = options.recentRuns?.max ?? RECENT_RUNS.max;
    const maxBytes = options.recentRuns?.maxBytes ?? RECENT_RUNS.maxBytes;
    this.#recent = new LRUCache<string, LiveRun>({
      max: Math.max(1, max),
      maxSize: Math.max(1, maxBytes),
      // A run larger than the whole budget is simply not kept.
      sizeCalculation: (run) => Math.max(1, run.bytes),
    });
  }

  /** Runs (live and recent) whose events are held in memory, and their size. */
  get retained(): { runs: number; bytes: number } {
    const runs = [...this.#live.values(), ...this.#recent.values()];
    return { runs: runs.length, bytes: runs.reduce((sum, run) => sum + run.bytes, 0) };
  }

  #held(runId: string): LiveRun | undefined {
    return this.#live.get(runId) ?? this.#recent.get(runId);
  }

  /** Starts a new run of the ensemble `name`; resolves once it is checkpointable, with its id. */
  async start(name: string, options: StartRunOptions = {}): Promise<RunSummary> {
    const ensemble = await this.catalog.load(name);
    const runId = options.runId ?? `run_${randomUUID()}`;
    if (this.#held(runId) || (await ensembleRunExists(this.store, runId))) {
      throw new ColloquyError(
        'RUN_EXISTS',
        `Run "${runId}" already exists. Resume it (POST /runs/${runId}/resume) or choose another runId.`,
      );
    }
    return this.#launch(ensemble, runId, false, options);
  }

  /** Resumes a run from its last checkpoint; a finished run is answered as is. */
  async resume(runId: string, options: StartRunOptions = {}): Promise<RunSummary> {
    if (this.#held(runId)?.summary.status === 'running') {
      throw new ColloquyError(
        'RUN_ACTIVE',
        `Run "${runId}" is still running. Follow it at GET /runs/${runId}/events; resume it only after it stops.`,
      );
    }
    const saved = await this.#saved(runId);
    if (!saved) throw runNotFound(runId);
    if (saved.status === 'finished') return saved;
    const ensemble = await this.catalog.findByEnsembleName(saved.ensemble);
    if (!ensemble) {
      throw new ColloquyError(
        'RUN_ENSEMBLE_MISSING',
        `Run "${runId}" belongs to ensemble "${saved.ensemble}", which this server does not offer. Put its file in the ensembles directory and retry.`,
      );
    }
    return this.#launch(ensemble, runId, true, options);
  }

  /** A run's summary, or null when neither this process nor the store knows it. */
  async state(runId: string): Promise<RunSummary | null> {
    const live = this.#held(runId);
    if (live) return structuredClone(live.summary);
    return this.#saved(runId);
  }

  /**
   * The events of a run after index `after` (-1 for all), as `[index, event]`, following a live
   * run until it ends. A run not live here yields its final event only (if it finished).
   */
  async *follow(
    runId: string,
    after = -1,
    signal?: AbortSignal,
  ): AsyncGenerator<[number, RunEvent]> {
    const live = this.#held(runId);
    if (!live) {
      const saved = await this.#saved(runId);
      if (saved?.result && after < 0)
        yield [0, { type: 'ensemble_finished', result: saved.result }];
      return;
    }
    let next = after + 1;
    const aborted = new Promise<void>((resolve) =>
      signal?.addEventListener('abort', () => resolve(), { once: true }),
    );
    while (!signal?.aborted) {
      const changed = live.changed;
      while (next < live.events.length) {
        yield [next, live.events[next]!];
        next += 1;
      }
      if (live.summary.status !== 'running') return;
      await Promise.race([changed, aborted]);
    }
  }

  /** Runs still running in this process. */
  get running(): number {
    return [...this.#live.values()].filter((run) => run.summary.status === 'running').length;
  }

  /**
   * Stops a running run: its running agents are aborted, its finished turns stay saved, and it
   * ends `interrupted`, resumable with {@link EnsembleRuns.resume}. Resolves once it has stopped,
   * with `cancelled: false` for a run that was not running, or null for an unknown run.
   */
  async cancel(runId: string, reason = 'The run was cancelled.'): Promise<RunCancellation | null> {
    const live = this.#live.get(runId);
    if (live?.summary.status === 'running') {
      live.controller.abort(new ColloquyError('ABORTED', reason));
      await live.done;
      return { cancelled: true, summary: structuredClone(live.summary) };
    }
    const summary = await this.state(runId);
    return summary ? { cancelled: false, summary } : null;
  }

  /**
   * Waits up to `graceMs` for running runs, then cancels the rest (they end with completion
   * reason `timeout`) and waits for them to save.
   */
  async close(graceMs = 0): Promise<void> {
    const pending = [...this.#live.values()].map((run) => run.done);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(pending),
      new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
    ]);
    clearTimeout(timer);
    for (const run of this.#live.values())
      run.controller.abort(new Error('The server is shutting down.'));
    await Promise.all(pending);
  }

  async #saved(runId: string): Promise<RunSummary | null> {
    const saved = await readEnsembleRun(this.store, runId);
    if (!saved) return null;
    return {
      runId,
      ensemble: saved.ensemble,
      status: saved.status === 'finished' ? 'finished' : 'interrupted',
      turnCount: saved.turnCount,
      ...(saved.result ? { result: saved.result } : {}),
    };
  }

  #launch(
    ensemble: Ensemble,
    runId: string,
    resume: boolean,
    options: StartRunOptions,
  ): RunSummary {
    const controller = new AbortController();
    const run: LiveRun = {
      summary: { runId, ensemble: ensemble.name, status: 'running', turnCount: 0 },
      events: [],
      bytes: 0,
      controller,
      done: Promise.resolve(),
      wake: () => undefined,
      changed: Promise.resolve(),
    };
    const rearm = () => {
      run.changed = new Promise((resolve) => (run.wake = resolve));
    };
    rearm();
    const wake = () => {
      const waiting = run.wake;
      rearm();
      waiting();
    };
    const record = (event: RunEvent) => {
      run.events.push(event);
      run.bytes += JSON.stringify(event).length;
    };
    const push = (event: RunEvent) => {
      record(event);
      if (
        event.type === 'ensemble_started' ||
        event.type === 'turn_recorded' ||
        event.type === 'step_started'
      ) {
        run.summary.turnCount = event.turn_count;
      }
      wake();
    };
    this.#live.get(runId)?.controller.abort();
    this.#recent.delete(runId);
    this.#live.set(runId, run);
    const profiles = this.#options.profiles;
    // A signed-in user's run recalls and remembers as that user (an ensemble's `memory:`).
    const userId = currentPrincipal()?.userId;
    run.done = (async () => {
      // Every run is a trace in the store's trace store, as `colloquy invoke` records it.
      const tracer = await createEnsembleTracer({ store: this.store });
      try {
        const result = await runEnsemble(ensemble, {
          store: this.store,
          ...(resume
            ? { resume: runId }
            : { runId, input: options.input, initialContext: options.initialContext }),
          ...(options.inputHandler ? { inputHandler: options.inputHandler } : {}),
          ...(userId ? { userId } : {}),
          ...(profiles ? { profiles: await profiles() } : {}),
          ...(this.#options.createModel ? { createModel: this.#options.createModel } : {}),
          onEvent: (event) => {
            tracer.onEvent(event);
            push(event);
          },
          signal: controller.signal,
        });
        await tracer.finish();
        if (!run.events.some((event) => event.type === 'ensemble_finished'))
          record({ type: 'ensemble_finished', result });
        Object.assign(run.summary, { status: 'finished', result, turnCount: result.turn_count });
      } catch (error) {
        await tracer.finish(error);
        const info = publicErrorInfo(errorInfo(publicError(error)));
        record({ type: 'error', error: info });
        // An interrupted run (shutdown, cancel) kept its finished turns and can be resumed.
        const interrupted = (error as { code?: unknown }).code === 'ABORTED';
        Object.assign(run.summary, {
          status: interrupted ? 'interrupted' : 'failed',
          error: info,
        });
      }
      // Ended: followers still find it among the recent runs until it is evicted.
      if (this.#live.get(runId) === run) {
        this.#live.delete(runId);
        this.#recent.set(runId, run);
      }
      wake();
    })();
    return structuredClone(run.summary);
  }
}
