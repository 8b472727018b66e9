/**
 * A deterministic, offline `@openai/agents-core` Model that plays scripted steps. It powers the
 * demo, the examples and every test, so that nothing needs a network or an API key.
 * @module
 */
import { Usage } from '@openai/agents-core';
import type {
  AgentOutputItem,
  Model,
  ModelRequest,
  ModelResponse,
  StreamEvent,
  StreamEventResponseCompleted,
} from '@openai/agents-core';
import { ColloquyError } from '../errors.js';
import { defaultRuntime, defineRuntimeSlot } from '../runtime.js';

/** Token counts a step reports; defaults to 10 in and 5 out so that usage sums are testable. */
export interface ScriptedUsage {
  inputTokens?: number;
  outputTokens?: number;
}

/** A call of one tool with JSON arguments. */
export interface ScriptedToolCall {
  tool: string;
  args?: Record<string, unknown>;
}

/**
 * One scripted model response:
 * - a string: the final text;
 * - `{ text }`: text with custom usage;
 * - `{ tool, args }`: one tool call;
 * - `{ tools: [...] }`: several tool calls in the same response (run in parallel by the runner);
 * - `{ error }`: the model call fails with that message;
 * - a function of the request: routing by input, returning one of the above.
 */
export type ScriptedStep =
  | string
  | ({ text: string } & { usage?: ScriptedUsage })
  | (ScriptedToolCall & { usage?: ScriptedUsage })
  | ({ tools: ScriptedToolCall[] } & { usage?: ScriptedUsage })
  | ({ error: string } & { usage?: ScriptedUsage })
  | ScriptedResponder;

/** Decides a step from the request; `callIndex` counts this model's calls from 0. */
export type ScriptedResponder = (request: ModelRequest, callIndex: number) => ScriptedStep;

/** Options of {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  /** A label used in tool-call ids and error messages (default `scripted`). */
  name?: string;
  /** After the last step, keep replaying it instead of failing (default false). */
  repeatLast?: boolean;
  /** Characters per streamed text delta (default 8), so that streams arrive in several deltas. */
  deltaSize?: number;
  /**
   * Keep every call in {@link ScriptedModel.calls} (default true). Benchmarks and long-running
   * demos turn it off: a model that remembers every request keeps every request's input (and
   * whatever it refers to) alive, which no real model does.
   */
  recordCalls?: boolean;
}

/** One recorded call of a {@link ScriptedModel}. */
export interface ScriptedCall {
  request: ModelRequest;
  response: ModelResponse;
}

/** Thrown when a script runs out of steps or a step is malformed. */
export class ScriptError extends ColloquyError {
  constructor(message: string) {
    super('MODEL_ERROR', message);
  }
}

/**
 * Counters that keep scripted call and message ids unique across every model of the process
 * (per instance they would collide: two workers' models both making `call_scripted_1` confuse a
 * resumed RunState).
 */
const SCRIPTED_IDS = defineRuntimeSlot('models.scriptedIds', () => ({ call: 0, message: 0 }));

/**
 * A Model that plays a list of steps, one per model call.
 *
 * @example
 * ```ts
 * const model = new ScriptedModel([
 *   { tool: 'send_message', args: { recipient: 'Writer', message: 'Draft a haiku' } },
 *   (request) => `Writer said: ${lastToolOutput(request)}`,
 * ]);
 * ```
 */
export class ScriptedModel implements Model {
  /** Every call made so far, in order (none with `recordCalls: false`). */
  readonly calls: ScriptedCall[] = [];
  readonly #steps: ScriptedStep[];
  readonly #name: string;
  readonly #repeatLast: boolean;
  readonly #deltaSize: number;
  readonly #recordCalls: boolean;
  #position = 0;
  #callCount = 0;

  constructor(steps: ScriptedStep[] | ScriptedResponder, options: ScriptedModelOptions = {}) {
    this.#steps = typeof steps === 'function' ? [steps] : [...steps];
    this.#name = options.name ?? 'scripted';
    this.#repeatLast = options.repeatLast ?? typeof steps === 'function';
    this.#deltaSize = Math.max(1, options.deltaSize ?? 8);
    this.#recordCalls = options.recordCalls ?? true;
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    throwIfAborted(request.signal);
    return this.#respond(request);
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    throwIfAborted(request.signal);
    const response = this.#respond(request);
    yield { type: 'response_started' };
    for (const item of response.output) {
      if (item.type !== 'message' || item.role !== 'assistant') continue;
      for (const part of item.content) {
        if (part.type !== 'output_text') continue;
        for (let i = 0; i < part.text.length; i += this.#deltaSize) {
          await Promise.resolve();
          throwIfAborted(request.signal);
          yield { type: 'output_text_delta', delta: part.text.slice(i, i + this.#deltaSize) };
        }
      }
    }
    yield {
      type: 'response_done',
      response: {
        id: response.responseId ?? 'scripted',
        usage: {
          requests: 1,
          inputTokens: response.usage.inputTokens,
          outputTokens: response.usage.outputTokens,
          totalTokens: response.usage.totalTokens,
        },
        // Our outputs are assistant messages and function calls, which the protocol type admits.
        output: response.output as StreamEventResponseCompleted['response']['output'],
      },
    };
  }

  #respond(request: ModelRequest): ModelResponse {
    const callIndex = this.#callCount++;
    let step = this.#nextStep(callIndex);
    for (let depth = 0; typeof step === 'function'; depth++) {
      if (depth > 10)
        throw new ScriptError(`${this.#label()}: a responder kept returning functions.`);
      step = step(request, callIndex);
    }
    const response = this.#toResponse(step, callIndex);
    if (this.#recordCalls) this.calls.push({ request, response });
    return response;
  }

  #nextStep(callIndex: number): ScriptedStep {
    if (this.#position < this.#steps.length) return this.#steps[this.#position++]!;
    if (this.#repeatLast && this.#steps.length > 0) return this.#steps[this.#steps.length - 1]!;
    throw new ScriptError(
      `${this.#label()} has no step for call #${callIndex + 1} (it has ${this.#steps.length}). ` +
        'Add steps, pass a responder function, or set repeatLast.',
    );
  }

  #toResponse(step: Exclude<ScriptedStep, ScriptedResponder>, callIndex: number): ModelResponse {
    const usage = usageOf(typeof step === 'string' ? undefined : step.usage);
    const responseId = `resp_${this.#name}_${callIndex + 1}`;
    if (typeof step === 'string' || 'text' in step) {
      const text = typeof step === 'string' ? step : step.text;
      return {
        usage,
        responseId,
        output: [
          assistantText(text, `msg_${this.#name}_${++defaultRuntime().use(SCRIPTED_IDS).message}`),
        ],
      };
    }
    if ('error' in step) throw new ScriptError(`${this.#label()}: ${step.error}`);
    const calls = 'tools' in step ? step.tools : [step];
    if (calls.length === 0)
      throw new ScriptError(`${this.#label()}: a step has an empty tools list.`);
    return { usage, responseId, output: calls.map((call) => this.#functionCall(call)) };
  }

  #functionCall(call: ScriptedToolCall): AgentOutputItem {
    const callId = `call_${this.#name}_${++defaultRuntime().use(SCRIPTED_IDS).call}`;
    return {
      type: 'function_call',
      id: callId,
      callId,
      name: call.tool,
      status: 'completed',
      arguments: JSON.stringify(call.args ?? {}),
    };
  }

  #label(): string {
    return `ScriptedModel "${this.#name}"`;
  }
}

function assistantText(text: string, id: string): AgentOutputItem {
  return {
    type: 'message',
    id,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text }],
  };
}

function usageOf(spec: ScriptedUsage | undefined): Usage {
  const inputTokens = spec?.inputTokens ?? 10;
  const outputTokens = spec?.outputTokens ?? 5;
  return new Usage({
    requests: 1,
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
  });
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw signal.reason instanceof Error ? signal.reason : new Error('The model call was aborted.');
  }
}
