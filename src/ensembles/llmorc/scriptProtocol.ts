/**
 * llm-orc's script protocol. A script with no dependencies reads
 * `{ "input", "parameters", "context" }` on stdin; a script with dependencies reads
 * `{ "agent_name", "input_data", "context", "dependencies": { dep: { "response", "status", ... } } }`.
 * Both see `INPUT_DATA`, `INPUT_TEXT` and `AGENT_PARAMETERS` in their environment. Whatever a
 * script prints is kept: a JSON object is the agent's output, other text becomes `{ response }`;
 * `"success": false` makes the execution a failure.
 * @module
 */
import type { Ensemble, EnsembleAgent } from '../schema.js';
import type { ScriptProtocol } from '../scriptResolve.js';
import { isInLlmOrcProject } from './project.js';

/** One dependency's result as llm-orc passes it to dependents. */
export interface LlmOrcDependencyResult {
  /** The dependency's output as text (JSON text for an object output). */
  response: string | null;
  status: 'success' | 'failed' | 'skipped';
  error?: string;
  [key: string]: unknown;
}

/** What {@link llmOrcScriptInput} needs. */
export interface LlmOrcScriptInputOptions {
  agent: string;
  /** The ensemble's input (the task). */
  input: string;
  parameters?: Record<string, unknown>;
  /** Results of the agent's dependencies; omit (or pass undefined) for a first-level agent. */
  dependencies?: Record<string, LlmOrcDependencyResult>;
}

/** The stdin object and extra environment of one llm-orc script execution. */
export interface LlmOrcScriptInput {
  stdin: Record<string, unknown>;
  env: Record<string, string>;
}

/**
 * Builds the stdin object and environment of an llm-orc script.
 *
 * @example
 * ```ts
 * const { stdin, env } = llmOrcScriptInput({ agent: 'count', input: 'some text', parameters: { min: 2 } });
 * // stdin: { input: 'some text', parameters: { min: 2 }, context: {} }
 * ```
 */
export function llmOrcScriptInput(options: LlmOrcScriptInputOptions): LlmOrcScriptInput {
  const parameters = options.parameters ?? {};
  const env = { AGENT_PARAMETERS: JSON.stringify(parameters), INPUT_TEXT: options.input };
  if (options.dependencies === undefined) {
    return {
      stdin: { input: options.input, parameters, context: {} },
      env: { ...env, INPUT_DATA: options.input },
    };
  }
  const stdin = {
    agent_name: options.agent,
    input_data: options.input,
    context: {},
    dependencies: options.dependencies,
  };
  return { stdin, env: { ...env, INPUT_DATA: JSON.stringify(stdin) } };
}

/** An agent output as llm-orc's `response` text: `{ response: text }` is the text, else JSON. */
export function responseText(output: Record<string, unknown> | undefined): string | null {
  if (output === undefined) return null;
  const keys = Object.keys(output);
  if (keys.length === 1 && keys[0] === 'response' && typeof output.response === 'string')
    return output.response;
  return JSON.stringify(output);
}

/** The outputs of dependencies as llm-orc's `dependencies` object (successful ones). */
export function dependencyResults(
  names: readonly string[],
  outputs: Record<string, Record<string, unknown> | undefined>,
  failures: Record<string, string> = {},
): Record<string, LlmOrcDependencyResult> {
  const out: Record<string, LlmOrcDependencyResult> = {};
  for (const name of names) {
    if (failures[name] !== undefined)
      out[name] = { response: null, status: 'failed', error: failures[name] };
    else if (outputs[name] !== undefined)
      out[name] = { response: responseText(outputs[name]), status: 'success' };
  }
  return out;
}

/** A script's stdout read with llm-orc's rules. */
export interface LlmOrcScriptOutput {
  /** The agent's output: the printed object, or `{ response: text }`. */
  output: Record<string, unknown>;
  /** The trimmed stdout, as llm-orc's `response`. */
  response: string;
  /** Set when the script printed an object with a false `success`. */
  failure?: string;
}

/** Reads a script's stdout as llm-orc does (any text is kept; JSON objects are structured). */
export function parseLlmOrcOutput(stdout: string): LlmOrcScriptOutput {
  const response = stdout.trim();
  let parsed: unknown;
  try {
    parsed = response === '' ? undefined : (JSON.parse(response) as unknown);
  } catch {
    parsed = undefined;
  }
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const output = parsed as Record<string, unknown>;
    const failed = 'success' in output && !output.success;
    return failed
      ? {
          output,
          response,
          failure:
            typeof output.error === 'string' && output.error
              ? output.error
              : 'it printed "success": false with no error message',
        }
      : { output, response };
  }
  return { output: { response }, response };
}

/**
 * The protocol a script agent speaks: the agent's `script_protocol`, else the ensemble's, else
 * `llm-orc` for ensembles in a `.llm-orc/` directory or agents with `parameters`, else `colloquy`.
 */
export function scriptProtocolOf(agent: EnsembleAgent, ensemble: Ensemble): ScriptProtocol {
  const declared = agent.llmorc?.script_protocol ?? ensemble.script_protocol;
  if (declared) return declared;
  if (ensemble.file && isInLlmOrcProject(ensemble.file)) return 'llm-orc';
  return agent.llmorc?.parameters !== undefined ? 'llm-orc' : 'colloquy';
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/** Whether a stdin object is Colloquy's (`{ input, context, conversation_state, ... }`). */
export function isColloquyStdin(stdin: unknown): stdin is {
  input: unknown;
  context: Record<string, unknown>;
  config?: Record<string, unknown>;
} {
  return isRecord(stdin) && 'conversation_state' in stdin && isRecord(stdin.context);
}

/**
 * Converts Colloquy's stdin for a script agent into llm-orc's: the task is the input, `config`
 * (where llm-orc's `parameters` are kept) the parameters, and each dependency output in
 * `context` a successful dependency result. An agent with outputs in `context` is a dependent.
 */
export function llmOrcInputFromColloquy(agent: string, stdin: unknown): LlmOrcScriptInput {
  if (!isColloquyStdin(stdin)) return { stdin: isRecord(stdin) ? stdin : {}, env: {} };
  const input = typeof stdin.input === 'string' ? stdin.input : JSON.stringify(stdin.input ?? '');
  const names = Object.keys(stdin.context);
  return llmOrcScriptInput({
    agent,
    input,
    parameters: isRecord(stdin.config) ? stdin.config : {},
    dependencies: names.length
      ? dependencyResults(names, stdin.context as Record<string, Record<string, unknown>>)
      : undefined,
  });
}

/**
 * The stdin of one fan-out instance of a script agent, as llm-orc builds it:
 * `{ agent_name, input: item, chunk_index, total_chunks, base_input, context }`.
 */
export function llmOrcFanOutScriptInput(options: {
  agent: string;
  item: unknown;
  index: number;
  total: number;
  input: string;
  parameters?: Record<string, unknown>;
}): LlmOrcScriptInput {
  const stdin = {
    agent_name: options.agent,
    input: options.item,
    chunk_index: options.index,
    total_chunks: options.total,
    base_input: options.input,
    context: {},
  };
  return {
    stdin,
    env: {
      INPUT_DATA: typeof options.item === 'string' ? options.item : JSON.stringify(options.item),
      INPUT_TEXT: typeof options.item === 'string' ? options.item : JSON.stringify(options.item),
      AGENT_PARAMETERS: JSON.stringify(options.parameters ?? {}),
    },
  };
}
