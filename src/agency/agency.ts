/**
 * The Agency: agents that delegate to each other through send_message along declared flows,
 * each pair of talkers with its own thread.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { Runner, Agent as SdkAgent } from '@openai/agents-core';
import { AgencyConfigError } from '../errors.js';
import { AgencyMemory } from '../memory/agencyMemory.js';
import { modelPrice, type ModelPrice } from '../models/pricing.js';
import type { Checkpoint } from '../stores/types.js';
import { checkpointChat, forkChat, rollbackChat } from '../threads/chatHistory.js';
import { exportChat, importChat, type ChatEnvelope } from '../threads/serialization.js';
import type { ColloquyRuntime } from '../runtime.js';
import type { ThreadManager } from '../threads/threadManager.js';
import type { ViewOptions } from '../threads/view.js';
import { getTraceRecorder } from '../tracing/setup.js';
import { ChatActivity } from './chatActivity.js';
import { getCompletion, getCompletionStream } from './completion.js';
import {
  runChatCall,
  type ChatCallHost,
  type ChatCallOptions,
  type ResumePoint,
} from './chatCall.js';
import { gateOf } from './chatGate.js';
import type { AgencyStreamEvent } from './events.js';
import { buildGraph, type AgencyGraph } from './graph.js';
import type { AgencyInput } from './input.js';
import { agencyToMermaid, type MermaidOptions } from './mermaid.js';
import {
  resolveAgencyOptions,
  type AgencyOptions,
  type GetResponseOptions,
  type ResumeOptions,
} from './options.js';
import type { AgencyResponse } from './result.js';
import type { AgencyHooks, AgencyRuntime } from './runtime.js';
import { buildRuntimeAgents } from './runtimeAgents.js';
import { resumedCall } from './resumeCall.js';
import { createSend } from './sendMessage.js';
import { streamCall } from './streaming.js';

export { DEFAULT_CHAT_WAIT_MS, DEFAULT_MAX_TURNS } from './options.js';
export type { AgencyOptions, GetResponseOptions, ResumeOptions } from './options.js';

/**
 * A set of agents that talk through send_message.
 *
 * @example
 * ```ts
 * const agency = new Agency({
 *   entryPoints: [coordinator],
 *   communicationFlows: [[coordinator, writer], [writer, editor]],
 * });
 * const { finalOutput, usage } = await agency.getResponse('Write a haiku about tides');
 * ```
 */
export class Agency implements AgencyRuntime {
  readonly name: string;
  readonly threads: ThreadManager;
  readonly runner: Runner;
  readonly hooks: AgencyHooks;
  readonly maxRecursionDepth: number;
  readonly historyView: ViewOptions | undefined;
  /** The shared context of calls that pass none (seeded from `userContext`). */
  readonly context: Record<string, unknown>;
  readonly #maxTurns: number;
  readonly #maxTurnsByAgent: Record<string, number>;
  readonly validationAttempts: number;
  readonly #prices: Record<string, ModelPrice>;
  #chatId = newChatId();
  readonly #ownsStore: boolean;
  readonly #activity = new ChatActivity();
  readonly #host: ChatCallHost;
  readonly #graph: AgencyGraph;
  readonly #runtimeAgents: Map<string, SdkAgent<any, any>>;
  /** The agency's memory (`memory` option), or undefined without it. */
  readonly memory: AgencyMemory | undefined;
  /** The options the agency was built with, as given (what-if replays build a branch from them). */
  readonly options: Readonly<AgencyOptions>;
  /** The runtime whose in-process state the agency uses (`runtime` option, else the default). */
  readonly runtime: ColloquyRuntime;

  constructor(options: AgencyOptions) {
    this.options = options;
    this.#graph = buildGraph(options.entryPoints ?? [], options.communicationFlows ?? []);
    const resolved = resolveAgencyOptions(options, this.#graph.agents);
    this.name = resolved.name;
    this.runtime = resolved.runtime;
    this.maxRecursionDepth = resolved.maxRecursionDepth;
    this.#ownsStore = resolved.ownsStore;
    this.threads = resolved.threads;
    this.historyView = resolved.historyView;
    this.hooks = resolved.hooks;
    if (resolved.tracing) getTraceRecorder();
    this.runner = resolved.runner;
    this.context = resolved.context;
    this.#maxTurns = resolved.maxTurns;
    this.#maxTurnsByAgent = resolved.maxTurnsByAgent;
    this.#prices = resolved.prices;
    this.validationAttempts = resolved.validationAttempts;
    this.#runtimeAgents = buildRuntimeAgents(
      this.#graph,
      resolved.sharedInstructions,
      resolved.sendMessageTool,
      createSend(this),
    );
    this.memory = resolved.memory
      ? new AgencyMemory(resolved.memory, {
          agency: this.name,
          runner: this.runner,
          store: this.threads.store,
          entryPoints: this.#graph.entryPoints,
        })
      : undefined;
    this.#host = {
      entry: {
        runtime: this,
        name: this.name,
        graph: this.#graph,
        router: resolved.router,
        context: this.context,
        maxAttachmentBytes: resolved.maxAttachmentBytes,
        autoCheckpoint: resolved.autoCheckpoint,
        memory: this.memory,
      },
      gate: gateOf(this.threads.store, this.runtime),
      chatWaitMs: resolved.chatWaitMs,
      tracing: resolved.tracing,
      traceContent: resolved.traceContent,
    };
  }

  /**
   * The chat calls without a `chatId` continue: one per agency, for its lifetime, so a second
   * `getResponse` remembers the first. {@link Agency.newChat} starts another.
   */
  get chatId(): string {
    return this.#chatId;
  }

  /** Starts a fresh default chat and returns its id; later calls without `chatId` continue it. */
  newChat(): string {
    this.#chatId = newChatId();
    return this.#chatId;
  }

  priceFor(agent: string): ModelPrice | undefined {
    const model = this.#graph.agents.get(agent)?.model;
    const name = typeof model === 'string' ? model : undefined;
    return (
      this.#prices[agent] ??
      (name ? this.#prices[name] : undefined) ??
      modelPrice(model === '' ? undefined : model)
    );
  }

  maxTurnsFor(agent: string): number {
    return this.#maxTurnsByAgent[agent] ?? this.#maxTurns;
  }

  /** Every agent of the agency, by name, as it was given. */
  get agents(): ReadonlyMap<string, SdkAgent<any, any>> {
    return this.#graph.agents;
  }

  /** Names of the entry points. */
  get entryPoints(): readonly string[] {
    return this.#graph.entryPoints;
  }

  /** Every `[sender, recipient]` flow, by name. */
  get flows(): Array<[string, string]> {
    return [...this.#graph.recipients].flatMap(([sender, list]) =>
      list.map((recipient): [string, string] => [sender, recipient]),
    );
  }

  /** The agency as a Mermaid flowchart (see {@link agencyToMermaid}), e.g. for a README. */
  toMermaid(options: MermaidOptions = {}): string {
    return agencyToMermaid(this, options);
  }

  recipientsOf(sender: string): readonly string[] {
    return this.#graph.recipients.get(sender) ?? [];
  }

  runtimeAgent(name: string): SdkAgent<any, any> {
    const agent = this.#runtimeAgents.get(name);
    if (!agent) throw new AgencyConfigError(`Agency "${this.name}" has no agent named "${name}".`);
    return agent;
  }

  /**
   * Sends a message (text, or SDK input items such as `input_image` and `input_file`) to an entry
   * point and resolves with the whole call tree's result. Calls of one chat run one at a time.
   */
  getResponse(message: AgencyInput, options: GetResponseOptions = {}): Promise<AgencyResponse> {
    // Not `async`: the call's own promise is returned as it is (one promise less per call).
    try {
      return this.#run(message, options);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  /**
   * Continues a call that stopped for tool approvals (`result.interruptions`, `result.state`),
   * nested runs included: approved calls run, rejected ones get a rejection as their output,
   * finished steps are not run again and no history is written twice.
   *
   * @example
   * ```ts
   * let result = await agency.getResponse('Delete the old reports');
   * while (result.interruptions) {
   *   result = await agency.resume(result.state!, { approve: result.interruptions.map((i) => i.callId) });
   * }
   * ```
   */
  async resume(state: string, options: ResumeOptions = {}): Promise<AgencyResponse> {
    const { message, callOptions, resume } = await this.#resumed(state, options);
    return this.#run(message, callOptions, undefined, resume);
  }

  /**
   * {@link Agency.resume} as a stream: the events of the continued call, as
   * {@link Agency.getResponseStream} yields them (ending with `run_completed` or `error`).
   */
  resumeStream(state: string, options: ResumeOptions = {}): AsyncIterable<AgencyStreamEvent> {
    return streamCall(options.signal, async (signal, emit) => {
      const { message, callOptions, resume } = await this.#resumed(state, {
        ...options,
        signal,
      });
      return this.#run(message, callOptions, emit, resume);
    });
  }

  #resumed(state: string, options: ResumeOptions) {
    return resumedCall((name) => this.runtimeAgent(name), state, options);
  }

  /**
   * Records a checkpoint of every thread of a chat (after the chat's running calls finish) and
   * returns its id.
   */
  async checkpoint(chatId: string, label?: string): Promise<string> {
    await this.#activity.settled(chatId);
    return (await checkpointChat(this.threads.store, chatId, label ?? null)).checkpointId;
  }

  /** The checkpoints of a chat, oldest first. */
  checkpoints(chatId: string): Promise<Checkpoint[]> {
    return this.threads.store.listCheckpoints(chatId);
  }

  /**
   * Restores a chat to a checkpoint. Later items become unreachable from the chat but are kept
   * under archive threads (returned per thread id) until those are deleted.
   */
  async rollback(chatId: string, checkpointId: string): Promise<Record<string, string>> {
    await this.#activity.settled(chatId);
    const archives = await rollbackChat(this.threads.store, chatId, checkpointId);
    this.threads.evict(chatId);
    return archives;
  }

  /** Continues a chat (as of a checkpoint, or now) in a new chat; the original is untouched. */
  async forkChat(chatId: string, checkpointId?: string): Promise<string> {
    await this.#activity.settled(chatId);
    return forkChat(this.threads.store, chatId, checkpointId ? { checkpointId } : {});
  }

  /** Every thread and checkpoint of a chat as a versioned JSON envelope. */
  async exportChat(chatId: string): Promise<ChatEnvelope> {
    await this.#activity.settled(chatId);
    return exportChat(this.threads.store, chatId);
  }

  /** Imports an exported chat (under its own id, or `as`) and returns the chat id. */
  importChat(envelope: ChatEnvelope, options: { as?: string } = {}): Promise<string> {
    return importChat(this.threads.store, envelope, options);
  }

  /**
   * Waits for the calls running now to finish, then closes the store if the agency opened it
   * (the default store). A store you passed in stays open: you own it.
   */
  async close(): Promise<void> {
    await this.#activity.allSettled();
    if (this.#ownsStore) await this.threads.store.close();
  }

  /**
   * Streams the events of every run of the call (nested ones included, each tagged with its
   * agent and caller). The last event is `run_completed` with the same object `getResponse`
   * returns, or `error`, after which the iterator throws that error. Leaving the loop early
   * aborts the call.
   */
  getResponseStream(
    message: AgencyInput,
    options: GetResponseOptions = {},
  ): AsyncIterable<AgencyStreamEvent> {
    return streamCall(options.signal, (signal, emit) =>
      this.#run(message, { ...options, signal }, emit),
    );
  }

  /**
   * agency-swarm's `get_completion`: the final output as text.
   * @deprecated Use {@link Agency.getResponse} (`(await agency.getResponse(m)).finalOutput`).
   */
  getCompletion(
    message: AgencyInput,
    options: GetResponseOptions & { recipientAgent?: string | { name: string } } = {},
  ): Promise<string> {
    return getCompletion(this, message, options);
  }

  /**
   * agency-swarm's `get_completion_stream`: the entry point's text deltas.
   * @deprecated Use {@link Agency.getResponseStream} (events, text deltas among them).
   */
  getCompletionStream(
    message: AgencyInput,
    options: GetResponseOptions & { recipientAgent?: string | { name: string } } = {},
  ): AsyncIterable<string> {
    return getCompletionStream(this, message, options);
  }

  #run(
    message: AgencyInput,
    options: ChatCallOptions,
    emit?: (event: AgencyStreamEvent) => void,
    resume?: ResumePoint,
  ): Promise<AgencyResponse> {
    const chatId = options.chatId ?? this.#chatId;
    return this.#activity.track(
      chatId,
      runChatCall(this.#host, { chatId, message, options, emit, resume }),
    );
  }
}

function newChatId(): string {
  return `chat_${randomUUID()}`;
}
