/**
 * The shapes of Colloquy's HTTP API as the studio reads them (see docs/server.md). The studio
 * only uses the public API, so these mirror the JSON, not the server's classes.
 * @module
 */

// Saved and streamed shapes are the library's own types (type-only imports, erased at build),
// so a change to the API's JSON breaks the studio's build instead of drifting from it.
import type { ConversationResult, ConversationTurn } from '../../../src/ensembles/runState.js';
import type { EnsembleEvent as RunEvent } from '../../../src/ensembles/events.js';
import type { Checkpoint, ThreadRecord } from '../../../src/stores/types.js';
import type { SpanKind, SpanRecord, TraceSummary } from '../../../src/stores/traceStore.js';

export type {
  Checkpoint,
  ConversationResult,
  ConversationTurn,
  SpanKind,
  SpanRecord as Span,
  ThreadRecord,
  TraceSummary,
};

export interface AgencyListEntry {
  name: string;
  entryPoints: string[];
  agents: string[];
}

export interface AgentDetail {
  name: string;
  description: string;
  instructions: string | null;
  model: string | null;
  modelSettings: Record<string, unknown>;
  tools: Array<{ name: string; description: string }>;
  handoffs: string[];
  recipients: string[];
  entryPoint: boolean;
}

export interface AgencyGraph {
  name: string;
  entryPoints: string[];
  flows: Array<[string, string]>;
  agents: AgentDetail[];
  mermaid: string;
}

export interface ChatSummary {
  chatId: string;
  /** The chat's first user message (cut), or empty. */
  title: string;
  threads: number;
  items: number;
  createdAt: string;
  updatedAt: string;
}

/** A protocol item (message, function_call, function_call_result, …); only the fields we draw. */
export interface ProtocolItem {
  type?: string;
  role?: string;
  content?: unknown;
  name?: string;
  callId?: string;
  arguments?: string;
  output?: unknown;
  status?: string;
  [key: string]: unknown;
}

export interface ThreadItem {
  id: string;
  item: ProtocolItem;
  meta?: {
    agent: string;
    callerAgent: string | null;
    runId: string;
    parentRunId: string | null;
    createdAt: string;
  };
}

export interface UsageSummary {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export interface PendingApproval {
  callId: string;
  toolName: string;
  arguments: string;
  agent: string;
}

export interface AgencyResponse {
  finalOutput: unknown;
  chatId: string;
  lastAgent: string;
  usage: UsageSummary;
  interruptions?: PendingApproval[];
  state?: string;
}

export interface RunTag {
  agent: string;
  callerAgent: string | null;
  runId: string;
  parentRunId: string | null;
  depth: number;
}

export interface ErrorInfo {
  name?: string;
  message: string;
  code?: string;
}

/** The events of `POST /agencies/:name/responses/stream` the studio draws. */
export type AgencyStreamEvent =
  | { type: 'entry_routed'; agent: string; by: string }
  | (RunTag & { type: 'agent_run_started'; message: string })
  | (RunTag & { type: 'raw_model_stream_event'; data: { type: string; delta?: string } })
  | (RunTag & { type: 'model_attempt'; attempt: Record<string, unknown> })
  | (RunTag & { type: 'run_item_stream_event'; name: string; item: ProtocolItem })
  | (RunTag & { type: 'agent_updated_stream_event'; newAgent: string })
  | (RunTag & { type: 'agent_run_completed'; finalOutput: unknown; usage: UsageSummary })
  | (RunTag & { type: 'agent_run_interrupted'; pending: number })
  | (RunTag & { type: 'agent_run_failed'; error: ErrorInfo })
  | { type: 'run_completed'; result: AgencyResponse }
  | { type: 'error'; error: ErrorInfo };

export interface EnsembleDetail {
  name: string;
  ensembleName: string;
  description?: string;
  defaultTask?: string;
  agents: Array<{
    name: string;
    kind: 'script' | 'llm' | 'ensemble' | 'loop' | 'dispatch';
    modelProfile?: string;
    /** A dispatch agent's target as written (`${route.target}` or a name). */
    dispatch?: string;
    dependsOn: Array<{
      agent: string;
      maxExecutions: number;
      requiresAll: boolean;
      condition?: string;
    }>;
  }>;
  limits: { max_total_turns: number; timeout_seconds: number };
}

export interface RunSummary {
  runId: string;
  ensemble: string;
  status: 'running' | 'finished' | 'interrupted' | 'failed';
  turnCount: number;
  result?: ConversationResult;
  error?: ErrorInfo;
}

export interface SavedRun {
  runId: string;
  ensemble: string;
  status: 'finished' | 'interrupted';
  turnCount: number;
  completionReason?: string;
  updatedAt: string;
}

/** The events of `GET /ensembles/runs/:id/stream`: the run's own events, plus a failure. */
export type EnsembleEvent = RunEvent | { type: 'error'; error: ErrorInfo };

/** One run in `GET /evals` (the results module reads files, so its types are mirrored here). */
export interface EvalRunSummary {
  runId: string;
  dataset: string;
  target: string;
  startedAt: string;
  mean: number;
  passed: boolean;
  cases: number;
  passedCases: number;
  failedCases: number;
}

/** The parts of `GET /evals/:runId`'s results the studio shows. */
export interface EvalResults {
  runId: string;
  dataset: string;
  target: string;
  startedAt: string;
  durationMs: number;
  mean: number;
  passed: boolean;
  failures: string[];
  cases: Array<{
    id: string;
    input: string | string[];
    mean: number;
    passed: boolean;
    scores: Array<{
      scorer: string;
      mean: number;
      stdev: number;
      reason: string;
      threshold?: number;
      passed: boolean;
    }>;
    runs: Array<{ output: string; error?: string; chatId?: string }>;
  }>;
}
