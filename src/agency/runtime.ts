/**
 * What a running agent needs from its agency: the runner, the threads, the agents as they run
 * inside this agency, the flows, the limits and the hooks.
 * @module
 */
import type { Agent as SdkAgent, Runner } from '@openai/agents-core';
import type { ModelPrice } from '../models/pricing.js';
import type { ThreadManager } from '../threads/threadManager.js';
import type { ViewOptions } from '../threads/view.js';
import type { ErrorInfo } from '../errors.js';
import type { RunTag } from './events.js';
import type { Usage } from '../usage.js';

/** Lifecycle hooks of an agency; each takes one object argument. */
export interface AgencyHooks {
  /** An agent's run is about to start (top-level or nested). */
  onRunStart?(event: RunTag & { chatId: string; message: string }): void | Promise<void>;
  /** An agent's run finished. */
  onRunEnd?(
    event: RunTag & { chatId: string; finalOutput: unknown; usage: Usage },
  ): void | Promise<void>;
  /** An agent's run failed (for nested runs, the caller gets the error as a tool output). */
  onRunError?(event: RunTag & { chatId: string; error: ErrorInfo }): void | Promise<void>;
}

/** The agency as seen by the runs inside it. */
export interface AgencyRuntime {
  readonly runner: Runner;
  readonly threads: ThreadManager;
  readonly hooks: AgencyHooks;
  readonly maxRecursionDepth: number;
  /** A token budget for model input, or undefined for the whole thread. */
  readonly historyView: ViewOptions | undefined;
  /** The agent as it runs in this agency (with its send_message tool and shared instructions). */
  runtimeAgent(name: string): SdkAgent<any, any>;
  /** How many times an answer rejected by an output guardrail is retried with its message. */
  readonly validationAttempts: number;
  /** The price of `agent`'s model, if known (for `usage.cost`). */
  priceFor(agent: string): ModelPrice | undefined;
  /** The turn budget of one run of `agent` (the SDK's maxTurns). */
  maxTurnsFor(agent: string): number;
  /** Names an agent may message, in declaration order. */
  recipientsOf(sender: string): readonly string[];
}
