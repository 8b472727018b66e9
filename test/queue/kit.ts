/**
 * An in-process queue for the queue's unit tests: workers (`createWorker`) and a client
 * (`QueueClient`) on the test Redis, each worker with agencies of its own (as separate processes
 * would have) on one shared RedisStore, every key under a prefix no other test uses.
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents-core';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { lastUserText } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { QueueClient, type QueueClientOptions } from '../../src/queue/client.js';
import {
  createWorker,
  type CreateWorkerOptions,
  type QueueWorker,
} from '../../src/queue/worker.js';
import { createRegistry, type ServerRegistry } from '../../src/server/registry.js';
import { RedisStore } from '../../src/stores/redis.js';
import type { ThreadStore } from '../../src/stores/types.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { redisUrl, uniqueName } from '../setup/serviceUrls.js';
import { approvalAgency } from '../server/approvalAgency.js';

/** How long the echo model waits before answering `text` (ms). */
export type DelayOf = (text: string) => number;

/** Echoes the last user message after `delay(text)` ms; the wait stops when the call is aborted. */
export class DelayedEcho implements Model {
  readonly #inner = new ScriptedModel((request) => `echo: ${lastUserText(request)}`, {
    name: 'echo',
  });
  readonly #delay: DelayOf;
  /** How many model requests started (across calls). */
  started = 0;

  constructor(delay: DelayOf) {
    this.#delay = delay;
  }

  async #pause(request: ModelRequest): Promise<void> {
    this.started += 1;
    const ms = this.#delay(lastUserText(request));
    if (ms > 0) await sleep(ms, undefined, request.signal ? { signal: request.signal } : {});
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    await this.#pause(request);
    return this.#inner.getResponse(request);
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    await this.#pause(request);
    yield* this.#inner.getStreamedResponse(request);
  }
}

/** One worker of the kit, with its own agencies. */
export interface KitWorker {
  readonly worker: QueueWorker;
  readonly registry: ServerRegistry;
  readonly model: DelayedEcho;
  /** Jobs this worker ended, in order. */
  readonly jobs: Array<{ id: string; name: string; outcome: string }>;
}

/** Options of {@link startKit}. */
export interface KitOptions {
  /** Workers to start at once (default 1). */
  workers?: number;
  /** The echo model's delay (default none). */
  delay?: DelayOf;
  /** Passed to every worker. */
  worker?: Partial<Omit<CreateWorkerOptions, 'registry' | 'queue' | 'prefix'>>;
  /** Passed to the client. */
  client?: Omit<QueueClientOptions, 'queue' | 'prefix'>;
  /** A directory of ensembles the workers offer (default none). */
  ensembles?: string;
}

/** The running kit. */
export interface Kit {
  readonly queue: string;
  readonly prefix: string;
  readonly store: RedisStore;
  readonly client: QueueClient;
  readonly workers: KitWorker[];
  /** Starts one more worker. */
  addWorker(options?: KitOptions['worker']): Promise<KitWorker>;
  /** Closes every worker (those not closed yet), the client and the store. */
  close(): Promise<void>;
}

/** The agencies every kit worker serves: `echo` (one agent) and `office` (approvals). */
export function kitAgencies(store: ThreadStore, model: Model): Agency[] {
  const echo = new Agent({ name: 'Echo', instructions: 'Repeat.', model });
  return [
    new Agency({ name: 'echo', entryPoints: [echo], threads: new ThreadManager({ store }) }),
    approvalAgency(store).agency,
  ];
}

/** Starts the kit on the test Redis (call only when `redisSkip()` is undefined). */
export async function startKit(options: KitOptions = {}): Promise<Kit> {
  const queue = redisUrl()!;
  const prefix = uniqueName('qkit');
  const store = new RedisStore({ url: queue, keyPrefix: `${prefix}:store:` });
  const client = new QueueClient({ queue, prefix, ...options.client });
  const workers: KitWorker[] = [];
  const addWorker = async (extra: KitOptions['worker'] = {}): Promise<KitWorker> => {
    const model = new DelayedEcho(options.delay ?? (() => 0));
    const registry = createRegistry({
      agencies: kitAgencies(store, model),
      store,
      ownsStore: false,
      ...(options.ensembles ? { ensembles: options.ensembles } : {}),
    });
    const jobs: KitWorker['jobs'] = [];
    const worker = createWorker({
      queue,
      prefix,
      registry,
      concurrency: 4,
      lockDurationMs: 2_000,
      ...options.worker,
      ...extra,
      onJob: (info) => jobs.push(info),
    });
    await worker.worker.waitUntilReady();
    const entry = { worker, registry, model, jobs };
    workers.push(entry);
    return entry;
  };
  for (let i = 0; i < (options.workers ?? 1); i++) await addWorker();
  return {
    queue,
    prefix,
    store,
    client,
    workers,
    addWorker,
    async close() {
      await Promise.all(workers.map(({ worker }) => worker.close({ graceMs: 0 })));
      await client.close();
      await store.close();
    },
  };
}

/** The items of every live thread of a chat, as `role: text` lines (tool calls by name). */
export async function chatLines(store: ThreadStore, chatId: string): Promise<string[]> {
  const { liveThreads } = await import('../../src/threads/chatHistory.js');
  const lines: string[] = [];
  for (const record of await liveThreads(store, chatId)) {
    for (const { item } of await store.readItems(record.threadId)) {
      const entry = item as { role?: string; type?: string; name?: string; content?: unknown };
      const content = entry.content;
      const text =
        typeof content === 'string'
          ? content
          : Array.isArray(content)
            ? content.map((part: { text?: string }) => part.text ?? '').join('')
            : (entry.name ?? '');
      lines.push(`${entry.role ?? entry.type}: ${text}`);
    }
  }
  return lines;
}
