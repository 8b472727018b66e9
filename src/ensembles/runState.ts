/**
 * The saved state of an ensemble run, as zod schemas from which the types derive. Loading checks
 * it with these schemas; nothing is cast.
 *
 * Where things live (schemaVersion 2): the run's small, bounded head (counts, latest outputs,
 * the scheduler's book, the open step) is the metadata of the main thread `{runId}::main`; every
 * committed turn is one item appended to that same thread, at the position `turn_number - 1`.
 * A turn therefore costs the same to checkpoint at turn 1,000 as at turn 10.
 *
 * Changelog (`schemaVersion`):
 * - 1: the whole conversation, history included, in the main thread's metadata;
 *   `execution.stepHistory` listed every step.
 * - 2: turns are items of the main thread; the head keeps `latest_outputs`, `latest_status`,
 *   usage and request counts so that nothing scans the history; `execution.step` counts steps;
 *   turns and outcomes may carry `status` and `error`; `data.book.requests` holds agent requests.
 *   Version 1 states are migrated on load (their history is appended to the main thread).
 *   Later, compatible additions to version 2: `inputs.*.fan_out_versions` (optional);
 *   `input_data.dispatch` (optional: a `dispatch:` agent's target, resolved when its step was
 *   prepared, so that a resumed step runs the same ensemble).
 * @module
 */
import { z } from 'zod';

/** The version of the saved state this code writes. */
export const RUN_STATE_SCHEMA_VERSION = 2;

const jsonObject = z.record(z.string(), z.unknown());

/** Token usage summed over LLM calls, as llm-orc's output format spells it (see `llmOrcUsage.ts`). */
export const usageSchema = z.object({
  requests: z.number().int().nonnegative(),
  input_tokens: z.number().nonnegative(),
  output_tokens: z.number().nonnegative(),
  total_tokens: z.number().nonnegative(),
});

/** A question an agent asked and the answer it got. */
export const answeredRequestSchema = z.object({
  prompt: z.string(),
  key: z.string(),
  answer: z.string(),
});

/** A request from one agent that another agent run (llm-orc's AgentRequest), as recorded. */
export const agentRequestSchema = z.object({
  /** The agent it names (resolved to an agent of the ensemble). */
  target_agent_type: z.string(),
  parameters: jsonObject,
  priority: z.number(),
});

/** What an agent is given: the task, its dependencies' latest outputs, and what else applies. */
export const agentInputSchema = z.object({
  input: z.string(),
  context: jsonObject,
  /** Dependencies whose latest run failed, with the error. */
  failed: z.record(z.string(), z.string()).optional(),
  /** Requests other agents made of this one, highest priority first. */
  requests: z
    .array(z.object({ from: z.string(), parameters: jsonObject, priority: z.number() }))
    .optional(),
  /** The request's parameters (of the first request), as llm-orc passes them. */
  parameters: jsonObject.optional(),
  /** Set when the input could not be built (e.g. input_key missing upstream): the agent fails. */
  input_error: z.string().optional(),
  /** The item and its place, for one instance of a fan_out agent. */
  fan_out: z.object({ index: z.number(), total: z.number(), item: z.unknown() }).optional(),
  /**
   * For a `dispatch:` agent: its `dispatch` as written and the ensemble it resolved to when the
   * step was prepared, or why it did not resolve (`problem`; the agent then fails).
   */
  dispatch: z
    .object({
      reference: z.string(),
      target: z.string().optional(),
      problem: z.string().optional(),
    })
    .optional(),
});

/** How an agent execution ended. */
export const turnStatusSchema = z.enum(['success', 'failed', 'skipped']);

/** The record of one agent execution (llm-orc's ConversationTurn, snake_case). */
export const conversationTurnSchema = z.object({
  turn_number: z.number().int().positive(),
  agent_name: z.string(),
  /** What the agent was given: `{ input, context, ... }`. */
  input_data: jsonObject,
  /** What it returned (`data` of a script's reply, or the parsed text of an LLM agent). */
  output_data: jsonObject,
  /** Seconds. */
  execution_time: z.number(),
  /** ISO-8601. */
  timestamp: z.string(),
  /** Absent means `success` (every version-1 turn). */
  status: turnStatusSchema.optional(),
  /** Why the agent failed or was skipped. */
  error: z.string().optional(),
  /** A script agent's stderr, when it wrote any. */
  stderr: z.string().optional(),
  usage: usageSchema.optional(),
  input_requests: z.array(answeredRequestSchema).optional(),
  /** Agents this one asked to run (they run in the next step). */
  agent_requests: z.array(agentRequestSchema).optional(),
});

/** A finished agent execution, as checkpointed before its step commits: a turn without its place. */
export const agentOutcomeSchema = conversationTurnSchema.omit({
  turn_number: true,
  agent_name: true,
  input_data: true,
});

/** A request from one agent that another agent run (llm-orc's AgentRequest). */
export const pendingAgentRequestSchema = z.object({
  from: z.string(),
  parameters: jsonObject,
  priority: z.number(),
});

/** The scheduler's bookkeeping, per agent and dependency. */
export const schedulerBookSchema = z.object({
  /** The dependency's run count when the agent last started. */
  consumed: z.record(z.string(), z.record(z.string(), z.number().int().nonnegative())),
  /** How many times the dependency triggered the agent. */
  triggers: z.record(z.string(), z.record(z.string(), z.number().int().nonnegative())),
  /** Agent requests waiting for their target, by target agent. */
  requests: z.record(z.string(), z.array(pendingAgentRequestSchema)).default({}),
});

/** What one agent of an open step was given. */
export const stepInputSchema = z.object({
  input_data: agentInputSchema,
  /** The agent's sub-thread version when the step started (its items after it are cut on resume). */
  thread_version: z.number().int().nonnegative(),
  /**
   * For an LLM `fan_out` agent: each instance's sub-thread version when the step started, by
   * item index (cut back on resume like `thread_version`).
   */
  fan_out_versions: z.array(z.number().int().nonnegative()).optional(),
});

/** The step being run: its agents, their inputs, and the outcomes of those that finished. */
export const openStepSchema = z.object({
  step: z.number().int().positive(),
  agents: z.array(z.string()),
  finished: z.record(z.string(), agentOutcomeSchema),
  inputs: z.record(z.string(), stepInputSchema),
});

/** The bounded part of the conversation state (everything but the history). */
export const conversationHeadSchema = z.object({
  turn_count: z.number().int().nonnegative(),
  agent_execution_count: z.record(z.string(), z.number().int().nonnegative()),
  accumulated_context: jsonObject,
  /** Each agent's latest output. */
  latest_outputs: z.record(z.string(), jsonObject),
  /** Each agent's latest status, when it was not `success`, with the error. */
  latest_status: z.record(
    z.string(),
    z.object({ status: turnStatusSchema, error: z.string().optional() }),
  ),
  /** Usage summed over every turn. */
  usage: usageSchema,
  /** Model calls per agent (a resumed run fast-forwards scripted models by these). */
  model_requests: z.record(z.string(), z.number().int().nonnegative()),
  /** Questions asked per agent (the index of the next question). */
  input_requests: z.record(z.string(), z.number().int().nonnegative()),
  /** Agents that failed at least once, in the order they first failed. */
  failed_agents: z.array(z.string()),
});

/** The failing agent and its message, when a run ends with `error`. */
export const runFailureSchema = z.object({
  /** The agent that failed, or null when the scheduler itself failed. */
  agent: z.string().nullable(),
  message: z.string(),
  stderr: z.string().optional(),
});

/** Why a run stopped. */
export const completionReasonSchema = z.enum([
  'completed',
  'max_total_turns',
  'max_agent_executions',
  'timeout',
  'no_runnable_agents',
  'error',
]);

/** What a run produced (llm-orc's ConversationResult, plus Colloquy's fields). */
export const conversationResultSchema = z.object({
  run_id: z.string(),
  final_state: jsonObject,
  conversation_history: z.array(conversationTurnSchema),
  turn_count: z.number().int().nonnegative(),
  completion_reason: completionReasonSchema,
  usage: usageSchema,
  agent_execution_count: z.record(z.string(), z.number().int().nonnegative()),
  /** Agents that failed at least once (the run went on without them unless on_failure: stop). */
  failed_agents: z.array(z.string()).optional(),
  error: runFailureSchema.optional(),
});

/** The ensemble-level bookkeeping of a run. */
export const runDataSchema = z.object({
  status: z.enum(['running', 'finished']),
  ensemble: z.string(),
  input: z.string(),
  book: schedulerBookSchema,
  elapsed_ms: z.number().nonnegative(),
  /** Present once finished (without `conversation_history`, which is the main thread's items). */
  result: conversationResultSchema.omit({ conversation_history: true }).optional(),
});

/** Everything a run saves in its main thread's metadata (version 2). */
export const workflowStateSchema = z.object({
  schemaVersion: z.literal(RUN_STATE_SCHEMA_VERSION),
  execution: z.object({
    /** Steps committed so far. */
    step: z.number().int().nonnegative(),
    currentStep: openStepSchema.nullable(),
  }),
  conversation: conversationHeadSchema,
  data: runDataSchema,
});

/** Version 1, read only to migrate it. */
export const workflowStateV1Schema = z.object({
  schemaVersion: z.literal(1),
  execution: z.object({
    stepHistory: z.array(z.object({ step: z.number(), agents: z.array(z.string()) })),
    currentStep: z
      .object({
        step: z.number().int().positive(),
        agents: z.array(z.string()),
        finished: z.record(z.string(), agentOutcomeSchema),
        inputs: z.record(z.string(), stepInputSchema).default({}),
      })
      .nullable(),
    nextSteps: z.array(z.string()),
  }),
  conversation: z.object({
    turn_count: z.number().int().nonnegative(),
    agent_execution_count: z.record(z.string(), z.number().int().nonnegative()),
    accumulated_context: jsonObject,
    conversation_history: z.array(conversationTurnSchema),
  }),
  data: z.object({
    status: z.enum(['running', 'finished']),
    ensemble: z.string(),
    input: z.string(),
    book: schedulerBookSchema,
    elapsed_ms: z.number().nonnegative(),
    result: conversationResultSchema.optional(),
  }),
});

/**
 * Token usage as llm-orc's output format (turns, results, the saved state) spells it; code counts
 * in `Usage` (camelCase) and converts in `llmOrcUsage.ts`.
 */
export type LlmOrcUsage = z.output<typeof usageSchema>;
/** A request from one agent that another agent run, as recorded. */
export type AgentRequest = z.output<typeof agentRequestSchema>;
/** What an agent is given. */
export type AgentInput = z.output<typeof agentInputSchema>;
/** A question an agent asked and the answer it got. */
export type AnsweredRequest = z.output<typeof answeredRequestSchema>;
/** How an agent execution ended. */
export type TurnStatus = z.output<typeof turnStatusSchema>;
/** The record of one agent execution. */
export type ConversationTurn = z.output<typeof conversationTurnSchema>;
/** A finished agent execution before its step commits. */
export type AgentOutcome = z.output<typeof agentOutcomeSchema>;
/** A request from one agent that another agent run. */
export type PendingAgentRequest = z.output<typeof pendingAgentRequestSchema>;
/** The scheduler's bookkeeping. */
export type SchedulerBook = z.output<typeof schedulerBookSchema>;
/** What one agent of an open step was given. */
export type StepInput = z.output<typeof stepInputSchema>;
/** The step being run. */
export type OpenStep = z.output<typeof openStepSchema>;
/** The bounded part of the conversation state. */
export type ConversationHead = z.output<typeof conversationHeadSchema>;
/** The failing agent and its message. */
export type EnsembleRunFailure = z.output<typeof runFailureSchema>;
/** Why a run stopped. */
export type CompletionReason = z.output<typeof completionReasonSchema>;
/** What a run produced. */
export type ConversationResult = z.output<typeof conversationResultSchema>;
/** The ensemble-level bookkeeping of a run. */
export type RunData = z.output<typeof runDataSchema>;
/** Everything a run saves in its main thread's metadata. */
export type WorkflowState = z.output<typeof workflowStateSchema>;
/** Version 1 of the saved state. */
export type WorkflowStateV1 = z.output<typeof workflowStateV1Schema>;
