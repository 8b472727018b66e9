/**
 * The keys of llm-orc's ensemble format that Colloquy accepts besides its own: per-agent
 * `parameters`, inline `model` + `provider`, call settings, and the metadata llm-orc's loader
 * reads at the top level. They are kept on the normalized ensemble so that nothing an llm-orc
 * user wrote is lost.
 * @module
 */
import { z } from 'zod';

/**
 * Placeholders for the execution keys whose semantics the run engine owns (`fan_out`,
 * `input_key`, `when`, `loop`, `ensemble`, `dispatch`). They are spread first into the agent
 * schema, so the engine's own definitions of the same keys replace them.
 */
export const llmOrcExecutionKeysShape = {
  fan_out: z.boolean().optional(),
  input_key: z.string().min(1).optional(),
  when: z.string().min(1).optional(),
  loop: z
    .object({
      body: z.string().min(1),
      until: z.string().min(1),
      max_iterations: z.number().int().positive(),
      carry: z.string().min(1).optional(),
    })
    .strict()
    .optional(),
  ensemble: z.string().min(1).optional(),
  dispatch: z.string().min(1).optional(),
};

/** Agent keys of llm-orc that are settings or metadata (no scheduling semantics). */
export const llmOrcAgentShape = {
  /** Passed to script agents (stdin `parameters`, env `AGENT_PARAMETERS`). */
  parameters: z.record(z.string(), z.unknown()).optional(),
  /** `dependencies`: the agent sees only its dependencies' results, not the ensemble input. */
  input_scope: z.literal('dependencies').optional(),
  /** An inline model instead of `model_profile` (needs `provider`). */
  model: z.string().min(1).optional(),
  provider: z.string().min(1).optional(),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().positive().optional(),
  /** Provider-specific options (e.g. Ollama's `num_ctx`). */
  options: z.record(z.string(), z.unknown()).optional(),
  ollama_format: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  output_format: z.string().min(1).optional(),
  fallback_model_profile: z.string().min(1).optional(),
  /** Which stdin/stdout protocol a script agent speaks (default: detected, see scriptProtocol). */
  script_protocol: z.enum(['llm-orc', 'colloquy']).optional(),
};

/** Top-level keys llm-orc's loader reads; Colloquy keeps them as metadata. */
export const llmOrcEnsembleShape = {
  /** llm-orc's older spelling of `default_task`. */
  task: z.string().optional(),
  validation: z.record(z.string(), z.unknown()).optional(),
  test_mode: z.record(z.string(), z.unknown()).optional(),
  raw_output: z.boolean().optional(),
  topaz_skill: z.string().optional(),
  serves: z.string().optional(),
  seat_contract: z.unknown().optional(),
  output_schema: z.record(z.string(), z.unknown()).optional(),
  output_substrate: z.string().optional(),
  output_retention: z.string().optional(),
  calibration_substrate_access: z.string().optional(),
  /** Which stdin/stdout protocol the ensemble's script agents speak (default: detected). */
  script_protocol: z.enum(['llm-orc', 'colloquy']).optional(),
};

/** The llm-orc settings of one agent, as kept on the normalized agent. */
export interface LlmOrcAgentSettings {
  parameters?: Record<string, unknown>;
  input_scope?: 'dependencies';
  model?: string;
  provider?: string;
  temperature?: number;
  max_tokens?: number;
  options?: Record<string, unknown>;
  ollama_format?: string | Record<string, unknown>;
  output_format?: string;
  fallback_model_profile?: string;
  script_protocol?: 'llm-orc' | 'colloquy';
}

const AGENT_KEYS = Object.keys(llmOrcAgentShape) as (keyof LlmOrcAgentSettings)[];
const ENSEMBLE_KEYS = Object.keys(llmOrcEnsembleShape).filter((key) => key !== 'script_protocol');

/** Picks the llm-orc settings of a parsed agent; undefined when it has none. */
export function pickLlmOrcAgentSettings(
  agent: Record<string, unknown>,
): LlmOrcAgentSettings | undefined {
  const out: Record<string, unknown> = {};
  for (const key of AGENT_KEYS) if (agent[key] !== undefined) out[key] = agent[key];
  return Object.keys(out).length ? (out as LlmOrcAgentSettings) : undefined;
}

/** Picks the llm-orc metadata of a parsed ensemble file; undefined when it has none. */
export function pickLlmOrcMetadata(
  file: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const key of ENSEMBLE_KEYS) if (file[key] !== undefined) out[key] = file[key];
  return Object.keys(out).length ? out : undefined;
}
