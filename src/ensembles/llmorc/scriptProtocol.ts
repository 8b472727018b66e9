/**
 * The script protocol: llm-orc's, with Colloquy's fields added, for every script agent (inside
 * an llm-orc project or not). A script reads one JSON object on stdin holding llm-orc's fields
 * (`{ input, parameters, context }` for a first-level script; `{ agent_name, input_data, context,
 * dependencies: { dep: { response, status } } }` for a dependent; `{ input: item, chunk_index,
 * total_chunks, base_input }` for a fan-out instance) and Colloquy's (`input`, `agent`, `config`,
 * `context` with the dependencies' outputs, `conversation_state`, ...). `INPUT_DATA`, `INPUT_TEXT`
 * and `AGENT_PARAMETERS` are in its environment. Whatever it prints is kept (see
 * {@link parseScriptOutput}); nothing printed is ever turned into an empty object.
 * @module
 */
import type { Ensemble, EnsembleAgent } from '../schema.js';
import type { ScriptProtocol } from '../scriptResolve.js';

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

/** A script's stdout, read with the protocol's rules. */
export interface LlmOrcScriptOutput {
  /** The agent's output: the printed object (an envelope's `data`), or `{ response: text }`. */
  output: Record<string, unknown>;
  /** The trimmed stdout, as llm-orc's `response`. */
  response: string;
  /** Set when the script printed an object with a false `success`. */
  failure?: string;
  /** The printed `agent_requests`, when the object has a boolean `success` (ADR-001's reply). */
  agentRequests?: unknown;
}

const ENVELOPE_KEYS = new Set(['success', 'data', 'error', 'agent_requests']);

/**
 * Whether a printed object is Colloquy's envelope, `{ "success": true, "data": { ... } }` with
 * nothing else but `error`/`agent_requests`: its `data` object is then the agent's output.
 */
function isEnvelope(object: Record<string, unknown>): boolean {
  return (
    typeof object.success === 'boolean' &&
    isRecord(object.data) &&
    Object.keys(object).every((key) => ENVELOPE_KEYS.has(key))
  );
}

/**
 * Reads a script's stdout (one rule everywhere): a JSON object is the output, kept whole; an
 * envelope `{ "success": true, "data": {...} }` (only `success`, `data`, `error`,
 * `agent_requests`) has its `data` as the output; `"success": false` (or 0, null) is a failure
 * carrying the script's `error`; anything else (plain text, a JSON array or scalar, nothing) is
 * kept as `{ response: text }`. A JSON array under `data` is kept in the object as printed.
 *
 * @example
 * ```ts
 * parseScriptOutput('{"words": 3}').output; // { words: 3 }
 * parseScriptOutput('{"success": true, "data": {"words": 3}}').output; // { words: 3 }
 * parseScriptOutput('hello').output; // { response: 'hello' }
 * ```
 */
export function parseScriptOutput(stdout: string): LlmOrcScriptOutput {
  const response = stdout.trim();
  let parsed: unknown;
  try {
    parsed = response === '' ? undefined : (JSON.parse(response) as unknown);
  } catch {
    // Plain text output: llm-orc takes it as the response.
    parsed = undefined;
  }
  if (!isRecord(parsed)) return { output: { response }, response };
  const requests =
    typeof parsed.success === 'boolean' && parsed.agent_requests !== undefined
      ? { agentRequests: parsed.agent_requests }
      : {};
  if ('success' in parsed && !parsed.success)
    return {
      output: parsed,
      response,
      failure:
        typeof parsed.error === 'string' && parsed.error
          ? parsed.error
          : `it printed "success": ${JSON.stringify(parsed.success)} with no error message`,
    };
  const output = isEnvelope(parsed) ? (parsed.data as Record<string, unknown>) : parsed;
  return { output, response, ...requests };
}

/** The same as {@link parseScriptOutput} (its earlier name). */
export const parseLlmOrcOutput = parseScriptOutput;

/**
 * @deprecated There is one script protocol (llm-orc's, with Colloquy's fields); this returns
 * `llm-orc` for every agent, and `script_protocol:` in a file has no effect.
 */
export function scriptProtocolOf(_agent: EnsembleAgent, _ensemble: Ensemble): ScriptProtocol {
  return 'llm-orc';
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/** Whether a stdin object is Colloquy's (`{ input, context, conversation_state, ... }`). */
export function isColloquyStdin(stdin: unknown): stdin is {
  input: unknown;
  context: Record<string, unknown>;
  config?: Record<string, unknown>;
  parameters?: unknown;
  fan_out?: { index: number; total: number; item: unknown };
  base_input?: unknown;
} {
  return isRecord(stdin) && 'conversation_state' in stdin && isRecord(stdin.context);
}

/**
 * llm-orc's view of Colloquy's stdin for a script agent: the task is the input, `config` (where
 * llm-orc's `parameters` are kept) plus a request's `parameters` the parameters, and each
 * dependency output in `context` a successful dependency result. An agent with outputs in
 * `context` is a dependent; a fan-out instance (`fan_out`) gets llm-orc's instance fields.
 */
export function llmOrcInputFromColloquy(agent: string, stdin: unknown): LlmOrcScriptInput {
  if (!isColloquyStdin(stdin)) return { stdin: isRecord(stdin) ? stdin : {}, env: {} };
  const input = typeof stdin.input === 'string' ? stdin.input : JSON.stringify(stdin.input ?? '');
  const parameters = {
    ...(isRecord(stdin.config) ? stdin.config : {}),
    ...(isRecord(stdin.parameters) ? stdin.parameters : {}),
  };
  if (stdin.fan_out)
    return llmOrcFanOutScriptInput({
      agent,
      item: stdin.fan_out.item,
      index: stdin.fan_out.index,
      total: stdin.fan_out.total,
      input: typeof stdin.base_input === 'string' ? stdin.base_input : input,
      parameters,
    });
  const names = Object.keys(stdin.context);
  return llmOrcScriptInput({
    agent,
    input,
    parameters,
    dependencies: names.length
      ? dependencyResults(names, stdin.context as Record<string, Record<string, unknown>>)
      : undefined,
  });
}

/**
 * The stdin and environment of a script agent: llm-orc's fields over Colloquy's, except
 * `context`, which keeps the dependencies' outputs (llm-orc always sends it empty). Stdin that
 * is not Colloquy's is passed as given, with no extra environment.
 */
export function scriptInput(
  agent: string,
  stdin: unknown,
): { stdin: unknown; env: Record<string, string> } {
  if (!isColloquyStdin(stdin)) return { stdin, env: {} };
  const llmOrc = llmOrcInputFromColloquy(agent, stdin);
  const { base_input: _base, ...colloquy } = stdin as Record<string, unknown>;
  // Every script gets `parameters` (llm-orc sends them to first-level scripts only).
  const parameters = JSON.parse(llmOrc.env.AGENT_PARAMETERS ?? '{}') as unknown;
  return {
    stdin: { ...colloquy, parameters, ...llmOrc.stdin, agent, context: stdin.context },
    env: llmOrc.env,
  };
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
