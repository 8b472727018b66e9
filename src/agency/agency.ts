/**
 * The Agency: agents that delegate to each other through send_message along declared flows,
 * each pair of talkers with its own thread.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { Runner, RunState } from '@openai/agents-core';
import { getTraceRecorder } from '../tracing/setup.js';
import { traceCall } from '../tracing/traceCall.js';
import type { JsonSchemaDefinition, Agent as SdkAgent } from '@openai/agents-core';
import { pushable } from 'it-pushable';
import { AgencyConfigError, errorInfo } from '../errors.js';
import type { Checkpoint } from '../stores/types.js';
import { openDefaultStore } from '../stores/openStore.js';
import { checkpointChat, forkChat, rollbackChat } from '../threads/chatHistory.js';
import { exportChat, importChat, type ChatEnvelope } from '../threads/serialization.js';
import { ThreadManager } from '../threads/threadManager.js';
import type { ViewOptions } from '../threads/view.js';
import {
  parsePendingCall,
  pendingApprovals,
  type ApprovalDecisions,
  type PendingCall,
} from './approvals.js';
import { AgencyCall, type RunFrame } from './call.js';
import { ChatActivity } from './chatActivity.js';
import { surfacedError } from './errorCauses.js';
import type { AgencyStreamEvent } from './events.js';
import { buildGraph, type AgencyGraph, type CommunicationFlow } from './graph.js';
import { resolveInstructions } from './instructions.js';
import { agencyToMermaid, type MermaidOptions } from './mermaid.js';
import type { AgencyResponse } from './result.js';
import type { AgencyHooks, AgencyRuntime } from './runtime.js';
import { describeEntryPoints, route, type EntryRouter } from './router.js';
import { runTurn } from './runTurn.js';
import { buildRuntimeAgents } from './runtimeAgents.js';
import { gateOf, type ChatGate } from './chatGate.js';
import { withChatLease } from './chatLease.js';
import { prepareInput, type AgencyInput, type Attachment } from './input.js';
import { modelPrice, type ModelPrice } from '../models/pricing.js';
import { createSend, defaultSendMessageTool, type SendMessageToolFactory } from './sendMessage.js';

/** Options of {@link Agency}. */
export interface AgencyOptions {
  /** A name for logs, the CLI and the server (default `agency`). */
  name?: string;
  /** Agents the user may talk to; the first is the default recipient. */
  entryPoints: SdkAgent<any, any>[];
  /** `[sender, recipient]` pairs: who may message whom. Agents named here join the agency. */
  communicationFlows?: CommunicationFlow[];
  /** Instructions every agent gets before its own: text, or a path to a `.md` file. */
  sharedInstructions?: string;
  /** How deep send_message may nest (default 5). */
  maxRecursionDepth?: number;
  /**
   * Where threads live. Default: the embedded SQLite store at `$COLLOQUY_DB`, else
   * `./.colloquy/colloquy.db`, so a second run with the same chat id continues the conversation.
   */
  threads?: ThreadManager;
  /** Give agents only the newest items that fit this token budget as model input (default: all). */
  historyView?: ViewOptions;
  /** Record a checkpoint of the chat after every successful call (default false). */
  autoCheckpoint?: boolean;
  /** Lifecycle hooks, called for every run, nested ones included. */
  hooks?: AgencyHooks;
  /**
   * Picks the entry point for each user message that names no recipient: a function, or a
   * classifier agent answering with an entry point's name. The choice is in the result
   * (`routedTo`) and the stream (`entry_routed`).
   */
  router?: EntryRouter;
  /** Replace the send_message tool (see {@link SendMessageToolFactory}). */
  sendMessageTool?: SendMessageToolFactory;
  /** The SDK Runner to run agents with (default: a Runner that traces, see `tracing`). */
  runner?: Runner;
  /**
   * Record every call as a trace, saved next to the threads and exported where configured
   * (default true; `COLLOQUY_TRACING=off` turns saving and export off for the whole process).
   */
  tracing?: boolean;
  /** Keep message and tool text in spans (default true). */
  traceContent?: boolean;
  /**
   * Seeds the agency's shared context: the object every run of a call sees (tools through
   * {@link sharedContext}) when `getResponse` gets no `context`. It lives as long as the agency,
   * like its default chat (default: an empty object).
   */
  userContext?: Record<string, unknown>;
  /**
   * How many model turns one run of an agent may take before it fails with `MAX_TURNS`
   * (default {@link DEFAULT_MAX_TURNS}; the SDK's own default is 10).
   */
  maxTurns?: number;
  /** Turn budgets of particular agents, by name; others get `maxTurns`. */
  maxTurnsByAgent?: Record<string, number>;
  /**
   * How long a call waits for another call of the same chat to finish before failing with
   * `CHAT_BUSY` (default {@link DEFAULT_CHAT_WAIT_MS}; 0 fails at once).
   */
  chatWaitMs?: number;
  /** Largest attachment accepted, in bytes (default 20 MiB). */
  maxAttachmentBytes?: number;
  /**
   * When an output guardrail rejects an answer, give the agent the guardrail's message and let it
   * answer again, up to this many times, before the run fails (default 0: fail at once).
   */
  validationAttempts?: number;
  /**
   * Prices for `usage.cost`, by agent name or model name (USD per million tokens). Default: the
   * price of a profile model, else the built-in table of well-known models by model name.
   */
  prices?: Record<string, ModelPrice>;
}

/** The default turn budget of one agent run: generous, so tool-heavy agents are not cut short. */
export const DEFAULT_MAX_TURNS = 50;
/** The default wait for a busy chat: 5 minutes. */
export const DEFAULT_CHAT_WAIT_MS = 5 * 60_000;

/** Options of {@link Agency.getResponse} and {@link Agency.getResponseStream}. */
export interface GetResponseOptions {
  /** The entry point to talk to (default: the first). */
  recipient?: string;
  /** The chat to continue (default: the agency's own chat, {@link Agency.chatId}). */
  chatId?: string;
  /**
   * Your context object, passed to every tool, guardrail and nested run of this call (default: the
   * agency's shared context, {@link Agency.context}).
   */
  context?: unknown;
  /** Files to send with the message: local paths, uploaded file ids, or bytes. */
  attachments?: Attachment[];
  /**
   * A structured output for the entry point, for this call only (a JSON schema, as the SDK's
   * `outputType` takes it); the final output is then the parsed object.
   */
  outputType?: JsonSchemaDefinition;
  /** Extra instructions for the entry point, for this call only. */
  additionalInstructions?: string;
  /** The turn budget of every agent run of this call (default: the agency's). */
  maxTurns?: number;
  /** Aborts the call, nested runs included. */
  signal?: AbortSignal;
}

/** Options of {@link Agency.resume}: which pending tool calls to approve or reject (by callId, or all). */
export interface ResumeOptions
  extends Pick<GetResponseOptions, 'context' | 'maxTurns' | 'signal'>, ApprovalDecisions {}

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
  readonly #chatWaitMs: number;
  readonly #maxTurns: number;
  readonly #maxTurnsByAgent: Record<string, number>;
  readonly #maxAttachmentBytes: number | undefined;
  readonly validationAttempts: number;
  readonly #gate: ChatGate;
  readonly #prices: Record<string, ModelPrice>;
  #chatId = newChatId();
  readonly #autoCheckpoint: boolean;
  readonly #ownsStore: boolean;
  readonly #activity = new ChatActivity();
  readonly #router: EntryRouter | undefined;
  readonly #graph: AgencyGraph;
  readonly #runtimeAgents: Map<string, SdkAgent<any, any>>;
  readonly #tracing: boolean;
  readonly #traceContent: boolean | undefined;

  constructor(options: AgencyOptions) {
    this.name = options.name ?? 'agency';
    this.#graph = buildGraph(options.entryPoints ?? [], options.communicationFlows ?? []);
    const depth = options.maxRecursionDepth ?? 5;
    if (!Number.isInteger(depth) || depth < 1) {
      throw new AgencyConfigError(`maxRecursionDepth must be a whole number ≥ 1 (got ${depth}).`);
    }
    this.maxRecursionDepth = depth;
    this.#ownsStore = options.threads === undefined;
    this.threads = options.threads ?? new ThreadManager({ store: openDefaultStore() });
    this.historyView = options.historyView;
    this.#autoCheckpoint = options.autoCheckpoint ?? false;
    this.#router = options.router;
    this.hooks = options.hooks ?? {};
    // Tracing (colloquy/obs): on by default, one trace per call (see #run and src/tracing/).
    this.#tracing = options.tracing ?? true;
    this.#traceContent = options.traceContent;
    if (this.#tracing) getTraceRecorder();
    this.runner =
      options.runner ??
      new Runner({
        tracingDisabled: !this.#tracing,
        traceIncludeSensitiveData: options.traceContent ?? true,
      });
    this.context = { ...options.userContext };
    this.#maxTurns = positive(options.maxTurns ?? DEFAULT_MAX_TURNS, 'maxTurns');
    this.#maxTurnsByAgent = { ...options.maxTurnsByAgent };
    for (const [agent, turns] of Object.entries(this.#maxTurnsByAgent)) {
      if (!this.#graph.agents.has(agent)) {
        throw new AgencyConfigError(
          `maxTurnsByAgent names "${agent}", which is not an agent of agency "${this.name}". Agents: ${[...this.#graph.agents.keys()].join(', ')}.`,
        );
      }
      positive(turns, `maxTurnsByAgent.${agent}`);
    }
    this.#chatWaitMs = options.chatWaitMs ?? DEFAULT_CHAT_WAIT_MS;
    if (!(this.#chatWaitMs >= 0)) {
      throw new AgencyConfigError(`chatWaitMs must be ≥ 0 ms (got ${this.#chatWaitMs}).`);
    }
    this.#maxAttachmentBytes = options.maxAttachmentBytes;
    this.#gate = gateOf(this.threads.store);
    this.#prices = { ...options.prices };
    this.validationAttempts = options.validationAttempts ?? 0;
    if (!Number.isInteger(this.validationAttempts) || this.validationAttempts < 0) {
      throw new AgencyConfigError(
        `validationAttempts must be a whole number ≥ 0 (got ${this.validationAttempts}).`,
      );
    }
    const shared =
      options.sharedInstructions === undefined
        ? ''
        : resolveInstructions(
            options.sharedInstructions,
            `Agency "${this.name}" sharedInstructions`,
          );
    this.#runtimeAgents = buildRuntimeAgents(
      this.#graph,
      shared,
      options.sendMessageTool ?? defaultSendMessageTool,
      createSend(this),
    );
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
  async getResponse(
    message: AgencyInput,
    options: GetResponseOptions = {},
  ): Promise<AgencyResponse> {
    return this.#run(message, options);
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
    const pending = parsePendingCall(state);
    const runState = await RunState.fromString(this.runtimeAgent(pending.agent), pending.state);
    return this.#run(
      '',
      { ...options, chatId: pending.chatId, recipient: pending.agent },
      undefined,
      {
        runId: pending.runId,
        state: runState,
      },
    );
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
    const controller = new AbortController();
    const signal = options.signal
      ? AbortSignal.any([options.signal, controller.signal])
      : controller.signal;
    let finished = false;
    const channel = pushable<AgencyStreamEvent>({
      objectMode: true,
      onEnd: () => {
        if (!finished) controller.abort(new Error('The stream consumer stopped reading.'));
      },
    });
    this.#run(message, { ...options, signal }, (event) => channel.push(event)).then(
      (result) => {
        finished = true;
        channel.push({ type: 'run_completed', result });
        channel.end();
      },
      (error: unknown) => {
        finished = true;
        channel.push({ type: 'error', error: errorInfo(error) });
        channel.end(error instanceof Error ? error : new Error(String(error)));
      },
    );
    return channel;
  }

  #run(
    message: AgencyInput,
    options: GetResponseOptions & ApprovalDecisions,
    emit?: (event: AgencyStreamEvent) => void,
    resume?: { runId: string; state: RunState<any, any> },
  ): Promise<AgencyResponse> {
    const chatId = options.chatId ?? this.#chatId;
    const runId = resume?.runId ?? `run_${randomUUID()}`;
    const call = async (): Promise<AgencyResponse> => {
      const leave = await this.#gate.enter(chatId, this.#chatWaitMs, options.signal);
      try {
        return await withChatLease(
          this.threads.store,
          chatId,
          this.#chatWaitMs,
          options.signal,
          () =>
            traceCall(
              {
                name: `agency ${this.name}`,
                chatId,
                runId,
                agency: this.name,
                store: this.threads.store,
                enabled: this.#tracing,
                ...(this.#traceContent === undefined ? {} : { content: this.#traceContent }),
              },
              () => this.#call(message, { ...options, chatId }, emit, resume ?? runId),
            ),
        );
      } finally {
        leave();
      }
    };
    return this.#activity.track(chatId, call());
  }

  async #call(
    message: AgencyInput,
    options: GetResponseOptions & ApprovalDecisions & { chatId: string },
    emit: ((event: AgencyStreamEvent) => void) | undefined,
    resumeOrRunId: { runId: string; state: RunState<any, any> } | string,
  ): Promise<AgencyResponse> {
    const resume = typeof resumeOrRunId === 'string' ? undefined : resumeOrRunId;
    const runId = typeof resumeOrRunId === 'string' ? resumeOrRunId : resumeOrRunId.runId;
    const input = await prepareInput(message, options.attachments, this.#maxAttachmentBytes);
    const call = new AgencyCall({
      chatId: options.chatId,
      context: options.context ?? this.context,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
      ...(resume
        ? {
            decisions: {
              ...(options.approve ? { approve: options.approve } : {}),
              ...(options.reject ? { reject: options.reject } : {}),
            },
          }
        : {}),
      ...(emit ? { emit } : {}),
    });
    const routed =
      options.recipient === undefined && this.#router && !resume
        ? await route(
            this.#router,
            {
              message: input.text,
              chatId: options.chatId,
              entryPoints: describeEntryPoints(this.#graph.agents, this.#graph.entryPoints),
              context: options.context ?? this.context,
            },
            this.runner,
            options.signal,
          )
        : undefined;
    if (routed) {
      call.addUsage(routed.usage);
      call.emit({ type: 'entry_routed', agent: routed.agent, by: routed.by });
    }
    const recipient = options.recipient ?? routed?.agent ?? this.#graph.entryPoints[0]!;
    if (!this.#graph.entryPoints.includes(recipient)) {
      throw new AgencyConfigError(
        `"${recipient}" is not an entry point of agency "${this.name}". Entry points: ${this.#graph.entryPoints.join(', ')}.`,
      );
    }
    const frame: RunFrame = {
      agent: recipient,
      callerAgent: null,
      runId,
      parentRunId: null,
      depth: 0,
      call,
      viaCallId: null,
      additionalInstructions: options.additionalInstructions,
      outputType: options.outputType,
      inFlight: new Set(),
    };
    let outcome;
    try {
      outcome = await runTurn(this, frame, input, resume ? { state: resume.state } : undefined);
    } catch (error) {
      throw surfacedError(error);
    } finally {
      // Every thread the call wrote, in one store transaction where the store allows.
      await this.threads.saveThreads(call.unsavedThreads());
    }
    const response: AgencyResponse = {
      finalOutput: outcome.finalOutput,
      chatId: call.chatId,
      lastAgent: outcome.lastAgent,
      newItems: call.items(frame.runId),
      usage: { ...call.usage },
      ...(routed ? { routedTo: routed.agent } : {}),
    };
    if (outcome.interruptions.length > 0) {
      const pending: PendingCall = {
        format: 'colloquy-pending-call',
        version: 1,
        chatId: call.chatId,
        agent: recipient,
        runId: frame.runId,
        state: outcome.result.state.toString(),
      };
      return {
        ...response,
        interruptions: pendingApprovals(outcome.interruptions),
        state: JSON.stringify(pending),
      };
    }
    if (this.#autoCheckpoint) await checkpointChat(this.threads.store, call.chatId, 'auto');
    return response;
  }
}

function newChatId(): string {
  return `chat_${randomUUID()}`;
}

function positive(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new AgencyConfigError(`${what} must be a whole number ≥ 1 (got ${value}).`);
  }
  return value;
}
