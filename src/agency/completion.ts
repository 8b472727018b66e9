/**
 * agency-swarm's pre-v1 entry points, for projects that move here: `getCompletion` (the final
 * output as text) and `getCompletionStream` (the entry point's text deltas). Both are deprecated
 * wrappers of `getResponse` / `getResponseStream` and warn once per process, naming the
 * replacement.
 * @module
 */
import { defaultRuntime, defineRuntimeSlot } from '../runtime.js';
import type { AgencyStreamEvent } from './events.js';
import type { AgencyInput } from './input.js';
import type { GetResponseOptions } from './options.js';
import type { AgencyResponse } from './result.js';

/** Options of the completion wrappers: {@link GetResponseOptions} plus agency-swarm's names. */
export interface CompletionOptions extends GetResponseOptions {
  /** agency-swarm's `recipient_agent`: the entry point to talk to, by name or as the agent. */
  recipientAgent?: string | { name: string };
}

/** What the wrappers need of an agency. */
export interface CompletionHost {
  getResponse(message: AgencyInput, options?: GetResponseOptions): Promise<AgencyResponse>;
  getResponseStream(
    message: AgencyInput,
    options?: GetResponseOptions,
  ): AsyncIterable<AgencyStreamEvent>;
}

/** The deprecated methods a runtime has warned about. */
const WARNED = defineRuntimeSlot('agency.deprecationsWarned', () => new Set<string>());

/** Emits a `DeprecationWarning` for `name` the first time in this process (default runtime). */
function deprecated(name: string, replacement: string): void {
  const warned = defaultRuntime().use(WARNED);
  if (warned.has(name)) return;
  warned.add(name);
  process.emitWarning(
    `agency.${name}() is deprecated (kept for agency-swarm projects): use agency.${replacement}() instead.`,
    {
      type: 'DeprecationWarning',
      code: `COLLOQUY_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`,
    },
  );
}

function responseOptions(options: CompletionOptions): GetResponseOptions {
  const { recipientAgent, ...rest } = options;
  if (recipientAgent === undefined) return rest;
  return {
    ...rest,
    recipient: typeof recipientAgent === 'string' ? recipientAgent : recipientAgent.name,
  };
}

/** The final output as text: a string as it is, a structured output as JSON. */
export function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  return output === undefined ? '' : JSON.stringify(output);
}

/** `agency.getCompletion`: {@link CompletionHost.getResponse}'s final output, as text. */
export async function getCompletion(
  agency: CompletionHost,
  message: AgencyInput,
  options: CompletionOptions = {},
): Promise<string> {
  deprecated('getCompletion', 'getResponse');
  return outputText((await agency.getResponse(message, responseOptions(options))).finalOutput);
}

/**
 * `agency.getCompletionStream`: the text deltas of the entry point's answer (depth 0; nested
 * agents' text goes to their caller, not to you). A failed call throws after its last delta.
 */
export async function* getCompletionStream(
  agency: CompletionHost,
  message: AgencyInput,
  options: CompletionOptions = {},
): AsyncIterable<string> {
  deprecated('getCompletionStream', 'getResponseStream');
  for await (const event of agency.getResponseStream(message, responseOptions(options))) {
    if (event.type !== 'raw_model_stream_event' || event.depth !== 0) continue;
    if (event.data.type === 'output_text_delta' && event.data.delta) yield event.data.delta;
  }
}

/** Forgets which warnings were given (tests). */
export function resetCompletionWarnings(): void {
  defaultRuntime().delete(WARNED);
}
