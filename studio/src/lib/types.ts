/**
 * The shapes of Colloquy's HTTP API as the studio reads them (see docs/server.md). The studio
 * only uses the public API, so these mirror the JSON, not the server's classes.
 * @module
 */

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
  threads: number;
  items: number;
  createdAt: string;
  updatedAt: string;
}

export interface ThreadRecord {
  threadId: string;
  chatId: string | null;
  version: number;
  metadata: Record<string, unknown>;
  forkedFrom: { threadId: string; version: number } | null;
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

export interface Checkpoint {
  checkpointId: string;
  chatId: string;
  label: string | null;
  createdAt: string;
  threads: Record<string, number>;
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

export interface TraceSummary {
  traceId: string;
  name: string;
  chatId?: string;
  runId?: string;
  agency?: string;
  startedAt: string;
  endedAt?: string;
  durationMs?: number;
  spanCount: number;
  usage?: { inputTokens: number; outputTokens: number; totalTokens: number };
}

export type SpanKind =
  | 'agent'
  | 'generation'
  | 'function'
  | 'send_message'
  | 'handoff'
  | 'guardrail'
  | 'ensemble_run'
  | 'ensemble_step'
  | 'ensemble_agent'
  | 'custom';

export interface Span {
  spanId: string;
  traceId: string;
  parentId: string | null;
  kind: SpanKind;
  name: string;
  startedAt: string;
  endedAt?: string;
  durationMs?: number;
  attributes: Record<string, unknown>;
  error?: { message: string };
}

export interface EnsembleDetail {
  name: string;
  ensembleName: string;
  description?: string;
  defaultTask?: string;
  agents: Array<{
    name: string;
    kind: 'script' | 'llm';
    modelProfile?: string;
    dependsOn: Array<{
      agent: string;
      maxExecutions: number;
      requiresAll: boolean;
      condition?: string;
    }>;
  }>;
  limits: { max_total_turns: number; timeout_seconds: number };
}

export interface ConversationTurn {
  turn_number: number;
  agent_name: string;
  input_data: Record<string, unknown>;
  output_data: Record<string, unknown>;
  execution_time: number;
  timestamp: string;
}

export interface ConversationResult {
  run_id: string;
  final_state: Record<string, unknown>;
  conversation_history: ConversationTurn[];
  turn_count: number;
  completion_reason: string;
  agent_execution_count: Record<string, number>;
  error?: { agent: string | null; message: string };
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

export type EnsembleEvent =
  | {
      type: 'ensemble_started';
      run_id: string;
      ensemble: string;
      resumed: boolean;
      turn_count: number;
    }
  | { type: 'step_started'; step: number; agents: string[]; turn_count: number }
  | { type: 'agent_started'; step: number; agent: string }
  | {
      type: 'agent_finished';
      step: number;
      agent: string;
      success: boolean;
      execution_time: number;
      error?: string;
    }
  | { type: 'turn_recorded'; turn: ConversationTurn; turn_count: number }
  | { type: 'ensemble_finished'; result: ConversationResult }
  | { type: 'error'; error: ErrorInfo };
