/**
 * Events of an agency run: plain JSON objects `{ type, ...fields }`, one union. Agents are named,
 * never passed as objects, so events can be sent over SSE unchanged.
 * @module
 */
import type { AgentInputItem, StreamEvent } from '@openai/agents-core';
import type { ErrorInfo } from '../errors.js';
import type { ModelAttempt } from '../models/attempts.js';
import type { AgencyResponse } from './result.js';
import type { Usage } from '../usage.js';

/** Which run an event belongs to: the agent, who called it, and where it sits in the call tree. */
export interface RunTag {
  /** The agent whose run produced the event. */
  agent: string;
  /** The agent that messaged it through send_message, or null for the user. */
  callerAgent: string | null;
  runId: string;
  parentRunId: string | null;
  /** 0 for the entry point, 1 for an agent it messaged, and so on. */
  depth: number;
}

/** An agent's run began; `message` is what it was asked. */
export type AgentRunStartedEvent = RunTag & { type: 'agent_run_started'; message: string };

/** A raw model stream event (text deltas, response started/done) of one run. */
export type ModelStreamEvent = RunTag & { type: 'raw_model_stream_event'; data: StreamEvent };

/**
 * One attempt of a model call of this run (first try, retry or fallback) made by a profile model
 * (`createModel`); the last attempt of a call has `outcome: 'success'` or `next: 'fail'`.
 */
export type ModelAttemptEvent = RunTag & {
  type: 'model_attempt';
  attempt: Omit<ModelAttempt, 'type'>;
};

/** A new item (message, tool call, tool output, handoff...) of one run. */
export type ItemStreamEvent = RunTag & {
  type: 'run_item_stream_event';
  /** The SDK's event name, e.g. `message_output_created`, `tool_called`, `tool_output`. */
  name: string;
  item: AgentInputItem;
};

/** The run switched to another agent (a handoff). */
export type AgentUpdatedEvent = RunTag & { type: 'agent_updated_stream_event'; newAgent: string };

/** An agent's run finished. */
export type AgentRunCompletedEvent = RunTag & {
  type: 'agent_run_completed';
  finalOutput: unknown;
  usage: Usage;
};

/** An agent's run stopped for tool approvals; the call returns them with a state to resume. */
export type AgentRunInterruptedEvent = RunTag & { type: 'agent_run_interrupted'; pending: number };

/** An agent's run failed; for a nested run the caller receives the error as a tool output. */
export type AgentRunFailedEvent = RunTag & { type: 'agent_run_failed'; error: ErrorInfo };

/** The router picked the entry point that answers this message (first event when a router is set). */
export interface EntryRoutedEvent {
  type: 'entry_routed';
  agent: string;
  by: 'function' | 'agent';
}

/** The last event of a successful stream: the same object `getResponse` returns. */
export interface RunCompletedEvent {
  type: 'run_completed';
  result: AgencyResponse;
}

/** The last event of a failed stream. */
export interface RunErrorEvent {
  type: 'error';
  error: ErrorInfo;
}

/** Every event `Agency.getResponseStream` yields. */
export type AgencyStreamEvent =
  | EntryRoutedEvent
  | AgentRunStartedEvent
  | ModelStreamEvent
  | ModelAttemptEvent
  | ItemStreamEvent
  | AgentUpdatedEvent
  | AgentRunCompletedEvent
  | AgentRunInterruptedEvent
  | AgentRunFailedEvent
  | RunCompletedEvent
  | RunErrorEvent;
