/**
 * The ensemble file format, as one zod schema. Field names follow llm-orc's (snake_case); the
 * llm-orc spellings `dependencies` and `prompt` are accepted as aliases of `depends_on` and
 * `system_prompt`, so that llm-orc files load with at most renamed keys.
 * @module
 */
import { ensembleMemorySchema, type EnsembleMemoryConfig } from '../memory/ensembleMemorySchema.js';
import { dependencyConditionAsCel } from './pythonConditions.js';
import { z } from 'zod';
import { checkCondition } from './conditions.js';
import { parseDispatch } from './dispatch.js';
import {
  llmOrcAgentShape,
  llmOrcEnsembleShape,
  pickLlmOrcAgentSettings,
  pickLlmOrcMetadata,
} from './llmorc/agentKeys.js';
import type { LlmOrcAgentSettings } from './llmorc/agentKeys.js';

/** Agent names: a letter or `_`, then letters, digits, `_` or `-` (usable in CEL as `state.name`). */
export const AGENT_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]*$/;

const agentName = z
  .string()
  .regex(
    AGENT_NAME_PATTERN,
    'expected a name of letters, digits, "_" or "-" that starts with a letter or "_"',
  );

/** One dependency as written: an agent name, or the object form with a condition. */
export const dependencySchema = z.union([
  agentName,
  z
    .object({
      agent_name: agentName,
      /** A CEL expression over `{ state, turn, outputs, executions }`; the dependency holds while it is true. */
      condition: z.string().min(1).optional(),
      /** How many times this dependency may trigger the agent (default 1). */
      max_executions: z.number().int().positive().optional(),
      /** true (default): the agent waits for this dependency; false: any one such dependency suffices. */
      requires_all: z.boolean().optional(),
    })
    .strict(),
]);

/** Conversation settings of one agent. */
export const conversationSchema = z
  .object({
    /** How many times the agent may run in one conversation (default 1). */
    max_turns: z.number().int().positive().default(1),
    /** The key of `accumulated_context` the agent's output is written to (default: its name). */
    state_key: z.string().min(1).optional(),
    /** The agent may start the conversation even though it depends on agents that have not run. */
    triggers_conversation: z.boolean().default(false),
  })
  .strict();

// ---- Execution fields (llm-orc ADR-013/014 and its control-flow keys; owned by the engine) ----

/** A `when:`/`until:` predicate: llm-orc's `${ref}` notation, or a CEL condition checked here. */
const predicate = z
  .string()
  .min(1)
  .superRefine((value, context) => {
    if (value.includes('${')) return;
    const problem = checkCondition(value);
    if (problem)
      context.addIssue({
        code: 'custom',
        message: `invalid CEL at character ${problem.offset + 1}: ${problem.message}`,
      });
  });

/** How a failing agent affects the run: `continue` (default) records it and goes on; `stop` ends the run. */
export const onFailureSchema = z.enum(['continue', 'stop']);

/** A loop agent: runs the `body` ensemble until `until` holds, at most `max_iterations` times. */
export const loopSchema = z
  .object({
    /** The ensemble run once per iteration (a name or path, like `ensemble:`). */
    body: z.string().min(1),
    /** A predicate over the body's output: `${field} == value`, `${field}`, or CEL over `output`. */
    until: predicate,
    max_iterations: z.number().int().positive(),
    /** `${field}` of the body's output fed to the next iteration as its input. */
    carry: z.string().min(1).optional(),
  })
  .strict();

/** A `dispatch:` target: an ensemble name, or `${agent.field}` read when the agent starts. */
const dispatchTarget = z
  .string()
  .min(1)
  .superRefine((value, context) => {
    const parsed = parseDispatch(value);
    if ('problem' in parsed) context.addIssue({ code: 'custom', message: parsed.problem });
  });

/** Execution keys of one agent. */
export const agentExecutionFields = {
  /** Run once per item of the first dependency's array output (after input_key), in parallel. */
  fan_out: z.boolean().optional(),
  /** Select this key of the first dependency's output as the agent's input. */
  input_key: z.string().min(1).optional(),
  /** A guard: `${agent.field}`, `${agent.field} == value`, or a CEL condition; false skips the agent. */
  when: predicate.optional(),
  /** Run another ensemble as this agent (a name or a path relative to this file). */
  ensemble: z.string().min(1).optional(),
  loop: loopSchema.optional(),
  /** Run the ensemble named here, or by `${agent.field}` of a dependency's output (llm-orc). */
  dispatch: dispatchTarget.optional(),
  on_failure: onFailureSchema.optional(),
};

/** Execution keys of the ensemble. */
export const ensembleExecutionFields = {
  /** Default of agents' on_failure. */
  on_failure: onFailureSchema.optional(),
};

/** The execution keys of a normalized agent. */
export interface AgentExecution {
  fan_out: boolean;
  input_key?: string;
  when?: string;
  ensemble?: string;
  loop?: z.output<typeof loopSchema>;
  dispatch?: string;
  on_failure: 'continue' | 'stop';
}

/** Normalizes the execution keys of one agent (ensemble default for on_failure). */
export function agentExecution(
  agent: { [K in keyof typeof agentExecutionFields]?: z.output<(typeof agentExecutionFields)[K]> },
  ensembleDefault: 'continue' | 'stop' | undefined,
): AgentExecution {
  return {
    fan_out: agent.fan_out ?? false,
    ...(agent.input_key !== undefined ? { input_key: agent.input_key } : {}),
    ...(agent.when !== undefined ? { when: agent.when } : {}),
    ...(agent.ensemble !== undefined ? { ensemble: agent.ensemble } : {}),
    ...(agent.loop !== undefined ? { loop: agent.loop } : {}),
    ...(agent.dispatch !== undefined ? { dispatch: agent.dispatch } : {}),
    on_failure: agent.on_failure ?? ensembleDefault ?? 'continue',
  };
}

/** What an agent runs: a script, a model, a sub-ensemble, a loop, or a dispatched ensemble. */
export type AgentKind = 'script' | 'llm' | 'ensemble' | 'loop' | 'dispatch';

/** The kind of an agent from its keys. */
export function agentKind(agent: {
  script?: string;
  ensemble?: string;
  loop?: unknown;
  dispatch?: string;
}): AgentKind {
  if (agent.script !== undefined) return 'script';
  if (agent.loop !== undefined) return 'loop';
  if (agent.dispatch !== undefined) return 'dispatch';
  if (agent.ensemble !== undefined) return 'ensemble';
  return 'llm';
}
// ---- end of execution fields ----

/** One agent as written in the file. Exactly one of `script` and `model_profile` (checked by validate). */
export const agentSchema = z
  .object({
    name: agentName,
    /** llm-orc's optional explicit type; checked against script/model_profile. */
    type: z.enum(['script', 'llm']).optional(),
    /** A command, or a path to an executable (relative to the ensemble file). */
    script: z.string().min(1).optional(),
    /** A named model profile (colloquy.yaml or ~/.config/colloquy/profiles.yaml). */
    model_profile: z.string().min(1).optional(),
    system_prompt: z.string().optional(),
    /** llm-orc alias of system_prompt. */
    prompt: z.string().optional(),
    timeout_seconds: z.number().positive().optional(),
    depends_on: z.array(dependencySchema).optional(),
    /** llm-orc alias of depends_on. */
    dependencies: z.array(dependencySchema).optional(),
    conversation: conversationSchema.optional(),
    /** Free-form settings passed to script agents in `context.config`. */
    config: z.record(z.string(), z.unknown()).optional(),
    ...agentExecutionFields,
    // llm-orc settings and metadata (src/ensembles/llmorc/agentKeys.ts).
    ...llmOrcAgentShape,
  })
  .strict();

/** Global limits of one conversation. */
export const conversationLimitsSchema = z
  .object({
    /** Default 20 when an agent declares `conversation:` (ADR-005's default); else no limit. */
    max_total_turns: z.number().int().positive().optional(),
    max_agent_executions: z.record(z.string(), z.number().int().nonnegative()).default({}),
    timeout_seconds: z.number().positive().default(300),
  })
  .strict();

/** The whole ensemble file. */
export const ensembleFileSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    default_task: z.string().optional(),
    /** Recall and working memory for the LLM agents of runs made for a user (docs/memory.md). */
    memory: ensembleMemorySchema.optional(),
    agents: z.array(agentSchema).min(1, 'expected at least one agent'),
    conversation_limits: conversationLimitsSchema.default({
      max_agent_executions: {},
      timeout_seconds: 300,
    }),
    ...ensembleExecutionFields,
    // llm-orc top-level metadata (src/ensembles/llmorc/agentKeys.ts).
    ...llmOrcEnsembleShape,
  })
  .strict();

/** The ensemble file as parsed (aliases not yet folded). */
export type EnsembleFile = z.output<typeof ensembleFileSchema>;

/** A dependency in its normalized form. */
export interface EnsembleDependency {
  agent_name: string;
  condition?: string;
  /** Default 1. */
  max_executions: number;
  /** Default true. */
  requires_all: boolean;
}

/** An agent in its normalized form: aliases folded, defaults applied. */
export interface EnsembleAgent extends AgentExecution {
  name: string;
  kind: AgentKind;
  script?: string;
  model_profile?: string;
  system_prompt?: string;
  timeout_seconds?: number;
  depends_on: EnsembleDependency[];
  conversation: { max_turns: number; state_key?: string; triggers_conversation: boolean };
  config?: Record<string, unknown>;
  /** llm-orc settings (parameters, inline model, call settings), when the file has any. */
  llmorc?: LlmOrcAgentSettings;
}

/** Global limits, defaults applied. */
export interface ConversationLimits {
  /**
   * Turns in the whole run. Absent when the file sets none and no agent declares `conversation:`:
   * such an ensemble runs each agent at most once, as llm-orc does, however many agents it has.
   */
  max_total_turns?: number;
  max_agent_executions: Record<string, number>;
  timeout_seconds: number;
}

/** A validated ensemble, ready to run. */
export interface Ensemble {
  name: string;
  description?: string;
  default_task?: string;
  agents: EnsembleAgent[];
  conversation_limits: ConversationLimits;
  /** The directory relative script paths resolve from (the file's directory; default cwd). */
  baseDir?: string;
  /** The file the ensemble came from, if any. */
  file?: string;
  /** llm-orc top-level metadata (validation, test_mode, serves, ...), when the file has any. */
  llmorc?: Record<string, unknown>;
  /** The script protocol declared for the whole ensemble, if any. */
  script_protocol?: 'llm-orc' | 'colloquy';
  /** `memory:` (recall, working memory), for runs with a `userId`. */
  memory?: EnsembleMemoryConfig;
}

/** A condition as CEL: ADR-005's Python translated (validation reported any that is not). */
function asCel(condition: string, dependency: string): string {
  const converted = dependencyConditionAsCel(condition, dependency);
  return 'cel' in converted ? converted.cel : condition;
}

/** ADR-005's default turn limit, applied only to ensembles that declare a conversation. */
export const DEFAULT_MAX_TOTAL_TURNS = 20;

/** The run's limits: ADR-005's default `max_total_turns` only when an agent declares `conversation:`. */
function conversationLimits(file: EnsembleFile): ConversationLimits {
  const { max_total_turns, ...rest } = file.conversation_limits;
  const conversational = file.agents.some((agent) => agent.conversation !== undefined);
  const turns = max_total_turns ?? (conversational ? DEFAULT_MAX_TOTAL_TURNS : undefined);
  return { ...rest, ...(turns !== undefined ? { max_total_turns: turns } : {}) };
}

/** Folds aliases and applies defaults. Assumes the file passed {@link ensembleFileSchema}. */
export function normalizeEnsemble(
  file: EnsembleFile,
  where: { baseDir?: string; file?: string } = {},
): Ensemble {
  return {
    name: file.name,
    description: file.description,
    default_task: file.default_task ?? file.task,
    ...(file.memory ? { memory: file.memory } : {}),
    ...(pickLlmOrcMetadata(file) ? { llmorc: pickLlmOrcMetadata(file) } : {}),
    ...(file.script_protocol ? { script_protocol: file.script_protocol } : {}),
    conversation_limits: conversationLimits(file),
    baseDir: where.baseDir,
    file: where.file,
    agents: file.agents.map((agent) => ({
      name: agent.name,
      kind: agentKind(agent),
      ...agentExecution(agent, file.on_failure),
      script: agent.script,
      model_profile: agent.model_profile,
      system_prompt: agent.system_prompt ?? agent.prompt,
      timeout_seconds: agent.timeout_seconds,
      depends_on: (agent.depends_on ?? agent.dependencies ?? []).map((dep) =>
        typeof dep === 'string'
          ? { agent_name: dep, max_executions: 1, requires_all: true }
          : {
              agent_name: dep.agent_name,
              condition:
                dep.condition === undefined ? undefined : asCel(dep.condition, dep.agent_name),
              max_executions: dep.max_executions ?? 1,
              requires_all: dep.requires_all ?? true,
            },
      ),
      conversation: agent.conversation ?? { max_turns: 1, triggers_conversation: false },
      // llm-orc's parameters reach scripts where Colloquy's config does.
      config: agent.config ?? agent.parameters,
      ...(pickLlmOrcAgentSettings(agent) ? { llmorc: pickLlmOrcAgentSettings(agent) } : {}),
    })),
  };
}
