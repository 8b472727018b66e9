/**
 * Helpers shared by the agency tests: deferreds and barriers to prove concurrency, a model
 * wrapper that waits before answering, and thread inspection.
 */
import { tool } from '@openai/agents-core';
import type {
  FunctionTool,
  Model,
  ModelRequest,
  ModelResponse,
  StreamEvent,
} from '@openai/agents-core';
import type { Agency } from '../../src/agency/agency.js';
import type { ScriptedModel, ScriptedStep } from '../../src/models/scriptedModel.js';
import type { ThreadItem } from '../../src/stores/item.js';

export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * A barrier for `parties` arrivals: `arrive()` resolves once all have arrived, and rejects after
 * `timeoutMs` otherwise (so code that runs sequentially fails fast instead of hanging).
 */
export function barrier(
  parties: number,
  timeoutMs = 2000,
): { arrive: () => Promise<void>; arrived: () => number } {
  let count = 0;
  const all = deferred();
  return {
    arrived: () => count,
    arrive: () => {
      count += 1;
      if (count >= parties) all.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(`barrier: only ${count} of ${parties} parties arrived (not concurrent)`),
            ),
          timeoutMs,
        );
        void all.promise.then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

/** A global, monotonically increasing clock, for ordering starts and ends across models. */
let tick = 0;
export const now = (): number => ++tick;

/** Wraps a ScriptedModel: waits on `gate(callIndex)` before each call and records start/end ticks. */
export class GatedModel implements Model {
  readonly spans: Array<{ start: number; end: number }> = [];
  #index = 0;

  constructor(
    readonly inner: ScriptedModel,
    readonly gate: (callIndex: number, request: ModelRequest) => Promise<void> = async () => {},
  ) {}

  get calls(): ScriptedModel['calls'] {
    return this.inner.calls;
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const start = now();
    await this.gate(this.#index++, request);
    const response = await this.inner.getResponse(request);
    this.spans.push({ start, end: now() });
    return response;
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const start = now();
    await this.gate(this.#index++, request);
    yield* this.inner.getStreamedResponse(request);
    this.spans.push({ start, end: now() });
  }
}

/** A send_message step. */
export function send(
  recipient: string,
  message: string,
  additionalInstructions: string | null = null,
): ScriptedStep {
  return { tool: 'send_message', args: { recipient, message, additionalInstructions } };
}

/** Several send_message calls in one model response. */
export function sends(...calls: Array<[recipient: string, message: string]>): ScriptedStep {
  return {
    tools: calls.map(([recipient, message]) => ({
      tool: 'send_message',
      args: { recipient, message, additionalInstructions: null },
    })),
  };
}

/** A no-argument function tool whose execute is supplied by the test. */
export function simpleTool(
  name: string,
  execute: (context: unknown) => Promise<string> | string,
): FunctionTool<any, any, any> {
  return tool({
    name,
    description: `test tool ${name}`,
    strict: true,
    parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
    execute: async (_input, runContext) => execute(runContext?.context),
  });
}

/** Every thread of a chat with its stored items. */
export async function chatThreads(
  agency: Agency,
  chatId: string,
): Promise<Map<string, ThreadItem[]>> {
  const out = new Map<string, ThreadItem[]>();
  for (const record of await agency.threads.store.listThreads({ chatId })) {
    out.set(record.threadId, await agency.threads.store.readItems(record.threadId));
  }
  return out;
}

/** callIds of function calls without a matching function_call_result (and results without calls). */
export function unmatchedCalls(items: readonly ThreadItem[]): string[] {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const { item } of items) {
    if (item.type === 'function_call') calls.add(item.callId);
    if (item.type === 'function_call_result') results.add(item.callId);
  }
  return [...calls]
    .filter((id) => !results.has(id))
    .concat([...results].filter((id) => !calls.has(id)));
}

/** A short label of an item: its type or role, and its text if any. */
export function label(item: ThreadItem['item']): string {
  if (item.type === 'function_call') return `call:${item.name}`;
  if (item.type === 'function_call_result') return `result:${item.name}`;
  if ('role' in item) {
    const content = item.content as unknown;
    const text =
      typeof content === 'string'
        ? content
        : Array.isArray(content)
          ? content.map((part: { text?: string }) => part.text ?? '').join('')
          : '';
    return `${item.role}:${text}`;
  }
  return String(item.type);
}

/** Text of a tool output item. */
export function outputText(item: ThreadItem['item']): string {
  if (item.type !== 'function_call_result') return '';
  const output = item.output as unknown;
  if (typeof output === 'string') return output;
  if (output && typeof output === 'object' && 'text' in output)
    return String((output as { text: unknown }).text);
  return JSON.stringify(output);
}
