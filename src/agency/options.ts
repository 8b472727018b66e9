/**
 * The options of an {@link Agency} and of its calls, and where their defaults are resolved and
 * checked (once, at construction).
 * @module
 */
import { openAIProvider } from '../models/openaiDefault.js';
import { Runner } from '@openai/agents-core';
import type { Agent as SdkAgent } from '@openai/agents-core';
import { AgencyConfigError } from '../errors.js';
import { resolveMemory, type MemoryOptions, type ResolvedMemory } from '../memory/options.js';
import type { ModelPrice } from '../models/pricing.js';
import { openDefaultStore } from '../stores/defaultStore.js';
import { ThreadManager } from '../threads/threadManager.js';
import type { ViewOptions } from '../threads/view.js';
import type { ApprovalDecisions } from './approvals.js';
import type { CallOptions } from './callOptions.js';
import type { ClientToolDefinition } from './clientTools.js';
import type { CommunicationFlow } from './graph.js';
import type { Attachment } from './input.js';
import { resolveInstructions } from './instructions.js';
import type { EntryRouter } from './router.js';
import type { AgencyHooks } from './runtime.js';
import { defaultSendMessageTool, type SendMessageToolFactory } from './sendMessage.js';
import { runnerTracingConfig } from '../tracing/resolve.js';
import { currentTracing } from '../tracing/setup.js';
import { defaultRuntime, type ColloquyRuntime } from '../runtime.js';

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
  /**
   * Memory beyond the chat (see `docs/memory.md`): semantic recall of the user's earlier chats,
   * a working-memory document per user, and compaction of long threads. Recall and working memory
   * need a `userId` per call; without one a call has chat-only memory.
   */
  memory?: MemoryOptions;
  /**
   * The runtime whose in-process state (chat gates, logger, caches) the agency uses, and whose
   * environment picks the default store (default: {@link defaultRuntime}, one per process).
   */
  runtime?: ColloquyRuntime;
}

/** The default turn budget of one agent run: generous, so tool-heavy agents are not cut short. */
export const DEFAULT_MAX_TURNS = 50;
/** The default wait for a busy chat: 5 minutes. */
export const DEFAULT_CHAT_WAIT_MS = 5 * 60_000;

/**
 * Options of {@link Agency.getResponse} and {@link Agency.getResponseStream}: the serialisable
 * {@link CallOptions} (see `callOptions.ts`, the one schema HTTP bodies and queued jobs use), plus
 * what only a process can pass: the abort signal and attachments as local paths or bytes.
 */
export interface GetResponseOptions extends Omit<CallOptions, 'attachments'> {
  /** Files to send with the message: local paths, uploaded file ids, or bytes. */
  attachments?: Attachment[];
  /**
   * Tools the caller runs itself, given to the entry point for this call: when the model calls
   * one, the call stops with it in `interruptions`; resume with its output in `toolOutputs`.
   */
  clientTools?: ClientToolDefinition[];
  /** Aborts the call, nested runs included. */
  signal?: AbortSignal;
}

/** Options of {@link Agency.resume}: which pending tool calls to approve or reject (by callId, or all). */
export interface ResumeOptions
  extends
    Pick<
      GetResponseOptions,
      'context' | 'maxTurns' | 'signal' | 'userId' | 'clientTools' | 'outputType'
    >,
    ApprovalDecisions {
  /** Outputs of the client tool calls the call stopped on, by call id (approves those calls). */
  toolOutputs?: Record<string, string>;
}

/** Every option of an agency with its default applied and checked. */
export interface ResolvedAgencyOptions {
  name: string;
  maxRecursionDepth: number;
  /** Whether the agency opened the store (the default one) and so closes it. */
  ownsStore: boolean;
  threads: ThreadManager;
  historyView: ViewOptions | undefined;
  autoCheckpoint: boolean;
  router: EntryRouter | undefined;
  hooks: AgencyHooks;
  tracing: boolean;
  traceContent: boolean | undefined;
  runner: Runner;
  context: Record<string, unknown>;
  maxTurns: number;
  maxTurnsByAgent: Record<string, number>;
  chatWaitMs: number;
  maxAttachmentBytes: number | undefined;
  prices: Record<string, ModelPrice>;
  validationAttempts: number;
  /** The shared instructions as text (a `.md` path read). */
  sharedInstructions: string;
  sendMessageTool: SendMessageToolFactory;
  /** The memory options checked, or undefined without memory. */
  memory: ResolvedMemory | undefined;
  runtime: ColloquyRuntime;
}

/**
 * Applies the defaults of `options` and checks every value, failing with `AGENCY_INVALID` at
 * construction rather than at the first call. `agents` are the agency's agents by name.
 */
export function resolveAgencyOptions(
  options: AgencyOptions,
  agents: ReadonlyMap<string, unknown>,
): ResolvedAgencyOptions {
  const name = options.name ?? 'agency';
  const maxRecursionDepth = options.maxRecursionDepth ?? 5;
  if (!Number.isInteger(maxRecursionDepth) || maxRecursionDepth < 1) {
    throw new AgencyConfigError(
      `maxRecursionDepth must be a whole number ≥ 1 (got ${maxRecursionDepth}).`,
    );
  }
  const maxTurns = positive(options.maxTurns ?? DEFAULT_MAX_TURNS, 'maxTurns');
  const maxTurnsByAgent = { ...options.maxTurnsByAgent };
  for (const [agent, turns] of Object.entries(maxTurnsByAgent)) {
    if (!agents.has(agent)) {
      throw new AgencyConfigError(
        `maxTurnsByAgent names "${agent}", which is not an agent of agency "${name}". Agents: ${[...agents.keys()].join(', ')}.`,
      );
    }
    positive(turns, `maxTurnsByAgent.${agent}`);
  }
  const chatWaitMs = options.chatWaitMs ?? DEFAULT_CHAT_WAIT_MS;
  if (!(chatWaitMs >= 0)) {
    throw new AgencyConfigError(`chatWaitMs must be ≥ 0 ms (got ${chatWaitMs}).`);
  }
  const validationAttempts = options.validationAttempts ?? 0;
  if (!Number.isInteger(validationAttempts) || validationAttempts < 0) {
    throw new AgencyConfigError(
      `validationAttempts must be a whole number ≥ 0 (got ${validationAttempts}).`,
    );
  }
  const sharedInstructions =
    options.sharedInstructions === undefined
      ? ''
      : resolveInstructions(options.sharedInstructions, `Agency "${name}" sharedInstructions`);
  // Tracing (colloquy/obs): on by default, one trace per call.
  const tracing = options.tracing ?? true;
  const runtime = options.runtime ?? defaultRuntime();
  const threads = options.threads ?? new ThreadManager({ store: openDefaultStore(runtime.env) });
  return {
    name,
    maxRecursionDepth,
    ownsStore: options.threads === undefined,
    threads,
    historyView: options.historyView,
    autoCheckpoint: options.autoCheckpoint ?? false,
    router: options.router,
    hooks: options.hooks ?? {},
    tracing,
    traceContent: options.traceContent,
    runner:
      options.runner ??
      new Runner({
        ...runnerTracingConfig({ tracing, content: options.traceContent }, currentTracing()),
        // Model names resolve on OpenAI (loaded on first use) without touching the SDK's default.
        modelProvider: openAIProvider(),
      }),
    context: { ...options.userContext },
    maxTurns,
    maxTurnsByAgent,
    chatWaitMs,
    maxAttachmentBytes: options.maxAttachmentBytes,
    prices: { ...options.prices },
    validationAttempts,
    sharedInstructions,
    sendMessageTool: options.sendMessageTool ?? defaultSendMessageTool,
    memory: options.memory
      ? resolveMemory(options.memory, threads.store, new Set(agents.keys()))
      : undefined,
    runtime,
  };
}

function positive(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new AgencyConfigError(`${what} must be a whole number ≥ 1 (got ${value}).`);
  }
  return value;
}
